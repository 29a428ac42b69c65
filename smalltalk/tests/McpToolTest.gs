set compile_env: 0
! ------------------- Class definition for McpToolTest
expectvalue /Class
doit
McpTestCase subclass: 'McpToolTest'
  instVarNames: #( server toolset)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpToolTest comment: 
'McpTool, McpToolRegistry, McpError and the inherited helpers of McpToolset: closed schemas,
argument validation and its messages, duplicate registration, the result cap and its marker,
the limit and offset paging with its header line, options, lookups and the ledger keys.
Uses McpCoreTestToolset on an McpTestServer; touches nothing in the repository.'
%
expectvalue /Class
doit
McpToolTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpToolTest
removeallmethods McpToolTest
removeallclassmethods McpToolTest
! ------------------- Instance methods for McpToolTest
category: 'helpers'
method: McpToolTest
numbers: anInteger
  ^(1 to: anInteger) asArray collect: [:each | each printString]
%
category: 'running'
method: McpToolTest
setUp
  server := McpTestServer withToolsetNames: #('McpCoreTestToolset').
  toolset := McpCoreTestToolset server: server options: (Dictionary new at: 'greeting' put: 'hi'; yourself)
%
category: 'helpers'
method: McpToolTest
tool: aName
  ^server registry toolNamed: aName ifAbsent: [nil]
%
category: 'tests'
method: McpToolTest
testCapResultCutsWithAMarkerNamingWhatWasDropped
  server resultCap: 10.
  self assert: (toolset capResult: '0123456789abcdef')
    = '0123456789...[truncated: showing 10 of 16 characters]'
%
category: 'tests'
method: McpToolTest
testCapResultLeavesAShortTextAlone
  server resultCap: 10.
  self assert: (toolset capResult: '0123456789') = '0123456789'
%
category: 'tests'
method: McpToolTest
testDictionaryNamedFindsMcpAndRefusesAnUnknownName
  self assert: (toolset dictionaryNamed: 'Mcp') == (System myUserProfile objectNamed: #Mcp).
  self assert: (self kindRaisedBy: [toolset dictionaryNamed: 'NoSuchDictionaryHere']) = 'notFound'
%
category: 'tests'
method: McpToolTest
testLedgerKeysNameClassAndSide
  self assert: (toolset methodKey: McpServer selector: #serverName) = 'McpServer>>serverName'.
  self assert: (toolset methodKey: McpServer class selector: #new) = 'McpServer class>>new'.
  self assert: (toolset classKey: McpServer class) = 'McpServer'.
  self assert: (toolset dictionaryKey: 'Mcp') = '#Mcp'
%
category: 'tests'
method: McpToolTest
testLinesFromJoinsWithLineFeeds
  "McpToolset>>linesFrom: tracks whether it wrote a line, not the stream position, whose
   polarity differs on legacy streams; an empty first line still gets its separator."
  self assert: (toolset linesFrom: #('a' 'b' 'c')) = ('a' , (String with: Character lf) , 'b' , (String with: Character lf) , 'c').
  self assert: (toolset linesFrom: #('' 'b')) = ((String with: Character lf) , 'b').
  self assert: (toolset linesFrom: #()) isEmpty
%
category: 'tests'
method: McpToolTest
testMcpErrorCarriesKindMessageAndDetails
  | caught |
  caught := [McpError signalKind: 'notFound' message: 'class Foo not found' details: (Dictionary new at: 'name' put: 'Foo'; yourself)]
    on: McpError do: [:ex | ex return: ex].
  self assert: caught kind = 'notFound'.
  self assert: caught safeText = 'class Foo not found'.
  self assert: (caught extraFields at: 'name') = 'Foo'.
  "Its own data lives under its own names: the kernel's details accessors stay the kernel's, so
   messageText (which reads through them on some extents) is the text it was signalled with."
  self deny: (McpError includesSelector: #details).
  self deny: (McpError includesSelector: #details:).
  self assert: caught messageText asString = 'class Foo not found'.
  self assert: (McpError standardKinds includes: 'invalidParams')
%
category: 'tests'
method: McpToolTest
testOptionsAreOnlyThisToolsetsOwn
  self assert: (toolset optionNamed: 'greeting' ifAbsent: ['none']) = 'hi'.
  self assert: (toolset optionNamed: 'other' ifAbsent: ['none']) = 'none'.
  self assert: ((McpCoreTestToolset server: server options: nil) optionNamed: 'greeting' ifAbsent: ['none']) = 'none'
%
category: 'tests'
method: McpToolTest
testPageFirstWindowNamesTheNextOffset
  | answer |
  answer := toolset page: (self numbers: 12) args: (Dictionary new at: 'limit' put: 5; yourself) defaultLimit: nil noun: 'items'.
  self assert: answer = (toolset linesFrom: #('(showing 1-5 of 12; pass offset: 5 for the next page)' '1' '2' '3' '4' '5'))
%
category: 'tests'
method: McpToolTest
testPageLastWindowHasNoNextOffset
  | answer |
  answer := toolset page: (self numbers: 12)
    args: (Dictionary new at: 'limit' put: 5; at: 'offset' put: 10; yourself) defaultLimit: nil noun: 'items'.
  self assert: answer = (toolset linesFrom: #('(showing 11-12 of 12)' '11' '12'))
%
category: 'tests'
method: McpToolTest
testPageLimitZeroAnswersTheCountAlone
  self assert: (toolset page: (self numbers: 12) args: (Dictionary new at: 'limit' put: 0; yourself)
    defaultLimit: 200 noun: 'items') = '(12 items)'
%
category: 'tests'
method: McpToolTest
testPageOffsetPastTheEndSaysSo
  self assert: (toolset page: (self numbers: 3) args: (Dictionary new at: 'offset' put: 7; yourself)
    defaultLimit: nil noun: 'items') = '(showing none of 3; offset 7 is past the end)'
%
category: 'tests'
method: McpToolTest
testPageRefusesNegativeOrNonIntegerWindow
  self assert: (self kindRaisedBy: [toolset page: #() args: (Dictionary new at: 'limit' put: -1; yourself)
    defaultLimit: nil noun: 'items']) = 'invalidParams'.
  self assert: (self kindRaisedBy: [toolset page: #() args: (Dictionary new at: 'offset' put: '2'; yourself)
    defaultLimit: nil noun: 'items']) = 'invalidParams'
%
category: 'tests'
method: McpToolTest
testPageWithoutLimitShowsAll
  | answer |
  answer := toolset page: (self numbers: 3) args: Dictionary new defaultLimit: nil noun: 'items'.
  self assert: answer = (toolset linesFrom: #('(showing all 3)' '1' '2' '3')).
  self assert: (toolset page: #() args: Dictionary new defaultLimit: nil noun: 'items') = '(0 items)'
%
category: 'tests'
method: McpToolTest
testRegistryListsToolsInNameOrder
  | names |
  names := server registry descriptors collect: [:each | each at: 'name'].
  self assert: names asArray = (McpCoreTestToolset toolNames asSortedCollection: [:a :b | a <= b]) asArray
%
category: 'tests'
method: McpToolTest
testRegistryRefusesADuplicateName
  self assert: (self kindRaisedBy: [toolset registerOn: server registry]) = 'badConfig'
%
category: 'tests'
method: McpToolTest
testResolveClassFindsClassOrMetaclassAndRefusesUnknown
  self assert: (toolset resolveClass: 'McpServer') == McpServer.
  self assert: (toolset resolveClass: 'McpServer' meta: true) == McpServer class.
  self assert: (self kindRaisedBy: [toolset resolveClass: 'NoSuchClassAnywhere']) = 'notFound'.
  self assert: (self kindRaisedBy: [toolset resolveClass: '']) = 'notFound'
%
category: 'tests'
method: McpToolTest
testSchemaIsAlwaysClosed
  server registry descriptors do: [:each | | schema |
    schema := each at: 'inputSchema'.
    self assert: (schema at: 'type') = 'object'.
    self assert: (schema at: 'additionalProperties') == false.
    self assert: ((schema at: 'required') isKindOf: Array)]
%
category: 'tests'
method: McpToolTest
testStringArrayPropertyDeclaresStringItems
  | property |
  property := (toolset stringArrayProperty: 'names' description: 'd') value.
  self assert: (property at: 'type') = 'array'.
  self assert: ((property at: 'items') at: 'type') = 'string'
%
category: 'tests'
method: McpToolTest
testValidationAcceptsWellTypedArguments
  "McpTool>>value:hasType: takes any sequenceable collection for an array (McpJson isArray:),
   not only the Array the kernel parser is assumed to answer."
  self assert: ((self tool: 'typed') validationErrorFor:
    (Dictionary new at: 'count' put: 3; at: 'flag' put: false; at: 'names' put: #('a' 'b'); yourself)) isNil.
  self assert: ((self tool: 'typed') validationErrorFor:
    (Dictionary new at: 'names' put: (OrderedCollection with: 'a'); yourself)) isNil.
  self assert: ((self tool: 'typed') validationErrorFor:
    (Dictionary new at: 'names' put: 'a'; yourself)) = 'argument ''names'' must be an array'.
  self assert: ((self tool: 'typed') validationErrorFor: Dictionary new) isNil
%
category: 'tests'
method: McpToolTest
testValidationNamesAMissingRequiredArgument
  self assert: ((self tool: 'echo') validationErrorFor: Dictionary new) = 'missing required argument ''text'''
%
category: 'tests'
method: McpToolTest
testValidationNamesAnUnknownArgumentAndWhatIsAccepted
  self assert: ((self tool: 'fail') validationErrorFor: (Dictionary new at: 'kind' put: 'x'; at: 'colour' put: 1; yourself))
    = 'unknown argument ''colour''; fail takes: kind, message'.
  self assert: ((self tool: 'raise_error') validationErrorFor: (Dictionary new at: 'x' put: 1; yourself))
    = 'unknown argument ''x''; raise_error takes no arguments'
%
category: 'tests'
method: McpToolTest
testValidationRefusesWrongTypes
  | typed |
  typed := self tool: 'typed'.
  self assert: (typed validationErrorFor: (Dictionary new at: 'count' put: '3'; yourself)) = 'argument ''count'' must be an integer'.
  self assert: (typed validationErrorFor: (Dictionary new at: 'flag' put: 'yes'; yourself)) = 'argument ''flag'' must be true or false'.
  self assert: (typed validationErrorFor: (Dictionary new at: 'names' put: {'a'. 2}; yourself))
    = 'argument ''names'' must be an array whose every element is a string'.
  self assert: (typed validationErrorFor: #()) = 'arguments must be an object'
%
category: 'tests'
method: McpToolTest
testJoinedTracksAFlagNotTheStreamPosition
  "McpToolset>>joined:with: must not read the stream position, whose polarity differs on
   legacy streams; an empty first element still gets its separator."
  self assert: (toolset joined: #('a' 'b') with: ', ') = 'a, b'.
  self assert: (toolset joined: #('' 'b') with: ', ') = ', b'.
  self assert: (toolset joined: #(#a #b) with: ' ') = 'a b'.
  self assert: (toolset joined: #() with: ', ') isEmpty
%
category: 'tests'
method: McpToolTest
testExecuteCodeResumesACompileWarning
  "McpExecutionToolset>>executeCode: resumes a CompileWarning, as Rowan and Jasper do, so code
   that makes the compiler warn (a temporary shadowing another name) still runs."
  | execution |
  execution := McpExecutionToolset server: server options: nil.
  self assert: (execution executeCode: (Dictionary new
    at: 'code' put: 'CompileWarning new signal: ''a test warning''. 6 * 7'; yourself)) = '42'
%
