set compile_env: 0
! ------------------- Class definition for FxGlobals
expectvalue /Class
doit
Object subclass: 'FxGlobals'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxGlobals comment: 
'A broken fixture: a reference to a global nobody defines.'
%
expectvalue /Class
doit
FxGlobals category: 'Fx-Broken'
%
removeallmethods FxGlobals
removeallclassmethods FxGlobals
category: 'broken'
method: FxGlobals
undefinedGlobal
  ^NoSuchClass new
%
category: 'broken'
method: FxGlobals
undeclaredVariable
  ^a + b
%
category: 'fine'
method: FxGlobals
definedGlobals
  ^Array with: Object with: FxGlobals with: UserGlobals
%
