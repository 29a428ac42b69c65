set compile_env: 0
! ------------------- Class definition for FxLostPercent
expectvalue /Class
doit
Object subclass: 'FxLostPercent'
  instVarNames: #( a b)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxLostPercent comment: 
'A broken fixture: a method lost its % line.'
%
expectvalue /Class
doit
FxLostPercent category: 'Fx-Broken'
%
removeallmethods FxLostPercent
removeallclassmethods FxLostPercent
category: 'accessing'
method: FxLostPercent
a
  ^a

category: 'accessing'
method: FxLostPercent
b
  ^b
%
category: 'running'
method: FxLostPercent
run
  "A method named like a topaz command is fine: its pattern line is not a command."
  ^a
%
