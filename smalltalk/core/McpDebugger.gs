set compile_env: 0
! ------------------- Class definition for McpDebugger
expectvalue /Class
doit
Object subclass: 'McpDebugger'
  instVarNames: #( entries gone nextNumber idleLimit)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpDebugger comment: 
'The stopped runs (McpProcessRun) one session keeps for the debugging tools, each under a handle
(p1, p2, ...) that the client names in its next call. Each is a process of this session''s gem,
suspended: it blocks none of the session''s other calls, and it ends with the session.

Bounded: at most maxRuns at once (another is refused, naming the handles to abandon), and a run
no debugging call has touched for idleMs is terminated at the next debugging call, with a gem
log line. A handle that is gone says why: abandoned, expired or ended, and how it ended.

One per session, in SessionTemps (current).'
%
expectvalue /Class
doit
McpDebugger category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpDebugger
removeallmethods McpDebugger
removeallclassmethods McpDebugger
! ------------------- Class methods for McpDebugger
category: 'instance creation'
classmethod: McpDebugger
current
  "This session's debugger, made on first use."
  | temps |
  temps := SessionTemps current.
  ^(temps at: #McpDebugger otherwise: nil) ifNil: [
    temps at: #McpDebugger put: self new initialize]
%
category: 'limits'
classmethod: McpDebugger
maxRuns
  "Stopped runs one session keeps at once."
  ^3
%
category: 'limits'
classmethod: McpDebugger
idleMs
  "A stopped run untouched this long (10 minutes) is terminated at the next debugging call."
  ^600000
%
! ------------------- Instance methods for McpDebugger
category: 'initialization'
method: McpDebugger
initialize
  entries := Dictionary new.
  gone := Dictionary new.
  nextNumber := 0
%
category: 'runs'
method: McpDebugger
checkRoom
  "Refuse a new run when maxRuns are stopped already."
  self expireIdle.
  entries size < self class maxRuns ifTrue: [^self].
  ^McpError signalKind: 'refused'
    message: 'this session already holds ' , entries size printString , ' stopped processes ('
      , (self handlesJoined) , '): debug_abandon one first'
%
category: 'runs'
method: McpDebugger
handlesJoined
  | stream |
  stream := WriteStream on: String new.
  (entries keys asSortedCollection: [:a :b | a <= b]) do: [:each | stream nextPutAll: each]
    separatedBy: [stream nextPutAll: ', '].
  ^stream contents
%
category: 'runs'
method: McpDebugger
keep: aStoppedRun subject: aSubjectArray
  "A handle for aStoppedRun; aSubjectArray is {test. selector} for a test, or {nil. nil}."
  | handle |
  nextNumber := nextNumber + 1.
  handle := 'p' , nextNumber printString.
  entries at: handle put: (Array with: aStoppedRun with: aSubjectArray with: self now).
  ^handle
%
category: 'runs'
method: McpDebugger
entryAt: aHandle
  "{run. subject. lastUsed} of a kept run, touched now; a handle that is gone is notFound saying
   why."
  | entry |
  self expireIdle.
  entry := entries at: aHandle ifAbsent: [
    ^McpError signalKind: 'notFound'
      message: 'process ' , aHandle , ' is gone: ' , (gone at: aHandle ifAbsent: [
        'no debugging call of this session answered that handle'])].
  entry at: 3 put: self now.
  ^entry
%
category: 'runs'
method: McpDebugger
forget: aHandle because: aReason
  "Drop a handle whose run has ended or been terminated, remembering why."
  entries removeKey: aHandle ifAbsent: [nil].
  gone at: aHandle put: aReason
%
category: 'runs'
method: McpDebugger
abandon: aHandle
  | entry |
  entry := self entryAt: aHandle.
  (entry at: 1) terminate.
  self forget: aHandle because: 'abandoned (debug_abandon)'.
  self log: 'abandoned ' , aHandle
%
category: 'runs'
method: McpDebugger
expireIdle
  "Terminate the runs untouched for idleMs."
  | now stale |
  now := self now.
  stale := entries keys select: [:each | now - ((entries at: each) at: 3) >= self idleMs].
  stale do: [:each |
    ((entries at: each) at: 1) terminate.
    self forget: each because: 'expired: untouched for ' , (self idleMs // 1000) printString , ' s, it was terminated'.
    self log: 'expired ' , each]
%
category: 'runs'
method: McpDebugger
idleMs
  "The idle limit; a test may shorten it for its own debugger (setIdleMs:)."
  ^idleLimit ifNil: [self class idleMs]
%
category: 'runs'
method: McpDebugger
setIdleMs: anInteger
  idleLimit := anInteger
%
category: 'runs'
method: McpDebugger
handles
  ^entries keys asSortedCollection: [:a :b | a <= b]
%
category: 'private'
method: McpDebugger
now
  ^System _timeMs
%
category: 'private'
method: McpDebugger
log: aString
  "A gem log line; a log that cannot be written costs nothing."
  [GsFile gciLogServer: 'McpDebugger: ' , aString] on: Error do: [:ex | ex return: nil]
%
category: 'answers'
method: McpDebugger
settle: aRun subject: aSubjectArray handle: aHandleOrNil
  "After a run started or resumed: keep it when it stopped (a new handle, or the one it had) and
   answer where it stopped, or forget it when it ended and answer how."
  | handle ended |
  aRun isStopped ifTrue: [
    handle := aHandleOrNil ifNil: [self keep: aRun subject: aSubjectArray].
    ^self linesFor: handle status: 'stopped: ' , (McpStackReport headlineOf: aRun exception)].
  ended := self endingOf: aRun subject: aSubjectArray.
  aHandleOrNil isNil ifFalse: [self forget: aHandleOrNil because: ended].
  ^Array with: (aHandleOrNil ifNil: ['The run'] ifNotNil: [:h | h]) , ' ' , ended
%
category: 'answers'
method: McpDebugger
endingOf: aRun subject: aSubjectArray
  aRun state == #finished ifTrue: [
    ^(aSubjectArray at: 1) isNil
      ifTrue: ['ended: its value is ' , (McpStackReport new printed: aRun result)]
      ifFalse: ['ended: the test passed']].
  ^'ended with ' , (McpStackReport headlineOf: aRun exception)
    , ' (resumed past the error; debug_restart_frame before debug_resume runs a frame again instead)'
%
category: 'answers'
method: McpDebugger
reportOf: anEntry
  | subject |
  subject := anEntry at: 2.
  ^McpStackReport of: (anEntry at: 1) endingAt: (subject at: 1) selector: (subject at: 2)
%
category: 'answers'
method: McpDebugger
linesFor: aHandle status: aString
  "The handle, why it stopped, the numbered frames, and what can be done next."
  | entry report |
  entry := entries at: aHandle.
  report := self reportOf: entry.
  report beNumbered.
  ^(report linesUnder: aHandle , ' ' , aString)
    , (Array with: 'Next: debug_evaluate or debug_set_temp in a frame, debug_restart_frame, debug_resume or debug_abandon, naming process ' , aHandle , '.')
%
category: 'frames'
method: McpDebugger
levelOf: aFrameNumber in: anEntry
  "The process level of the frame the client numbered; a number that is no frame is invalidParams."
  | report level |
  report := self reportOf: anEntry.
  level := report levelOf: aFrameNumber.
  level isNil ifTrue: [
    ^McpError signalKind: 'invalidParams'
      message: 'frame ' , aFrameNumber printString , ' is not one of the ' , report frames size printString
        , ' frames shown'].
  ^level
%
category: 'frames'
method: McpDebugger
evaluate: aString at: aLevel of: aRun
  "The value of aString in the frame: self is the frame's self, and its arguments and temporaries
   (not the .t evaluation temporaries) are bound by name, as the arguments of a block the source
   is wrapped in. An assignment to one of them is a compile error there: debug_set_temp writes."
  | contents names values source |
  contents := aRun process _frameContentsAt: aLevel.
  names := OrderedCollection new.
  values := OrderedCollection new.
  1 to: (contents at: 9) size do: [:i | | name |
    name := ((contents at: 9) at: i) asString.
    (name isEmpty or: [name first == $.]) ifFalse: [
      names add: name.
      values add: (contents at: 10 + i)]].
  source := WriteStream on: String new.
  source nextPut: $[.
  names do: [:each | source nextPut: $:; nextPutAll: each; nextPut: $ ].
  names isEmpty ifFalse: [source nextPutAll: '| '].
  source nextPutAll: aString; nextPut: Character lf; nextPut: $].
  ^(source contents evaluateInContext: (contents at: 8) symbolList: System myUserProfile symbolList)
    valueWithArguments: values asArray
%
category: 'frames'
method: McpDebugger
setTemp: aName to: aValue at: aLevel of: aRun
  | names index |
  names := (aRun process _frameContentsAt: aLevel) at: 9.
  index := names indexOf: aName asSymbol.
  index = 0 ifTrue: [
    ^McpError signalKind: 'invalidParams' message: 'the frame has no argument or temporary ' , aName].
  aRun process _frameAt: aLevel tempAt: index put: aValue
%
category: 'frames'
method: McpDebugger
isStale: aMethod
  "Whether the frame's method was compiled over since the frame began: restarting it runs the old
   one."
  | home |
  home := aMethod homeMethod.
  (home selector isNil or: [home inClass isNil]) ifTrue: [^false].
  ^[(home inClass compiledMethodAt: home selector) ~~ home] on: Error do: [:ex | ex return: false]
%
