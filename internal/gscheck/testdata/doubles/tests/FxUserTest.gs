set compile_env: 0
doit
Object subclass: 'FxUserTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxUserTest comment: 'fixture'
%
doit
FxUserTest category: 'Fx-Tests'
%
removeallmethods FxUserTest
removeallclassmethods FxUserTest
category: 'tests'
method: FxUserTest
testUse
  ^RealApi frobnicate + FxFakeApi helperOnlyTheDoubleHas
%
