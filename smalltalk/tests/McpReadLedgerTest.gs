set compile_env: 0
! ------------------- Class definition for McpReadLedgerTest
expectvalue /Class
doit
McpTestCase subclass: 'McpReadLedgerTest'
  instVarNames: #( ledger)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpReadLedgerTest comment: 
'The blind-write ledger on its own, with no server and no toolset: which keys license a write,
what a view move keeps, drops and reports, the keys, and the stamps the image gives. The view
moves are told to an McpTestLedger, whose stamps the test sets, so nothing moves the view of
this session; the stamp tests read the real image through an McpReadLedger and change nothing.'
%
expectvalue /Class
doit
McpReadLedgerTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpReadLedgerTest
removeallmethods McpReadLedgerTest
removeallclassmethods McpReadLedgerTest
! ------------------- Instance methods for McpReadLedgerTest
category: 'running'
method: McpReadLedgerTest
setUp
  ledger := McpTestLedger new
%
category: 'tests - licences'
method: McpReadLedgerTest
testAnUnreadKeyIsRefusedNamingTheKey
  | caught |
  caught := [ledger requireRead: 'Foo>>bar'. nil] on: McpError do: [:ex | ex return: ex].
  self assert: caught kind = 'refused'.
  self assert: (caught extraFields at: 'key') = 'Foo>>bar'.
  self assert: (self includes: 'refused: Foo>>bar has not been read in the current view of this session' in: caught messageText).
  ledger noteRead: 'Foo>>bar'.
  self assert: (self kindRaisedBy: [ledger requireRead: 'Foo>>bar']) isNil
%
category: 'tests - licences'
method: McpReadLedgerTest
testAWriteLicensesTheNextWriteWithoutARead
  ledger noteWrite: 'Foo>>bar'.
  self assert: (ledger writtenKeys includes: 'Foo>>bar').
  self assert: (self kindRaisedBy: [ledger requireRead: 'Foo>>bar']) isNil
%
category: 'tests - licences'
method: McpReadLedgerTest
testReadingOneKeyLicensesNoOther
  ledger noteRead: 'Foo>>bar'.
  self deny: (ledger isReadLicensed: 'Foo>>baz').
  self deny: (ledger isReadLicensed: 'Foo class>>bar').
  self deny: (ledger isReadLicensed: 'Foo').
  self assert: (self kindRaisedBy: [ledger requireRead: 'Foo']) = 'refused'
%
category: 'tests - view moves'
method: McpReadLedgerTest
testAMoveThatKeepsWritesStillDropsAWriteWhoseContentChanged
  ledger stampOf: 'Foo>>bar' is: 'v1'; stampOf: 'Foo>>baz' is: 'v1'.
  ledger noteWrite: 'Foo>>bar'; noteWrite: 'Foo>>baz'.
  ledger stampOf: 'Foo>>bar' is: 'v2'.
  ledger viewMovedKeepingWrites: true.
  self deny: (ledger writtenKeys includes: 'Foo>>bar').
  self deny: (ledger isReadLicensed: 'Foo>>bar').
  self assert: (ledger writtenKeys includes: 'Foo>>baz').
  self assert: (self includes: '1 of 2 earlier reads are stale' in: ledger staleReadNote)
%
category: 'tests - view moves'
method: McpReadLedgerTest
testAMoveThatDropsWritesKeepsTheirUnchangedReads
  ledger stampOf: 'Foo>>bar' is: 'v1'.
  ledger noteWrite: 'Foo>>bar'.
  ledger viewMovedKeepingWrites: false.
  self assert: ledger writtenKeys isEmpty.
  self assert: (ledger isReadLicensed: 'Foo>>bar').
  self assert: ledger staleReadNote isNil
%
category: 'tests - view moves'
method: McpReadLedgerTest
testAKeyStaleAfterTwoMovesIsNamedOnce
  ledger stampOf: 'Foo>>bar' is: 'v1'.
  ledger noteRead: 'Foo>>bar'.
  ledger stampOf: 'Foo>>bar' is: 'v2'.
  ledger viewMovedKeepingWrites: true.
  ledger noteRead: 'Foo>>bar'.
  ledger stampOf: 'Foo>>bar' is: 'v3'.
  ledger viewMovedKeepingWrites: true.
  self assert: ledger staleReadNote
    = '[session] The view moved: 1 of 1 earlier reads are stale and must be re-read before writing to them: Foo>>bar.'
%
category: 'tests - view moves'
method: McpReadLedgerTest
testTheStaleNoteNamesTheSixLastReadKeysAndCountsTheRest
  | keys note |
  keys := (1 to: 8) collect: [:each | 'Foo>>m' , each printString].
  keys do: [:each | ledger stampOf: each is: 'v1'; noteRead: each].
  ledger noteRead: 'Foo'.
  keys do: [:each | ledger stampOf: each is: 'v2'].
  ledger viewMovedKeepingWrites: true.
  note := ledger staleReadNote.
  self assert: (self includes: '8 of 9 earlier reads are stale' in: note).
  self assert: (self includes: 'Foo>>m8, Foo>>m7, Foo>>m6, Foo>>m5, Foo>>m4, Foo>>m3 and 2 more.' in: note).
  self deny: (self includes: 'Foo>>m2' in: note)
%
category: 'tests - keys'
method: McpReadLedgerTest
testKeysNameTheClassTheSideAndTheDictionary
  self assert: (McpReadLedger classKeyFor: McpReadLedger class) = 'McpReadLedger'.
  self assert: (McpReadLedger methodKeyFor: McpReadLedger selector: #noteRead:) = 'McpReadLedger>>noteRead:'.
  self assert: (McpReadLedger methodKeyFor: McpReadLedger class selector: #new) = 'McpReadLedger class>>new'.
  self assert: (McpReadLedger dictionaryKeyFor: #Mcp) = '#Mcp'
%
category: 'tests - stamps'
method: McpReadLedgerTest
testTheRealStampOfAMethodIsItsSource
  | real |
  real := McpReadLedger new.
  self assert: (real stampFor: 'McpServer class>>defaultServerName') = (McpServer class sourceCodeAt: #defaultServerName) asString.
  self assert: (real stampFor: 'McpReadLedger>>noteRead:') = (McpReadLedger sourceCodeAt: #noteRead:) asString.
  self assert: (real stampFor: 'McpServer>>noSuchSelectorHere') = real absentStamp.
  self assert: (real stampFor: 'NoSuchClassAnywhere>>foo') = real absentStamp
%
category: 'tests - stamps'
method: McpReadLedgerTest
testTheRealStampOfADictionaryNamesItsClassesAndGlobals
  | real stamp |
  real := McpReadLedger new.
  stamp := real stampFor: '#Mcp'.
  self assert: (self includes: 'McpReadLedger (class)' in: stamp).
  self assert: (real stampFor: '#NoSuchDictionaryHere') = real absentStamp
%
category: 'tests - stamps'
method: McpReadLedgerTest
testTheRealStampOfAClassHoldsItsDefinitionAndComment
  | real stamp |
  real := McpReadLedger new.
  stamp := real stampFor: 'McpReadLedger'.
  self assert: (self includes: McpReadLedger definition asString in: stamp).
  self assert: (self includes: McpReadLedger comment asString in: stamp).
  self assert: (real stampFor: 'NoSuchClassAnywhere') = real absentStamp
%
category: 'tests - changes'
method: McpReadLedgerTest
testChangesAreListedOncePerThingAndMerged
  | changes |
  ledger noteChange: (Dictionary new at: 'change' put: 'classCreated'; at: 'className' put: 'Foo'; at: 'dictionary' put: 'UserGlobals'; yourself) key: 'Foo'.
  ledger noteChange: (Dictionary new at: 'change' put: 'methodAdded'; at: 'className' put: 'Foo'; at: 'category' put: 'x'; yourself) key: 'Foo>>bar'.
  ledger noteChange: (Dictionary new at: 'change' put: 'methodChanged'; at: 'className' put: 'Foo'; at: 'category' put: 'y'; yourself) key: 'Foo>>bar'.
  ledger noteChange: (Dictionary new at: 'change' put: 'classRedefined'; at: 'className' put: 'Foo'; at: 'shapeChanged' put: true; yourself) key: 'Foo'.
  ledger noteChange: (Dictionary new at: 'change' put: 'commentSet'; at: 'className' put: 'Foo'; yourself) key: 'Foo'.
  changes := ledger pendingChanges.
  self assert: (changes collect: [:each | each at: 'change']) asArray = #('classCreated' 'methodAdded' 'commentSet').
  self assert: ((changes at: 2) at: 'category') = 'y'.
  self assert: (ledger lineFor: changes first) = 'class created: Foo in UserGlobals'.
  self assert: (ledger lineFor: (changes at: 2)) = 'method added: Foo>>bar (category y)'.
  self assert: (ledger changesOfClassNamed: 'Foo') size = 3
%
category: 'tests - changes'
method: McpReadLedgerTest
testSomethingCreatedAndRemovedInOneTransactionIsNotListed
  ledger noteChange: (Dictionary new at: 'change' put: 'methodAdded'; yourself) key: 'Foo>>bar'.
  ledger noteChange: (Dictionary new at: 'change' put: 'methodRemoved'; yourself) key: 'Foo>>bar'.
  self assert: ledger pendingChanges isEmpty.
  ledger noteChange: (Dictionary new at: 'change' put: 'methodRemoved'; yourself) key: 'Foo>>baz'.
  ledger noteChange: (Dictionary new at: 'change' put: 'methodAdded'; yourself) key: 'Foo>>baz'.
  self assert: (ledger pendingChanges first at: 'change') = 'methodChanged'
%
category: 'tests - changes'
method: McpReadLedgerTest
testAViewMoveWithoutTheWritesForgetsTheChanges
  ledger noteChange: (Dictionary new at: 'change' put: 'methodAdded'; yourself) key: 'Foo>>bar'.
  ledger viewMovedKeepingWrites: true.
  self assert: ledger pendingChanges size = 1.
  ledger viewMovedKeepingWrites: false.
  self assert: ledger pendingChanges isEmpty
%
category: 'tests - changes'
method: McpReadLedgerTest
testWritesSurviveTellsACommitFromAnAbort
  self assert: ledger writesSurvive isNil.
  ledger stampOf: 'Foo>>bar' is: 'mine'.
  ledger noteWrite: 'Foo>>bar'.
  self assert: ledger writesSurvive == true.
  ledger stampOf: 'Foo>>bar' is: ledger absentStamp.
  self assert: ledger writesSurvive == false
%
category: 'tests - changes'
method: McpReadLedgerTest
testARestampBeforeAnOwnCommitReportsNothingStale
  ledger stampOf: '#Banking' is: 'before'.
  ledger noteRead: '#Banking'.
  ledger stampOf: '#Banking' is: 'with my new class'.
  ledger restampReads.
  ledger viewMovedKeepingWrites: false.
  self assert: ledger staleReadNote isNil.
  self assert: (ledger isReadLicensed: '#Banking')
%
