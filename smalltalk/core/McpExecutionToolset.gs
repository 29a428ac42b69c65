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
category: 'registration'
method: McpExecutionToolset
registerOn: aRegistry
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
