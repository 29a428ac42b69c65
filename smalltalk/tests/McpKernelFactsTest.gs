set compile_env: 0
! ------------------- Class definition for McpKernelFactsTest
expectvalue /Class
doit
TestCase subclass: 'McpKernelFactsTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpKernelFactsTest comment: 
'The kernel facts the worker relies on without a public GemStone source that shows them, one test
per fact. Each test comment names the code that depends on the fact, so a fact that fails on a
stone points at what to change. run-unit-tests.sh runs this suite first and prints it first, and
install.sh --check runs it. The probe selectors (probeThatFails, probeThatErrors) are not tests:
testTestResultEntries runs them to see how a TestResult records them.

It writes one key into the first dictionary of the symbol list and removes it again, and compiles
one method into this class and removes it again; the session then holds uncommitted changes, which
the scripts discard by logging out without a commit. It writes one line to the gem log.'
%
expectvalue /Class
doit
McpKernelFactsTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpKernelFactsTest
removeallmethods McpKernelFactsTest
removeallclassmethods McpKernelFactsTest
! ------------------- Instance methods for McpKernelFactsTest
category: 'probes'
method: McpKernelFactsTest
probeThatErrors
  ^1 / 0
%
category: 'probes'
method: McpKernelFactsTest
probeThatFails
  self assert: 3 + 4 = 8
%
category: 'helpers'
method: McpKernelFactsTest
euro
  "A one-character text wider than a byte, built the way a stream widens."
  ^(WriteStream on: String new) nextPut: (Character codePoint: 8364); contents
%
category: 'helpers'
method: McpKernelFactsTest
caughtBy: aBlock
  "What aBlock signals, caught whatever its class, or nil when it signals nothing."
  ^[aBlock value. nil] on: AbstractException do: [:ex | ex return: ex]
%
category: 'tests - bytes'
method: McpKernelFactsTest
testByteArrayElementsAreIntegers
  "McpJson class>>byteAt:in: tells a ByteArray from a byte String by its elements, and
   McpChannel class>>lengthFrom: adds them up: at: on a ByteArray answers an Integer."
  | bytes |
  bytes := ByteArray new: 2.
  bytes at: 1 put: 7; at: 2 put: 200.
  self assert: ((bytes at: 2) isKindOf: Integer).
  self assert: (bytes at: 2) = 200.
  self assert: (('a' at: 1) isKindOf: Character)
%
category: 'tests - bytes'
method: McpKernelFactsTest
testStringAsByteArrayKeepsEachByte
  "McpChannel class>>frameFor: sends the UTF-8 bytes McpJson write: answers (a byte String) as
   asByteArray: one byte per character, the code point of each."
  | text bytes |
  text := McpJson write: (String with: (Character codePoint: 233)).
  bytes := text asByteArray.
  self assert: (bytes isKindOf: ByteArray).
  self assert: bytes size = 4.
  self assert: (bytes at: 2) = 195.
  self assert: (bytes at: 3) = 169
%
category: 'tests - bytes'
method: McpKernelFactsTest
testByteArrayConcatenationIsAByteArray
  "McpChannel class>>frameFor: joins the length header and the payload with a comma."
  | joined |
  joined := (ByteArray new: 2) , (ByteArray new: 3).
  self assert: (joined isKindOf: ByteArray).
  self assert: joined size = 5
%
category: 'tests - strings'
method: McpKernelFactsTest
testAStringStreamGivenOnlyBytesStaysAString
  "McpJson class>>write: answers the UTF-8 bytes as a String built on WriteStream on: String new,
   and the scripts' marker lines (smalltalk/scripts/emit.gs) are built the same way so that
   GsFile writes them as bytes: a stream given only characters below 256 must stay a String."
  | out |
  out := WriteStream on: String new.
  out nextPutAll: 'MCPI '; nextPut: (Character codePoint: 195); nextPut: (Character codePoint: 169).
  self assert: out contents class == String.
  self assert: (McpJson write: self euro) class == String
%
category: 'tests - strings'
method: McpKernelFactsTest
testReadStreamPositionRoundTrips
  "McpJson class>>hexValueAfterU: and lowSurrogateAfter: read ahead and go back with position
   and position:. Only the round trip is relied on, not what position counts from."
  | in start |
  in := ReadStream on: 'abcdef'.
  in next.
  start := in position.
  in next; next.
  in position: start.
  self assert: in next = $b
%
category: 'tests - json'
method: McpKernelFactsTest
testJsonParserAnswersASequenceForAnArray
  "McpPrepareConfig>>protocolVersionsIn:, toolsetNamesIn: and McpTool>>value:hasType: take a JSON array
   through McpJson class>>isArray:, which accepts any sequenceable collection that is not text."
  | value |
  value := JsonParser parse: '["a",2]'.
  self assert: (McpJson isArray: value).
  self assert: value size = 2.
  self assert: (value at: 1) = 'a'.
  self deny: (McpJson isArray: (JsonParser parse: '"ab"'))
%
category: 'tests - json'
method: McpKernelFactsTest
testJsonParserAnswersADictionaryWithStringKeys
  "McpDispatcher>>responseTo: and every tool read members with at: 'name' (a String key)."
  | value |
  value := JsonParser parse: '{"id":1,"method":"ping"}'.
  self assert: (value isKindOf: Dictionary).
  self assert: (value at: 'method') = 'ping'.
  self assert: (value at: 'id') = 1
%
category: 'tests - json'
method: McpKernelFactsTest
testJsonParserDecodesABmpEscape
  "McpJson class>>combineSurrogateEscapesIn: leaves every escape but a surrogate pair to the
   kernel parser, which must decode it to its character."
  | value |
  value := JsonParser parse: '"caf\u00e9"'.
  self assert: value size = 4.
  self assert: (value at: 4) codePoint = 233
%
category: 'tests - json'
method: McpKernelFactsTest
testJsonParserRefusesALoneSurrogateEscape
  "McpJson class>>parse: folds an escaped surrogate pair itself because the kernel parser refuses
   each half; a lone half left in the text must be refused (McpJson answers parseError), not
   turned into a character no valid text holds."
  | caught |
  caught := self caughtBy: [JsonParser parse: '"\ud83d"'].
  self assert: (caught isKindOf: Error)
%
category: 'tests - json'
method: McpKernelFactsTest
testJsonParserKeepsOneValueForADuplicateKey
  "McpJson class>>parse: does not look for duplicate keys: a message with one is taken as the
   kernel parser reads it, which must be one of the values, not an error or two entries."
  | value |
  value := JsonParser parse: '{"a":1,"a":2}'.
  self assert: (value isKindOf: Dictionary).
  self assert: value size = 1.
  self assert: (#(1 2) includes: (value at: 'a'))
%
category: 'tests - transactions'
method: McpKernelFactsTest
testASymbolListWriteLeavesTheSessionNeedingACommit
  "McpViewNotes>>sessionNotes adds the uncommitted [session] note when System needsCommit is true,
   and the suites that write the symbol list (the toolset suites) leave it true for the suites
   after them, so McpServerTest reads a tool's text from its first line only."
  | dictionary |
  dictionary := System myUserProfile symbolList first.
  dictionary at: #McpKernelFactsProbe put: 1.
  dictionary removeKey: #McpKernelFactsProbe ifAbsent: [nil].
  self assert: System needsCommit == true
%
category: 'tests - classes'
method: McpKernelFactsTest
testADefinitionNamesTheDictionaryOfTheClass
  "get_class_definition and export_class_source hand out definition; filed back in, it must bind
   the class where it lives, here Mcp, not UserGlobals."
  self assert: (McpKernelFactsTest definition asString includesString: 'inDictionary: Mcp')
%
category: 'tests - exceptions'
method: McpKernelFactsTest
testCompileWarningIsResumableAndNoError
  "McpDispatcher class>>settle:with: and McpExecutionToolset>>executeCode: resume a
   CompileWarning; the compiles of McpMutationToolset sit inside on: Error handlers, which must
   not take a warning for a failure."
  | outcome |
  outcome := [CompileWarning new signal: 'a probe'. #resumed]
    on: CompileWarning do: [:warning | warning resume].
  self assert: outcome == #resumed.
  self deny: (CompileWarning inheritsFrom: Error)
%
category: 'tests - exceptions'
method: McpKernelFactsTest
testControlInterruptIsOutsideError
  "McpDispatcher class>>isBreak: passes a ControlInterrupt on to the router, and every on: Error
   handler in the toolsets must let a break through: ControlInterrupt must be an exception
   outside the Error hierarchy."
  self assert: (ControlInterrupt inheritsFrom: AbstractException).
  self deny: (ControlInterrupt inheritsFrom: Error).
  self deny: (ControlInterrupt inheritsFrom: Notification)
%
category: 'tests - exceptions'
method: McpKernelFactsTest
testSignalTextIsTheMessageText
  "McpError>>safeText falls back on messageText, and McpServer class>>describeException: on
   description: both must give back the text an Error was signalled with."
  | caught |
  caught := self caughtBy: [Error new signal: 'probe text'].
  self assert: caught messageText asString = 'probe text'.
  self assert: ((caught description asString) findString: 'probe text' startingAt: 1) > 0
%
category: 'tests - exceptions'
method: McpKernelFactsTest
testMcpErrorKeepsTheKernelAccessors
  "McpError keeps its own data under its own names (kind, extraFields, safeText), so the
   kernel's details accessors, through which messageText reads on some extents, stay the
   kernel's. A kernel without them is no problem; an McpError that shadows them is."
  | caught |
  caught := self caughtBy: [McpError signalKind: 'other' message: 'probe' details: (Dictionary new at: 'k' put: 1; yourself)].
  self assert: caught messageText asString = 'probe'.
  self assert: caught safeText = 'probe'.
  self assert: ((caught extraFields) at: 'k') = 1
%
category: 'tests - sunit'
method: McpKernelFactsTest
testTestResultEntries
  "McpTestingToolset>>problemLinesOf: and labelOf:, and run-unit-tests.sh, read the entries of
   failures and errors: each must be a TestCase or a String naming the test, and the counts must
   agree with the collections (on some extents they overlap)."
  | failed errored |
  failed := (self class selector: #probeThatFails) run.
  errored := (self class selector: #probeThatErrors) run.
  self assert: failed failureCount = 1.
  self assert: failed errorCount = 0.
  self assert: failed failures size = 1.
  self assert: errored errorCount = 1.
  self assert: errored failureCount = 0.
  self assert: errored errors size = 1.
  self assert: (((McpTestingToolset server: nil options: nil) labelOf: failed failures asArray first)
    findString: 'probeThatFails' startingAt: 1) > 0
%
category: 'tests - files'
method: McpKernelFactsTest
testAGemLogRefusalIsAnError
  "McpChannel class>>gemLog: guards GsFile gciLogServer: with on: Error, for a user the server
   refuses files to: the line must be written, or refused with an Error."
  | caught |
  caught := self caughtBy: [GsFile gciLogServer: 'McpKernelFactsTest: a probe line'].
  self assert: (caught isNil or: [caught isKindOf: Error])
%
category: 'tests - transcript'
method: McpKernelFactsTest
testTranscriptWritesToTheSessionStream
  "McpExecutionToolset>>executeCode: captures Transcript by putting an McpTranscriptSink at
   SessionTemps #TranscriptStream_SessionStream for the call: Transcript show: must end there."
  | temps previous sink |
  temps := SessionTemps current.
  previous := temps at: #TranscriptStream_SessionStream otherwise: nil.
  sink := McpTranscriptSink new.
  temps at: #TranscriptStream_SessionStream put: sink.
  [Transcript show: 'probe'] ensure: [
    previous isNil
      ifTrue: [temps removeKey: #TranscriptStream_SessionStream ifAbsent: [nil]]
      ifFalse: [temps at: #TranscriptStream_SessionStream put: previous]].
  self assert: sink captured = 'probe'
%
category: 'helpers'
method: McpKernelFactsTest
suspendedAtErrorIn: aBlock
  "A process running aBlock, suspended by its own handler on top of the frames of the error it
   met, as McpProcessRun>>stopAt: suspends it."
  | semaphore process |
  semaphore := Semaphore new.
  process := [aBlock on: Error do: [:ex | semaphore signal. process suspend. ex return: nil]] newProcess.
  process resume.
  semaphore wait.
  ^process
%
category: 'tests - processes'
method: McpKernelFactsTest
testASuspendedProcessShowsItsFramesNamesValuesAndLines
  "McpStackReport reads a stopped run's frames with _frameContentsAt: (slot 1 the method, 2 the
   ip, 8 self, 9 the argument and temporary names, 10 + i their values) and the line with
   _lineNumberForIp:. GemTalk/Jasper reads that layout from a process GemStone suspended at an
   error; here the process suspended itself in its handler, as McpProcessRun's does."
  | process level found |
  process := self suspendedAtErrorIn: [| total | total := 5. total / 0].
  [found := nil.
   level := 1.
   [found isNil and: [level <= process localStackDepth]] whileTrue: [ | frame |
     frame := process _frameContentsAt: level.
     ((frame at: 9) includes: #total) ifTrue: [found := frame].
     level := level + 1].
   self assert: found notNil.
   self assert: (found at: 10 + ((found at: 9) indexOf: #total)) = 5.
   self assert: ((found at: 1) _lineNumberForIp: (found at: 2)) = 7.
   self assert: (found at: 1) isMethodForBlock]
    ensure: [process terminate]
%
category: 'fixtures - stepping'
method: McpKernelFactsTest
stepFixtureOuter
  | a |
  a := self stepFixtureInner: 3.
  ^a printString
%
category: 'fixtures - stepping'
method: McpKernelFactsTest
stepFixtureInner: x
  ^x + 1
%
category: 'helpers'
method: McpKernelFactsTest
stopAtLine: aLine of: aSelector in: aBlock then: aStepBlock
  "Set a breakpoint at the first step point of aLine of this class's method aSelector (as
   McpDebugger>>setBreakpointIn:selector:line: does), run aBlock in a process forked as
   McpProcessRun forks it (breakpointLevel: 1, a Breakpoint handler that suspends it), then
   value aStepBlock with the process and a block answering the stopped frame's selector and line."
  | method offsets point semaphore process where |
  method := self class compiledMethodAt: aSelector.
  offsets := method _sourceOffsets.
  point := (1 to: offsets size) detect: [:i |
    (((method sourceString copyFrom: 1 to: (offsets at: i)) select: [:c | c == Character lf]) size + 1) = aLine].
  semaphore := Semaphore new.
  process := [[aBlock value] on: Breakpoint do: [:ex |
      semaphore signal. process suspend. ex resume: nil].
    semaphore signal] newProcess.
  where := [| level frame |
    level := 1.
    [frame := process _frameContentsAt: level.
     (frame at: 1) homeMethod selector == #stopAtLine:of:in:then:] whileTrue: [level := level + 1].
    Array with: (frame at: 1) homeMethod selector with: ((frame at: 1) _lineNumberForIp: (frame at: 2)) with: level].
  method setBreakAtStepPoint: point.
  [process breakpointLevel: 1.
   process resume.
   semaphore wait.
   method clearBreakAtStepPoint: point.
   aStepBlock value: process value: where value: semaphore]
    ensure: [method clearBreakAtStepPoint: point. process terminate]
%
category: 'tests - processes'
method: McpKernelFactsTest
testABreakpointStopsAForkedProcessThatHandlesBreakpoint
  "set_breakpoint and debug_test/debug_code rely on a method breakpoint stopping a process forked
   with breakpointLevel: 1 by signalling a Breakpoint its own handler catches (feenkcom/gt4gemstone
   forks so; GemTalk/Jasper reports that in a GCI execution no handler sees one), resumable and no
   Error, in the frame of the method at the line the breakpoint is on; resumed, the run goes on."
  | result |
  self stopAtLine: 3 of: #stepFixtureOuter in: [result := self stepFixtureOuter] then: [:process :where :semaphore |
    self assert: ((where value) first: 2) = #(#stepFixtureOuter 3).
    process resume.
    semaphore wait.
    self assert: result = '4']
%
category: 'tests - processes'
method: McpKernelFactsTest
testABreakpointIsAResumableExceptionOutsideError
  "McpProcessRun resumes a Breakpoint (ex resume: nil) and the client's own on: Error do: must not
   swallow one."
  self assert: Breakpoint new isResumable.
  self deny: (Breakpoint inheritsFrom: Error)
%
category: 'tests - processes'
method: McpKernelFactsTest
testAStepOverStopsAtTheNextLineOfTheFrame
  "debug_step over relies on setStepOverBreaksAtLevel: of the frame's level (gt4gemstone
   stepOverFrameLevel:) stopping the resumed process at that frame's next step point, with a
   Breakpoint its handler catches, not in the method it sends."
  self stopAtLine: 3 of: #stepFixtureOuter in: [self stepFixtureOuter] then: [:process :where :semaphore |
    process setStepOverBreaksAtLevel: (where value at: 3).
    process resume.
    semaphore wait.
    self assert: ((where value) first: 2) = #(#stepFixtureOuter 4)]
%
category: 'tests - processes'
method: McpKernelFactsTest
testAStepIntoStopsInTheMethodSent
  "debug_step into relies on setStepIntoBreaksAtLevel: stopping the resumed process in the method
   the frame sends next."
  self stopAtLine: 3 of: #stepFixtureOuter in: [self stepFixtureOuter] then: [:process :where :semaphore |
    process setStepIntoBreaksAtLevel: (where value at: 3).
    process resume.
    semaphore wait.
    self assert: (where value) first = #stepFixtureInner:]
%
category: 'tests - processes'
method: McpKernelFactsTest
testTerminatingASuspendedProcessRunsItsEnsureBlocks
  "McpProcessRun>>terminate ends a stopped run with GsProcess>>terminate and relies on it to run
   the run's ensure: blocks: a test's tearDown runs that way after describe_test_failure has read
   the frames."
  | log process |
  log := OrderedCollection new.
  process := self suspendedAtErrorIn: [[1 / 0] ensure: [log add: #ensured]].
  self assert: log isEmpty.
  process terminate.
  self assert: log asArray = #(#ensured)
%
category: 'tests - json'
method: McpKernelFactsTest
testFloatsJsonCannotCarryPrintWithLetters
  "McpJson>>writeNumber:on: writes null for a Float whose printString is not a JSON number, so
  it relies on an infinity and a NaN printing with letters and a finite Float printing as a
  number, a positive exponent included (GemTalk/Grail Float.gs: PlusInfinity, *QuietNaN, 1e16)."
  self deny: (McpJson isJsonNumberText: (10 raisedTo: 400) asFloat printString).
  self deny: (McpJson isJsonNumberText: (10 raisedTo: 400) negated asFloat printString).
  self deny: (McpJson isJsonNumberText: PlusQuietNaN printString).
  self assert: (McpJson isJsonNumberText: (10 raisedTo: 16) asFloat printString).
  self assert: (McpJson isJsonNumberText: 1.5 printString)
%
category: 'tests'
method: McpKernelFactsTest
testEachSideKeepsItsMethodsInAMethodDictionaryOfItsOwn
  "McpSessionToolset>>describeConflictObject: names a refused commit's conflict by matching it
   with persistentMethodDictForEnv: 0 of the classes this session changed, and
   McpResourceCatalog>>subscribe: watches that object. GemTalk/mcp_server
   docs/blind-write-guardrail.md (measurement E) names the class's GsMethodDictionary as what a
   method compiled in two sessions conflicts on; this pins what the match assumes: each side has
   a dictionary of its own, apart from the class, holding the side's methods by selector, and
   compiling or removing a method keeps that same object. That a conflict names this very object
   needs a second session: test/realstone (TestDifferentMethodsOfOneClassConflictOnItsMethodDictionary)
   pins it through the server."
  | methods |
  methods := McpKernelFactsTest persistentMethodDictForEnv: 0.
  self assert: methods notNil.
  self deny: methods == McpKernelFactsTest.
  self deny: methods == (McpKernelFactsTest class persistentMethodDictForEnv: 0).
  self assert: (methods at: #probeThatErrors) == (McpKernelFactsTest compiledMethodAt: #probeThatErrors).
  McpKernelFactsTest compileMethod: 'mcpFactsProbe ^1' dictionaries: System myUserProfile symbolList category: 'probes'.
  self assert: (McpKernelFactsTest persistentMethodDictForEnv: 0) == methods.
  self assert: (methods includesKey: #mcpFactsProbe).
  McpKernelFactsTest removeSelector: #mcpFactsProbe.
  self assert: (McpKernelFactsTest persistentMethodDictForEnv: 0) == methods.
  self deny: (methods includesKey: #mcpFactsProbe)
%
category: 'tests'
method: McpKernelFactsTest
testTransactionConflictsIsKeyedBySymbolsWithArraysOfObjects
  "McpSessionToolset>>conflictEntries reads System transactionConflicts with keysAndValuesDo:,
   skips #commitResult and treats every other value as the conflicting objects, and
   failedCommitPending compares commitResult with #retryFailure. The kernel's comment
   (GsDevKit/glassdb GemStoneSystemTransactionConflictsDictionary.md) says a SymbolDictionary,
   #commitResult a Symbol, each other key a kind of conflict with an Array of objects. Without a
   second session no conflict can be staged here, so this pins the shape of the answer only."
  | conflicts |
  conflicts := System transactionConflicts.
  self assert: (conflicts isKindOf: SymbolDictionary).
  self assert: ((conflicts at: #commitResult ifAbsent: [#none]) isKindOf: Symbol).
  conflicts keysAndValuesDo: [:key :value |
    self assert: (key isKindOf: Symbol).
    key == #commitResult ifFalse: [self assert: (value isKindOf: Array)]]
%
category: 'tests'
method: McpKernelFactsTest
testACommittedObjectJoinsTheNotifySetAndSignaledObjectsAnswersACollection
  "McpResourceCatalog>>subscribe: and resourceUpdates rely on the polling form of object change
   notification (Programmer's Guide 3.7, Signals and Notifiers): System addAllToNotifySet: takes
   committed objects (a kernel class here), and System signaledObjects answers a collection of
   the objects commits changed since it was last asked, without moving the view. What a stone
   signals for a compiled method (the method dictionary) is pinned by the e2e run on the model
   only. No public code that ran on a stone sends either message (docs/gsmodel.md, Searched
   without evidence), so this checks what the worker assumes: a class and a method dictionary
   join the notify set, and asking for the signals answers a collection and keeps the
   session's uncommitted work (it neither aborts nor refreshes)."
  | signaled dictionary |
  System addAllToNotifySet: (Array with: Object with: (Object persistentMethodDictForEnv: 0)).
  dictionary := System myUserProfile symbolList first.
  dictionary at: #McpKernelFactsProbe put: 1.
  signaled := System signaledObjects.
  self assert: (dictionary at: #McpKernelFactsProbe ifAbsent: [nil]) = 1.
  dictionary removeKey: #McpKernelFactsProbe ifAbsent: [nil].
  self assert: (signaled isKindOf: Collection).
  self assert: (signaled detect: [:each | each == Object] ifNone: [nil]) isNil
%
