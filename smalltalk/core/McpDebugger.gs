set compile_env: 0
! ------------------- Class definition for McpDebugger
expectvalue /Class
doit
Object subclass: 'McpDebugger'
  instVarNames: #( entries gone nextNumber idleLimit breakpoints answer)
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

It also keeps the method breakpoints set through set_breakpoint: {method. stepPoint. line}, the
GsNMethod the breakpoint is on (a method compiled over since keeps it; the new one has none).
Breakpoints are the gem''s state on a stone as here: never committed, kept across an abort,
gone with the session (GemTalk/Jasper''s breakpoint tests).

Each answer it builds is also kept as structured content (answer, takeAnswer), in the shape
answerSchema declares.

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
category: 'structured content'
classmethod: McpDebugger
answerSchema
  "The outputSchema of the tools that start, step, resume, restart or abandon a run."
  ^self objectSchema: (Dictionary new
    at: 'process' put: (self type: 'string' description: 'the handle, p1, ...; absent when a run ended at once');
    at: 'state' put: (self enum: #('stopped' 'restarted' 'ended' 'abandoned') description: 'where the run is now');
    at: 'stop' put: (self enum: #('exception' 'breakpoint' 'step') description: 'why it stopped: an exception it did not handle, a breakpoint, or the end of a step');
    at: 'step' put: (self enum: #('over' 'into' 'through') description: 'the step that stopped it');
    at: 'exception' put: McpStackReport exceptionSchema;
    at: 'frames' put: McpStackReport framesSchema;
    at: 'outcome' put: (self enum: #('passed' 'value' 'error') description: 'how an ended run ended: the test passed, the code answered value, or it ended with exception');
    at: 'value' put: (self type: 'string' description: 'the printString of the value debug_code''s code answered');
    yourself)
%
category: 'structured content'
classmethod: McpDebugger
valueSchema
  "The outputSchema of debug_evaluate and debug_set_temp."
  ^self objectSchema: (Dictionary new
    at: 'value' put: (self type: 'string' description: 'the printString of the value, capped as the text is');
    at: 'name' put: (self type: 'string' description: 'debug_set_temp: the argument or temporary set');
    yourself)
%
category: 'structured content'
classmethod: McpDebugger
breakpointsSchema
  "The outputSchema of set_breakpoint, clear_breakpoint and list_breakpoints."
  | entry |
  entry := self objectSchema: (Dictionary new
    at: 'className' put: (self type: 'string' description: 'the instance side''s name');
    at: 'meta' put: (self type: 'boolean' description: 'true for a class-side method');
    at: 'selector' put: (self type: 'string' description: 'the selector');
    at: 'line' put: (self type: 'integer' description: 'the line it was set on');
    at: 'stepPoint' put: (self type: 'integer' description: 'the step point of that line it is on');
    at: 'stale' put: (self type: 'boolean' description: 'true when the method was compiled over since: the new one has no breakpoint');
    yourself).
  ^self objectSchema: (Dictionary new
    at: 'breakpoint' put: entry;
    at: 'cleared' put: (self type: 'integer' description: 'clear_breakpoint: how many were cleared');
    at: 'breakpoints' put: (Dictionary new at: 'type' put: 'array'; at: 'items' put: entry; yourself);
    yourself)
%
category: 'structured content'
classmethod: McpDebugger
objectSchema: aDictionary
  "An object with those properties; a failed call answers error instead, which it allows."
  aDictionary at: 'error' put: (self type: 'object' description: 'present instead when the call failed').
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: aDictionary;
    yourself
%
category: 'structured content'
classmethod: McpDebugger
type: aType description: aString
  "A property schema of the debugging tools' output."
  ^Dictionary new
    at: 'type' put: aType;
    at: 'description' put: aString;
    yourself
%
category: 'structured content'
classmethod: McpDebugger
enum: anArray description: aString
  "A string property schema limited to the values of anArray."
  ^(self type: 'string' description: aString)
    at: 'enum' put: anArray;
    yourself
%
! ------------------- Instance methods for McpDebugger
category: 'initialization'
method: McpDebugger
initialize
  entries := Dictionary new.
  gone := Dictionary new.
  breakpoints := OrderedCollection new.
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
  "The handles of the kept runs, sorted, for a message about them."
  | stream |
  stream := WriteStream on: String new.
  self handles do: [:each | stream nextPutAll: each]
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
  "debug_abandon: terminate the run (its ensure: blocks run) and forget its handle, saying why."
  | entry |
  entry := self entryAt: aHandle.
  (entry at: 1) terminate.
  answer := Dictionary new at: 'process' put: aHandle; at: 'state' put: 'abandoned'; yourself.
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
  "How long a run may stay untouched before it is terminated; the tests shorten it."
  idleLimit := anInteger
%
category: 'runs'
method: McpDebugger
handles
  "The handles of the kept runs, sorted."
  ^entries keys asSortedCollection: [:a :b | a <= b]
%
category: 'private'
method: McpDebugger
now
  "The clock the idle limit is measured by, in milliseconds."
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
    ^self linesFor: handle status: (self stopOf: aRun)].
  ended := self endingOf: aRun subject: aSubjectArray.
  answer := self endedAnswerOf: aRun subject: aSubjectArray handle: aHandleOrNil.
  aHandleOrNil isNil ifFalse: [self forget: aHandleOrNil because: ended].
  ^Array with: (aHandleOrNil ifNil: ['The run'] ifNotNil: [:h | h]) , ' ' , ended
%
category: 'answers'
method: McpDebugger
stopOf: aRun
  "Why a run stopped: after a step, at a breakpoint, or at an exception."
  (aRun exception isKindOf: Breakpoint) ifFalse: [
    ^'stopped: ' , (McpStackReport headlineOf: aRun exception)].
  aRun stepping isNil ifTrue: [^'stopped at a breakpoint'].
  ^'stopped after step ' , aRun stepping
%
category: 'answers'
method: McpDebugger
endingOf: aRun subject: aSubjectArray
  "How a run ended, as text: its value, a passed test, or the error it was resumed past."
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
  "The stack report of a kept run, ending at its subject (the test and selector, or nil for
   code)."
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
  answer := self stoppedAnswerOf: (entry at: 1) handle: aHandle report: report.
  ^(report linesUnder: aHandle , ' ' , aString)
    , (Array with: 'Next: debug_evaluate or debug_set_temp in a frame, debug_step, debug_restart_frame, debug_resume or debug_abandon, naming process ' , aHandle , '.')
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
  "Store aValue in the argument or temporary aName of the frame at aLevel; an unknown name is
   invalidParams."
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
category: 'breakpoints'
method: McpDebugger
setBreakpointIn: aBehavior selector: aSelector line: aLine
  "Break at the first step point of that line of the method (GemTalk/Jasper maps a line to a step
   point of it): of the step points whose source offset falls on the line, the first in the
   method's numbering, which is the first to run in straight-line code (on self assert: a = b,
   the = before the assert:). Answer {the step point. its line}."
  | method offsets best |
  method := aBehavior compiledMethodAt: aSelector.
  offsets := method _sourceOffsets.
  best := nil.
  1 to: offsets size do: [:i |
    (best isNil and: [(self lineOf: (offsets at: i) in: method sourceString) = aLine])
      ifTrue: [best := i]].
  best isNil ifTrue: [
    ^McpError signalKind: 'invalidParams'
      message: 'line ' , aLine printString , ' of ' , (self labelOf: method) , ' has no step point; lines that have one: '
        , (self linesWithStepPointsOf: method)].
  method setBreakAtStepPoint: best.
  (breakpoints detect: [:each | (each at: 1) == method and: [(each at: 2) = best]] ifNone: [nil])
    isNil ifTrue: [breakpoints add: (Array with: method with: best with: aLine)].
  ^Array with: best with: aLine
%
category: 'breakpoints'
method: McpDebugger
clearBreakpointsIn: aBehavior selector: aSelector line: aLineOrNil
  "Clear the breakpoints set on the method of aBehavior at aSelector (on the method it had when
   each was set), on one line or all; answer how many."
  | matching |
  matching := breakpoints select: [:each | | method |
    method := each at: 1.
    method inClass == aBehavior and: [method selector == aSelector
      and: [aLineOrNil isNil or: [(each at: 3) = aLineOrNil]]]].
  matching do: [:each |
    (each at: 1) clearBreakAtStepPoint: (each at: 2).
    breakpoints remove: each].
  ^matching size
%
category: 'breakpoints'
method: McpDebugger
breakpointLines
  "One line per breakpoint: where, its step point, and whether its method was compiled over
   since (then only frames already running the old method stop there)."
  ^breakpoints asArray collect: [:each | | method line |
    method := each at: 1.
    line := (self labelOf: method) , ' line ' , (each at: 3) printString , ' (step point '
      , (each at: 2) printString , ')'.
    (self isStale: method)
      ifTrue: [line , ': compiled over since; the new method has no breakpoint (set it again)']
      ifFalse: [line]]
%
category: 'breakpoints'
method: McpDebugger
breakpointEntries
  "The breakpoints as structured content: className, meta, selector, line, stepPoint, stale."
  ^breakpoints asArray collect: [:each | | method cls |
    method := each at: 1.
    cls := method inClass.
    Dictionary new
      at: 'className' put: cls theNonMetaClass name asString;
      at: 'meta' put: cls isMeta;
      at: 'selector' put: method selector asString;
      at: 'line' put: (each at: 3);
      at: 'stepPoint' put: (each at: 2);
      at: 'stale' put: (self isStale: method);
      yourself]
%
category: 'breakpoints'
method: McpDebugger
labelOf: aMethod
  "Foo>>bar for a compiled method."
  ^aMethod inClass name asString , '>>' , aMethod selector asString
%
category: 'breakpoints'
method: McpDebugger
lineOf: anOffset in: aString
  "The 1-based line of aString that holds the character at anOffset."
  | line |
  line := 1.
  1 to: (anOffset - 1 min: aString size) do: [:i | (aString at: i) == Character lf ifTrue: [line := line + 1]].
  ^line
%
category: 'breakpoints'
method: McpDebugger
linesWithStepPointsOf: aMethod
  "The source lines of aMethod that hold a step point, where a breakpoint can go."
  | lines stream |
  lines := (aMethod _sourceOffsets collect: [:each | self lineOf: each in: aMethod sourceString]) asSet
    asSortedCollection: [:a :b | a <= b].
  stream := WriteStream on: String new.
  lines do: [:each | stream nextPutAll: each printString] separatedBy: [stream nextPutAll: ', '].
  ^stream contents
%
category: 'breakpoints'
method: McpDebugger
clearAllBreakpoints
  "Clear every breakpoint this session set."
  breakpoints do: [:each | (each at: 1) clearBreakAtStepPoint: (each at: 2)].
  breakpoints := OrderedCollection new
%
category: 'structured content'
method: McpDebugger
stoppedAnswerOf: aRun handle: aHandle report: aReport
  "The structured answer for a run that stopped: its frames, and whether at an exception or at a
   breakpoint or step."
  | fields |
  fields := Dictionary new
    at: 'process' put: aHandle;
    at: 'state' put: 'stopped';
    at: 'frames' put: aReport frames;
    yourself.
  (aRun exception isKindOf: Breakpoint) ifFalse: [
    ^fields at: 'stop' put: 'exception'; at: 'exception' put: (McpStackReport fieldsOf: aRun exception); yourself].
  aRun stepping isNil ifTrue: [^fields at: 'stop' put: 'breakpoint'; yourself].
  ^fields at: 'stop' put: 'step'; at: 'step' put: aRun stepping; yourself
%
category: 'structured content'
method: McpDebugger
endedAnswerOf: aRun subject: aSubjectArray handle: aHandleOrNil
  "The structured answer for a run that ended: with an error, a passed test or a value."
  | fields |
  fields := Dictionary new at: 'state' put: 'ended'; yourself.
  aHandleOrNil isNil ifFalse: [fields at: 'process' put: aHandleOrNil].
  aRun state == #finished ifFalse: [
    ^fields at: 'outcome' put: 'error'; at: 'exception' put: (McpStackReport fieldsOf: aRun exception); yourself].
  (aSubjectArray at: 1) isNil ifFalse: [^fields at: 'outcome' put: 'passed'; yourself].
  ^fields at: 'outcome' put: 'value'; at: 'value' put: (McpStackReport new printed: aRun result); yourself
%
category: 'structured content'
method: McpDebugger
noteRestarted
  "The last answer was of a restart: the run waits for debug_resume or debug_step."
  answer isNil ifFalse: [answer at: 'state' put: 'restarted']
%
category: 'structured content'
method: McpDebugger
takeAnswer
  "The structured content of the last answer, once."
  | taken |
  taken := answer.
  answer := nil.
  ^taken
%
category: 'structured content'
method: McpDebugger
breakpointEntryFor: aBehavior selector: aSelector
  "The entry of the breakpoint last set on that method."
  ^(self breakpointEntries reverse detect: [:each |
    (each at: 'selector') = aSelector asString and: [(each at: 'meta') = aBehavior isMeta
      and: [(each at: 'className') = aBehavior theNonMetaClass name asString]]] ifNone: [nil])
%
