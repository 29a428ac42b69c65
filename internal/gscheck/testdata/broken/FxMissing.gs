set compile_env: 0
! ------------------- Class definition for FxMissing
expectvalue /Class
doit
Object subclass: 'FxMissing'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxMissing comment: 
'A broken fixture: a body never closed.'
%
expectvalue /Class
doit
FxMissing category: 'Fx-Broken'
%
removeallmethods FxMissing
removeallclassmethods FxMissing
category: 'accessing'
method: FxMissing
a
  ^a
