set compile_env: 0
! ------------------- Class definition for McpChannel
expectvalue /Class
doit
Object subclass: 'McpChannel'
  instVarNames: #( host port secret socket unreachable callId progressToken
                    level nextId unflushed frameSink)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpChannel comment: 
'The worker side of the worker-to-router channel (docs/worker-contract.md): how tool code speaks
to its client while a call runs. Tool code uses the class side: progress:total:message:,
log:level: and elicit:schema: (or ask:params:), each of which does nothing and answers false or
nil when the session has no channel. The worker installs the session''s channel from the prepare
config (installFrom:), binds it to each tools/call (beginCall:progressToken:) and, before it
answers the call, ends the binding (endCall), which waits until the router has relayed every
message so that none arrives after the response. logging/setLevel sets level:.

Frames are a 4-byte big-endian length and one UTF-8 JSON object; the first frame is the hello
with the session''s secret. The channel connects on first use, over GsSocket, to the loopback
address the router gave.

It must never hold a tool for ever (every wait is bounded and polled in short slices, so a break
still ends the call), never raise into tool code because the channel failed (a channel that
cannot be reached is given up for the session and said once in the gem log; tools go on), never
log or show the secret, and never touch persistent state: the instance lives in SessionTemps.'
%
expectvalue /Class
doit
McpChannel category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpChannel
removeallmethods McpChannel
removeallclassmethods McpChannel
! ------------------- Class methods for McpChannel
category: 'limits'
classmethod: McpChannel
maxFrameSize
  "The largest frame the worker accepts from the router, in bytes; a longer one gives the channel
   up."
  ^1048576
%
category: 'limits'
classmethod: McpChannel
connectTimeoutMs
  "How long the first use waits to connect to the router's loopback port; a failed connect gives
   the channel up."
  ^2000
%
category: 'limits'
classmethod: McpChannel
replyTimeoutMs
  "How long the router may take to acknowledge a hello or a flush."
  ^5000
%
category: 'limits'
classmethod: McpChannel
askTimeoutMs
  "Longer than the router's own wait for a client's answer (MCP_ELICITATION_TIMEOUT, 10 minutes by
   default), which answers a silent client with an error first."
  ^660000
%
category: 'limits'
classmethod: McpChannel
pollMs
  "A wait is cut into slices this long, so a soft break finds the call between two of them."
  ^250
%
category: 'limits'
classmethod: McpChannel
levels
  "The MCP logging levels, least severe first."
  ^#('debug' 'info' 'notice' 'warning' 'error' 'critical' 'alert' 'emergency')
%
category: 'limits'
classmethod: McpChannel
levelsPhrase
  "The levels as one line, for a refusal that names them."
  | out |
  out := WriteStream on: String new.
  1 to: self levels size do: [:index |
    index > 1 ifTrue: [out nextPutAll: ', '].
    out nextPutAll: (self levels at: index)].
  ^out contents
%
category: 'gem log'
classmethod: McpChannel
gemLog: aString
  "Write aString to the gem log; false when the log refuses it (a user without the right to
   write files on the server, say). The caller goes on either way."
  ^[self writeGemLog: aString. true] on: Error do: [:ex | ex return: false]
%
category: 'gem log'
classmethod: McpChannel
writeGemLog: aString
  "One line in the gem log; a refusal raises an Error, which callers handle."
  ^GsFile gciLogServer: aString
%
category: 'session'
classmethod: McpChannel
sessionKey
  "The SessionTemps key of this session's channel."
  ^#McpChannel
%
category: 'session'
classmethod: McpChannel
current
  "This session's channel, or nil when the router offered none."
  ^SessionTemps current at: self sessionKey otherwise: nil
%
category: 'session'
classmethod: McpChannel
installFrom: aChannelConfig
  "Make this session's channel from the prepare config's channel member (a Dictionary holding
   address and secret); anything else leaves the session without one."
  | channel |
  channel := (self isUsableConfig: aChannelConfig)
    ifTrue: [self onConfig: aChannelConfig]
    ifFalse: [nil].
  (channel isNil and: [aChannelConfig notNil]) ifTrue: [
    self gemLog: 'McpChannel: the prepare config offers a channel without an address and a secret; tools go on without one'].
  SessionTemps current at: self sessionKey put: channel.
  ^channel
%
category: 'session'
classmethod: McpChannel
isUsableConfig: aValue
  "A Dictionary whose address and secret are non-empty strings."
  (aValue isKindOf: Dictionary) ifFalse: [^false].
  #('address' 'secret') do: [:key | | value |
    value := aValue at: key ifAbsent: [nil].
    ((value isKindOf: CharacterCollection) and: [value isEmpty not]) ifFalse: [^false]].
  ^true
%
category: 'session'
classmethod: McpChannel
onConfig: aDictionary
  "A channel to the address in the prepare config's channel member, not connected yet."
  ^self new
    setAddress: (aDictionary at: 'address' ifAbsent: [''])
    secret: (aDictionary at: 'secret' ifAbsent: [''])
%
category: 'tool API'
classmethod: McpChannel
progress: done total: total message: aString
  "Report progress of the running call; false when it cannot reach the client."
  | channel |
  channel := self current.
  channel isNil ifTrue: [^false].
  ^channel reportProgress: done total: total message: aString
%
category: 'tool API'
classmethod: McpChannel
log: aString level: aLevel
  "Send a log message to the client when aLevel is at or above the session's level."
  | channel |
  channel := self current.
  channel isNil ifTrue: [^false].
  ^channel log: aString level: aLevel
%
category: 'tool API'
classmethod: McpChannel
elicit: aMessage schema: aSchema
  "Ask the client's user; answer the client's result (action, content) or nil."
  ^self ask: 'elicitation/create' params: (Dictionary new
    at: 'message' put: aMessage;
    at: 'requestedSchema' put: aSchema;
    yourself)
%
category: 'tool API'
classmethod: McpChannel
ask: aMethod params: aDictionary
  "Send a request to the client and wait for its result; nil when there is none."
  | channel |
  channel := self current.
  channel isNil ifTrue: [^nil].
  ^channel ask: aMethod params: aDictionary
%
category: 'tool API'
classmethod: McpChannel
becomeTask
  "Ask the router to answer the running call's client with a task now (the MCP tasks extension
   of 2026-07-28) while the tool goes on; false without a channel. The router ignores it for a
   client that did not declare the extension, which is answered when the tool returns."
  | channel |
  channel := self current.
  channel isNil ifTrue: [^false].
  ^channel becomeTask
%
category: 'tool API'
classmethod: McpChannel
becomeTaskMethod
  "The notification of docs/worker-contract.md that asks the router for a task."
  ^'notifications/io.github.gemstone-mcp/becomeTask'
%
category: 'framing'
classmethod: McpChannel
frameFor: aValue
  "A ByteArray: the length of the UTF-8 JSON of aValue in four big-endian bytes, then the JSON."
  | payload |
  payload := (McpJson write: aValue) asByteArray.
  ^(self lengthHeader: payload size) , payload
%
category: 'framing'
classmethod: McpChannel
lengthHeader: anInteger
  "The 4-byte big-endian length that starts every frame."
  | header |
  header := ByteArray new: 4.
  1 to: 4 do: [:k | header at: k put: ((anInteger bitShift: (4 - k) * -8) bitAnd: 255)].
  ^header
%
category: 'framing'
classmethod: McpChannel
lengthFrom: aHeader
  "The length a 4-byte big-endian frame header holds."
  | n |
  n := 0.
  1 to: 4 do: [:k | n := (n bitShift: 8) + (aHeader at: k)].
  ^n
%
! ------------------- Instance methods for McpChannel
category: 'initialization'
method: McpChannel
setAddress: anAddress secret: aSecret
  "anAddress is host:port; the port follows the last colon."
  | colon |
  colon := anAddress size.
  [colon > 0 and: [(anAddress at: colon) ~= $:]] whileTrue: [colon := colon - 1].
  host := colon > 1 ifTrue: [anAddress copyFrom: 1 to: colon - 1] ifFalse: ['127.0.0.1'].
  port := (anAddress copyFrom: colon + 1 to: anAddress size) asNumber.
  secret := aSecret.
  level := 'info'.
  nextId := 0.
  unreachable := false.
  unflushed := false
%
category: 'accessing'
method: McpChannel
host
  ^host
%
category: 'accessing'
method: McpChannel
port
  ^port
%
category: 'accessing'
method: McpChannel
isUnreachable
  "Whether the channel was given up for this session."
  ^unreachable
%
category: 'accessing'
method: McpChannel
callId
  "The JSON-RPC id of the tools/call messages are bound to, or nil between calls."
  ^callId
%
category: 'accessing'
method: McpChannel
progressToken
  "The progress token of the call being run, or nil: without one the call reports no progress."
  ^progressToken
%
category: 'accessing'
method: McpChannel
level
  "The least severe log level the client asked to receive."
  ^level
%
category: 'accessing'
method: McpChannel
level: aLevel
  "logging/setLevel: only a level MCP names is taken."
  (self class levels includes: aLevel) ifTrue: [level := aLevel]
%
category: 'testing support'
method: McpChannel
captureFramesWith: aBlock
  "For the SUnit suite only: every frame goes to aBlock (as a Dictionary) instead of a socket."
  frameSink := aBlock
%
category: 'calls'
method: McpChannel
beginCall: anId progressToken: aToken
  "The worker runs the tools/call whose JSON-RPC id is anId: messages are bound to it."
  callId := anId.
  progressToken := aToken
%
category: 'calls'
method: McpChannel
endCall
  "Before the worker answers the call: wait until the router relayed everything sent for it."
  unflushed ifTrue: [self flush].
  callId := nil.
  progressToken := nil
%
category: 'tool API'
method: McpChannel
reportProgress: done total: total message: aString
  "Only a call the client gave a progressToken reports progress."
  | params |
  progressToken isNil ifTrue: [^false].
  params := Dictionary new.
  params at: 'progressToken' put: progressToken; at: 'progress' put: done.
  total isNil ifFalse: [params at: 'total' put: total].
  aString isNil ifFalse: [params at: 'message' put: aString].
  ^self notify: 'notifications/progress' params: params
%
category: 'tool API'
method: McpChannel
log: aString level: aLevel
  "Send a notifications/message at aLevel when it is at or above the client's level; answers
   whether it was sent."
  (self rankOf: aLevel) < (self rankOf: level) ifTrue: [^false].
  ^self notify: 'notifications/message' params: (Dictionary new
    at: 'level' put: aLevel;
    at: 'logger' put: 'gemstone';
    at: 'data' put: aString;
    yourself)
%
category: 'tool API'
method: McpChannel
ask: aMethod params: aDictionary
  "A request to the client, bound to the running call; its result, or nil."
  | id |
  callId isNil ifTrue: [^nil].
  nextId := nextId + 1.
  id := 'g-' , nextId printString.
  (self send: (self bound: (self request: aMethod id: id params: aDictionary))) ifFalse: [^nil].
  ^self awaitAnswerTo: id
%
category: 'tool API'
method: McpChannel
becomeTask
  "Only a running call can become a task."
  callId isNil ifTrue: [^false].
  ^self notify: McpChannel becomeTaskMethod params: Dictionary new
%
category: 'tool API'
method: McpChannel
notify: aMethod params: aDictionary
  "A notification, bound to the running call when there is one (else it goes to the GET stream)."
  ^self send: (self bound: (Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'method' put: aMethod;
    at: 'params' put: aDictionary;
    yourself))
%
category: 'messages'
method: McpChannel
request: aMethod id: anId params: aDictionary
  "A JSON-RPC request to the client, as a question frame carries it."
  ^Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'id' put: anId;
    at: 'method' put: aMethod;
    at: 'params' put: aDictionary;
    yourself
%
category: 'messages'
method: McpChannel
bound: aMessage
  "The frame carrying aMessage, naming the running call if any."
  | frame |
  frame := Dictionary new.
  frame at: 'message' put: aMessage.
  callId isNil ifFalse: [frame at: 'call' put: callId].
  ^frame
%
category: 'messages'
method: McpChannel
flushFrame: aToken
  "The frame asking the router to confirm it relayed everything before it, for the call being
   ended."
  | frame |
  frame := Dictionary new.
  frame at: 'flush' put: aToken.
  callId isNil ifFalse: [frame at: 'call' put: callId].
  ^frame
%
category: 'messages'
method: McpChannel
hello
  "The first frame on a new connection: it proves the worker holds the channel's secret."
  ^Dictionary new at: 'hello' put: 1; at: 'secret' put: secret; yourself
%
category: 'messages'
method: McpChannel
rankOf: aLevel
  "The position of a log level in the order the MCP specification gives them; 0 for an unknown
   one."
  ^self class levels indexOf: aLevel
%
category: 'messages'
method: McpChannel
isAnswer: aFrame to: anId
  "Whether aFrame carries the client's answer to the question with id anId."
  | message |
  (aFrame isKindOf: Dictionary) ifFalse: [^false].
  message := aFrame at: 'message' ifAbsent: [nil].
  ^(message isKindOf: Dictionary) and: [(message at: 'id' ifAbsent: [nil]) = anId]
%
category: 'transport'
method: McpChannel
send: aFrame
  "Write one frame; false when the router cannot be reached (the tool goes on)."
  | bytes written |
  frameSink isNil ifFalse: [frameSink value: aFrame. unflushed := true. ^true].
  self isConnected ifFalse: [^false].
  bytes := self class frameFor: aFrame.
  written := [socket write: bytes] on: Error do: [:ex | ex return: nil].
  written = bytes size ifFalse: [^self giveUp: 'a frame could not be written'].
  unflushed := true.
  ^true
%
category: 'transport'
method: McpChannel
isConnected
  "Whether a connection is open, connecting on first use; false once the router was found
   unreachable."
  socket isNil ifFalse: [^true].
  unreachable ifTrue: [^false].
  ^self connect
%
category: 'transport'
method: McpChannel
connect
  "Dial the router and say hello; false (and given up) when that fails."
  | candidate ack |
  candidate := GsSocket new.
  ([candidate connectTo: port on: host timeoutMs: self class connectTimeoutMs]
      on: Error do: [:ex | ex return: false]) == true
    ifFalse: [socket := candidate. ^self giveUp: 'cannot connect to ' , host , ':' , port printString].
  socket := candidate.
  ([socket write: (self class frameFor: self hello)] on: Error do: [:ex | ex return: nil]) isNil
    ifTrue: [^self giveUp: 'the hello could not be written'].
  ack := self readFrameWithin: self class replyTimeoutMs.
  ((ack isKindOf: Dictionary) and: [(ack at: 'ok' ifAbsent: [false]) == true])
    ifFalse: [^self giveUp: 'the router did not accept the hello: ' , (McpJson write: ack)].
  ^true
%
category: 'transport'
method: McpChannel
giveUp: aReason
  "No channel for the rest of the session, said once in the gem log; the secret is never in it."
  socket isNil ifFalse: [[socket close] on: Error do: [:ex | ex return: nil]].
  socket := nil.
  unreachable := true.
  self class gemLog: 'McpChannel: the worker-to-router channel is unavailable (' , aReason
    , '); tools go on without progress, logging or questions to the client'.
  ^false
%
category: 'transport'
method: McpChannel
flush
  "Wait until the router answers a flush, which it does after relaying every earlier frame."
  | token frame |
  nextId := nextId + 1.
  token := 'f-' , nextId printString.
  (self send: (self flushFrame: token)) ifFalse: [^false].
  unflushed := false.
  frameSink isNil ifFalse: [^true].
  [frame := self readFrameWithin: self class replyTimeoutMs.
   frame isNil ifTrue: [^false].
   (frame isKindOf: Dictionary) and: [(frame at: 'flushed' ifAbsent: [nil]) = token]] whileFalse.
  ^true
%
category: 'transport'
method: McpChannel
awaitAnswerTo: anId
  "The result of the client's answer to request anId; frames for other ids are passed over."
  | frame message |
  frameSink isNil ifFalse: [^nil].
  [frame := self readFrameWithin: self class askTimeoutMs.
   frame isNil ifTrue: [^nil].
   self isAnswer: frame to: anId] whileFalse.
  message := frame at: 'message'.
  ^message at: 'result' ifAbsent: [nil]
%
category: 'transport'
method: McpChannel
readFrameWithin: aTimeoutMs
  "The router's next frame as a JSON value, or nil when none came in time or the link failed."
  | header size payload |
  header := self read: 4 within: aTimeoutMs.
  header isNil ifTrue: [^nil].
  size := self class lengthFrom: header.
  (size < 1 or: [size > self class maxFrameSize]) ifTrue: [
    self giveUp: 'the router sent a frame of ' , size printString , ' bytes'.
    ^nil].
  payload := self read: size within: aTimeoutMs.
  payload isNil ifTrue: [^nil].
  ^[McpJson parse: payload] on: Error do: [:ex | ex return: nil]
%
category: 'transport'
method: McpChannel
read: aCount within: aTimeoutMs
  "aCount bytes, or nil after aTimeoutMs without them or when the router closed the link."
  | buffer got waited n |
  socket isNil ifTrue: [^nil].
  buffer := ByteArray new: aCount.
  got := 0.
  waited := 0.
  [got < aCount] whileTrue: [
    (socket readWillNotBlockWithin: self class pollMs) == true
      ifTrue: [
        n := socket read: aCount - got into: buffer startingAt: got + 1.
        (n isNil or: [n < 1]) ifTrue: [self giveUp: 'the router closed the channel'. ^nil].
        got := got + n]
      ifFalse: [
        waited := waited + self class pollMs.
        waited >= aTimeoutMs ifTrue: [^nil]]].
  ^buffer
%
