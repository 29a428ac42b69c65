set compile_env: 0
doit
Object subclass: 'FxUser'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxUser comment: 'fixture'
%
doit
FxUser category: 'Fx-App'
%
removeallmethods FxUser
removeallclassmethods FxUser
category: 'using'
method: FxUser
use
  ^RealApi frobnicate
%
