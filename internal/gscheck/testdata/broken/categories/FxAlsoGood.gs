doit
Object subclass: 'FxAlsoGood'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxAlsoGood comment: 'A categories fixture class.'
%
doit
FxAlsoGood category: 'Fx-Group'
%
