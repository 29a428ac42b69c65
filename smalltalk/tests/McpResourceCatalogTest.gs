set compile_env: 0
! ------------------- Class definition for McpResourceCatalogTest
expectvalue /Class
doit
McpTestCase subclass: 'McpResourceCatalogTest'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpResourceCatalogTest comment: 
'Class and method source as MCP resources through the dispatcher: the URI forms, reading in
this session''s view (and the read licensing a write), not-found and bad-cursor errors, the
templates, and the subscription bound. The classes read are the worker''s own (in Mcp) and
Object (in Globals). A subscription is made only on Object, a committed kernel class: the
classes a suite files in are not committed, and a stone notifies only for committed objects.
Nothing is committed; the notify set it leaves lasts until the session ends.'
%
expectvalue /Class
doit
McpResourceCatalogTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpResourceCatalogTest
removeallmethods McpResourceCatalogTest
removeallclassmethods McpResourceCatalogTest
! ------------------- Instance methods for McpResourceCatalogTest
category: 'running'
method: McpResourceCatalogTest
setUp
  server := McpTestServer withToolsetNames: #('McpSessionToolset')
%
category: 'helpers'
method: McpResourceCatalogTest
request: aMethod params: aParamsJson
  ^McpJson parse: (server handle: '{"jsonrpc":"2.0","id":1,"method":"' , aMethod , '","params":' , aParamsJson , '}')
%
category: 'helpers'
method: McpResourceCatalogTest
read: aUri
  ^(((self request: 'resources/read' params: '{"uri":"' , aUri , '"}') at: 'result') at: 'contents') first at: 'text'
%
category: 'tests'
method: McpResourceCatalogTest
testAUriEncodesWhatAPathCannotHold
  self assert: (McpResourceCatalog encode: '<=') = '%3C='.
  self assert: (McpResourceCatalog encode: 'at:put:') = 'at:put:'.
  self assert: (McpResourceCatalog decode: '%3C=') = '<='.
  self assert: (McpResourceCatalog decode: '%3') isNil.
  self assert: (McpResourceCatalog uriOfClass: McpServer in: 'Mcp') = 'gemstone://Mcp/McpServer'
%
category: 'tests'
method: McpResourceCatalogTest
testAClassAMethodAndADefinitionReadInThisView
  self assert: (self includes: 'McpReadLedger' in: (self read: 'gemstone://Mcp/McpReadLedger')).
  self assert: (self read: 'gemstone://Mcp/McpReadLedger/definition') = McpReadLedger definition asString.
  self assert: (self read: 'gemstone://Mcp/McpReadLedger/instance/noteRead:') = (McpReadLedger sourceCodeAt: #noteRead:) asString.
  self assert: (self read: 'gemstone://Mcp/McpReadLedger/class/new') = (McpReadLedger class sourceCodeAt: #new) asString.
  self assert: (server ledger isReadLicensed: 'McpReadLedger>>noteRead:')
%
category: 'tests'
method: McpResourceCatalogTest
testWhatIsNotThereIsResourceNotFound
  #('gemstone://Mcp/NoSuchClass' 'gemstone://NoSuchDictionary/McpServer' 'gemstone://Mcp/McpServer/instance/noSuchSelector'
    'gemstone://Mcp/McpServer/sideways/x' 'file:///etc/passwd' 'gemstone://Mcp/McpServer/instance/%ZZ') do: [:each | | error |
      error := (self request: 'resources/read' params: '{"uri":"' , each , '"}') at: 'error'.
      self assert: (error at: 'code') = McpJsonRpcCodes resourceNotFound.
      self assert: ((error at: 'data') at: 'uri') = each]
%
category: 'tests'
method: McpResourceCatalogTest
testTheListPagesTheClassesAndRefusesAForeignCursor
  | result uris |
  result := (self request: 'resources/list' params: '{}') at: 'result'.
  uris := (result at: 'resources') collect: [:each | each at: 'uri'].
  self assert: uris size <= McpResourceCatalog pageSize.
  self assert: ((result includesKey: 'nextCursor') or: [uris includes: 'gemstone://Mcp/McpServer']).
  self assert: (((self request: 'resources/list' params: '{"cursor":"x1"}') at: 'error') at: 'code') = McpJsonRpcCodes invalidParams
%
category: 'tests'
method: McpResourceCatalogTest
testThreeTemplates
  | templates |
  templates := ((self request: 'resources/templates/list' params: '{}') at: 'result') at: 'resourceTemplates'.
  self assert: (templates collect: [:each | each at: 'uriTemplate']) asArray
    = #('gemstone://{dictionary}/{class}' 'gemstone://{dictionary}/{class}/definition' 'gemstone://{dictionary}/{class}/{side}/{selector}')
%
category: 'tests'
method: McpResourceCatalogTest
testASubscriptionIsBoundedPerSession
  | selectors answer |
  selectors := (Object selectors asSortedCollection: [:a :b | a <= b]) asArray.
  self assert: selectors size > McpResourceCatalog maxSubscriptions.
  1 to: McpResourceCatalog maxSubscriptions do: [:index |
    answer := self request: 'resources/subscribe'
      params: '{"uri":"gemstone://Globals/Object/instance/' , (McpResourceCatalog encode: (selectors at: index)) , '"}'.
    self assert: (answer includesKey: 'result')].
  answer := self request: 'resources/subscribe'
    params: '{"uri":"gemstone://Globals/Object/instance/' , (McpResourceCatalog encode: (selectors at: McpResourceCatalog maxSubscriptions + 1)) , '"}'.
  self assert: ((answer at: 'error') at: 'code') = McpJsonRpcCodes invalidParams.
  self assert: server resources subscriptionCount = McpResourceCatalog maxSubscriptions.
  self assert: (((self request: 'io.github.gemstone-mcp/resourceUpdates' params: '{}') at: 'result') at: 'updated') isEmpty
%
