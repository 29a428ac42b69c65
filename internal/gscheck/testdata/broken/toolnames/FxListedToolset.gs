set compile_env: 0
! ------------------- Class definition for FxListedToolset
expectvalue /Class
doit
Object subclass: 'FxListedToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxListedToolset comment: 
'A toolset that declares delta twice and lists its tool names a second time in toolNames.'
%
expectvalue /Class
doit
FxListedToolset category: 'Fx-Broken'
%
removeallmethods FxListedToolset
removeallclassmethods FxListedToolset
category: 'tools'
classmethod: FxListedToolset
toolNames
  ^#('delta')
%
category: 'registration'
method: FxListedToolset
registerOn: aRegistry
  aRegistry add: (FxTool name: 'delta' description: 'D.' schema: #() handler: [:args | 'd']).
  aRegistry add: (FxTool name: 'delta' description: 'D again.' schema: #() handler: [:args | 'd'])
%
