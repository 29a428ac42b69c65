! The sample application of the model's demo image: a bank account, its tests (one of which
! fails on purpose, so run_test_class has a failure to show) and a savings account. Filed in by
! `gsmodel -stone` after smalltalk/core/load.gs, into the symbol dictionary Sample.
set compile_env: 0
run
| up |
up := System myUserProfile.
(up objectNamed: #Sample) isNil ifTrue: [
  up insertDictionary: (SymbolDictionary new name: #Sample; yourself) at: up symbolList size + 1].
true
%
run
| sample |
sample := System myUserProfile objectNamed: #Sample.
#( #SampleAccount #SampleSavingsAccount #SampleAccountTest )
  do: [:each | (sample includesKey: each) ifFalse: [sample at: each put: nil]].
true
%
input internal/gsmodel/sample/SampleAccount.gs
input internal/gsmodel/sample/SampleSavingsAccount.gs
input internal/gsmodel/sample/SampleAccountTest.gs
