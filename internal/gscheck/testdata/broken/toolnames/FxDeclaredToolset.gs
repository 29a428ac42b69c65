set compile_env: 0
! ------------------- Class definition for FxDeclaredToolset
expectvalue /Class
doit
Object subclass: 'FxDeclaredToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxDeclaredToolset comment: 
'A toolset that declares one tool per method: alpha is declared and registered, beta is declared
in a method registerOn: never sends, and gamma is registered with a handler this class does not
implement.'
%
expectvalue /Class
doit
FxDeclaredToolset category: 'Fx-Broken'
%
removeallmethods FxDeclaredToolset
removeallclassmethods FxDeclaredToolset
category: 'registration'
method: FxDeclaredToolset
registerOn: aRegistry
  self declareAlphaOn: aRegistry.
  self declareGammaOn: aRegistry
%
category: 'declarations'
method: FxDeclaredToolset
declareAlphaOn: aRegistry
  aRegistry add: (FxTool name: 'alpha' description: 'A.' schema: #() handler: [:args | self alpha: args])
%
category: 'declarations'
method: FxDeclaredToolset
declareBetaOn: aRegistry
  aRegistry add: (FxTool name: 'beta' description: 'B.' schema: #() handler: [:args | self alpha: args])
%
category: 'declarations'
method: FxDeclaredToolset
declareGammaOn: aRegistry
  aRegistry add: (FxTool name: 'gamma' description: 'G.' schema: #() handler: [:args | self setName: args])
%
category: 'tools'
method: FxDeclaredToolset
alpha: args
  ^'a'
%
