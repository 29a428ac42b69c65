set compile_env: 0
! ------------------- Class definition for McpTestServer
expectvalue /Class
doit
McpServer subclass: 'McpTestServer'
  instVarNames: #( uncommitted aborts cap)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTestServer comment: 
'A worker for the worker-core suites: its blind-write ledger is an McpTestLedger, whose stamps
come from a Dictionary the test sets instead of from the image, it reports uncommitted changes
only when told to, and its result cap can be set. That lets a suite move the view of the ledger without moving the
view of the session. It is never a served worker.'
%
expectvalue /Class
doit
McpTestServer category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpTestServer
removeallmethods McpTestServer
removeallclassmethods McpTestServer
! ------------------- Instance methods for McpTestServer
category: 'initialization'
method: McpTestServer
initialize
  super initialize.
  ledger := McpTestLedger new
%
category: 'testing'
method: McpTestServer
abortForStatelessRequest
  "Counted, never done: the suites run inside the session's uncommitted work."
  aborts := self aborts + 1
%
category: 'testing'
method: McpTestServer
aborts
  "How many stateless requests asked for the contract's abort."
  aborts isNil ifTrue: [^0].
  ^aborts
%
category: 'testing'
method: McpTestServer
hasUncommittedChanges
  ^uncommitted == true
%
category: 'testing'
method: McpTestServer
resultCap: anInteger
  "From now on, the result cap instead of the config's."
  cap := anInteger
%
category: 'testing'
method: McpTestServer
resultCap
  "The cap a test set, else the config's."
  cap isNil ifTrue: [^super resultCap].
  ^cap
%
category: 'testing'
method: McpTestServer
stampOf: aKey is: aString
  ledger stampOf: aKey is: aString
%
category: 'testing'
method: McpTestServer
uncommitted: aBoolean
  uncommitted := aBoolean
%
