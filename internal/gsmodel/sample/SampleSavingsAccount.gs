set compile_env: 0
! ------------------- Class definition for SampleSavingsAccount
expectvalue /Class
doit
SampleAccount subclass: 'SampleSavingsAccount'
  instVarNames: #( ratePercent)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Sample
  options: #()

%
expectvalue /Class
doit
SampleSavingsAccount comment: 
'A savings account: pays interest at a whole-percent rate.'
%
expectvalue /Class
doit
SampleSavingsAccount category: 'Sample-Banking'
%
! ------------------- Remove existing behavior from SampleSavingsAccount
removeallmethods SampleSavingsAccount
removeallclassmethods SampleSavingsAccount
! ------------------- Instance methods for SampleSavingsAccount
category: 'operations'
method: SampleSavingsAccount
addInterest
  self deposit: self balance * self ratePercent // 100
%
category: 'accessing'
method: SampleSavingsAccount
ratePercent
  ^ratePercent ifNil: [2]
%
category: 'accessing'
method: SampleSavingsAccount
ratePercent: anInteger
  ratePercent := anInteger
%
