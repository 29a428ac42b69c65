doit
Object subclass: 'FxOrphan'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxOrphan comment: 'A layout fixture class.'
%
doit
FxOrphan category: 'Fx-Broken'
%
