set compile_env: 0
! ------------------- Class definition for McpDispatcherTest
expectvalue /Class
doit
McpTestCase subclass: 'McpDispatcherTest'
  instVarNames: #( server savedChannel)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpDispatcherTest comment: 
'JSON-RPC and MCP routing through the real byte entry, McpServer handle:, as the Go front end
calls it: initialize negotiation and identity, ping, tools/list in one page, tools/call with its
two kinds of failure (-32602 for the request, an isError result for the arguments or the tool),
the error kinds, exceptions outside the Error hierarchy, notifications and responses answered
with nothing, the -32600 and -32700 envelope errors, UTF-8 both ways, the [session] notes, and
the worker-to-router channel as the dispatcher drives it: logging declared and logging/setLevel,
a tools/call bound to its id and progress token and unbound before its answer, and a call that
answers normally with no channel or an unreachable router. Uses McpCoreTestToolset on an
McpTestServer; runs without the session channel (a capturing one where a test needs one) and
gives it back after each test; touches nothing in the repository.'
%
expectvalue /Class
doit
McpDispatcherTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpDispatcherTest
removeallmethods McpDispatcherTest
removeallclassmethods McpDispatcherTest
! ------------------- Instance methods for McpDispatcherTest
category: 'helpers'
method: McpDispatcherTest
call: aToolName arguments: anArgumentsJson
  "The result of a tools/call, parsed."
  ^(self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' , aToolName
    , '","arguments":' , anArgumentsJson , '}}') at: 'result'
%
category: 'helpers'
method: McpDispatcherTest
errorCodeFor: aRequest
  ^((self responseTo: aRequest) at: 'error') at: 'code'
%
category: 'helpers'
method: McpDispatcherTest
errorKindOf: aResult
  ^((aResult at: 'structuredContent') at: 'error') at: 'kind'
%
category: 'helpers'
method: McpDispatcherTest
responseTo: aRequest
  ^McpJson parse: (server handle: aRequest)
%
category: 'running'
method: McpDispatcherTest
setUp
  server := McpTestServer withToolsetNames: #('McpCoreTestToolset').
  savedChannel := McpChannel current.
  McpChannel installFrom: nil
%
category: 'running'
method: McpDispatcherTest
tearDown
  SessionTemps current at: McpChannel sessionKey put: savedChannel.
  super tearDown
%
category: 'helpers'
method: McpDispatcherTest
addProgressTool
  "report_progress: reports half of two steps through the channel and answers whether it could."
  server registry add: (McpTool name: 'report_progress' description: 'Report progress.'
    schema: ((McpCoreTestToolset server: server options: nil) schemaProperties: #() required: #())
    handler: [:args | (McpChannel progress: 1 total: 2 message: 'half') printString])
%
category: 'helpers'
method: McpDispatcherTest
installCapturingChannel: aCollection
  "A session channel whose frames land in aCollection instead of a socket."
  | channel |
  channel := McpChannel installFrom: (Dictionary new
    at: 'address' put: '127.0.0.1:9';
    at: 'secret' put: 'test-secret';
    yourself).
  channel captureFramesWith: [:frame | aCollection add: frame].
  ^channel
%
category: 'helpers'
method: McpDispatcherTest
progressCall: anId meta: aMetaJson
  "The result of a tools/call of report_progress with id anId and params._meta aMetaJson."
  ^(self responseTo: '{"jsonrpc":"2.0","id":' , anId printString
    , ',"method":"tools/call","params":{"name":"report_progress","arguments":{},"_meta":' , aMetaJson , '}}')
      at: 'result'
%
category: 'helpers'
method: McpDispatcherTest
textOf: aResult
  ^((aResult at: 'content') at: 1) at: 'text'
%
category: 'tests - envelope'
method: McpDispatcherTest
testEachNamedCodeIsTheNumberOnTheWire
  "The names stand for the numbers JSON-RPC 2.0 and MCP give these errors; clients match the
   numbers, so a name that drifted would change every answer that uses it."
  self assert: McpJsonRpcCodes parseError = -32700.
  self assert: McpJsonRpcCodes invalidRequest = -32600.
  self assert: McpJsonRpcCodes methodNotFound = -32601.
  self assert: McpJsonRpcCodes invalidParams = -32602.
  self assert: McpJsonRpcCodes internalError = -32603.
  self assert: McpJsonRpcCodes toolNotGranted = -32001.
  self assert: McpJsonRpcCodes resourceNotFound = -32002
%
category: 'tests - envelope'
method: McpDispatcherTest
testABatchIsAnInvalidRequest
  | response |
  response := self responseTo: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'.
  self assert: ((response at: 'error') at: 'code') = McpJsonRpcCodes invalidRequest.
  self assert: (response at: 'id') isNil
%
category: 'tests - envelope'
method: McpDispatcherTest
testABooleanIdIsAnInvalidRequest
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":true,"method":"ping"}') = McpJsonRpcCodes invalidRequest
%
category: 'tests - envelope'
method: McpDispatcherTest
testAMissingJsonrpcVersionIsAnInvalidRequest
  self assert: (self errorCodeFor: '{"id":1,"method":"ping"}') = McpJsonRpcCodes invalidRequest.
  self assert: (self errorCodeFor: '{"jsonrpc":"1.0","id":1,"method":"ping"}') = McpJsonRpcCodes invalidRequest
%
category: 'tests - envelope'
method: McpDispatcherTest
testANotificationIsAnsweredWithNothing
  self assert: (server handle: '{"jsonrpc":"2.0","method":"notifications/initialized"}') isEmpty.
  self assert: (server handle: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}') isEmpty
%
category: 'tests - envelope'
method: McpDispatcherTest
testAResponseIsAnsweredWithNothing
  self assert: (server handle: '{"jsonrpc":"2.0","id":9,"result":{}}') isEmpty
%
category: 'tests - envelope'
method: McpDispatcherTest
testBadUtf8IsAParseErrorNamingTheOffset
  | response error |
  response := self responseTo: '{"a":"' , (self bytes: #(255)) , '"}'.
  error := response at: 'error'.
  self assert: (error at: 'code') = McpJsonRpcCodes parseError.
  self assert: ((error at: 'data') at: 'kind') = 'invalidUtf8'.
  self assert: ((error at: 'data') at: 'offset') = 6.
  self assert: (response at: 'id') isNil
%
category: 'tests - envelope'
method: McpDispatcherTest
testIdsAreEchoedAsSent
  self assert: ((self responseTo: '{"jsonrpc":"2.0","id":"abc","method":"ping"}') at: 'id') = 'abc'.
  self assert: ((self responseTo: '{"jsonrpc":"2.0","id":7,"method":"ping"}') at: 'id') = 7
%
category: 'tests - envelope'
method: McpDispatcherTest
testMalformedJsonIsAParseError
  | error |
  error := (self responseTo: '{"jsonrpc":"2.0",') at: 'error'.
  self assert: (error at: 'code') = McpJsonRpcCodes parseError.
  self assert: ((error at: 'data') at: 'kind') = 'parseError'
%
category: 'tests - envelope'
method: McpDispatcherTest
testParamsMustBeAnObject
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}') = McpJsonRpcCodes invalidParams
%
category: 'tests - methods'
method: McpDispatcherTest
testInitializeAnswersTheFirstVersionWhenTheClientsIsNotListed
  | result |
  result := (self responseTo: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}') at: 'result'.
  self assert: (result at: 'protocolVersion') = server config protocolVersions first
%
category: 'tests - methods'
method: McpDispatcherTest
testInitializeDeclaresToolsLoggingAndSubscribableResourcesOnly
  | capabilities |
  capabilities := ((self responseTo: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}')
    at: 'result') at: 'capabilities'.
  self assert: capabilities keys size = 3.
  self assert: ((capabilities at: 'tools') isKindOf: Dictionary).
  self assert: ((capabilities at: 'logging') isKindOf: Dictionary).
  self assert: (capabilities at: 'logging') isEmpty.
  self assert: ((capabilities at: 'resources') at: 'subscribe') == true.
  self assert: ((capabilities at: 'resources') at: 'listChanged') == false
%
category: 'tests - methods'
method: McpDispatcherTest
testInitializeEchoesAListedVersion
  | result |
  result := (self responseTo: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}') at: 'result'.
  self assert: (result at: 'protocolVersion') = '2025-06-18'
%
category: 'tests - methods'
method: McpDispatcherTest
testInitializeNeedsAProtocolVersion
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}') = McpJsonRpcCodes invalidParams
%
category: 'tests - methods'
method: McpDispatcherTest
testInitializeSendsStockInstructionsAndNoTitleByDefault
  | result |
  result := (self responseTo: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}') at: 'result'.
  self assert: ((result at: 'serverInfo') at: 'name') = McpServer defaultServerName.
  self assert: ((result at: 'serverInfo') at: 'version') = McpServer defaultServerVersion.
  self deny: ((result at: 'serverInfo') includesKey: 'title').
  self assert: (result at: 'instructions') = McpServer defaultServerInstructions
%
category: 'tests - methods'
method: McpDispatcherTest
testPingAnswersAnEmptyObject
  self assert: (server handle: '{"jsonrpc":"2.0","id":1,"method":"ping"}') = '{"id":1,"jsonrpc":"2.0","result":{}}'
%
category: 'tests - methods'
method: McpDispatcherTest
testToolsListIsTheWholeRegistryInOnePage
  | result names |
  result := (self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}') at: 'result'.
  names := (result at: 'tools') collect: [:each | each at: 'name'].
  self assert: names asArray = server registry toolNames.
  self deny: (result includesKey: 'nextCursor')
%
category: 'tests - methods'
method: McpDispatcherTest
testToolsListRefusesACursor
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"2"}}') = McpJsonRpcCodes invalidParams
%
category: 'tests - methods'
method: McpDispatcherTest
testUndeclaredMethodsAreMethodNotFound
  #('prompts/list' 'completion/complete' 'no/such') do: [:each |
    self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":1,"method":"' , each , '"}') = McpJsonRpcCodes methodNotFound]
%
category: 'tests - tools/call'
method: McpDispatcherTest
testACompileErrorHasKindCompileError
  | result |
  result := self call: 'compile_error' arguments: '{}'.
  self assert: (result at: 'isError') == true.
  self assert: (self errorKindOf: result) = 'compileError'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAKernelErrorHasKindOtherAndNamesItsClass
  | result |
  result := self call: 'raise_error' arguments: '{}'.
  self assert: (result at: 'isError') == true.
  self assert: (self errorKindOf: result) = 'other'.
  self assert: (((result at: 'structuredContent') at: 'error') at: 'exception') = 'ZeroDivide'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAnExceptionOutsideTheErrorHierarchyIsAToolError
  | result |
  result := self call: 'raise_exception' arguments: '{}'.
  self assert: (result at: 'isError') == true.
  self assert: (self errorKindOf: result) = 'other'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAnMcpErrorKeepsItsKindAndDetails
  | result error |
  result := self call: 'fail' arguments: '{"kind":"notFound","message":"class Foo not found"}'.
  error := (result at: 'structuredContent') at: 'error'.
  self assert: (result at: 'isError') == true.
  self assert: (error at: 'kind') = 'notFound'.
  self assert: (error at: 'message') = 'class Foo not found'.
  self assert: (error at: 'extra') = 1.
  self assert: (self textOf: result) = 'class Foo not found'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAnUnknownArgumentIsAnInvalidParamsToolError
  | result |
  result := self call: 'echo' arguments: '{"text":"a","colour":"red"}'.
  self assert: (result at: 'isError') == true.
  self assert: (self errorKindOf: result) = 'invalidParams'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAnUnknownToolIsInvalidParams
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no_such_tool"}}') = McpJsonRpcCodes invalidParams
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAMissingRequiredArgumentIsAnInvalidParamsToolError
  self assert: (self errorKindOf: (self call: 'echo' arguments: '{}')) = 'invalidParams'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAMissingToolNameIsInvalidParams
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}') = McpJsonRpcCodes invalidParams
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAToolAnswerIsTextContent
  | result |
  result := self call: 'echo' arguments: '{"text":"hello"}'.
  self assert: (result at: 'isError') == false.
  self assert: (result at: 'content') size = 1.
  self assert: (((result at: 'content') at: 1) at: 'type') = 'text'.
  self assert: (self textOf: result) = 'hello'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testACompileWarningIsResumedNotAnsweredAsAnError
  "The handler of call:with:id: resumes a CompileWarning (McpDispatcher class>>settle:with:); a
   warning answered as an error would fail a compile over a shadowing temporary."
  | result |
  result := self call: 'warn' arguments: '{}'.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'resumed'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testABreakIsRecognisedByItsClassOrItsNumber
  "A soft break must end the call whatever class it arrives as (McpDispatcher class>>isBreak:)."
  self assert: (McpDispatcher isBreak: ControlInterrupt new).
  self deny: (McpDispatcher isBreak: Error new).
  self deny: (McpDispatcher isBreak: (McpError new setKind: 'other' fields: nil text: 'x')).
  self assert: (McpDispatcher breakNumbers includes: 6003).
  self assert: (McpDispatcher breakNumbers includes: 6004).
  self assert: (McpDispatcher mustPass: ControlInterrupt new).
  self deny: (McpDispatcher mustPass: CompileWarning new).
  self assert: (McpDispatcher mustResume: CompileWarning new)
%
category: 'tests - tools/call'
method: McpDispatcherTest
testAWrongTypeIsAnInvalidParamsToolError
  self assert: (self errorKindOf: (self call: 'typed' arguments: '{"count":"three"}')) = 'invalidParams'
%
category: 'tests - tools/call'
method: McpDispatcherTest
testLongResultsAreCappedWithAMarker
  | text |
  server resultCap: 100.
  text := self textOf: (self call: 'long_text' arguments: '{"n":150}').
  self assert: text = ((self string: 100 of: $x) , '...[truncated: showing 100 of 150 characters]')
%
category: 'tests - session notes'
method: McpDispatcherTest
testTheUncommittedNoteIsSaidOnceWhenTheStateChanges
  | result |
  server uncommitted: true.
  result := self call: 'echo' arguments: '{"text":"hello"}'.
  self assert: (self textOf: result) = ('hello' , (String with: Character lf) , server viewNotes uncommittedNote).
  self assert: (self includes: 'pending_changes' in: server viewNotes uncommittedNote).
  self assert: (self textOf: (self call: 'echo' arguments: '{"text":"again"}')) = 'again'.
  server uncommitted: false.
  self assert: (self textOf: (self call: 'echo' arguments: '{"text":"clean"}')) = 'clean'.
  server uncommitted: true.
  result := self call: 'fail' arguments: '{"kind":"refused"}'.
  self assert: ((self textOf: result) findString: '[session]' startingAt: 1) > 0
%
category: 'tests - session notes'
method: McpDispatcherTest
testAFailedCommitIsSaidOnEveryResultAndNeverAsksForACommit
  | text |
  server uncommitted: true.
  server viewNotes noteCommitFailed.
  #('one' 'two') do: [:each |
    text := self textOf: (self call: 'echo' arguments: '{"text":"' , each , '"}').
    self assert: (self includes: 'nothing can be committed until abort' in: text).
    self deny: (self includes: 'commit keeps them' in: text)]
%
category: 'tests - session notes'
method: McpDispatcherTest
testAResultOfACleanSessionCarriesNoNote
  server uncommitted: false.
  self assert: (self textOf: (self call: 'echo' arguments: '{"text":"hello"}')) = 'hello'
%
category: 'tests - utf-8'
method: McpDispatcherTest
testAnEscapedSurrogatePairArrivesAsOneCharacterAndLeavesAsFourBytes
  | answer |
  answer := server handle: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\uD83D\uDE00"}}}'.
  self assert: (answer findString: (self bytes: #(240 159 152 128)) startingAt: 1) > 0.
  self assert: (answer findString: '\u' startingAt: 1) = 0
%
category: 'tests - utf-8'
method: McpDispatcherTest
testRawAstralTextIsEchoedByteForByte
  | emoji answer |
  emoji := self bytes: #(240 159 152 128).
  answer := server handle: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"' , emoji , '"}}}'.
  self assert: (answer findString: '"text":"' , emoji , '"' startingAt: 1) > 0.
  self assert: answer class == String
%
category: 'tests - channel'
method: McpDispatcherTest
testSetLevelIsAcceptedAndReachesTheChannel
  | channel |
  channel := self installCapturingChannel: OrderedCollection new.
  self assert: (server handle: '{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"error"}}')
    = '{"id":1,"jsonrpc":"2.0","result":{}}'.
  self assert: channel level = 'error'
%
category: 'tests - channel'
method: McpDispatcherTest
testSetLevelWithoutAChannelIsAccepted
  self assert: McpChannel current isNil.
  self assert: (server handle: '{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}')
    = '{"id":2,"jsonrpc":"2.0","result":{}}'
%
category: 'tests - channel'
method: McpDispatcherTest
testAnUnknownLevelIsInvalidParamsNamingTheLevels
  | channel error |
  channel := self installCapturingChannel: OrderedCollection new.
  error := (self responseTo: '{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}') at: 'error'.
  self assert: (error at: 'code') = McpJsonRpcCodes invalidParams.
  McpChannel levels do: [:each |
    self assert: ((error at: 'message') findString: each startingAt: 1) > 0].
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{}}') = McpJsonRpcCodes invalidParams.
  self assert: (self errorCodeFor: '{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":3}}') = McpJsonRpcCodes invalidParams.
  self assert: channel level = 'info'
%
category: 'tests - channel'
method: McpDispatcherTest
testAToolsCallWithoutAChannelAnswersNormally
  | result |
  self addProgressTool.
  self assert: McpChannel current isNil.
  result := self progressCall: 6 meta: '{"progressToken":"tok"}'.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'false'.
  self assert: (self textOf: (self call: 'echo' arguments: '{"text":"hello"}')) = 'hello'
%
category: 'tests - channel'
method: McpDispatcherTest
testAToolsCallIsBoundToItsIdAndTokenAndUnboundBeforeItsAnswer
  | frames channel result progress |
  frames := OrderedCollection new.
  channel := self installCapturingChannel: frames.
  self addProgressTool.
  result := self progressCall: 41 meta: '{"progressToken":"tok"}'.
  self assert: (self textOf: result) = 'true'.
  self assert: frames size = 2.
  progress := frames first.
  self assert: (progress at: 'call') = 41.
  self assert: ((progress at: 'message') at: 'method') = 'notifications/progress'.
  self assert: (((progress at: 'message') at: 'params') at: 'progressToken') = 'tok'.
  self assert: ((frames last at: 'flush') isKindOf: String).
  self assert: (frames last at: 'call') = 41.
  self assert: channel callId isNil.
  self assert: channel progressToken isNil
%
category: 'tests - channel'
method: McpDispatcherTest
testAToolsCallWithoutAProgressTokenReportsNoProgress
  | frames result |
  frames := OrderedCollection new.
  self installCapturingChannel: frames.
  self addProgressTool.
  result := self progressCall: 42 meta: '{}'.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'false'.
  self assert: frames isEmpty
%
category: 'tests - channel'
method: McpDispatcherTest
testANestedToolsCallGivesTheOuterBindingBack
  | channel |
  channel := self installCapturingChannel: OrderedCollection new.
  self addProgressTool.
  channel beginCall: 'outer' progressToken: 'outer-token'.
  self assert: (self textOf: (self progressCall: 43 meta: '{"progressToken":7}')) = 'true'.
  self assert: channel callId = 'outer'.
  self assert: channel progressToken = 'outer-token'
%
category: 'tests - channel'
method: McpDispatcherTest
testAToolAnswersWhenTheRouterIsUnreachable
  | channel result |
  channel := McpChannel installFrom: (Dictionary new
    at: 'address' put: '127.0.0.1:1';
    at: 'secret' put: 'test-secret';
    yourself).
  self addProgressTool.
  result := self progressCall: 44 meta: '{"progressToken":"tok"}'.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'false'.
  self assert: channel isUnreachable.
  self assert: channel callId isNil
%
category: 'helpers'
method: McpDispatcherTest
statelessCall: aToolName session: aSessionJsonOrNil
  "The result of an MCP 2026-07-28 tools/call of aToolName with the text hi and, when given, the
   session argument (JSON text)."
  | session |
  session := aSessionJsonOrNil isNil ifTrue: [''] ifFalse: [',"session":' , aSessionJsonOrNil].
  ^(self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' , aToolName
    , '","arguments":{"text":"hi"' , session , '},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}') at: 'result'
%
category: 'helpers'
method: McpDispatcherTest
addReadOnlyTool
  "peek: a tool declared read-only, answering its text."
  server registry add: ((McpTool name: 'peek' description: 'Answer the text, reading nothing.'
    schema: ((McpCoreTestToolset server: server options: nil) schemaProperties: {
      (McpCoreTestToolset server: server options: nil) stringProperty: 'text' description: 'Any text.'} required: #('text'))
    handler: [:args | args at: 'text'])
      readOnly;
      yourself)
%
category: 'tests - stateless'
method: McpDispatcherTest
testAStatelessRequestMayNotRunAToolThatMayChangeState
  | result |
  result := self statelessCall: 'echo' session: nil.
  self assert: (result at: 'isError') == true.
  self assert: (self errorKindOf: result) = 'sessionRequired'.
  self assert: ((self textOf: result) includesString: 'open_session').
  self assert: ((self textOf: result) includesString: 'session argument').
  self assert: server aborts = 1
%
category: 'tests - stateless'
method: McpDispatcherTest
testAStatelessRequestRunsAReadOnlyTool
  | result |
  self addReadOnlyTool.
  result := self statelessCall: 'peek' session: nil.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'hi'
%
category: 'tests - stateless'
method: McpDispatcherTest
testACallNamingAGemStoneSessionOrOnAnMcpSessionRunsAnyTool
  "The session argument named the gem (the router chose it) and is no argument of the tool: the
   tool runs without it, and the request keeps its view (no abort)."
  | result |
  result := self statelessCall: 'echo' session: '"0123456789abcdef0123456789abcdef"'.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'hi'.
  result := self call: 'echo' arguments: '{"text":"hi","session":"0123"}'.
  self assert: (result at: 'isError') == false.
  self assert: (self textOf: result) = 'hi'.
  self assert: server aborts = 0
%
category: 'tests - stateless'
method: McpDispatcherTest
testAStatelessRequestOfAnotherMethodNamingASessionStillBeginsWithTheAbort
  "Only a tools/call's session argument names a gem: a session member in the arguments of
   another method does not spare a pooled gem its abort."
  self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"arguments":{"session":"x"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'.
  self assert: server aborts = 1
%
category: 'tests - stateless'
method: McpDispatcherTest
testEveryListedToolTakesTheSessionArgumentButOpenSession
  | tools |
  tools := ((self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}') at: 'result') at: 'tools'.
  self deny: tools isEmpty.
  tools do: [:each | | properties |
    properties := (each at: 'inputSchema') at: 'properties'.
    (each at: 'name') = 'open_session'
      ifTrue: [self deny: (properties includesKey: 'session')]
      ifFalse: [
        self assert: (properties includesKey: 'session').
        self assert: ((properties at: 'session') at: 'type') = 'string']]
%
category: 'tests - stateless'
method: McpDispatcherTest
testAStatelessRequestBeginsWithTheContractsAbort
  self addReadOnlyTool.
  self statelessCall: 'peek' session: nil.
  self assert: server aborts = 1.
  self statelessCall: 'echo' session: nil.
  self assert: server aborts = 2
%
