set compile_env: 0
! ------------------- Class definition for McpContractTest
expectvalue /Class
doit
TestCase subclass: 'McpContractTest'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpContractTest comment: 
'Properties of the whole default tool surface, driven through the real byte entry: all 39 tools
are offered, every schema is closed and every tool described, each tool is declared by exactly
one toolset of the surface, a server built from one toolset offers only its tools,
and the two failure envelopes of tools/call (a protocol error for the request, a tool error for
the arguments). It needs the seven core toolsets loaded and fails without them.
Touches nothing in the repository: no tool is run except status.'
%
expectvalue /Class
doit
McpContractTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpContractTest
removeallmethods McpContractTest
removeallclassmethods McpContractTest
! ------------------- Instance methods for McpContractTest
category: 'helpers'
method: McpContractTest
responseTo: aRequest
  ^McpJson parse: (server handle: aRequest)
%
category: 'running'
method: McpContractTest
setUp
  server := McpServer withToolsetNames: McpServer defaultToolsetNames
%
category: 'helpers'
method: McpContractTest
sorted: aCollection
  ^(aCollection asSortedCollection: [:a :b | a <= b]) asArray
%
category: 'tests'
method: McpContractTest
testAServerBuiltFromOneToolsetOffersOnlyItsTools
  | single |
  single := McpServer withToolsetNames: #('McpSessionToolset').
  self assert: single registry toolNames = (self sorted: McpSessionToolset toolNames)
%
category: 'tests'
method: McpContractTest
testArgumentsFailAsToolErrorsWhileTheRequestFailsAsAProtocolError
  | result |
  result := (self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status","arguments":{"verbose":true}}}') at: 'result'.
  self assert: (result at: 'isError') == true.
  self assert: (((result at: 'structuredContent') at: 'error') at: 'kind') = 'invalidParams'.
  self assert: (((self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no_such_tool"}}') at: 'error') at: 'code') = McpJsonRpcCodes invalidParams.
  self assert: (((self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}') at: 'error') at: 'code') = McpJsonRpcCodes invalidParams
%
category: 'tests'
method: McpContractTest
testEveryToolIsDescribedAndItsSchemaClosed
  ((((self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}') at: 'result') at: 'tools')) do: [:each | | schema |
    self assert: ((each at: 'description') isKindOf: CharacterCollection).
    self deny: (each at: 'description') isEmpty.
    schema := each at: 'inputSchema'.
    self assert: (schema at: 'type') = 'object'.
    self assert: (schema at: 'additionalProperties') == false.
    self assert: ((schema at: 'required') isKindOf: Array).
    (schema at: 'required') do: [:name | self assert: ((schema at: 'properties') includesKey: name)]]
%
category: 'tests'
method: McpContractTest
testTheDefaultSurfaceOffersAll45Tools
  | tools |
  tools := ((self responseTo: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}') at: 'result') at: 'tools'.
  self assert: tools size = 45.
  self assert: (tools collect: [:each | each at: 'name']) asArray = server registry toolNames
%
category: 'tests'
method: McpContractTest
testEveryToolIsDeclaredByExactlyOneToolset
  | declared |
  declared := OrderedCollection new.
  McpServer defaultToolsetNames do: [:toolsetName |
    declared addAll: (System myUserProfile objectNamed: toolsetName asSymbol) toolNames].
  self assert: declared size = 45.
  self assert: (self sorted: declared) = server registry toolNames
%
