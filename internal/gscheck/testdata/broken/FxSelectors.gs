set compile_env: 0
! ------------------- Class definition for FxSelectors
expectvalue /Class
doit
Object subclass: 'FxSelectors'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxSelectors comment: 
'A broken fixture: a typo in a send.'
%
expectvalue /Class
doit
FxSelectors category: 'Fx-Broken'
%
removeallmethods FxSelectors
removeallclassmethods FxSelectors
category: 'broken'
method: FxSelectors
typo
  | s |
  s := WriteStream on: String new.
  s nextPutAl: 'x'.
  ^s contents
%
category: 'fine'
method: FxSelectors
ownSelector
  ^self typo
%
