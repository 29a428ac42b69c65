doit
Object subclass: 'FxOtherCategory'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxOtherCategory comment: 'A categories fixture class.'
%
doit
FxOtherCategory category: 'Fx-Elsewhere'
%
