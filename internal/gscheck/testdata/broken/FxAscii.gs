set compile_env: 0
! ------------------- Class definition for FxAscii
expectvalue /Class
doit
Object subclass: 'FxAscii'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxAscii comment: 
'A broken fixture: non-ASCII source.'
%
expectvalue /Class
doit
FxAscii category: 'Fx-Broken'
%
removeallmethods FxAscii
removeallclassmethods FxAscii
category: 'broken'
method: FxAscii
greeting
  ^'café'
%
