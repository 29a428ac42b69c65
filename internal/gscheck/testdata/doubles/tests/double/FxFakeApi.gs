set compile_env: 0
doit
Object subclass: 'FxFakeApi'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxFakeApi comment: 'fixture'
%
doit
FxFakeApi category: 'Fx-Double'
%
removeallmethods FxFakeApi
removeallclassmethods FxFakeApi
category: 'api'
classmethod: FxFakeApi
frobnicate
  ^self helperOnlyTheDoubleHas
%
category: 'api'
classmethod: FxFakeApi
helperOnlyTheDoubleHas
  ^1
%
