set compile_env: 0
! ------------------- Class definition for McpExecutionToolset
expectvalue /Class
doit
McpToolset subclass: 'McpExecutionToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpExecutionToolset comment: 
'The execute_code tool: evaluates Smalltalk source in the worker session and answers the
printString of the value, after what the code wrote to Transcript during the call (captured by an
McpTranscriptSink), each capped at maxChars or the result cap of the server with a marker naming
what was dropped. A syntax error is kind compileError with the compiler''s errors, as
compile_method reports them.

The tool itself never commits, aborts or refreshes the view. The code it runs is the client
code and runs with the rights of the worker user; that is the only boundary, and it is not
this class that draws it.'
%
expectvalue /Class
doit
McpExecutionToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpExecutionToolset
removeallmethods McpExecutionToolset
removeallclassmethods McpExecutionToolset
! ------------------- Class methods for McpExecutionToolset
! ------------------- Instance methods for McpExecutionToolset
category: 'tools'
method: McpExecutionToolset
executeCode: args
  "What Transcript received while the code ran, then the printString of its value, each capped at
   maxChars (never more than the result cap). The code runs in a process of its own (McpProcessRun)
   that stops at an error the code does not handle, so that the answer can say where: the error's
   fields and the frames from the signal to the evaluated code. A compiler warning (a temporary
   that shadows another name, say) is resumed, as Rowan and Jasper resume it: the code still runs.
   A compile error is kind compileError with the compiler's errors, each with line and column."
  | code limit report outcome run |
  code := args at: 'code'.
  limit := self maxCharsIn: args.
  outcome := McpTranscriptSink capturing: [
    run := McpProcessRun
      on: [[[code evaluate] on: CompileWarning do: [:warning | warning resume]]
        on: CompileError do: [:ex | report := self compileErrorReportFrom: ex source: code. ex return: nil]]
      boundedBy: (Array with: self with: code).
    run start.
    (report isNil and: [run isStopped not]) ifTrue: [run result printString] ifFalse: [nil]].
  report isNil ifFalse: [^self signalCompileError: report].
  run isStopped ifTrue: [^self signalStopped: run transcript: (outcome at: 2) limit: limit].
  ^self answerWithValue: (outcome at: 1) transcript: (outcome at: 2) limit: limit
%
category: 'output'
method: McpExecutionToolset
answerWithValue: aPrintString transcript: aTranscriptString limit: anInteger
  "The printString alone when nothing reached Transcript; otherwise the transcript first, headed by
   its size so that where it ends is never in doubt, then the value."
  aTranscriptString isEmpty ifTrue: [^self cap: aPrintString to: anInteger].
  ^'Transcript (' , (self count: aTranscriptString size of: 'characters') , '):' , (String with: Character lf)
    , (self cap: aTranscriptString to: anInteger) , (String with: Character lf)
    , 'Value: ' , (self cap: aPrintString to: anInteger)
%
category: 'output'
method: McpExecutionToolset
cap: aString to: anInteger
  "aString, or its first anInteger characters followed by a marker naming what was dropped; nil
   caps nothing."
  (anInteger isNil or: [aString size <= anInteger]) ifTrue: [^aString].
  ^(aString copyFrom: 1 to: anInteger) , (self truncationMarkerShowing: anInteger of: aString size)
%
category: 'arguments'
method: McpExecutionToolset
maxCharsIn: args
  "maxChars, at most the result cap; absent, the result cap; nil when there is no limit at all. A
   negative value is invalidParams."
  | cap value |
  cap := self resultCap.
  (cap notNil and: [cap <= 0]) ifTrue: [cap := nil].
  value := args at: 'maxChars' ifAbsent: [^cap].
  value < 0 ifTrue: [
    ^McpError signalKind: 'invalidParams' message: 'maxChars must be 0 or more, not ' , value printString].
  cap isNil ifTrue: [^value].
  ^value min: cap
%
category: 'errors'
method: McpExecutionToolset
signalStopped: aStoppedRun transcript: aTranscriptString limit: anInteger
  "The error the code raised, as a tool error whose text and structuredContent.error say where:
   the exception's fields and the frames, after what Transcript received. The stopped process is
   terminated first (its ensure: blocks run)."
  | report ex fields lines |
  ex := aStoppedRun exception.
  [report := McpStackReport of: aStoppedRun] ensure: [aStoppedRun terminate].
  fields := McpStackReport fieldsOf: ex.
  fields at: 'exception' put: (fields removeKey: 'class').
  fields at: 'frames' put: report frames.
  lines := report linesUnder: (McpStackReport headlineOf: ex).
  aTranscriptString isEmpty ifFalse: [
    fields at: 'transcript' put: (self cap: aTranscriptString to: anInteger).
    lines := (Array with: 'Transcript (' , (self count: aTranscriptString size of: 'characters') , '):'
      with: (self cap: aTranscriptString to: anInteger)) , lines].
  ^McpError signalKind: 'other' message: (self linesFrom: lines) details: fields
%
category: 'tools'
method: McpExecutionToolset
debugCode: args
  "Run the code in a process of its own that stops, suspended, at the first error it does not
   handle; keep it under a handle (McpDebugger) and answer where it stopped, or its value."
  | code debugger run compileError |
  code := args at: 'code'.
  debugger := McpDebugger current.
  debugger checkRoom.
  compileError := nil.
  run := McpProcessRun
    on: [[[code evaluate] on: CompileWarning do: [:warning | warning resume]]
      on: CompileError do: [:ex | compileError := ex. ex return: nil]]
    boundedBy: (Array with: self with: code).
  run stopAtBreakpoints; start.
  compileError isNil ifFalse: [^self signalCompileError: (self compileErrorReportFrom: compileError source: code)].
  ^self answerOf: debugger lines: (debugger settle: run subject: (Array with: nil with: nil) handle: nil)
%
category: 'structured content'
method: McpExecutionToolset
answerOf: aDebugger lines: aCollection
  "The debugger's answer: its lines as text, and what it kept as structured content."
  self noteStructured: aDebugger takeAnswer.
  ^self capResult: (self linesFrom: aCollection)
%
category: 'structured content'
method: McpExecutionToolset
answerValue: aString
  "The answer of a tool that answers one printed value: as text, and as structured content."
  self noteStructured: (Dictionary new at: 'value' put: aString; yourself).
  ^aString
%
category: 'tools'
method: McpExecutionToolset
debugResume: args
  "Let the stopped run go on until it stops again (same handle) or ends (the handle is gone)."
  | handle debugger entry |
  handle := args at: 'process'.
  debugger := McpDebugger current.
  entry := debugger entryAt: handle.
  (entry at: 1) resumeRun.
  ^self answerOf: debugger lines: (debugger settle: (entry at: 1) subject: (entry at: 2) handle: handle)
%
category: 'tools'
method: McpExecutionToolset
debugRestartFrame: args
  "Leave the frame on top, to run again from its first line on debug_resume. A frame whose method
   was compiled over since it began runs the method it was running: its sender's frame runs the
   new one."
  | handle debugger entry number level method stale lines |
  handle := args at: 'process'.
  number := args at: 'frame'.
  debugger := McpDebugger current.
  entry := debugger entryAt: handle.
  level := debugger levelOf: number in: entry.
  method := ((entry at: 1) process _frameContentsAt: level) at: 1.
  stale := debugger isStale: method.
  (entry at: 1) restartAtLevel: level.
  lines := debugger linesFor: handle
    status: 'restarted: frame ' , number printString , ' runs again from its first line on debug_resume'.
  stale ifTrue: [lines := lines , (Array with:
    'Note: that frame''s method was compiled over since it began, and it runs the method it was running; restart the frame below it (its sender) to run the new one.')].
  debugger noteRestarted.
  ^self answerOf: debugger lines: lines
%
category: 'tools'
method: McpExecutionToolset
debugEvaluate: args
  "The printString of code evaluated in a frame of a stopped run: self, the arguments and the
   temporaries are the frame's."
  | debugger entry level |
  debugger := McpDebugger current.
  entry := debugger entryAt: (args at: 'process').
  level := debugger levelOf: (args at: 'frame') in: entry.
  ^self answerValue: (self capResult: (debugger evaluate: (args at: 'code') at: level of: (entry at: 1)) printString)
%
category: 'tools'
method: McpExecutionToolset
debugSetTemp: args
  "Store the value of code (evaluated in the frame) into one of the frame's arguments or
   temporaries."
  | debugger entry level value |
  debugger := McpDebugger current.
  entry := debugger entryAt: (args at: 'process').
  level := debugger levelOf: (args at: 'frame') in: entry.
  value := debugger evaluate: (args at: 'code') at: level of: (entry at: 1).
  debugger setTemp: (args at: 'name') to: value at: level of: (entry at: 1).
  self noteStructured: (Dictionary new
    at: 'name' put: (args at: 'name');
    at: 'value' put: (self capResult: value printString);
    yourself).
  ^self capResult: (args at: 'name') , ' := ' , value printString , ' in frame ' , (args at: 'frame') printString
    , ' of ' , (args at: 'process')
%
category: 'tools'
method: McpExecutionToolset
debugStep: args
  "Run a stopped run on by one step (over, into or through) in a frame, default the innermost, and
   answer where it stopped or how it ended."
  | handle kind debugger entry run level |
  handle := args at: 'process'.
  kind := args at: 'kind'.
  (#('over' 'into' 'through') includes: kind) ifFalse: [
    ^McpError signalKind: 'invalidParams' message: 'kind must be over, into or through, not ' , kind printString].
  debugger := McpDebugger current.
  entry := debugger entryAt: handle.
  run := entry at: 1.
  run canStep ifFalse: [
    ^McpError signalKind: 'refused' message: handle , ' stopped at an error, which a step cannot go past: debug_restart_frame a frame first (then debug_step runs it a step at a time), or debug_resume to end the run with the error'].
  level := debugger levelOf: (args at: 'frame' ifAbsent: [1]) in: entry.
  run step: kind atLevel: level.
  ^self answerOf: debugger lines: (debugger settle: run subject: (entry at: 2) handle: handle)
%
category: 'tools'
method: McpExecutionToolset
setBreakpoint: args
  "Set a method breakpoint at the first step point of a line of a method."
  | target sel line answer |
  target := self resolveClass: (args at: 'className') meta: (self booleanArgument: 'meta' in: args default: false).
  sel := self selectorFrom: (args at: 'selector').
  (target includesSelector: sel) ifFalse: [^self signalMissingSelector: sel in: target].
  line := args at: 'line'.
  answer := McpDebugger current setBreakpointIn: target selector: sel line: line.
  self noteStructured: (Dictionary new
    at: 'breakpoint' put: (McpDebugger current breakpointEntryFor: target selector: sel);
    yourself).
  ^'breakpoint set: ' , target name asString , '>>' , sel asString , ' line ' , line printString
    , ' (step point ' , (answer at: 1) printString
    , '). debug_test or debug_code stops there, answering a process handle; other calls go on past it. It lasts until clear_breakpoint, or the session ends; compiling the method over drops it.'
%
category: 'tools'
method: McpExecutionToolset
clearBreakpoint: args
  "Clear the breakpoints set on a method, on one line or all."
  | target sel line count |
  target := self resolveClass: (args at: 'className') meta: (self booleanArgument: 'meta' in: args default: false).
  sel := self selectorFrom: (args at: 'selector').
  line := args at: 'line' ifAbsent: [nil].
  count := McpDebugger current clearBreakpointsIn: target selector: sel line: line.
  count = 0 ifTrue: [
    ^McpError signalKind: 'notFound'
      message: 'no breakpoint is set on ' , target name asString , '>>' , sel asString
        , (line isNil ifTrue: [''] ifFalse: [' line ' , line printString]) , ' (list_breakpoints shows those that are)'].
  self noteStructured: (Dictionary new at: 'cleared' put: count; yourself).
  ^'cleared ' , (self count: count of: 'breakpoints') , ' on ' , target name asString , '>>' , sel asString
%
category: 'tools'
method: McpExecutionToolset
listBreakpoints: args
  "The breakpoints this session set, one per line."
  | lines |
  lines := McpDebugger current breakpointLines.
  self noteStructured: (Dictionary new at: 'breakpoints' put: McpDebugger current breakpointEntries; yourself).
  lines isEmpty ifTrue: [^'(0 breakpoints) set_breakpoint sets one'].
  ^self capResult: (self linesFrom: (Array with: '(' , (self count: lines size of: 'breakpoints') , ')') , lines)
%
category: 'tools'
method: McpExecutionToolset
debugAbandon: args
  "Terminate a stopped run; its ensure: blocks (a test's tearDown) run."
  McpDebugger current abandon: (args at: 'process').
  self noteStructured: McpDebugger current takeAnswer.
  ^(args at: 'process') , ' abandoned: its process was terminated (its ensure: blocks, a test''s tearDown, ran)'
%
category: 'registration'
method: McpExecutionToolset
processProperty
  "The process argument of the debugging tools."
  ^self stringProperty: 'process' description: 'The handle debug_test or debug_code answered, e.g. p1'
%
category: 'registration'
method: McpExecutionToolset
frameProperty
  "The frame argument of the debugging tools that work in one frame."
  ^self integerProperty: 'frame' description: 'A frame number as the stack shows it: [1] is the innermost'
%
category: 'registration'
method: McpExecutionToolset
frameCodeProperty
  "The code argument of debug_evaluate, run in a frame."
  ^self stringProperty: 'code' description: 'Smalltalk source; self, the arguments and the temporaries are the frame''s'
%
category: 'registration'
method: McpExecutionToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each."
  self declareExecuteCodeOn: aRegistry.
  self declareDebugCodeOn: aRegistry.
  self declareDebugResumeOn: aRegistry.
  self declareDebugRestartFrameOn: aRegistry.
  self declareDebugEvaluateOn: aRegistry.
  self declareDebugSetTempOn: aRegistry.
  self declareDebugStepOn: aRegistry.
  self declareSetBreakpointOn: aRegistry.
  self declareClearBreakpointOn: aRegistry.
  self declareListBreakpointsOn: aRegistry.
  self declareDebugAbandonOn: aRegistry
%
category: 'declarations'
method: McpExecutionToolset
declareExecuteCodeOn: aRegistry
  aRegistry add: ((McpTool
    name: 'execute_code'
    description: 'Evaluate Smalltalk source in this session and answer the printString of its value, after what the code wrote to Transcript. Changes it makes stay uncommitted until you call commit.'
    schema: (self schemaProperties: {
        self stringProperty: 'code' description: 'Smalltalk source: one or more statements; the value of the last is answered.'.
        self integerProperty: 'maxChars' description: 'Most characters of the printString (and of the Transcript output) to answer; the rest is dropped with a marker saying how much. Default and ceiling: the server''s result cap.' }
      required: #('code'))
    handler: [:args | self executeCode: args])
      title: 'Execute Smalltalk code';
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugCodeOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_code'
    description: 'Run Smalltalk source in a process of its own that stops, suspended, at the first error it does not handle or at a breakpoint (set_breakpoint), and answer a process handle with the stack (numbered frames, line, source, self, arguments, temporaries); or its value when it ends. The process belongs to this session and blocks none of its other calls; at most 3 are kept, and one untouched for 10 minutes is terminated.'
    schema: (self schemaProperties: {self stringProperty: 'code' description: 'Smalltalk source to run'} required: #('code'))
    handler: [:args | self debugCode: args])
      title: 'Debug Smalltalk code';
      outputSchema: McpDebugger answerSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugResumeOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_resume'
    description: 'Let a stopped process go on until it stops again (the same handle, with the new stack) or ends (how, and the handle is gone). Resumed past an error, a run ends with that error: debug_restart_frame first to run a frame again.'
    schema: (self schemaProperties: {self processProperty} required: #('process'))
    handler: [:args | self debugResume: args])
      title: 'Resume a debugged process';
      outputSchema: McpDebugger answerSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugRestartFrameOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_restart_frame'
    description: 'Discard the frames above a frame of a stopped process; that frame runs again from its first line on debug_resume, with its arguments and its temporaries nil. After compile_method, restart a frame that sends the fixed method (a frame keeps the method it was running).'
    schema: (self schemaProperties: {self processProperty. self frameProperty} required: #('process' 'frame'))
    handler: [:args | self debugRestartFrame: args])
      title: 'Restart a frame';
      outputSchema: McpDebugger answerSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: false;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugEvaluateOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_evaluate'
    description: 'Evaluate Smalltalk source in a frame of a stopped process and answer the printString of its value: self, the arguments and the temporaries are the frame''s (read-only there: debug_set_temp writes one). Runs code, so it can change the image.'
    schema: (self schemaProperties: {self processProperty. self frameProperty. self frameCodeProperty} required: #('process' 'frame' 'code'))
    handler: [:args | self debugEvaluate: args])
      title: 'Evaluate in a frame';
      outputSchema: McpDebugger valueSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugSetTempOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_set_temp'
    description: 'Store the value of Smalltalk source, evaluated in the frame, into one of the frame''s arguments or temporaries.'
    schema: (self schemaProperties: {self processProperty. self frameProperty.
        self stringProperty: 'name' description: 'The argument or temporary, as the stack names it'. self frameCodeProperty}
      required: #('process' 'frame' 'name' 'code'))
    handler: [:args | self debugSetTemp: args])
      title: 'Set a temporary in a frame';
      outputSchema: McpDebugger valueSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugStepOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_step'
    description: 'Run a stopped process on by one step and answer the same handle with the new stack, or how it ended. over: to the next step point of the frame (a send in its method, blocks it runs passed), or of its sender once it returns; through: also into the blocks that frame''s method runs; into: the very next step point, in whatever method is sent. From a breakpoint, a step or a restarted frame; not from an error (debug_restart_frame first).'
    schema: (self schemaProperties: {self processProperty.
        'kind' -> (Dictionary new
          at: 'type' put: 'string';
          at: 'enum' put: #('over' 'into' 'through');
          at: 'description' put: 'over, into or through';
          yourself).
        self integerProperty: 'frame' description: 'The frame to step in, as the stack numbers it (default 1, the innermost)'}
      required: #('process' 'kind'))
    handler: [:args | self debugStep: args])
      title: 'Step a debugged process';
      outputSchema: McpDebugger answerSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareSetBreakpointOn: aRegistry
  aRegistry add: ((McpTool
    name: 'set_breakpoint'
    description: 'Set a breakpoint on a line of a method (at its first step point): debug_test and debug_code stop there, answering a process handle and the stack; other calls run past it. Lasts until clear_breakpoint or the end of the session, never committed; compiling the method over leaves the new method without it.'
    schema: (self schemaProperties: {
        self stringProperty: 'className' description: 'Name of a class, resolved through the session''s symbol list'.
        self stringProperty: 'selector' description: 'The selector of a method the class defines'.
        self integerProperty: 'line' description: 'A line of the method''s source, 1 being its selector line, as stack frames number lines'.
        self booleanProperty: 'meta' description: 'true for the class-side method (default false)'}
      required: #('className' 'selector' 'line'))
    handler: [:args | self setBreakpoint: args])
      title: 'Set a breakpoint';
      outputSchema: McpDebugger breakpointsSchema from: self;
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareClearBreakpointOn: aRegistry
  aRegistry add: ((McpTool
    name: 'clear_breakpoint'
    description: 'Clear the breakpoints set_breakpoint set on a method: on one line, or all of the method''s when line is left out.'
    schema: (self schemaProperties: {
        self stringProperty: 'className' description: 'Name of a class, resolved through the session''s symbol list'.
        self stringProperty: 'selector' description: 'The selector of the method'.
        self integerProperty: 'line' description: 'The line the breakpoint was set on (default: every breakpoint of the method)'.
        self booleanProperty: 'meta' description: 'true for the class-side method (default false)'}
      required: #('className' 'selector'))
    handler: [:args | self clearBreakpoint: args])
      title: 'Clear a breakpoint';
      outputSchema: McpDebugger breakpointsSchema from: self;
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareListBreakpointsOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_breakpoints'
    description: 'The breakpoints this session set: Class>>selector, line and step point, and whether the method was compiled over since (then set it again).'
    schema: (self schemaProperties: #() required: #())
    handler: [:args | self listBreakpoints: args])
      title: 'List breakpoints';
      outputSchema: McpDebugger breakpointsSchema from: self;
      readOnly;
      yourself)
%
category: 'declarations'
method: McpExecutionToolset
declareDebugAbandonOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_abandon'
    description: 'Terminate a stopped process; its ensure: blocks (a test''s tearDown) run and the handle is gone.'
    schema: (self schemaProperties: {self processProperty} required: #('process'))
    handler: [:args | self debugAbandon: args])
      title: 'Abandon a debugged process';
      outputSchema: McpDebugger answerSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: false;
      yourself)
%
