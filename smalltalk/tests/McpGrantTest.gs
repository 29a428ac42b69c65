set compile_env: 0
! ------------------- Class definition for McpGrantTest
expectvalue /Class
doit
TestCase subclass: 'McpGrantTest'
  instVarNames: #( savedServer savedChannel)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpGrantTest comment: 
'The grant of the worker contract: the toolsets of the surface a client is offered, which its
token''s scopes chose. The prepare applies and echoes it, tools/list shows only its tools, a
call outside it is the -32001 error of kind toolNotGranted naming the toolset, mcpGrant: grows
and shrinks it between calls without touching the rest of the session, and a grant naming a
toolset outside the surface is refused whole. Every test restores the server and the channel
this session held in SessionTemps; no tool that changes anything is called. Touches nothing in
the repository.'
%
expectvalue /Class
doit
McpGrantTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpGrantTest
removeallmethods McpGrantTest
removeallclassmethods McpGrantTest
! ------------------- Instance methods for McpGrantTest
category: 'helpers'
method: McpGrantTest
configGranting: anArrayOrNil
  "A prepare config over two toolsets, with a grant of anArrayOrNil (nil: no grant)."
  | config |
  config := Dictionary new
    at: 'contract' put: 1;
    at: 'workerClass' put: 'McpServer';
    at: 'toolsets' put: #('McpCoreTestToolset' 'McpSessionToolset');
    at: 'protocolVersions' put: #('2025-11-25');
    at: 'resultCap' put: 50000;
    yourself.
  anArrayOrNil isNil ifFalse: [
    config at: 'grant' put: (Dictionary new at: 'toolsets' put: anArrayOrNil; yourself)].
  ^config
%
category: 'helpers'
method: McpGrantTest
prepareGranting: anArrayOrNil
  "The parsed answer of mcpPrepare: with that grant."
  ^McpJson parse: (McpServer mcpPrepare: (McpJson write: (self configGranting: anArrayOrNil)))
%
category: 'helpers'
method: McpGrantTest
grant: anArray
  "The parsed answer of mcpGrant: with these toolsets."
  ^McpJson parse: (McpServer mcpGrant: (McpJson write: (Dictionary new at: 'toolsets' put: anArray; yourself)))
%
category: 'helpers'
method: McpGrantTest
listedNames
  "The names tools/list answers, in its order."
  | response |
  response := McpJson parse: (McpServer mcpHandle: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}').
  ^((response at: 'result') at: 'tools') collect: [:each | each at: 'name']
%
category: 'helpers'
method: McpGrantTest
call: aToolName
  "The parsed response of a tools/call of aToolName with no arguments."
  ^McpJson parse: (McpServer mcpHandle:
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"' , aToolName , '","arguments":{}}}')
%
category: 'running'
method: McpGrantTest
setUp
  savedServer := McpServer current.
  savedChannel := McpChannel current
%
category: 'running'
method: McpGrantTest
tearDown
  McpServer install: savedServer.
  SessionTemps current at: McpChannel sessionKey put: savedChannel
%
category: 'tests'
method: McpGrantTest
testWithoutAGrantTheWholeSurfaceIsOfferedAndNoGrantIsEchoed
  | answer |
  answer := self prepareGranting: nil.
  self assert: (answer at: 'ok') == true.
  self assert: (answer includesKey: 'grant') not.
  self assert: McpServer current grantedToolsets isNil.
  self assert: self listedNames asArray = McpServer current registry toolNames
%
category: 'tests'
method: McpGrantTest
testThePrepareEchoesTheGrantAndListsOnlyItsTools
  | answer names |
  answer := self prepareGranting: #('McpSessionToolset').
  self assert: (answer at: 'ok') == true.
  self assert: ((answer at: 'grant') at: 'toolsets') asArray = #('McpSessionToolset').
  names := self listedNames.
  self assert: names asArray = #('abort' 'close_session' 'commit' 'open_session' 'pending_changes' 'refresh' 'status').
  self assert: (answer at: 'tools') = McpServer current registry size
%
category: 'tests'
method: McpGrantTest
testACallOutsideTheGrantIsToolNotGrantedNamingItsToolset
  | response error data |
  self prepareGranting: #('McpSessionToolset').
  response := self call: 'greet'.
  self assert: (response includesKey: 'result') not.
  error := response at: 'error'.
  self assert: (error at: 'code') = McpJsonRpcCodes toolNotGranted.
  data := error at: 'data'.
  self assert: (data at: 'kind') = 'toolNotGranted'.
  self assert: (data at: 'tool') = 'greet'.
  self assert: (data at: 'toolset') = 'McpCoreTestToolset'.
  self assert: (response at: 'id') = 7
%
category: 'tests'
method: McpGrantTest
testAnUnknownToolIsStillAnUnknownTool
  | response |
  self prepareGranting: #('McpSessionToolset').
  response := self call: 'no_such_tool'.
  self assert: ((response at: 'error') at: 'code') = McpJsonRpcCodes invalidParams
%
category: 'tests'
method: McpGrantTest
testMcpGrantGrowsThenShrinksTheSurfaceOfTheSameServer
  | server answer |
  self prepareGranting: #().
  server := McpServer current.
  self assert: self listedNames isEmpty.
  answer := self grant: #('McpCoreTestToolset' 'McpSessionToolset').
  self assert: (answer at: 'ok') == true.
  self assert: ((answer at: 'grant') at: 'toolsets') size = 2.
  self assert: McpServer current == server.
  self assert: ((self call: 'greet') at: 'result') notNil.
  answer := self grant: #('McpCoreTestToolset').
  self assert: (answer at: 'ok') == true.
  self assert: (self listedNames includes: 'commit') not.
  self assert: ((((self call: 'status') at: 'error') at: 'data') at: 'kind') = 'toolNotGranted'
%
category: 'tests'
method: McpGrantTest
testAGrantOutsideTheSurfaceIsRefusedWhole
  | answer |
  answer := self prepareGranting: #('McpElsewhereToolset').
  self assert: (answer at: 'ok') == false.
  self assert: ((answer at: 'error') at: 'kind') = 'badConfig'.
  self prepareGranting: #('McpSessionToolset').
  answer := self grant: #('McpSessionToolset' 'McpElsewhereToolset').
  self assert: (answer at: 'ok') == false.
  self assert: ((answer at: 'error') at: 'kind') = 'badGrant'.
  self assert: McpServer current grantedToolsets asArray = #('McpSessionToolset')
%
category: 'tests'
method: McpGrantTest
testAGrantThatIsNotAnObjectOrBeforeAPrepareIsRefused
  | answer |
  self prepareGranting: #('McpSessionToolset').
  answer := McpJson parse: (McpServer mcpGrant: '["McpSessionToolset"]').
  self assert: ((answer at: 'error') at: 'kind') = 'badGrant'.
  answer := McpJson parse: (McpServer mcpGrant: '{"toolsets":').
  self assert: ((answer at: 'error') at: 'kind') = 'badGrant'.
  McpServer install: nil.
  answer := self grant: #().
  self assert: (answer at: 'ok') == false.
  self assert: ((answer at: 'error') at: 'kind') = 'badGrant'
%
