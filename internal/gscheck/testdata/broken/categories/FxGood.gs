doit
Object subclass: 'FxGood'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxGood comment: 'A categories fixture class.'
%
doit
FxGood category: 'Fx-Group'
%
