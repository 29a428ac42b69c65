set compile_env: 0
! ------------------- Class definition for McpTraceLineTest
expectvalue /Class
doit
TestCase subclass: 'McpTraceLineTest'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTraceLineTest comment: 
'The gem log line of a tools/call the router traced: it names the tool and the trace the router
put in params._meta.traceparent, and no argument; an untraced call, or a traceparent that is
not one, gives no line. Reads the line McpDispatcher builds; writes nothing to the gem log and
touches nothing in the repository.'
%
expectvalue /Class
doit
McpTraceLineTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpTraceLineTest
removeallmethods McpTraceLineTest
removeallclassmethods McpTraceLineTest
! ------------------- Instance methods for McpTraceLineTest
category: 'helpers'
method: McpTraceLineTest
lineFor: aParamsJson
  ^server dispatcher traceLineFor: 'echo' params: (McpJson parse: aParamsJson)
%
category: 'running'
method: McpTraceLineTest
setUp
  server := McpTestServer withToolsetNames: #('McpCoreTestToolset')
%
category: 'tests'
method: McpTraceLineTest
testATracedCallNamesToolTraceAndSpan
  self assert: (self lineFor: '{"name":"echo","arguments":{"text":"secret argument"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","progressToken":"p"}}')
    = 'McpServer: tools/call echo in trace 4bf92f3577b34da6a3ce929d0e0e4736 (span 00f067aa0ba902b7)'
%
category: 'tests'
method: McpTraceLineTest
testAnUntracedCallHasNoLine
  self assert: (self lineFor: '{"name":"echo","arguments":{}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"progressToken":"p"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":"not an object"}') isNil
%
category: 'tests'
method: McpTraceLineTest
testATraceparentThatIsNotOneHasNoLine
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"hello"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":42}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"00-short-00f067aa0ba902b7-01"}}') isNil
%
category: 'tests'
method: McpTraceLineTest
testATraceparentCarryingALineBreakOrNonHexHasNoLine
  "A client's own traceparent reaches the worker when tracing is off; a line break in it would
   write a gem log line of the client's choosing."
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736\r\nMcpServer: forged-00f067aa0ba902b7-01"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0\n4736-00f067aa0ba902b7-01"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e473x-00f067aa0ba902b7-01"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0101"}}') isNil.
  self assert: (self lineFor: '{"name":"echo","_meta":{"traceparent":"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}') isNil
%
