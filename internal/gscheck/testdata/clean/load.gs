! Files in the checker's clean fixture, the way a group loader does it.
set compile_env: 0
run
| up |
up := System myUserProfile.
(up objectNamed: #Fx) isNil ifTrue: [
  up insertDictionary: (SymbolDictionary new name: #Fx; yourself) at: up symbolList size + 1].
true
%
run
| fx |
fx := System myUserProfile objectNamed: #Fx.
#( #FxTool #FxToolset ) do: [:each | (fx includesKey: each) ifFalse: [fx at: each put: nil]].
true
%
input internal/gscheck/testdata/clean/FxTool.gs
input internal/gscheck/testdata/clean/FxToolset.gs
errorCount
commit
