set compile_env: 0
! ------------------- Class definition for FxDriftToolset
expectvalue /Class
doit
Object subclass: 'FxDriftToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxDriftToolset comment: 
'A toolset whose declarations and handlers have drifted apart both ways: beta is declared with
a handler this class does not implement, and gamma: handles no declared tool.'
%
expectvalue /Class
doit
FxDriftToolset category: 'Fx-Broken'
%
removeallmethods FxDriftToolset
removeallclassmethods FxDriftToolset
category: 'registration'
method: FxDriftToolset
registerOn: aRegistry
  aRegistry add: (FxTool name: 'alpha' description: 'A.' schema: #() handler: [:args | self alpha: args]).
  aRegistry add: (FxTool name: 'beta' description: 'B.' schema: #() handler: [:args | self setName: args])
%
category: 'tools'
method: FxDriftToolset
alpha: args
  ^'a'
%
category: 'tools'
method: FxDriftToolset
gamma: args
  ^'g'
%
