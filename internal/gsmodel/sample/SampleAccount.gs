set compile_env: 0
! ------------------- Class definition for SampleAccount
expectvalue /Class
doit
Object subclass: 'SampleAccount'
  instVarNames: #( owner balance)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Sample
  options: #()

%
expectvalue /Class
doit
SampleAccount comment: 
'A bank account of the demo image: an owner and a balance in whole cents.'
%
expectvalue /Class
doit
SampleAccount category: 'Sample-Banking'
%
! ------------------- Remove existing behavior from SampleAccount
removeallmethods SampleAccount
removeallclassmethods SampleAccount
! ------------------- Class methods for SampleAccount
category: 'instance creation'
classmethod: SampleAccount
owner: aString
  ^self new setOwner: aString
%
! ------------------- Instance methods for SampleAccount
category: 'accessing'
method: SampleAccount
balance
  ^balance
%
category: 'accessing'
method: SampleAccount
owner
  ^owner
%
category: 'operations'
method: SampleAccount
deposit: cents
  cents > 0 ifFalse: [^self error: 'a deposit must be positive'].
  balance := balance + cents
%
category: 'operations'
method: SampleAccount
withdraw: cents
  cents > balance ifTrue: [^self error: 'insufficient funds'].
  balance := balance - cents
%
category: 'private'
method: SampleAccount
setOwner: aString
  owner := aString.
  balance := 0
%
