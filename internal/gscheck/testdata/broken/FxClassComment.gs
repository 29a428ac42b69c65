set compile_env: 0
! ------------------- Class definition for FxClassComment
expectvalue /Class
doit
Object subclass: 'FxClassComment'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxClassComment comment: 
'A broken fixture: it's the lone quote
in this class comment that ends the string early.'
%
expectvalue /Class
doit
FxClassComment category: 'Fx-Broken'
%
removeallmethods FxClassComment
removeallclassmethods FxClassComment
category: 'accessing'
method: FxClassComment
a
  ^a
%
