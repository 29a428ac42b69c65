doit
Object subclass: 'FxNoComment'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxNoComment category: 'Fx-Group'
%
