set compile_env: 0
! ------------------- Class definition for McpServerTest
expectvalue /Class
doit
McpTestCase subclass: 'McpServerTest'
  instVarNames: #( savedServer savedChannel)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpServerTest comment: 
'The worker entries of the contract and the identity of the server: mcpPrepare: with every
failure kind and its success answer, the toolset options allow-list, identity overrides and
defaults (no title, stock instructions, an empty text meaning none), mcpHandle: before and after
a prepare, the shape of mcpViewStatus, a subclass prepared as itself, the truncation of the
gem name, and the worker-to-router channel the prepare installs (or not) from the config. A
prepare here never names the gem (no cacheName) and never connects a channel, and every test
restores the server and the channel this session held in SessionTemps. Touches nothing in the
repository.'
%
expectvalue /Class
doit
McpServerTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpServerTest
removeallmethods McpServerTest
removeallclassmethods McpServerTest
! ------------------- Instance methods for McpServerTest
category: 'helpers'
method: McpServerTest
config
  "A valid prepare config without a cacheName, as a Dictionary to vary."
  ^Dictionary new
    at: 'contract' put: 1;
    at: 'workerClass' put: 'McpServer';
    at: 'toolsets' put: #('McpCoreTestToolset');
    at: 'protocolVersions' put: #('2025-11-25' '2025-06-18');
    at: 'resultCap' put: 50000;
    yourself
%
category: 'helpers'
method: McpServerTest
prepare: aConfigDictionary
  "The answer of mcpPrepare:, parsed."
  ^McpJson parse: (McpServer mcpPrepare: (McpJson write: aConfigDictionary))
%
category: 'helpers'
method: McpServerTest
prepareFailureOf: aConfigDictionary
  | answer |
  answer := self prepare: aConfigDictionary.
  self assert: (answer at: 'ok') == false.
  ^answer at: 'error'
%
category: 'running'
method: McpServerTest
setUp
  savedServer := McpServer current.
  savedChannel := McpChannel current
%
category: 'running'
method: McpServerTest
tearDown
  McpServer install: savedServer.
  SessionTemps current at: McpChannel sessionKey put: savedChannel
%
category: 'helpers'
method: McpServerTest
secret
  ^self string: 64 of: $f
%
category: 'helpers'
method: McpServerTest
firstLineOf: aString
  "aString up to its first line feed: a tool's own text, without the [session] notes."
  | end |
  end := aString indexOf: Character lf.
  end = 0 ifTrue: [^aString].
  ^aString copyFrom: 1 to: end - 1
%
category: 'helpers'
method: McpServerTest
config: aChannelValue
  "A valid prepare config whose channel member is aChannelValue."
  ^self config at: 'channel' put: aChannelValue; yourself
%
category: 'tests - gem name'
method: McpServerTest
testACacheNameWithinTheLimitIsKept
  self assert: (McpPrepareConfig cacheNameFrom: 'McpServer:5:978EC559') = 'McpServer:5:978EC559'.
  self assert: (McpPrepareConfig cacheNameFrom: (self string: 31 of: $a)) size = 31
%
category: 'tests - gem name'
method: McpServerTest
testALongCacheNameLosesClassCharactersNotTheIdentifyingFields
  | name |
  name := McpPrepareConfig cacheNameFrom: 'AcmeVeryLongDeploymentWorkerServer:12:978EC559'.
  self assert: name size = 31.
  self assert: (name copyFrom: 20 to: 31) = ':12:978EC559'.
  self assert: (name copyFrom: 1 to: 19) = 'AcmeVeryLongDeploym'
%
category: 'tests - gem name'
method: McpServerTest
testAnEmptyCacheNameIsNotApplied
  self assert: (McpPrepareConfig cacheNameFrom: '') isNil.
  self assert: (McpPrepareConfig cacheNameFrom: nil) isNil
%
category: 'tests - gem name'
method: McpServerTest
testACacheNameWithoutFieldsIsCut
  self assert: (McpPrepareConfig cacheNameFrom: (self string: 40 of: $b)) = (self string: 31 of: $b)
%
category: 'tests - identity'
method: McpServerTest
testAnEmptyConfiguredTitleOrInstructionsMeansNone
  | server |
  server := McpServer fromConfig: (self config at: 'serverTitle' put: ''; at: 'instructions' put: ''; yourself).
  self assert: server config serverTitle isNil.
  self assert: server config serverInstructions isNil
%
category: 'tests - identity'
method: McpServerTest
testConfigOverridesTheIdentity
  | server |
  server := McpServer fromConfig: (self config
    at: 'serverName' put: 'acme-db-mcp'; at: 'serverVersion' put: '2.5.0';
    at: 'serverTitle' put: 'Acme Labels - sandbox'; at: 'instructions' put: 'Read-only.'; yourself).
  self assert: server config serverName = 'acme-db-mcp'.
  self assert: server config serverVersion = '2.5.0'.
  self assert: server config serverTitle = 'Acme Labels - sandbox'.
  self assert: server config serverInstructions = 'Read-only.'
%
category: 'tests - identity'
method: McpServerTest
testDefaultIdentityHasNoTitleAndStockInstructions
  | server |
  server := McpServer fromConfig: self config.
  self assert: server config serverName = McpServer defaultServerName.
  self assert: server config serverVersion = McpServer defaultServerVersion.
  self assert: server config serverTitle isNil.
  self assert: server config serverInstructions = McpServer defaultServerInstructions.
  self assert: (self includes: 'commit' in: McpServer defaultServerInstructions).
  self assert: (self includes: '[session]' in: McpServer defaultServerInstructions)
%
category: 'tests - identity'
method: McpServerTest
testInstructionsOverTheLimitAreRefused
  | error |
  error := self prepareFailureOf: (self config
    at: 'instructions' put: (self string: McpPrepareConfig maxInstructionsSize + 1 of: $i); yourself).
  self assert: (error at: 'kind') = 'badConfig'.
  self assert: (McpServer fromConfig: (self config
    at: 'instructions' put: (self string: McpPrepareConfig maxInstructionsSize of: $i); yourself))
      config serverInstructions size = McpPrepareConfig maxInstructionsSize
%
category: 'tests - prepare'
method: McpServerTest
testADeclaredOptionReachesItsToolset
  | answer result |
  answer := self prepare: (self config
    at: 'toolsetOptions' put: (Dictionary new at: 'McpCoreTestToolset' put: (Dictionary new at: 'greeting' put: 'bonjour'; yourself); yourself);
    yourself).
  self assert: (answer at: 'ok') == true.
  "The tool's text is the first line: a suite run earlier may have left the session with
   uncommitted changes, and then a [session] note follows it."
  result := (McpJson parse: (McpServer mcpHandle: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet"}}')) at: 'result'.
  self assert: (result at: 'isError') == false.
  self assert: (self firstLineOf: (((result at: 'content') at: 1) at: 'text')) = 'bonjour'
%
category: 'tests - prepare'
method: McpServerTest
testJsonArraysOfAnyKindAreAcceptedInTheConfig
  "McpPrepareConfig>>protocolVersionsIn: and toolsetNamesIn: take any sequenceable collection, not
   only the Array the kernel parser is assumed to answer; text is still no array."
  | server |
  server := McpServer fromConfig: (self config
    at: 'protocolVersions' put: (OrderedCollection with: '2025-06-18');
    at: 'toolsets' put: (OrderedCollection with: 'McpCoreTestToolset');
    yourself).
  self assert: server config protocolVersions = #('2025-06-18').
  self assert: server config toolsetNames = #('McpCoreTestToolset').
  self assert: ((self prepareFailureOf: (self config at: 'toolsets' put: 'McpCoreTestToolset'; yourself))
    at: 'kind') = 'badConfig'
%
category: 'tests - prepare'
method: McpServerTest
testASubclassIsPreparedAsItself
  | answer |
  answer := self prepare: (self config at: 'workerClass' put: 'McpTestServer'; yourself).
  self assert: (answer at: 'ok') ~~ true.
  answer := McpJson parse: (McpTestServer mcpPrepare: (McpJson write: (self config at: 'workerClass' put: 'McpTestServer'; yourself))).
  self assert: (answer at: 'ok') == true.
  self assert: (answer at: 'workerClass') = 'McpTestServer'.
  self assert: McpServer current class == McpTestServer
%
category: 'tests - prepare'
method: McpServerTest
testHandleBeforeAPrepareIsAWorkerError
  | response |
  McpServer install: nil.
  response := McpJson parse: (McpServer mcpHandle: '{"jsonrpc":"2.0","id":1,"method":"ping"}').
  self assert: ((response at: 'error') at: 'code') = McpJsonRpcCodes internalError.
  self assert: (((response at: 'error') at: 'data') at: 'kind') = 'workerError'
%
category: 'tests - prepare'
method: McpServerTest
testInitializeNegotiatesFromTheConfiguredVersionsOnly
  | result |
  self assert: ((self prepare: (self config at: 'protocolVersions' put: #('2025-06-18'); yourself)) at: 'ok') == true.
  result := (McpJson parse: (McpServer mcpHandle:
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}')) at: 'result'.
  self assert: (result at: 'protocolVersion') = '2025-06-18'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareAnswersTheContractSuccessShape
  | answer |
  answer := self prepare: (self config at: 'serverName' put: 'acme'; yourself).
  self assert: (answer at: 'ok') == true.
  self assert: (answer at: 'gemSession') = System session.
  self assert: (answer at: 'workerClass') = 'McpServer'.
  self assert: (answer at: 'serverName') = 'acme'.
  self assert: (answer at: 'tools') = McpCoreTestToolset toolNames size.
  self assert: (McpServer mcpPrepare: (McpJson write: self config)) class == String
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesAConfigThatIsNotJson
  | answer |
  answer := McpJson parse: (McpServer mcpPrepare: '{"contract":').
  self assert: (answer at: 'ok') == false.
  self assert: ((answer at: 'error') at: 'kind') = 'badConfig'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesAnotherWorkerClass
  self assert: ((self prepareFailureOf: (self config at: 'workerClass' put: 'AcmeServer'; yourself)) at: 'kind')
    = 'workerClassNotFound'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesAnUndeclaredOption
  | error |
  error := self prepareFailureOf: (self config
    at: 'toolsetOptions' put: (Dictionary new at: 'McpCoreTestToolset' put: (Dictionary new at: 'colour' put: 'red'; yourself); yourself);
    yourself).
  self assert: (error at: 'kind') = 'badOption'.
  self assert: (self includes: 'colour' in: (error at: 'message')).
  self assert: (self includes: 'greeting' in: (error at: 'message'))
%
category: 'tests - prepare'
method: McpServerTest
testPrepareChecksEachToolsetAsItRegistersIt
  "The options of a toolset are checked just before it registers, so a failure while an earlier
   toolset registers (here the same toolset twice, which declares its tools twice) is the answer,
   not a later toolset's undeclared option: McpServer>>registerToolset: keeps the order the
   prepare has always had."
  | error |
  error := self prepareFailureOf: (self config
    at: 'toolsets' put: #('McpCoreTestToolset' 'McpCoreTestToolset' 'McpFixtureToolset');
    at: 'toolsetOptions' put: (Dictionary new at: 'McpFixtureToolset' put: (Dictionary new at: 'colour' put: 'red'; yourself); yourself);
    yourself).
  self assert: (error at: 'kind') = 'badConfig'.
  self assert: (self includes: 'registered by two toolsets' in: (error at: 'message')).
  self assert: ((self prepareFailureOf: (self config
    at: 'toolsets' put: #('McpCoreTestToolset' 'McpFixtureToolset');
    at: 'toolsetOptions' put: (Dictionary new at: 'McpFixtureToolset' put: (Dictionary new at: 'colour' put: 'red'; yourself); yourself);
    yourself)) at: 'kind') = 'badOption'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesAnUnknownContractVersion
  self assert: ((self prepareFailureOf: (self config at: 'contract' put: 2; yourself)) at: 'kind') = 'contractVersion'.
  self assert: ((self prepareFailureOf: (self config removeKey: 'contract'; yourself)) at: 'kind') = 'contractVersion'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesAnUnknownToolset
  | error |
  error := self prepareFailureOf: (self config at: 'toolsets' put: #('AcmeNoSuchToolset'); yourself).
  self assert: (error at: 'kind') = 'toolsetNotFound'.
  self assert: (self includes: 'AcmeNoSuchToolset' in: (error at: 'message')).
  self assert: ((self prepareFailureOf: (self config at: 'toolsets' put: #('McpServer'); yourself)) at: 'kind')
    = 'toolsetNotFound'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesBadLimitsAndVersions
  self assert: ((self prepareFailureOf: (self config at: 'protocolVersions' put: #(); yourself)) at: 'kind') = 'badConfig'.
  self assert: ((self prepareFailureOf: (self config removeKey: 'protocolVersions'; yourself)) at: 'kind') = 'badConfig'.
  self assert: ((self prepareFailureOf: (self config at: 'resultCap' put: -1; yourself)) at: 'kind') = 'badConfig'.
  self assert: ((self prepareFailureOf: (self config at: 'serverName' put: 3; yourself)) at: 'kind') = 'badConfig'
%
category: 'tests - prepare'
method: McpServerTest
testPrepareRefusesOptionsForAToolsetOutsideTheSurface
  | error |
  error := self prepareFailureOf: (self config
    at: 'toolsetOptions' put: (Dictionary new at: 'McpExecutionToolset' put: Dictionary new; yourself);
    yourself).
  self assert: (error at: 'kind') = 'toolsetNotFound'
%
category: 'tests - prepare'
method: McpServerTest
testPreparedServerServesOnlyItsSurface
  | tools |
  self assert: ((self prepare: self config) at: 'ok') == true.
  tools := ((McpJson parse: (McpServer mcpHandle: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')) at: 'result') at: 'tools'.
  self assert: (tools collect: [:each | each at: 'name']) asArray
    = (McpCoreTestToolset toolNames asSortedCollection: [:a :b | a <= b]) asArray
%
category: 'tests - view'
method: McpServerTest
testTruncationMarkerNamesShownAndTotal
  self assert: (McpServer truncationMarkerShowing: 50000 of: 60002)
    = '...[truncated: showing 50000 of 60002 characters]'
%
category: 'tests - view'
method: McpServerTest
testViewStatusHasTheContractShape
  | status |
  status := McpJson parse: McpServer mcpViewStatus.
  self assert: ((status at: 'commitsBehind') isKindOf: Integer).
  self assert: ((status at: 'uncommitted') == true or: [(status at: 'uncommitted') == false]).
  self assert: ((status at: 'movable') == true or: [(status at: 'movable') == false]).
  self assert: status size = 3
%
category: 'tests - channel'
method: McpServerTest
testPrepareInstallsTheChannelTheConfigOffers
  | answer channel |
  answer := McpServer mcpPrepare: (McpJson write: (self config: (Dictionary new
    at: 'address' put: '127.0.0.1:40123';
    at: 'secret' put: self secret;
    yourself))).
  self assert: ((McpJson parse: answer) at: 'ok') == true.
  self assert: (answer findString: self secret startingAt: 1) = 0.
  channel := McpChannel current.
  self assert: channel notNil.
  self assert: channel host = '127.0.0.1'.
  self assert: channel port = 40123.
  self deny: channel isUnreachable
%
category: 'tests - channel'
method: McpServerTest
testPrepareWithoutAChannelLeavesTheSessionWithoutOne
  McpChannel installFrom: (Dictionary new at: 'address' put: '127.0.0.1:9'; at: 'secret' put: self secret; yourself).
  self assert: ((self prepare: self config) at: 'ok') == true.
  self assert: McpChannel current isNil
%
category: 'tests - channel'
method: McpServerTest
testAMalformedChannelNeverFailsThePrepare
  {42.
   Dictionary new at: 'address' put: 42; at: 'secret' put: self secret; yourself.
   Dictionary new at: 'address' put: '127.0.0.1:9'; yourself.
   Dictionary new at: 'address' put: '127.0.0.1:9'; at: 'secret' put: ''; yourself} do: [:each |
    self assert: ((self prepare: (self config: each)) at: 'ok') == true.
    self assert: McpChannel current isNil]
%
