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
'A toolset whose toolNames has drifted from registerOn: both ways.'
%
expectvalue /Class
doit
FxDriftToolset category: 'Fx-Broken'
%
removeallmethods FxDriftToolset
removeallclassmethods FxDriftToolset
category: 'tools'
classmethod: FxDriftToolset
toolNames
  ^#('alpha'
     'gamma')
%
category: 'registration'
method: FxDriftToolset
registerOn: aRegistry
  aRegistry add: (FxTool name: 'alpha' description: 'A.' schema: #() handler: [:args | 'a']).
  aRegistry add: (FxTool name: 'beta' description: 'B.' schema: #() handler: [:args | 'b'])
%
