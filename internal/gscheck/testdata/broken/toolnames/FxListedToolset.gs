set compile_env: 0
! ------------------- Class definition for FxUnlistedToolset
expectvalue /Class
doit
Object subclass: 'FxUnlistedToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxUnlistedToolset comment: 
'A toolset that registers a tool but has no toolNames at all.'
%
expectvalue /Class
doit
FxUnlistedToolset category: 'Fx-Broken'
%
removeallmethods FxUnlistedToolset
removeallclassmethods FxUnlistedToolset
category: 'registration'
method: FxUnlistedToolset
registerOn: aRegistry
  aRegistry add: (FxTool name: 'delta' description: 'D.' schema: #() handler: [:args | 'd'])
%
