doit
Object subclass: 'FxNoCategory'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxNoCategory comment: 'A categories fixture class.'
%
