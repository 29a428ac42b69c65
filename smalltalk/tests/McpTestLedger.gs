set compile_env: 0
! ------------------- Class definition for McpTestLedger
expectvalue /Class
doit
McpReadLedger subclass: 'McpTestLedger'
  instVarNames: #( stamps)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTestLedger comment: 
'A blind-write ledger for the worker-core suites: its stamps come from a Dictionary the test
sets (stampOf:is:) instead of from the image, so a suite can move the view of the ledger without
moving the view of the session. A key the test never stamped is absent. It is never the ledger
of a served worker.'
%
expectvalue /Class
doit
McpTestLedger category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpTestLedger
removeallmethods McpTestLedger
removeallclassmethods McpTestLedger
! ------------------- Instance methods for McpTestLedger
category: 'testing'
method: McpTestLedger
stampFor: aKey
  stamps isNil ifTrue: [^self absentStamp].
  ^stamps at: aKey ifAbsent: [self absentStamp]
%
category: 'testing'
method: McpTestLedger
stampOf: aKey is: aString
  stamps isNil ifTrue: [stamps := Dictionary new].
  stamps at: aKey put: aString
%
