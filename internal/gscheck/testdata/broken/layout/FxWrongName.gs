doit
Object subclass: 'FxB'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
Object subclass: 'FxC'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxB comment: 'A layout fixture class.'
%
doit
FxB category: 'Fx-Broken'
%
doit
FxC comment: 'A layout fixture class.'
%
doit
FxC category: 'Fx-Broken'
%
