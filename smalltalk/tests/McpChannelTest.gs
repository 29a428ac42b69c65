set compile_env: 0
! ------------------- Class definition for McpChannelTest
expectvalue /Class
doit
TestCase subclass: 'McpChannelTest'
  instVarNames: #( frames savedChannel )
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpChannelTest comment: 
'The worker side of the worker-to-router channel: the frame layout (big-endian length, UTF-8
JSON), the address split, progress only with the call''s token and bound to the call, log
messages filtered by the session''s level, the levels named in order, a channel installed only
from a config with an address and a secret, the class-side API doing nothing without a channel,
an unreachable router given up once while the tool goes on, and a question answered through a
stand-in router on a loopback socket. Frames are captured through captureFramesWith: except in
the loopback test. Leaves the session''s own channel as it found it; touches nothing persistent.'
%
expectvalue /Class
doit
McpChannelTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpChannelTest
removeallmethods McpChannelTest
removeallclassmethods McpChannelTest
! ------------------- Instance methods for McpChannelTest
category: 'running'
method: McpChannelTest
setUp
  super setUp.
  frames := OrderedCollection new.
  savedChannel := McpChannel current
%
category: 'running'
method: McpChannelTest
tearDown
  SessionTemps current at: McpChannel sessionKey put: savedChannel.
  super tearDown
%
category: 'helpers'
method: McpChannelTest
capturingChannel
  "A channel whose frames land in frames instead of a socket."
  | channel |
  channel := McpChannel new setAddress: '127.0.0.1:9' secret: 'test-secret'.
  channel captureFramesWith: [:frame | frames add: frame].
  ^channel
%
category: 'helpers'
method: McpChannelTest
methodOf: aFrame
  ^(aFrame at: 'message') at: 'method'
%
category: 'helpers'
method: McpChannelTest
readFrameFrom: aSocket
  "The next frame a stand-in router reads, as a JSON value (nil after 5 s)."
  | header payload |
  header := self read: 4 from: aSocket.
  header isNil ifTrue: [^nil].
  payload := self read: (McpChannel lengthFrom: header) from: aSocket.
  payload isNil ifTrue: [^nil].
  ^McpJson parse: payload
%
category: 'helpers'
method: McpChannelTest
read: aCount from: aSocket
  | buffer got n |
  buffer := ByteArray new: aCount.
  got := 0.
  [got < aCount] whileTrue: [
    (aSocket readWillNotBlockWithin: 5000) == true ifFalse: [^nil].
    n := aSocket read: aCount - got into: buffer startingAt: got + 1.
    (n isNil or: [n < 1]) ifTrue: [^nil].
    got := got + n].
  ^buffer
%
category: 'helpers'
method: McpChannelTest
actAsRouterOn: aListener
  "Accept one worker, acknowledge its hello, answer its one question with the worker's id."
  | conn hello question answer |
  conn := aListener accept.
  conn isNil ifTrue: [^nil].
  hello := self readFrameFrom: conn.
  conn write: (McpChannel frameFor: (Dictionary new at: 'ok' put: (hello at: 'secret') = 'test-secret'; yourself)).
  question := self readFrameFrom: conn.
  answer := Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'id' put: ((question at: 'message') at: 'id');
    at: 'result' put: (Dictionary new at: 'action' put: 'accept'; yourself);
    yourself.
  conn write: (McpChannel frameFor: (Dictionary new at: 'message' put: answer; yourself)).
  (Delay forSeconds: 1) wait.
  conn close
%
category: 'tests'
method: McpChannelTest
testFrameIsABigEndianLengthThenUtf8Json
  | frame |
  frame := McpChannel frameFor: (Dictionary new at: 'a' put: 'x'; yourself).
  self assert: (frame copyFrom: 1 to: 4) asArray = #(0 0 0 9).
  self assert: ((frame copyFrom: 5 to: frame size) asArray collect: [:b | Character codePoint: b]) asArray
    = '{"a":"x"}' asArray.
  self assert: (McpChannel lengthFrom: (McpChannel lengthHeader: 70000)) = 70000
%
category: 'tests'
method: McpChannelTest
testAddressIsSplitAtTheLastColon
  | channel |
  channel := McpChannel new setAddress: '127.0.0.1:40123' secret: 's'.
  self assert: channel host = '127.0.0.1'.
  self assert: channel port = 40123
%
category: 'tests'
method: McpChannelTest
testProgressNeedsTheCallsTokenAndIsBoundToTheCall
  | channel frame |
  channel := self capturingChannel.
  channel beginCall: 7 progressToken: nil.
  self deny: (channel reportProgress: 1 total: 2 message: 'half').
  self assert: frames isEmpty.
  channel beginCall: 8 progressToken: 'tok'.
  self assert: (channel reportProgress: 1 total: 2 message: 'half').
  frame := frames first.
  self assert: (frame at: 'call') = 8.
  self assert: (self methodOf: frame) = 'notifications/progress'.
  self assert: (((frame at: 'message') at: 'params') at: 'progressToken') = 'tok'
%
category: 'tests'
method: McpChannelTest
testLogMessagesBelowTheSessionLevelAreNotSent
  | channel |
  channel := self capturingChannel.
  channel level: 'warning'.
  self deny: (channel log: 'quiet' level: 'info').
  self assert: (channel log: 'loud' level: 'error').
  self assert: frames size = 1.
  self assert: (((frames first at: 'message') at: 'params') at: 'data') = 'loud'.
  channel level: 'shouting'.
  self assert: channel level = 'warning'
%
category: 'tests'
method: McpChannelTest
testEndCallFlushesOnlyAfterSomethingWasSent
  | channel |
  channel := self capturingChannel.
  channel beginCall: 3 progressToken: 'p'.
  channel endCall.
  self assert: frames isEmpty.
  channel beginCall: 4 progressToken: 'p'.
  channel reportProgress: 1 total: nil message: nil.
  channel endCall.
  self assert: frames size = 2.
  self assert: ((frames last at: 'flush') isKindOf: String).
  self assert: (frames last at: 'call') = 4
%
category: 'tests'
method: McpChannelTest
testWithoutAChannelTheToolApiDoesNothingAndRaisesNothing
  McpChannel installFrom: nil.
  self assert: McpChannel current isNil.
  self deny: (McpChannel progress: 1 total: 1 message: 'done').
  self deny: (McpChannel log: 'hello' level: 'error').
  self assert: (McpChannel elicit: 'name?' schema: Dictionary new) isNil
%
category: 'tests'
method: McpChannelTest
testAnUnreachableRouterIsGivenUpOnceAndTheToolGoesOn
  | channel |
  channel := McpChannel new setAddress: '127.0.0.1:1' secret: 'test-secret'.
  channel beginCall: 1 progressToken: 'p'.
  self deny: (channel reportProgress: 0 total: 1 message: nil).
  self assert: channel isUnreachable.
  self deny: (channel reportProgress: 1 total: 1 message: nil).
  self assert: (channel ask: 'elicitation/create' params: Dictionary new) isNil.
  channel endCall
%
category: 'tests'
method: McpChannelTest
testAQuestionIsAnsweredThroughTheRouterUnderItsOwnId
  | listener channel answer |
  listener := GsSocket new.
  (listener makeServer: 1 atPort: 0) isNil ifTrue: [^self assert: false description: 'no loopback listener: ' , listener lastErrorString].
  [[self actAsRouterOn: listener] ensure: [listener close]] fork.
  channel := McpChannel new setAddress: '127.0.0.1:' , listener port printString secret: 'test-secret'.
  channel beginCall: 5 progressToken: nil.
  answer := channel ask: 'elicitation/create' params: (Dictionary new at: 'message' put: 'name?'; yourself).
  self assert: (answer isKindOf: Dictionary).
  self assert: (answer at: 'action') = 'accept'.
  self deny: channel isUnreachable
%
category: 'tests'
method: McpChannelTest
testTheLevelsPhraseNamesEveryLevelLeastSevereFirst
  self assert: McpChannel levelsPhrase = 'debug, info, notice, warning, error, critical, alert, emergency'
%
category: 'tests'
method: McpChannelTest
testAChannelIsInstalledOnlyWithAnAddressAndASecret
  | channel |
  channel := McpChannel installFrom: (Dictionary new at: 'address' put: '127.0.0.1:40123'; at: 'secret' put: 's'; yourself).
  self assert: McpChannel current == channel.
  self assert: channel port = 40123.
  self assert: channel callId isNil.
  self assert: (McpChannel installFrom: (Dictionary new at: 'address' put: '127.0.0.1:40123'; yourself)) isNil.
  self assert: McpChannel current isNil.
  self assert: (McpChannel installFrom: (Dictionary new at: 'address' put: 7; at: 'secret' put: 's'; yourself)) isNil.
  self assert: (McpChannel installFrom: 'not a config') isNil
%
category: 'tests'
method: McpChannelTest
testARefusedGemLogNeverStopsTheWorker
  "McpChannel class>>gemLog: guards GsFile gciLogServer:, which may refuse a user without the
   right to write files on the server; giveUp: and installFrom: log through it."
  | channel |
  channel := McpRefusedLogChannel new setAddress: '127.0.0.1:9' secret: 'test-secret'.
  self deny: (McpRefusedLogChannel gemLog: 'a line').
  self deny: (channel giveUp: 'a test reason').
  self assert: channel isUnreachable.
  self assert: (McpRefusedLogChannel installFrom: (Dictionary new at: 'address' put: ''; yourself)) isNil
%
category: 'tests'
method: McpChannelTest
testBecomeTaskIsANotificationBoundToTheRunningCall
  | channel frame |
  channel := self capturingChannel.
  self deny: channel becomeTask.
  self assert: frames isEmpty.
  channel beginCall: 5 progressToken: nil.
  self assert: channel becomeTask.
  frame := frames first.
  self assert: (frame at: 'call') = 5.
  self assert: (self methodOf: frame) = 'notifications/io.github.gemstone-mcp/becomeTask'.
  self assert: (self methodOf: frame) = McpChannel becomeTaskMethod
%
