set compile_env: 0
! ------------------- Class definition for McpJsonRpcCodes
expectvalue /Class
doit
Object subclass: 'McpJsonRpcCodes'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpJsonRpcCodes comment: 
'The JSON-RPC error codes the worker answers, one class-side method each, so that every error
response names its code instead of writing the number. The first five are JSON-RPC 2.0''s own;
the last two are in the range JSON-RPC leaves to the server: resourceNotFound is the code the MCP
specification gives a resource that is not there, and toolNotGranted is this project''s, for a tool
outside the grant (docs/worker-contract.md). It has no instances.'
%
expectvalue /Class
doit
McpJsonRpcCodes category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpJsonRpcCodes
removeallmethods McpJsonRpcCodes
removeallclassmethods McpJsonRpcCodes
! ------------------- Class methods for McpJsonRpcCodes
category: 'json-rpc 2.0'
classmethod: McpJsonRpcCodes
parseError
  "The body is not UTF-8 or not JSON."
  ^-32700
%
category: 'json-rpc 2.0'
classmethod: McpJsonRpcCodes
invalidRequest
  "Not one JSON-RPC 2.0 request object: a batch, a bad id, no method, a wrong jsonrpc member."
  ^-32600
%
category: 'json-rpc 2.0'
classmethod: McpJsonRpcCodes
methodNotFound
  ^-32601
%
category: 'json-rpc 2.0'
classmethod: McpJsonRpcCodes
invalidParams
  "The params of a method, not the arguments of a tool: those fail as an isError result."
  ^-32602
%
category: 'json-rpc 2.0'
classmethod: McpJsonRpcCodes
internalError
  "A failure of the worker itself, answered with data.kind workerError."
  ^-32603
%
category: 'server range'
classmethod: McpJsonRpcCodes
toolNotGranted
  "A registered tool outside the toolsets the session's grant offers."
  ^-32001
%
category: 'server range'
classmethod: McpJsonRpcCodes
resourceNotFound
  "A resource URI that names nothing, as the MCP specification codes it."
  ^-32002
%
