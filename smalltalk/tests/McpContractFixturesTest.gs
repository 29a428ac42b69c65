set compile_env: 0
! ------------------- Class definition for McpContractFixturesTest
expectvalue /Class
doit
TestCase subclass: 'McpContractFixturesTest'
  instVarNames: #( server placeholders)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpContractFixturesTest comment: 
'The in-image runner of the contract fixtures: the matching rule of test/contract/README.md, and
cases shaped like the files in test/contract/cases (a JSON request, a requestText, a
requestBase64, noResponse, placeholders) run against the real dispatcher. The files themselves
are replayed by McpContractFixtures reportOn:cases:placeholders: from the real-stone script.
Touches nothing in the repository.'
%
expectvalue /Class
doit
McpContractFixturesTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpContractFixturesTest
removeallmethods McpContractFixturesTest
removeallclassmethods McpContractFixturesTest
! ------------------- Instance methods for McpContractFixturesTest
category: 'helpers'
method: McpContractFixturesTest
check: aCaseText
  ^McpContractFixtures checkCase: aCaseText server: server placeholders: placeholders
%
category: 'helpers'
method: McpContractFixturesTest
match: aPatternJson against: anActualJson
  ^McpContractFixtures match: (McpJson parse: aPatternJson) against: (McpJson parse: anActualJson) path: '$'
%
category: 'running'
method: McpContractFixturesTest
setUp
  server := McpTestServer withToolsetNames: #('McpCoreTestToolset').
  placeholders := Dictionary new
    at: 'ARGS_TOOL' put: 'echo';
    at: 'ARGS_TOOL_ARG' put: 'text';
    yourself
%
category: 'tests - cases'
method: McpContractFixturesTest
testABase64RequestIsDecodedAndItsBadUtf8Refused
  self assert: (self check: '{"description": "not UTF-8", "requestBase64": "eyJqc29ucnBjIjoiMi4wIiwiaWQiOjE0LCJtZXRob2QiOiJwaW5nIiwieCI6Iv8ifQ==", "response": {"jsonrpc": "2.0", "id": null, "result": "$absent", "error": {"code": -32700, "message": "$string"}}}') isNil
%
category: 'tests - cases'
method: McpContractFixturesTest
testANoResponseCasePassesOnlyWithNoAnswer
  self assert: (self check: '{"description": "response", "request": {"jsonrpc": "2.0", "id": 12, "result": {}}, "noResponse": true}') isNil.
  self deny: (self check: '{"description": "ping", "request": {"jsonrpc": "2.0", "id": 3, "method": "ping"}, "noResponse": true}') isNil
%
category: 'tests - cases'
method: McpContractFixturesTest
testARequestTextCaseIsSentVerbatim
  self assert: (self check: '{"description": "malformed", "requestText": "{\"jsonrpc\": \"2.0\", \"id\": 13, \"method\": \"ping\"", "response": {"jsonrpc": "2.0", "id": null, "result": "$absent", "error": {"code": -32700, "message": "$string"}}}') isNil
%
category: 'tests - cases'
method: McpContractFixturesTest
testPlaceholdersAreFilledBeforeTheRequestIsSent
  self assert: (self check: '{"description": "wrong type", "request": {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "${ARGS_TOOL}", "arguments": {"${ARGS_TOOL_ARG}": 42}}}, "response": {"jsonrpc": "2.0", "id": 10, "error": "$absent", "result": {"isError": true, "structuredContent": {"error": {"kind": "invalidParams"}}}}}') isNil
%
category: 'tests - cases'
method: McpContractFixturesTest
testThePingCasePasses
  self assert: (self check: '{"description": "ping", "request": {"jsonrpc": "2.0", "id": 3, "method": "ping"}, "response": {"jsonrpc": "2.0", "id": 3, "error": "$absent", "result": {"$exact": {}}}}') isNil
%
category: 'tests - cases'
method: McpContractFixturesTest
testTheToolsListShapeCasePasses
  self assert: (self check: '{"description": "shape", "request": {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}, "response": {"jsonrpc": "2.0", "id": 4, "error": "$absent", "result": {"nextCursor": "$absent", "tools": {"$minItems": 1, "$each": {"name": "$nonEmptyString", "inputSchema": {"type": "object", "additionalProperties": false}}}}}}') isNil
%
category: 'tests - matching'
method: McpContractFixturesTest
testAPresentMemberThatMustBeAbsentFails
  self assert: (self match: '{"error": "$absent"}' against: '{"error": {}}') = '$.error: want no such member, got {}'
%
category: 'tests - matching'
method: McpContractFixturesTest
testBase64DecodesToBytes
  self assert: (McpContractFixtures base64Decode: 'aGk=') = 'hi'.
  self assert: (McpContractFixtures base64Decode: '/w==') = (String with: (Character codePoint: 255))
%
category: 'tests - matching'
method: McpContractFixturesTest
testEachAndMinItemsCheckEveryElement
  self assert: (self match: '{"$each": "$integer", "$minItems": 2}' against: '[1, 2]') isNil.
  self assert: (self match: '{"$each": "$integer", "$minItems": 3}' against: '[1, 2]') notNil.
  self assert: (self match: '{"$each": "$integer"}' against: '[1, "x"]') = '$[1]: want integer, got "x"'
%
category: 'tests - matching'
method: McpContractFixturesTest
testExactComparesTheWholeValue
  self assert: (self match: '{"$exact": {}}' against: '{}') isNil.
  self assert: (self match: '{"$exact": {}}' against: '{"a": 1}') notNil
%
category: 'tests - matching'
method: McpContractFixturesTest
testTheFirstDifferenceIsNamedByItsPath
  self assert: (self match: '{"a": {"b": 1}}' against: '{"a": {"b": 2}, "c": 3}') = '$.a.b: want 1, got 2'.
  self assert: (self match: '{"a": "$string"}' against: '{}') = '$.a: missing'
%
category: 'tests - matching'
method: McpContractFixturesTest
testTypePatternsMatchByJsonType
  self assert: (self match: '{"s": "$string", "n": "$number", "i": "$integer", "b": "$boolean", "o": "$object", "a": "$array", "x": "$any", "e": "$nonEmptyString"}'
    against: '{"s": "", "n": 1.5, "i": 2, "b": false, "o": {}, "a": [], "x": 1, "e": "y"}') isNil.
  self assert: (self match: '{"e": "$nonEmptyString"}' against: '{"e": ""}') notNil
%
