set compile_env: 0
! ------------------- Class definition for McpExtensionTest
expectvalue /Class
doit
TestCase subclass: 'McpExtensionTest'
  instVarNames: #( savedServer savedChannel)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpExtensionTest comment: 
'The extension story, through McpFixtureToolset (a third-party toolset) and McpFixtureServer (a
worker subclass that names itself): a deployment serves only the toolsets it names, two unrelated
toolsets compose on one server, the default surface is the 32 tools of the specification and the 11 of the debugger, options
reach only the toolset they are for and an undeclared one is refused at prepare, a subclass names
itself and the prepare config relabels it, and a toolset''s own error kind reaches the client.

One test drives the class-side worker entries, which install the prepared server in this session;
it puts back whatever server and channel the session had, so running this suite inside a worker leaves that
worker serving.'
%
expectvalue /Class
doit
McpExtensionTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpExtensionTest
removeallmethods McpExtensionTest
removeallclassmethods McpExtensionTest
! ------------------- Class methods for McpExtensionTest
! ------------------- Instance methods for McpExtensionTest
category: 'helpers'
method: McpExtensionTest
callTool: aName arguments: aDictionary on: aServer
  "The parsed tools/call response of aServer."
  | request |
  request := Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'id' put: 7;
    at: 'method' put: 'tools/call';
    at: 'params' put: (Dictionary new at: 'name' put: aName; at: 'arguments' put: aDictionary; yourself);
    yourself.
  ^McpJson parse: (aServer handle: (McpJson write: request))
%
category: 'helpers'
method: McpExtensionTest
config
  "A minimal valid prepare config for McpServer; tests add to it."
  ^Dictionary new
    at: 'contract' put: 1;
    at: 'workerClass' put: 'McpServer';
    at: 'protocolVersions' put: #('2025-11-25');
    yourself
%
category: 'helpers'
method: McpExtensionTest
prepareKindOf: aConfig for: aServerClass
  "The kind of the prepare failure, or nil when aConfig prepares."
  ^[aServerClass fromConfig: aConfig. nil]
    on: McpError
    do: [:ex | ex return: ex kind]
%
category: 'helpers'
method: McpExtensionTest
sortedToolNamesOf: aServer
  ^(aServer registry toolNames collect: [:each | each asString]) asSortedCollection asArray
%
category: 'helpers'
method: McpExtensionTest
specDefaultSurface
  "The specification's 31 tools, open_session and close_session, which the front end serves
   (the 2026-07-28 revision's sessions as explicit handles, docs/transport.md), and the 11 of the
   debugger and its breakpoints (issue 27)."
  ^#('abort' 'add_dictionary' 'clear_breakpoint' 'close_session' 'commit' 'compile_class_definition' 'compile_method'
     'debug_abandon' 'debug_code' 'debug_evaluate' 'debug_restart_frame' 'debug_resume' 'debug_set_temp'
     'debug_step' 'debug_test' 'delete_class'
     'delete_method' 'describe_class' 'describe_test_failure' 'execute_code' 'export_class_source'
     'find_implementors' 'find_references_to' 'find_senders' 'get_class_definition'
     'get_class_hierarchy' 'get_method_source' 'list_all_classes' 'list_breakpoints' 'list_classes'
     'list_dictionaries' 'list_dictionary_entries' 'list_failing_tests' 'list_methods'
     'list_test_classes' 'open_session' 'pending_changes' 'refresh' 'remove_dictionary' 'run_test_class' 'run_test_method'
     'search_method_source' 'set_breakpoint' 'set_class_comment' 'status')
%
category: 'running'
method: McpExtensionTest
setUp
  super setUp.
  savedServer := McpServer current.
  savedChannel := McpChannel current
%
category: 'running'
method: McpExtensionTest
tearDown
  McpServer install: savedServer.
  SessionTemps current at: McpChannel sessionKey put: savedChannel.
  super tearDown
%
category: 'tests'
method: McpExtensionTest
testAServerOfOneToolsetOffersOnlyItsTools
  self
    assert: (self sortedToolNamesOf: (McpServer withToolsetNames: #('McpFixtureToolset')))
    = #('fixture_echo' 'fixture_refuse')
%
category: 'tests'
method: McpExtensionTest
testTwoUnrelatedToolsetsComposeOnOneServer
  | names |
  names := self sortedToolNamesOf: (McpServer withToolsetNames: #('McpFixtureToolset' 'McpBrowsingToolset')).
  self assert: names size = 8.
  self assert: (names includes: 'fixture_echo').
  self assert: (names includes: 'describe_class').
  self deny: (names includes: 'execute_code')
%
category: 'tests'
method: McpExtensionTest
testTheDefaultSurfaceIsTheSpecificationsToolsTheSessionToolsAndTheDebugger
  | server |
  server := McpServer fromConfig: self config.
  self assert: server toolCount = 45.
  self assert: (self sortedToolNamesOf: server) = self specDefaultSurface
%
category: 'tests'
method: McpExtensionTest
testAToolsetsNamesComeFromItsOneDeclaration
  "toolNames is derived from registerOn: with no server and runs no handler."
  self assert: McpFixtureToolset toolNames = #('fixture_echo' 'fixture_refuse')
%
category: 'tests'
method: McpExtensionTest
testAToolsetSeesItsOwnOptions
  | server |
  server := McpServer fromConfig: (self config
    at: 'toolsets' put: #('McpFixtureToolset' 'McpListingToolset');
    at: 'toolsetOptions' put: (Dictionary new
      at: 'McpFixtureToolset' put: (Dictionary new at: 'greeting' put: 'ahoy'; yourself);
      yourself);
    yourself).
  self assert: ((server registry toolNamed: 'fixture_echo' ifAbsent: [nil])
    callWith: (Dictionary new at: 'text' put: 'there'; yourself)) = 'ahoy, there'.
  self assert: (server config optionsFor: 'McpListingToolset') isNil
%
category: 'tests'
method: McpExtensionTest
testAnOptionLeftOutFallsBackToTheToolsetsDefault
  | server |
  server := McpServer withToolsetNames: #('McpFixtureToolset').
  self assert: ((server registry toolNamed: 'fixture_echo' ifAbsent: [nil])
    callWith: (Dictionary new at: 'text' put: 'there'; yourself)) = 'hello, there'
%
category: 'tests'
method: McpExtensionTest
testAnUndeclaredOptionIsRefusedAtPrepare
  self
    assert: (self prepareKindOf: (self config
      at: 'toolsets' put: #('McpFixtureToolset');
      at: 'toolsetOptions' put: (Dictionary new
        at: 'McpFixtureToolset' put: (Dictionary new at: 'greting' put: 'typo'; yourself);
        yourself);
      yourself) for: McpServer)
    = 'badOption'
%
category: 'tests'
method: McpExtensionTest
testOptionsForAToolsetOutsideTheSurfaceAreRefusedAtPrepare
  self
    assert: (self prepareKindOf: (self config
      at: 'toolsets' put: #('McpBrowsingToolset');
      at: 'toolsetOptions' put: (Dictionary new
        at: 'McpFixtureToolset' put: (Dictionary new at: 'greeting' put: 'ahoy'; yourself);
        yourself);
      yourself) for: McpServer)
    = 'toolsetNotFound'
%
category: 'tests'
method: McpExtensionTest
testAToolsetThatIsNotInTheImageIsToolsetNotFound
  self
    assert: (self prepareKindOf: (self config at: 'toolsets' put: #('AcmeNoSuchToolset'); yourself) for: McpServer)
    = 'toolsetNotFound'
%
category: 'tests'
method: McpExtensionTest
testTheFixtureServerNamesItselfAndServesItsOwnSurface
  | server |
  server := McpFixtureServer fromConfig: (self config at: 'workerClass' put: 'McpFixtureServer'; yourself).
  self assert: server config serverName = 'fixture-mcp'.
  self assert: server config serverVersion = '9.9.9'.
  self assert: (self sortedToolNamesOf: server) = #('fixture_echo' 'fixture_refuse')
%
category: 'tests'
method: McpExtensionTest
testThePrepareConfigRelabelsTheSubclass
  | server |
  server := McpFixtureServer fromConfig: (self config
    at: 'workerClass' put: 'McpFixtureServer';
    at: 'serverName' put: 'acme-labels';
    at: 'serverTitle' put: 'Acme Labels - sandbox';
    yourself).
  self assert: server config serverName = 'acme-labels'.
  self assert: server config serverTitle = 'Acme Labels - sandbox'.
  self assert: server config serverVersion = '9.9.9'
%
category: 'tests'
method: McpExtensionTest
testTheWorkerEntryAnswersAsTheNamedSubclass
  | answer response |
  answer := McpJson parse: (McpFixtureServer mcpPrepare: (McpJson write:
    (self config at: 'workerClass' put: 'McpFixtureServer'; yourself))).
  self assert: (answer at: 'ok') == true.
  self assert: (answer at: 'workerClass') = 'McpFixtureServer'.
  self assert: (answer at: 'serverName') = 'fixture-mcp'.
  self assert: (answer at: 'tools') = 2.
  response := McpJson parse: (McpFixtureServer mcpHandle:
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}').
  self assert: (((response at: 'result') at: 'serverInfo') at: 'name') = 'fixture-mcp'
%
category: 'tests'
method: McpExtensionTest
testAToolsetsOwnErrorKindReachesTheClient
  | response result |
  response := self callTool: 'fixture_refuse' arguments: Dictionary new
    on: (McpServer withToolsetNames: #('McpFixtureToolset')).
  result := response at: 'result'.
  self assert: (result at: 'isError') == true.
  self assert: (((result at: 'structuredContent') at: 'error') at: 'kind') = 'fixtureRefused'
%
