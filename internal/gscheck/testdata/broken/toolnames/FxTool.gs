set compile_env: 0
! ------------------- Class definition for FxTool
expectvalue /Class
doit
Object subclass: 'FxTool'
  instVarNames: #( name)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxTool comment: 
'A tool for the tool-declaration fixture.'
%
expectvalue /Class
doit
FxTool category: 'Fx-Broken'
%
removeallmethods FxTool
removeallclassmethods FxTool
category: 'instance creation'
classmethod: FxTool
name: aName description: aDescription schema: aSchema handler: aBlock
  ^self new setName: aName
%
category: 'private'
method: FxTool
setName: aName
  name := aName
%
