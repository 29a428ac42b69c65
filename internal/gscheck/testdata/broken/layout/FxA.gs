doit
Object subclass: 'FxA'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()
%
doit
FxA comment: 'A layout fixture class.'
%
doit
FxA category: 'Fx-Broken'
%
