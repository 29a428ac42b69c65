set compile_env: 0
! ------------------- Class definition for McpDispatcher
expectvalue /Class
doit
Object subclass: 'McpDispatcher'
  instVarNames: #( server currentId)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpDispatcher comment: 
'JSON-RPC 2.0 and MCP routing for one server: handle: takes the UTF-8 bytes of one message and
answers the UTF-8 bytes of its response, or an empty String for a notification or a response.

initialize negotiates from the protocol versions of the prepare config (the version of the
client when listed, else the first), ping answers an empty object, tools/list answers the tools
of the grant (the whole registry without one) in one page (a cursor is refused -32602), a call of
a registered tool outside the grant is a -32001 error of kind toolNotGranted naming its toolset,
On an MCP 2026-07-28 request that names no GemStone session (params._meta names the revision,
and it is no tools/call whose arguments carry a string session) the request begins with an abort
and a tool not declared read-only is refused with an isError result of kind sessionRequired
naming open_session: the router runs such a request on a pooled gem whose work
is never kept. tools/call validates the arguments against
the closed schema of the tool (a violation is an isError result of kind invalidParams) and runs
it with the session''s channel (McpChannel) bound to the call, unbinding it before the answer.
logging/setLevel sets the level of the channel (an unknown level is -32602). Anything a handler
raises, inside the Error hierarchy or not, becomes an isError result with
structuredContent.error.kind; only a break (a ControlInterrupt, or an exception numbered as a
break) and a Notification pass through, and a CompileWarning is resumed.
A result carries a [session] note when the session state changed or needs attention: the view
moved (also when the tool itself committed, aborted or refreshed), reads went stale, a commit
failed, or the session first holds uncommitted changes (McpViewNotes>>sessionNotes).

It never refreshes, aborts or commits, never runs a tool that the registry does not hold, and
never lets a failing channel cost a call its answer.'
%
expectvalue /Class
doit
McpDispatcher category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpDispatcher
removeallmethods McpDispatcher
removeallclassmethods McpDispatcher
! ------------------- Class methods for McpDispatcher
category: 'instance creation'
classmethod: McpDispatcher
on: anMcpServer
  "The dispatcher of anMcpServer, which it asks for the registry, the grant, the config and the
   notes."
  ^self new setServer: anMcpServer
%
category: 'exceptions'
classmethod: McpDispatcher
mustPass: anException
  "A break must reach the router, and a Notification resumes by itself; everything else a tool
   raises is answered as a tool error."
  ^(self isBreak: anException) or: [anException isKindOf: Notification]
%
category: 'exceptions'
classmethod: McpDispatcher
isBreak: anException
  "A soft or hard break from the router. It is expected as a ControlInterrupt; the break error
   numbers are checked as well, so that a break signalled under another class still ends the
   call instead of being answered as a tool error."
  | number |
  (anException isKindOf: ControlInterrupt) ifTrue: [^true].
  number := [anException number] on: Error do: [:ex | ex return: nil].
  ^self breakNumbers includes: number
%
category: 'exceptions'
classmethod: McpDispatcher
breakNumbers
  "The error numbers of GemStone's soft and hard break."
  ^#(6003 6004)
%
category: 'exceptions'
classmethod: McpDispatcher
mustResume: anException
  "A compiler warning (a temporary that shadows another name, say) is resumed, as Rowan and
   Jasper resume it: it never turns a compile into an error nor escapes an entry."
  ^anException isKindOf: CompileWarning
%
category: 'exceptions'
classmethod: McpDispatcher
settle: anException with: aBlock
  "What every handler of the worker does with what it caught: resume a compiler warning, pass a
   break or a Notification on, and return the value of aBlock (given the exception) for anything
   else."
  (self mustResume: anException) ifTrue: [^anException resume].
  (self mustPass: anException) ifTrue: [^anException pass].
  ^anException return: (aBlock value: anException)
%
! ------------------- Instance methods for McpDispatcher
category: 'tools/call'
method: McpDispatcher
call: aTool with: args id: id
  "Run aTool and wrap what it answered, or what it raised, as a tools/call result."
  | outcome |
  aTool takeStructuredContent.
  outcome := [self textOf: (server viewNotes watchTransactionDuring: [aTool callWith: args] toolNamed: aTool name)]
    on: AbstractException
    do: [:ex | self class settle: ex with: [:caught | caught]].
  (outcome isKindOf: AbstractException) ifTrue: [
    aTool takeStructuredContent.
    ^self result: (self annotated: (self errorContentFor: outcome)) id: id].
  ^self result: (self annotated: (self structured: (self textContent: outcome isError: false) of: aTool)) id: id
%
category: 'tools/call'
method: McpDispatcher
structured: aResult of: aTool
  "aResult with the structured content aTool kept during the call, beside the text a client that
   reads only text still gets whole."
  | content |
  content := aTool takeStructuredContent.
  (aTool outputSchema notNil and: [content notNil]) ifTrue: [aResult at: 'structuredContent' put: content].
  ^aResult
%
category: 'tools/call'
method: McpDispatcher
annotated: aResult
  "aResult with the [session] notes appended to its text."
  | notes item |
  notes := server viewNotes sessionNotes.
  notes isEmpty ifTrue: [^aResult].
  item := (aResult at: 'content') first.
  notes do: [:each |
    item at: 'text' put: (item at: 'text') , (String with: Character lf) , each].
  ^aResult
%
category: 'accessing'
method: McpDispatcher
currentId
  "The id of the request being handled, for an answer built outside the dispatcher."
  ^currentId
%
category: 'envelope'
method: McpDispatcher
envelopeProblemIn: aMessage
  "An error response when aMessage is not a JSON-RPC 2.0 object with a valid id, else nil."
  (aMessage isKindOf: Dictionary) ifFalse: [
    ^self errorId: nil code: McpJsonRpcCodes invalidRequest
      message: 'a message must be one JSON-RPC object (the front end splits batches)'].
  ((aMessage includesKey: 'id') and: [(self isValidId: (aMessage at: 'id')) not]) ifTrue: [
    ^self errorId: nil code: McpJsonRpcCodes invalidRequest message: 'id must be a string or a number'].
  (aMessage at: 'jsonrpc' ifAbsent: [nil]) = '2.0' ifFalse: [
    ^self errorId: currentId code: McpJsonRpcCodes invalidRequest message: 'jsonrpc must be "2.0"'].
  ^nil
%
category: 'responses'
method: McpDispatcher
errorContentFor: anException
  "The isError result for anException: its text, and its kind in structuredContent."
  | extra |
  (anException isKindOf: McpError)
    ifTrue: [extra := anException extraFields]
    ifFalse: [extra := Dictionary new at: 'exception' put: anException class name asString; yourself].
  ^self errorContentKind: (self kindOf: anException) message: (self messageOf: anException) details: extra
%
category: 'responses'
method: McpDispatcher
errorContentKind: aKind message: aString details: aDictionaryOrNil
  "An isError tools/call result: the message as text, and structuredContent.error holding the
   kind, the message and any extra fields."
  | error result |
  error := Dictionary new.
  aDictionaryOrNil isNil ifFalse: [
    aDictionaryOrNil keysAndValuesDo: [:key :value | error at: key put: value]].
  error at: 'kind' put: aKind.
  error at: 'message' put: aString.
  result := self textContent: aString isError: true.
  result at: 'structuredContent' put: (Dictionary new at: 'error' put: error; yourself).
  ^result
%
category: 'responses'
method: McpDispatcher
errorId: id code: aCode message: aString
  "A JSON-RPC error response without data; aCode is one of McpJsonRpcCodes."
  ^self errorId: id code: aCode message: aString data: nil
%
category: 'responses'
method: McpDispatcher
errorId: id code: aCode message: aString data: aDictionaryOrNil
  "A JSON-RPC error response; data is left out when aDictionaryOrNil is nil."
  | error |
  error := Dictionary new
    at: 'code' put: aCode;
    at: 'message' put: aString;
    yourself.
  aDictionaryOrNil isNil ifFalse: [error at: 'data' put: aDictionaryOrNil].
  ^Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'id' put: id;
    at: 'error' put: error;
    yourself
%
category: 'handling'
method: McpDispatcher
handle: aByteObject
  "The UTF-8 bytes of the response to one message; empty when nothing is to be sent."
  | response |
  currentId := nil.
  response := self responseTo: aByteObject.
  response isNil ifTrue: [^String new].
  ^McpJson write: response
%
category: 'initialize'
method: McpDispatcher
initialize: params id: id
  "The initialize result: the client's protocolVersion when the config lists it, else the
   config's first; the capabilities, serverInfo and instructions."
  | requested versions result |
  requested := params at: 'protocolVersion' ifAbsent: [nil].
  (requested isKindOf: CharacterCollection) ifFalse: [
    ^self errorId: id code: McpJsonRpcCodes invalidParams message: 'initialize needs params.protocolVersion (a string)'].
  versions := server config protocolVersions.
  result := Dictionary new
    at: 'protocolVersion' put: ((versions includes: requested) ifTrue: [requested] ifFalse: [versions first]);
    at: 'capabilities' put: self capabilities;
    at: 'serverInfo' put: self serverInfo;
    yourself.
  server config serverInstructions isNil ifFalse: [
    result at: 'instructions' put: server config serverInstructions].
  ^self result: result id: id
%
category: 'envelope'
method: McpDispatcher
isValidId: anId
  "A JSON-RPC id, or an MCP progress token: a string or a number (null is neither)."
  ^(anId isKindOf: CharacterCollection) or: [anId isKindOf: Number]
%
category: 'responses'
method: McpDispatcher
kindOf: anException
  "The structuredContent.error kind of a failed tool call."
  (anException isKindOf: McpError) ifTrue: [^anException kind].
  (anException isKindOf: CompileError) ifTrue: [^'compileError'].
  ^'other'
%
category: 'responses'
method: McpDispatcher
messageOf: anException
  "The text of a failed tool call: an McpError's safe text, else the exception's description."
  (anException isKindOf: McpError) ifTrue: [^anException safeText].
  ^McpServer describeException: anException
%
category: 'envelope'
method: McpDispatcher
parseErrorFor: anMcpError
  "-32700 for a body that is not UTF-8 or not JSON, with the kind and, for UTF-8, the offset."
  | data |
  data := Dictionary new.
  anMcpError extraFields isNil ifFalse: [
    anMcpError extraFields keysAndValuesDo: [:key :value | data at: key put: value]].
  data at: 'kind' put: anMcpError kind.
  ^self errorId: nil code: McpJsonRpcCodes parseError message: anMcpError safeText data: data
%
category: 'handling'
method: McpDispatcher
responseTo: aByteObject
  "The response Dictionary for one message, or nil when none is due."
  | message problem params |
  message := [McpJson parse: aByteObject] on: McpError do: [:ex | ex return: ex].
  (message isKindOf: McpError) ifTrue: [^self parseErrorFor: message].
  (message isKindOf: Dictionary) ifTrue: [currentId := message at: 'id' ifAbsent: [nil]].
  problem := self envelopeProblemIn: message.
  problem isNil ifFalse: [^problem].
  problem := self methodProblemIn: message.
  problem == #none ifTrue: [^nil].
  problem isNil ifFalse: [^problem].
  (message includesKey: 'id') ifFalse: [^nil].
  params := message at: 'params' ifAbsent: [nil].
  params isNil ifTrue: [params := Dictionary new].
  (params isKindOf: Dictionary) ifFalse: [
    ^self errorId: currentId code: McpJsonRpcCodes invalidParams message: 'params must be an object'].
  ^self route: (message at: 'method') params: params id: currentId
%
category: 'envelope'
method: McpDispatcher
methodProblemIn: aMessage
  "nil when aMessage names a method; otherwise #none for a response (an id and a result or an
   error: nothing to answer), or the -32600 error response."
  (aMessage includesKey: 'method') ifFalse: [
    ((aMessage includesKey: 'id')
      and: [(aMessage includesKey: 'result') or: [aMessage includesKey: 'error']])
        ifTrue: [^#none].
    ^self errorId: currentId code: McpJsonRpcCodes invalidRequest message: 'the message has no method'].
  ((aMessage at: 'method') isKindOf: CharacterCollection) ifFalse: [
    ^self errorId: currentId code: McpJsonRpcCodes invalidRequest message: 'method must be a string'].
  ^nil
%
category: 'responses'
method: McpDispatcher
result: aResult id: id
  "A JSON-RPC success response."
  ^Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'id' put: id;
    at: 'result' put: aResult;
    yourself
%
category: 'handling'
method: McpDispatcher
route: aMethod params: params id: id
  "The response to one request, by method; a pooled request begins with the contract's abort."
  (self isPooledRequest: params method: aMethod) ifTrue: [self beginStatelessRequest].
  aMethod = 'initialize' ifTrue: [^self initialize: params id: id].
  aMethod = 'ping' ifTrue: [^self result: Dictionary new id: id].
  aMethod = 'tools/list' ifTrue: [^self toolsList: params id: id].
  aMethod = 'tools/call' ifTrue: [^self toolsCall: params id: id].
  aMethod = 'logging/setLevel' ifTrue: [^self setLevel: params id: id].
  (self resourceMethods includes: aMethod) ifTrue: [^self resources: aMethod params: params id: id].
  ^self errorId: id code: McpJsonRpcCodes methodNotFound message: 'method not found: ' , aMethod
%
category: 'resources'
method: McpDispatcher
resourceMethods
  "The resource methods McpResourceCatalog answers; the last is the router's own question
   between calls (docs/worker-contract.md), which names the subscribed resources a commit changed."
  ^#('resources/list' 'resources/templates/list' 'resources/read' 'resources/subscribe'
     'resources/unsubscribe' 'io.github.gemstone-mcp/resourceUpdates')
%
category: 'resources'
method: McpDispatcher
resources: aMethod params: params id: id
  "The result of a resource method, or its error: -32002 for a resource that is not there (as
   MCP names it), -32602 for bad params or a subscription past the bound."
  | catalog answer |
  catalog := server resources.
  answer := [aMethod = 'resources/list' ifTrue: [catalog list: params]
      ifFalse: [aMethod = 'resources/templates/list' ifTrue: [catalog templates]
      ifFalse: [aMethod = 'resources/read' ifTrue: [catalog read: params]
      ifFalse: [aMethod = 'resources/subscribe' ifTrue: [catalog subscribe: params]
      ifFalse: [aMethod = 'resources/unsubscribe' ifTrue: [catalog unsubscribe: params]
      ifFalse: [catalog resourceUpdates]]]]]]
    on: McpError do: [:ex | ex return: ex].
  (answer isKindOf: McpError) ifFalse: [^self result: answer id: id].
  ^self errorId: id
    code: (answer kind = 'resourceNotFound'
      ifTrue: [McpJsonRpcCodes resourceNotFound]
      ifFalse: [McpJsonRpcCodes invalidParams])
    message: answer safeText
    data: (self dataOf: answer)
%
category: 'resources'
method: McpDispatcher
dataOf: anMcpError
  "The error data of a failed resource method: the extra fields of anMcpError and its kind."
  | data |
  data := Dictionary new.
  anMcpError extraFields isNil ifFalse: [
    anMcpError extraFields keysAndValuesDo: [:key :value | data at: key put: value]].
  data at: 'kind' put: anMcpError kind.
  ^data
%
category: 'initialize'
method: McpDispatcher
capabilities
  "tools; logging (a tool logs through the channel at the level the client sets); resources, with
   subscriptions (McpResourceCatalog)."
  ^Dictionary new
    at: 'tools' put: Dictionary new;
    at: 'logging' put: Dictionary new;
    at: 'resources' put: (Dictionary new at: 'subscribe' put: true; at: 'listChanged' put: false; yourself);
    yourself
%
category: 'initialize'
method: McpDispatcher
serverInfo
  "name and version always; title only when one is set."
  | info |
  info := Dictionary new
    at: 'name' put: server config serverName;
    at: 'version' put: server config serverVersion;
    yourself.
  server config serverTitle isNil ifFalse: [info at: 'title' put: server config serverTitle].
  ^info
%
category: 'initialization'
method: McpDispatcher
setServer: anMcpServer
  server := anMcpServer
%
category: 'responses'
method: McpDispatcher
textContent: aString isError: aBoolean
  "A tools/call result holding aString as its one text content item."
  ^Dictionary new
    at: 'content' put: (Array with: (Dictionary new
      at: 'type' put: 'text';
      at: 'text' put: aString;
      yourself));
    at: 'isError' put: aBoolean;
    yourself
%
category: 'tools/call'
method: McpDispatcher
textOf: aHandlerAnswer
  "A handler's answer as text: a String as it is, nil as empty, anything else printed."
  aHandlerAnswer isNil ifTrue: [^String new].
  (aHandlerAnswer isKindOf: CharacterCollection) ifTrue: [^aHandlerAnswer].
  ^aHandlerAnswer printString
%
category: 'tools/call'
method: McpDispatcher
toolsCall: params id: id
  "The response to tools/call: -32602 for a missing or unknown tool, toolNotGranted outside the
   grant, sessionRequired for a writing tool on a pooled gem, else the tool's result or its
   isError result."
  | name tool args problem |
  name := params at: 'name' ifAbsent: [nil].
  (name isKindOf: CharacterCollection) ifFalse: [
    ^self errorId: id code: McpJsonRpcCodes invalidParams message: 'tools/call needs params.name (a string)'].
  tool := server registry toolNamed: name ifAbsent: [nil].
  tool isNil ifTrue: [^self errorId: id code: McpJsonRpcCodes invalidParams message: 'unknown tool: ' , name].
  (server isToolGranted: name) ifFalse: [^self notGranted: name id: id].
  ((self isPooledRequest: params method: 'tools/call') and: [self mayChangeState: tool]) ifTrue: [
    ^self result: (self annotated: (self errorContentKind: 'sessionRequired'
      message: (self sessionRequiredMessageFor: name) details: nil)) id: id].
  self logTraceOf: name params: params.
  args := params at: 'arguments' ifAbsent: [nil].
  args isNil ifTrue: [args := Dictionary new].
  args := self toolArguments: args for: tool.
  problem := tool validationErrorFor: args.
  problem isNil ifFalse: [
    ^self result: (self annotated: (self errorContentKind: 'invalidParams' message: problem details: nil)) id: id].
  ^self withChannelBoundTo: id params: params do: [self call: tool with: args id: id]
%
category: 'tools/call'
method: McpDispatcher
isPooledRequest: params method: aMethod
  "An MCP 2026-07-28 request that names no GemStone session: the router runs it on a pooled gem
   whose uncommitted work is never kept, so a write there would be lost (docs/transport.md). Its
   params._meta names the revision, and it is no tools/call whose arguments carry a string
   session (the router runs those on the named session's gem)."
  | meta args |
  meta := params at: '_meta' ifAbsent: [nil].
  (meta isKindOf: Dictionary) ifFalse: [^false].
  (meta at: 'io.modelcontextprotocol/protocolVersion' ifAbsent: [nil]) = '2026-07-28' ifFalse: [^false].
  aMethod = 'tools/call' ifFalse: [^true].
  args := params at: 'arguments' ifAbsent: [nil].
  (args isKindOf: Dictionary) ifFalse: [^true].
  ^((args at: McpTool sessionArgument ifAbsent: [nil]) isKindOf: CharacterCollection) not
%
category: 'tools/call'
method: McpDispatcher
toolArguments: args for: aTool
  "args less the session argument: it names the GemStone session the call runs in (the router
   chose the gem by it) and is no argument of the tool, unless the tool declares it itself."
  | copy |
  (args isKindOf: Dictionary) ifFalse: [^args].
  (args includesKey: McpTool sessionArgument) ifFalse: [^args].
  (aTool properties includesKey: McpTool sessionArgument) ifTrue: [^args].
  copy := args copy.
  copy removeKey: McpTool sessionArgument.
  ^copy
%
category: 'handling'
method: McpDispatcher
beginStatelessRequest
  "A stateless request runs on a gem the router pools for many clients (docs/worker-contract.md):
   it begins with an abort, so it sees the repository as of its start and nothing an earlier
   request left in this gem survives into it. Nothing is ever committed here."
  server abortForStatelessRequest
%
category: 'tools/call'
method: McpDispatcher
mayChangeState: aTool
  "Every tool not declared read-only may leave uncommitted work, or commit."
  | hints |
  hints := aTool annotations.
  hints isNil ifTrue: [^true].
  ^(hints at: 'readOnlyHint' ifAbsent: [false]) ~~ true
%
category: 'tools/call'
method: McpDispatcher
sessionRequiredMessageFor: aName
  "Why a writing tool was refused on a pooled gem, and the calls that make it work."
  ^aName , ' may change the repository, and this call names no GemStone session, so its work could not be kept: '
    , 'call open_session, then pass the session it answers as the session argument of this call and of every later call '
    , '(commit with that session keeps the work; close_session ends it)'
%
category: 'tools/call'
method: McpDispatcher
notGranted: aName id: id
  "A tool of the surface outside the session's grant: a JSON-RPC error, not a tool result, so
   the router may read its kind and answer the client with a step-up challenge."
  | toolset |
  toolset := server toolsetOfToolNamed: aName.
  ^self errorId: id code: McpJsonRpcCodes toolNotGranted
    message: 'the tool ' , aName , ' is not granted to this session (its toolset ' , toolset
      , ' is outside the token''s scopes)'
    data: (Dictionary new
      at: 'kind' put: 'toolNotGranted';
      at: 'tool' put: aName;
      at: 'toolset' put: toolset;
      yourself)
%
category: 'tools/call'
method: McpDispatcher
withChannelBoundTo: id params: params do: aBlock
  "Run aBlock with the session's channel bound to this call; before the answer leaves, end the
   call (the router has then relayed what the tool sent) and give back any binding it replaced."
  | channel outerId outerToken |
  channel := McpChannel current.
  channel isNil ifTrue: [^aBlock value].
  outerId := channel callId.
  outerToken := channel progressToken.
  channel beginCall: id progressToken: (self progressTokenIn: params).
  ^aBlock ensure: [self endCallOn: channel restoring: outerId token: outerToken]
%
category: 'tools/call'
method: McpDispatcher
endCallOn: aChannel restoring: anId token: aToken
  "A channel that fails here never costs the call its answer."
  [aChannel endCall] on: Error do: [:ex | ex return: nil].
  anId isNil ifFalse: [aChannel beginCall: anId progressToken: aToken]
%
category: 'tracing'
method: McpDispatcher
logTraceOf: aToolName params: params
  "A call the router traced names its trace in the gem log, so the log line and the span of one
   call can be found from each other. An untraced call writes nothing."
  | line |
  line := self traceLineFor: aToolName params: params.
  line isNil ifFalse: [McpChannel gemLog: line]
%
category: 'tracing'
method: McpDispatcher
traceLineFor: aToolName params: params
  "The gem log line of a traced tools/call, or nil when params._meta holds no W3C traceparent
   of version 00 (2, 32, 16 and 2 lower-case hex digits joined by dashes). It names the tool and
   the trace, never an argument. The value is the client's own unless the router traced the
   call, so anything else (a line break above all) never reaches the log."
  | meta traceparent parts |
  meta := params at: '_meta' ifAbsent: [nil].
  (meta isKindOf: Dictionary) ifFalse: [^nil].
  traceparent := meta at: 'traceparent' ifAbsent: [nil].
  (traceparent isKindOf: CharacterCollection) ifFalse: [^nil].
  (traceparent size = 55 and: [self isLowerHex: traceparent without: #(3 36 53)]) ifFalse: [^nil].
  parts := traceparent subStrings: '-'.
  (parts size = 4 and: [(parts at: 1) = '00']) ifFalse: [^nil].
  ^'McpServer: tools/call ' , aToolName , ' in trace ' , (parts at: 2) , ' (span ' , (parts at: 3) , ')'
%
category: 'tracing'
method: McpDispatcher
isLowerHex: aString without: dashPositions
  "Whether aString holds a dash at each of dashPositions and a lower-case hex digit everywhere
   else."
  1 to: aString size do: [:i |
    (dashPositions includes: i)
      ifTrue: [(aString at: i) = $- ifFalse: [^false]]
      ifFalse: [('0123456789abcdef' includes: (aString at: i)) ifFalse: [^false]]].
  ^true
%
category: 'tools/call'
method: McpDispatcher
progressTokenIn: params
  "The client's params._meta.progressToken (a string or a number), or nil."
  | meta token |
  meta := params at: '_meta' ifAbsent: [nil].
  (meta isKindOf: Dictionary) ifFalse: [^nil].
  token := meta at: 'progressToken' ifAbsent: [nil].
  (self isValidId: token) ifFalse: [^nil].
  ^token
%
category: 'logging'
method: McpDispatcher
setLevel: params id: id
  "logging/setLevel: the channel sends only messages at or above the level. Without a channel
   there is nothing to send, and a valid level is still accepted."
  | level channel |
  level := params at: 'level' ifAbsent: [nil].
  (McpChannel levels includes: level) ifFalse: [
    ^self errorId: id code: McpJsonRpcCodes invalidParams
      message: 'logging/setLevel needs params.level, one of ' , McpChannel levelsPhrase].
  channel := McpChannel current.
  channel isNil ifFalse: [channel level: level].
  ^self result: Dictionary new id: id
%
category: 'tools/list'
method: McpDispatcher
toolsList: params id: id
  "Every granted tool in one page; a cursor is -32602 because there is no second page."
  (params at: 'cursor' ifAbsent: [nil]) isNil ifFalse: [
    ^self errorId: id code: McpJsonRpcCodes invalidParams message: 'tools/list has one page; no cursor is valid'].
  ^self result: (Dictionary new at: 'tools' put: server offeredDescriptors; yourself) id: id
%
