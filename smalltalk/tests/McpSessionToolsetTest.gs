set compile_env: 0
! ------------------- Class definition for McpSessionToolsetTest
expectvalue /Class
doit
McpTestCase subclass: 'McpSessionToolsetTest'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpSessionToolsetTest comment: 
'The transaction tools, execute_code and what the server tells its blind-write ledger when the
view moves (McpReadLedgerTest tests the ledger itself). The ledger tests move the view of the
ledger through McpTestServer (stamps set by the test) and never the view of this session.
status and execute_code run for real. commit and abort are not called here: they would commit
or discard the state of the session running the suite, so the real-stone
integration test covers them (a compile and commit round trip, and a conflicting commit from a
second session). The one test that moves the view, the view-hygiene refresh, uses System
continueTransaction, which keeps uncommitted work.'
%
expectvalue /Class
doit
McpSessionToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpSessionToolsetTest
removeallmethods McpSessionToolsetTest
removeallclassmethods McpSessionToolsetTest
! ------------------- Instance methods for McpSessionToolsetTest
category: 'running'
method: McpSessionToolsetTest
setUp
  server := McpTestServer withToolsetNames: #('McpSessionToolset' 'McpExecutionToolset')
%
category: 'helpers'
method: McpSessionToolsetTest
toolset: aClass
  ^aClass server: server options: nil
%
category: 'tests - execution'
method: McpSessionToolsetTest
testExecuteCodeAnswersThePrintStringOfTheValue
  self assert: ((self toolset: McpExecutionToolset) executeCode: (Dictionary new at: 'code' put: '3 + 4'; yourself)) = '7'.
  self assert: ((self toolset: McpExecutionToolset) executeCode: (Dictionary new at: 'code' put: '''abc'' size'; yourself)) = '3'
%
category: 'tests - execution'
method: McpSessionToolsetTest
testExecuteCodeIsCapped
  | answer |
  server resultCap: 20.
  answer := (self toolset: McpExecutionToolset) executeCode: (Dictionary new at: 'code' put: '(1 to: 100) asArray'; yourself).
  self assert: (answer copyFrom: 1 to: 20) = ((1 to: 100) asArray printString copyFrom: 1 to: 20).
  self assert: (self includes: '...[truncated: showing 20 of ' in: answer)
%
category: 'tests - execution'
method: McpSessionToolsetTest
testExecuteCodeSyntaxErrorIsACompileErrorWithItsLineAndColumn
  | caught |
  caught := [(self toolset: McpExecutionToolset) executeCode: (Dictionary new at: 'code' put: '| a |
a := 1 +'; yourself). nil]
    on: Error do: [:ex | ex return: ex].
  self assert: (caught isKindOf: McpError).
  self assert: caught kind = 'compileError'.
  self assert: (caught extraFields at: 'line') = 2.
  self assert: (caught extraFields at: 'column') >= 8.
  self assert: (caught safeText beginsWith: 'compile error at line 2')
%
category: 'tests'
method: McpSessionToolsetTest
testExecuteCodeThatRaisesSaysWhereWithTheTemporaries
  | caught frames |
  caught := [(self toolset: McpExecutionToolset) executeCode: (Dictionary new at: 'code' put: '| total |
total := 5.
total foo: 6'; yourself). nil]
    on: McpError do: [:ex | ex return: ex].
  self assert: (caught isKindOf: McpError).
  self assert: (caught extraFields at: 'exception') = 'MessageNotUnderstood'.
  frames := caught extraFields at: 'frames'.
  self assert: frames size = 1.
  self assert: (frames first at: 'method') = 'executed code'.
  self assert: (frames first at: 'line') = 3.
  self assert: (frames first at: 'source') = 'total foo: 6'.
  self assert: ((frames first at: 'temps') at: 'total') = '5'.
  self assert: (caught safeText includesString: 'executed code (line 3): total foo: 6')
%
category: 'tests'
method: McpSessionToolsetTest
testExecuteCodeThatHandlesItsOwnErrorIsNotStopped
  self assert: ((self toolset: McpExecutionToolset)
      executeCode: (Dictionary new at: 'code' put: '[1/0] on: ZeroDivide do: [:e | e return: 7]'; yourself))
    = '7'
%
category: 'tests - conflicts'
method: McpSessionToolsetTest
testAMethodDictionaryConflictNamesTheClassAndTheSelectorsChangedThere
  "A method compiled in two sessions conflicts on the side's method dictionary and selector set
   (McpSessionToolset>>withSelectorSetsFolded:): one entry names the class, the side and the
   selectors this session changed there; an object nobody can name is shown as what it is."
  | sessions conflicts entries first |
  sessions := self toolset: McpSessionToolset.
  server ledger
    noteChange: (sessions change: 'methodChanged' ofMethod: #setUp in: McpSessionToolsetTest)
    key: 'McpSessionToolsetTest>>setUp'.
  conflicts := SymbolDictionary new.
  conflicts at: #commitResult put: #retryFailure.
  conflicts at: #'Write-Write' put: (Array
    with: (McpSessionToolsetTest persistentMethodDictForEnv: 0)
    with: (IdentitySet new add: #setUp; yourself)
    with: Object new).
  entries := sessions conflictEntriesFrom: conflicts.
  self assert: entries size = 2.
  first := entries detect: [:each | (each at: 'object') = 'method dictionary'].
  self assert: (first at: 'className') = 'McpSessionToolsetTest'.
  self assert: (first at: 'side') = 'instance'.
  self assert: (first at: 'conflict') = 'Write-Write'.
  self assert: (first at: 'selectors') asArray = #('setUp').
  self assert: ((sessions lineForConflict: first) beginsWith: 'Write-Write on the method dictionary of McpSessionToolsetTest; your changes there: ').
  self assert: (entries detect: [:each | (each at: 'object') = 'an instance of Object'] ifNone: [nil]) notNil
%
category: 'tests - ledgers'
method: McpSessionToolsetTest
testAnAbortOrCommitClearsWritesAndKeepsUnchangedReads
  server stampOf: 'Foo>>bar' is: 'v1'; stampOf: 'Foo>>baz' is: 'v1'.
  server ledger noteRead: 'Foo>>bar'.
  server ledger noteWrite: 'Foo>>baz'.
  server viewNotes viewMovedWithNothingPending.
  self assert: server ledger writtenKeys isEmpty.
  self assert: (server ledger isReadLicensed: 'Foo>>bar').
  self assert: server ledger staleReadNote isNil
%
category: 'tests - ledgers'
method: McpSessionToolsetTest
testAConflictingRefreshClearsWrites
  server stampOf: 'Foo>>bar' is: 'v1'.
  server ledger noteWrite: 'Foo>>bar'.
  server viewNotes viewMovedByRefresh: false.
  self assert: server ledger writtenKeys isEmpty
%
category: 'tests - ledgers'
method: McpSessionToolsetTest
testAFailedCommitLeavesTheViewUnmovable
  self assert: server viewNotes isViewMovable | server class kernelReportsFailedCommit.
  server viewNotes noteCommitFailed.
  self deny: server viewNotes isViewMovable.
  server viewNotes viewMovedWithNothingPending.
  self assert: server viewNotes isViewMovable | server class kernelReportsFailedCommit
%
category: 'tests - ledgers'
method: McpSessionToolsetTest
testAReadThatChangedUnderAViewMoveIsDroppedAndReportedOnce
  | note |
  server stampOf: 'Foo>>bar' is: 'v1'; stampOf: 'Foo' is: 'shape1'; stampOf: '#UserGlobals' is: 'k1'.
  server ledger noteRead: 'Foo>>bar'; noteRead: 'Foo'; noteRead: '#UserGlobals'.
  server stampOf: 'Foo>>bar' is: 'v2'.
  server viewNotes viewMovedWithNothingPending.
  self deny: (server ledger isReadLicensed: 'Foo>>bar').
  self assert: (server ledger isReadLicensed: 'Foo').
  note := server ledger staleReadNote.
  self assert: (self includes: '1 of 3 earlier reads are stale' in: note).
  self assert: (self includes: 'Foo>>bar' in: note).
  self assert: server ledger staleReadNote isNil.
  self assert: (self kindRaisedBy: [server ledger requireRead: 'Foo>>bar']) = 'refused'
%
category: 'tests - ledgers'
method: McpSessionToolsetTest
testARefreshThatKeptChangesKeepsWrites
  server stampOf: 'Foo>>bar' is: 'v1'.
  server ledger noteWrite: 'Foo>>bar'.
  server viewNotes viewMovedByRefresh: true.
  self assert: (server ledger writtenKeys includes: 'Foo>>bar').
  self assert: (server ledger isReadLicensed: 'Foo>>bar')
%
category: 'tests - ledgers'
method: McpSessionToolsetTest
testTheStaleNoteReachesTheNextResultOnce
  | first second |
  server stampOf: 'Foo>>bar' is: 'v1'.
  server ledger noteRead: 'Foo>>bar'.
  server stampOf: 'Foo>>bar' is: 'v2'.
  server viewNotes viewMovedWithNothingPending.
  first := server handle: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute_code","arguments":{"code":"1"}}}'.
  second := server handle: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"execute_code","arguments":{"code":"1"}}}'.
  self assert: (self includes: 'Foo>>bar' in: first).
  self deny: (self includes: 'Foo>>bar' in: second)
%
category: 'tests - session tools'
method: McpSessionToolsetTest
testOnlyTheTransactionAndSessionToolsAreRegistered
  self assert: McpSessionToolset toolNames asArray = #('abort' 'close_session' 'commit' 'open_session' 'pending_changes' 'refresh' 'status').
  self assert: (server registry toolNames includes: 'commit').
  self assert: (server registry toolNames includes: 'execute_code').
  self assert: server registry size = 18
%
category: 'tests - session tools'
method: McpSessionToolsetTest
testStatusNamesTheSessionAndItsChanges
  | answer |
  answer := (self toolset: McpSessionToolset) status: Dictionary new.
  self assert: (self includes: 'session: ' , System session printString in: answer).
  self assert: (self includes: 'uncommitted changes: ' , System needsCommit printString in: answer).
  self assert: (self includes: 'user: ' , System myUserProfile userId asString in: answer).
  self assert: (self includes: 'tools: 18' in: answer)
%
category: 'tests - view hygiene'
method: McpSessionToolsetTest
testTheViewHygieneRefreshIsToldOnce
  | answer |
  answer := server refreshViewForHygiene.
  (answer at: 'refreshed') ifFalse: [^self assert: ((answer at: 'reason') isKindOf: CharacterCollection)].
  self assert: ((answer at: 'conflicts') == true or: [(answer at: 'conflicts') == false]).
  self assert: (self includes: '[session] Between calls' in: server viewNotes viewMoved).
  self assert: server viewNotes viewMoved isNil
%
category: 'tests - session tools'
method: McpSessionToolsetTest
testPendingChangesListsWhatTheLedgerHoldsAsTextAndFields
  | toolset answer page |
  server ledger noteChange: (Dictionary new at: 'change' put: 'methodAdded'; at: 'className' put: 'Foo'; at: 'selector' put: 'bar'; at: 'side' put: 'instance'; at: 'category' put: 'x'; yourself) key: 'Foo>>bar'.
  server ledger noteChange: (Dictionary new at: 'change' put: 'commentSet'; at: 'className' put: 'Foo'; yourself) key: 'Foo'.
  toolset := self toolset: McpSessionToolset.
  answer := toolset pendingChanges: (Dictionary new at: 'limit' put: 1; yourself).
  self assert: (self includes: '(showing 1-1 of 2; pass offset: 1 for the next page)' in: answer).
  self assert: (self includes: 'method added: Foo>>bar (category x)' in: answer).
  page := toolset takeStructured.
  self assert: (page at: 'total') = 2.
  self assert: (page at: 'nextOffset') = 1.
  self assert: (((page at: 'items') first) at: 'selector') = 'bar'
%
category: 'tests - session tools'
method: McpSessionToolsetTest
testTheUncommittedNoteNamesTheDeadlinesOfThePrepareConfig
  | note |
  note := (McpServer fromConfig: (Dictionary new
      at: 'contract' put: McpPrepareConfig contractVersion;
      at: 'workerClass' put: 'McpServer';
      at: 'protocolVersions' put: #('2025-11-25');
      at: 'toolsets' put: #('McpSessionToolset');
      at: 'lifetime' put: (Dictionary new at: 'idleSeconds' put: 1800; at: 'streamlessIdleSeconds' put: 60; yourself);
      yourself)) viewNotes uncommittedNote.
  self assert: (self includes: 'after 30 minutes without a request' in: note).
  self assert: (self includes: 'after 60 seconds without one while the client keeps no stream open' in: note)
%
