set compile_env: 0
! ------------------- Class definition for FxTopaz
expectvalue /Class
doit
Object subclass: 'FxTopaz'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxTopaz comment: 
'A broken fixture: unknown topaz commands.'
%
expectvalue /Class
doit
FxTopaz category: 'Fx-Broken'
%
removeallmethods FxTopaz
removeallclassmethods FxTopaz
frobnicate now
  FxTopaz new a
category: 'accessing'
method: FxTopaz
a
  ^a
%
category: 'x'
#( #a #b ) do: [:x | x]
