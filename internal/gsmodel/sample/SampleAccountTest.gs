set compile_env: 0
! ------------------- Class definition for SampleAccountTest
expectvalue /Class
doit
TestCase subclass: 'SampleAccountTest'
  instVarNames: #( account)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Sample
  options: #()

%
expectvalue /Class
doit
SampleAccountTest comment: 
'Tests of SampleAccount. testInterestIsRoundedUp fails on purpose: the demo image needs a failing
test for run_test_class and run_test_method to show.'
%
expectvalue /Class
doit
SampleAccountTest category: 'Sample-Banking'
%
! ------------------- Remove existing behavior from SampleAccountTest
removeallmethods SampleAccountTest
removeallclassmethods SampleAccountTest
! ------------------- Instance methods for SampleAccountTest
category: 'running'
method: SampleAccountTest
setUp
  account := SampleAccount owner: 'ada'
%
category: 'tests'
method: SampleAccountTest
testDepositAddsToTheBalance
  account deposit: 250.
  self assert: account balance = 250
%
category: 'tests'
method: SampleAccountTest
testInterestIsRoundedUp
  | savings |
  savings := SampleSavingsAccount owner: 'bob'.
  savings deposit: 155; addInterest.
  self assert: savings balance = 159
%
category: 'tests'
method: SampleAccountTest
testOverdrawingIsRefused
  account deposit: 100.
  self should: [account withdraw: 101] raise: Error.
  self assert: account balance = 100
%
category: 'tests'
method: SampleAccountTest
testWithdrawTakesFromTheBalance
  account deposit: 100; withdraw: 30.
  self assert: account balance = 70
%
