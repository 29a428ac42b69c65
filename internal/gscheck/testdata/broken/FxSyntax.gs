set compile_env: 0
! ------------------- Class definition for FxSyntax
expectvalue /Class
doit
Object subclass: 'FxSyntax'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxSyntax comment: 
'A broken fixture: a method whose body does not parse.'
%
expectvalue /Class
doit
FxSyntax category: 'Fx-Broken'
%
removeallmethods FxSyntax
removeallclassmethods FxSyntax
category: 'broken'
method: FxSyntax
good
  ^a
%
category: 'broken'
method: FxSyntax
missingPeriod
  | x y |
  x := 3
  y := 4.
  ^x + y
%
category: 'broken'
method: FxSyntax
unclosedParen
  ^(a + 1
%
