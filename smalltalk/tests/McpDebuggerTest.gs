set compile_env: 0
! ------------------- Class definition for McpDebuggerTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpDebuggerTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpDebuggerTest comment: 
'The debugging tools (debug_test, debug_code, debug_evaluate, debug_set_temp, debug_restart_frame,
debug_resume, debug_step, debug_abandon, set_breakpoint, clear_breakpoint, list_breakpoints)
against McpFixtureRateTest, whose test fails until
McpFixtureRate>>percentOf: rounds up: a stop at the failing assertion with the test method''s frame
and temporaries, evaluation in that frame, the fix, the restart and the green resume; a handle
that is abandoned, expired or ended is gone and says why; at most three are kept.

Each test starts and ends with this session''s McpDebugger empty (tearDown abandons what it kept).'
%
expectvalue /Class
doit
McpDebuggerTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpDebuggerTest
removeallmethods McpDebuggerTest
removeallclassmethods McpDebuggerTest
! ------------------- Instance methods for McpDebuggerTest
category: 'fixtures'
method: McpDebuggerTest
installFixtures
  | rate test |
  super installFixtures.
  SessionTemps current removeKey: #McpDebugger ifAbsent: [nil].
  rate := self defineFixtureClass: 'McpFixtureRate' superclass: Object instVarNames: #().
  self compileFixtureMethod: 'percentOf: aNumber
  ^aNumber * 3 // 100' in: rate.
  test := self defineFixtureClass: 'McpFixtureRateTest' superclass: TestCase instVarNames: #().
  self compileFixtureMethod: 'testRoundsUp
  | rate amount |
  rate := (System myUserProfile objectNamed: #McpFixtureRate) new.
  amount := rate percentOf: 150.
  self assert: amount = 5' in: test.
  self compileFixtureMethod: 'testPasses
  self assert: true' in: test
%
category: 'fixtures'
method: McpDebuggerTest
tearDown
  | debugger |
  debugger := SessionTemps current at: #McpDebugger otherwise: nil.
  debugger isNil ifFalse: [
    debugger handles do: [:each | debugger abandon: each].
    debugger clearAllBreakpoints].
  SessionTemps current removeKey: #McpDebugger ifAbsent: [nil].
  super tearDown
%
category: 'running'
method: McpDebuggerTest
toolsetClasses
  ^{McpTestingToolset. McpExecutionToolset}
%
category: 'helpers'
method: McpDebuggerTest
debugTheFailingTest
  ^self lines: (self callTool: 'debug_test' with: {'className'. 'McpFixtureRateTest'. 'selector'. 'testRoundsUp'})
%
category: 'tests'
method: McpDebuggerTest
testDebugTestStopsAtTheFailedAssertionWithTheTestMethodsFrame
  | answer |
  answer := self debugTheFailingTest.
  self assert: answer first = 'p1 stopped: TestFailure: Assertion failed'.
  self assert: (answer includes: '  [3] McpFixtureRateTest>>testRoundsUp (line 5): self assert: amount = 5').
  self assert: ((answer at: (answer indexOf: '  [3] McpFixtureRateTest>>testRoundsUp (line 5): self assert: amount = 5') + 1)
    beginsWith: '      self = McpFixtureRateTest debug: #testRoundsUp; amount = 4; rate = ')
%
category: 'tests'
method: McpDebuggerTest
testEvaluatingInTheTestFrameSeesItsTemporariesAndSelf
  self debugTheFailingTest.
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 3. 'code'. 'amount + 1'}) = '5'.
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 3. 'code'. 'rate percentOf: 200'}) = '6'.
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 3. 'code'. 'self class name'})
    = '#McpFixtureRateTest'
%
category: 'tests'
method: McpDebuggerTest
testAFixRestartedAndResumedEndsGreen
  | answer |
  self debugTheFailingTest.
  self compileFixtureMethod: 'percentOf: aNumber
  ^aNumber * 3 + 99 // 100' in: (self fixtureClassNamed: 'McpFixtureRate').
  answer := self lines: (self callTool: 'debug_restart_frame' with: {'process'. 'p1'. 'frame'. 3}).
  self assert: answer first = 'p1 restarted: frame 3 runs again from its first line on debug_resume'.
  self assert: (answer includes: '      self = McpFixtureRateTest debug: #testRoundsUp; amount = nil; rate = nil').
  self assert: (self callTool: 'debug_resume' with: {'process'. 'p1'}) = 'p1 ended: the test passed'.
  self assert: (self failureOf: 'debug_resume' with: {'process'. 'p1'}) safeText
    = 'process p1 is gone: ended: the test passed'
%
category: 'tests'
method: McpDebuggerTest
testASetTemporaryIsWhatTheFrameGoesOnWith
  self debugTheFailingTest.
  self callTool: 'debug_set_temp' with: {'process'. 'p1'. 'frame'. 2. 'name'. 'aBoolean'. 'code'. 'true'}.
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 2. 'code'. 'aBoolean'}) = 'true'.
  self assert: (self callTool: 'debug_restart_frame' with: {'process'. 'p1'. 'frame'. 2}) notNil.
  self assert: (self callTool: 'debug_resume' with: {'process'. 'p1'}) = 'p1 ended: the test passed'
%
category: 'tests'
method: McpDebuggerTest
testResumedPastTheErrorTheRunEndsWithIt
  self debugTheFailingTest.
  self assert: ((self callTool: 'debug_resume' with: {'process'. 'p1'})
    beginsWith: 'p1 ended with TestFailure: Assertion failed')
%
category: 'tests'
method: McpDebuggerTest
testAnAbandonedProcessIsGoneAndSaysSo
  | failure |
  self debugTheFailingTest.
  self callTool: 'debug_abandon' with: {'process'. 'p1'}.
  failure := self failureOf: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 1. 'code'. '1'}.
  self assert: failure kind = 'notFound'.
  self assert: failure safeText = 'process p1 is gone: abandoned (debug_abandon)'
%
category: 'tests'
method: McpDebuggerTest
testAnExpiredProcessIsGoneAndSaysSo
  | failure |
  self debugTheFailingTest.
  McpDebugger current setIdleMs: 0.
  failure := self failureOf: 'debug_resume' with: {'process'. 'p1'}.
  self assert: failure kind = 'notFound'.
  self assert: (failure safeText beginsWith: 'process p1 is gone: expired')
%
category: 'tests'
method: McpDebuggerTest
testAtMostThreeStoppedProcessesAreKept
  | failure |
  3 timesRepeat: [self debugTheFailingTest].
  failure := self failureOf: 'debug_test' with: {'className'. 'McpFixtureRateTest'. 'selector'. 'testRoundsUp'}.
  self assert: failure kind = 'refused'.
  self assert: (failure safeText includesString: 'p1, p2, p3')
%
category: 'tests'
method: McpDebuggerTest
testAPassingTestOrCodeThatEndsKeepsNothing
  self assert: (self callTool: 'debug_test' with: {'className'. 'McpFixtureRateTest'. 'selector'. 'testPasses'})
    = 'The run ended: the test passed'.
  self assert: (self callTool: 'debug_code' with: {'code'. '3 + 4'}) = 'The run ended: its value is 7'.
  self assert: McpDebugger current handles isEmpty
%
category: 'tests'
method: McpDebuggerTest
testDebugCodeStopsInTheEvaluatedCode
  | answer |
  answer := self lines: (self callTool: 'debug_code' with: {'code'. '| total |
total := 41.
total foo'}).
  self assert: (answer first beginsWith: 'p1 stopped: MessageNotUnderstood').
  self assert: (answer includes: '  [1] executed code (line 3): total foo').
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 1. 'code'. 'total + 1'}) = '42'
%
category: 'tests'
method: McpDebuggerTest
testAFrameThatIsNotShownIsInvalid
  self debugTheFailingTest.
  self assert: (self failureKindOf: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 9. 'code'. '1'}) = 'invalidParams'
%
category: 'helpers'
method: McpDebuggerTest
breakAt: aClassName selector: aSelector line: aLine
  ^self callTool: 'set_breakpoint' with: {'className'. aClassName. 'selector'. aSelector. 'line'. aLine}
%
category: 'tests - breakpoints'
method: McpDebuggerTest
testABreakpointStopsADebuggedTestInTheMethod
  | answer |
  self assert: ((self breakAt: 'McpFixtureRate' selector: 'percentOf:' line: 2)
    beginsWith: 'breakpoint set: McpFixtureRate>>percentOf: line 2 (step point ').
  answer := self debugTheFailingTest.
  self assert: answer first = 'p1 stopped at a breakpoint'.
  self assert: (answer includes: '  [1] McpFixtureRate>>percentOf: (line 2): ^aNumber * 3 // 100').
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 1. 'code'. 'aNumber'}) = '150'.
  self assert: ((self lines: (self callTool: 'debug_resume' with: {'process'. 'p1'})) first = 'p1 stopped: TestFailure: Assertion failed')
%
category: 'tests - breakpoints'
method: McpDebuggerTest
testOtherCallsRunPastABreakpoint
  self breakAt: 'McpFixtureRate' selector: 'percentOf:' line: 2.
  self assert: (self callTool: 'execute_code' with: {'code'. 'McpFixtureRate new percentOf: 200'}) = '6'.
  self assert: ((self callTool: 'run_test_method' with: {'className'. 'McpFixtureRateTest'. 'selector'. 'testRoundsUp'})
    includesString: 'Assertion failed').
  self assert: McpDebugger current handles isEmpty
%
category: 'tests - breakpoints'
method: McpDebuggerTest
testALineWithoutAStepPointIsInvalid
  | failure |
  failure := self failureOf: 'set_breakpoint'
    with: {'className'. 'McpFixtureRate'. 'selector'. 'percentOf:'. 'line'. 1}.
  self assert: failure kind = 'invalidParams'.
  self assert: failure safeText = 'line 1 of McpFixtureRate>>percentOf: has no step point; lines that have one: 2'
%
category: 'tests - breakpoints'
method: McpDebuggerTest
testBreakpointsAreListedAndCleared
  | args |
  self assert: (self callTool: 'list_breakpoints' with: {}) = '(0 breakpoints) set_breakpoint sets one'.
  self breakAt: 'McpFixtureRate' selector: 'percentOf:' line: 2.
  self assert: (((self lines: (self callTool: 'list_breakpoints' with: {})) at: 2)
    beginsWith: 'McpFixtureRate>>percentOf: line 2 (step point ').
  self compileFixtureMethod: 'percentOf: aNumber
  ^aNumber * 3 + 99 // 100' in: (self fixtureClassNamed: 'McpFixtureRate').
  self assert: (((self lines: (self callTool: 'list_breakpoints' with: {})) at: 2)
    includesString: 'compiled over since; the new method has no breakpoint (set it again)').
  args := {'className'. 'McpFixtureRate'. 'selector'. 'percentOf:'}.
  self assert: (self callTool: 'clear_breakpoint' with: args) = 'cleared 1 breakpoint on McpFixtureRate>>percentOf:'.
  self assert: (self failureKindOf: 'clear_breakpoint' with: args) = 'notFound'
%
category: 'tests - stepping'
method: McpDebuggerTest
stopInTheTestAtLine: aLine
  self breakAt: 'McpFixtureRateTest' selector: 'testRoundsUp' line: aLine.
  ^self debugTheFailingTest
%
category: 'tests - stepping'
method: McpDebuggerTest
testAStepOverGoesToTheNextLineOfTheFrame
  | answer |
  self assert: ((self stopInTheTestAtLine: 4) includes: '  [1] McpFixtureRateTest>>testRoundsUp (line 4): amount := rate percentOf: 150.').
  answer := (self lines: (self callTool: 'debug_step' with: {'process'. 'p1'. 'kind'. 'over'})).
  self assert: answer first = 'p1 stopped after step over'.
  self assert: (answer includes: '  [1] McpFixtureRateTest>>testRoundsUp (line 5): self assert: amount = 5').
  self assert: (self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 1. 'code'. 'amount'}) = '4'
%
category: 'tests - stepping'
method: McpDebuggerTest
testAStepIntoEntersTheMethodSent
  | answer |
  self stopInTheTestAtLine: 4.
  answer := (self lines: (self callTool: 'debug_step' with: {'process'. 'p1'. 'kind'. 'into'})).
  self assert: answer first = 'p1 stopped after step into'.
  self assert: (answer includes: '  [1] McpFixtureRate>>percentOf: (line 2): ^aNumber * 3 // 100').
  self assert: (answer includes: '  [2] McpFixtureRateTest>>testRoundsUp (line 4): amount := rate percentOf: 150.')
%
category: 'tests - stepping'
method: McpDebuggerTest
testAStepFromAnErrorIsRefusedUntilAFrameIsRestarted
  | answer |
  self debugTheFailingTest.
  self assert: (self failureKindOf: 'debug_step' with: {'process'. 'p1'. 'kind'. 'over'}) = 'refused'.
  self callTool: 'debug_restart_frame' with: {'process'. 'p1'. 'frame'. 3}.
  answer := (self lines: (self callTool: 'debug_step' with: {'process'. 'p1'. 'kind'. 'over'})).
  self assert: answer first = 'p1 stopped after step over'.
  self assert: ((answer detect: [:each | each beginsWith: '  [1] McpFixtureRateTest>>testRoundsUp (line 3): '] ifNone: [nil]) notNil)
%
category: 'tests - stepping'
method: McpDebuggerTest
testAStepThatMeetsAnErrorStopsThere
  "Stopped at line 5's first step point (the =, its operands already read), two steps over reach
   the failing assert:."
  self stopInTheTestAtLine: 5.
  self assert: ((self lines: (self callTool: 'debug_step' with: {'process'. 'p1'. 'kind'. 'over'})) first
    = 'p1 stopped after step over').
  self assert: ((self lines: (self callTool: 'debug_step' with: {'process'. 'p1'. 'kind'. 'over'})) first
    = 'p1 stopped: TestFailure: Assertion failed')
%
category: 'tests - stepping'
method: McpDebuggerTest
testAnUnknownStepKindIsInvalid
  self stopInTheTestAtLine: 4.
  self assert: (self failureKindOf: 'debug_step' with: {'process'. 'p1'. 'kind'. 'sideways'}) = 'invalidParams'
%
category: 'helpers'
method: McpDebuggerTest
structuredOf: aToolName
  "The structured content the last call of aToolName kept."
  ^(registry toolNamed: aToolName ifAbsent: [nil]) takeStructuredContent
%
category: 'tests - structured content'
method: McpDebuggerTest
testAStopIsStructuredContentWithTheFrames
  | stop frame |
  self debugTheFailingTest.
  stop := self structuredOf: 'debug_test'.
  self assert: (stop at: 'process') = 'p1'.
  self assert: (stop at: 'state') = 'stopped'.
  self assert: (stop at: 'stop') = 'exception'.
  self assert: ((stop at: 'exception') at: 'class') = 'TestFailure'.
  frame := (stop at: 'frames') at: 3.
  self assert: (frame at: 'method') = 'McpFixtureRateTest>>testRoundsUp'.
  self assert: (frame at: 'line') = 5.
  self assert: ((frame at: 'temps') at: 'amount') = '4'.
  self callTool: 'debug_evaluate' with: {'process'. 'p1'. 'frame'. 3. 'code'. 'amount + 1'}.
  self assert: ((self structuredOf: 'debug_evaluate') at: 'value') = '5'.
  self callTool: 'debug_restart_frame' with: {'process'. 'p1'. 'frame'. 3}.
  self assert: ((self structuredOf: 'debug_restart_frame') at: 'state') = 'restarted'.
  self callTool: 'debug_step' with: {'process'. 'p1'. 'kind'. 'over'}.
  stop := self structuredOf: 'debug_step'.
  self assert: (stop at: 'stop') = 'step'.
  self assert: (stop at: 'step') = 'over'.
  self callTool: 'debug_abandon' with: {'process'. 'p1'}.
  self assert: ((self structuredOf: 'debug_abandon') at: 'state') = 'abandoned'
%
category: 'tests - structured content'
method: McpDebuggerTest
testAnEndIsStructuredContentWithTheOutcome
  | ended |
  self callTool: 'debug_code' with: {'code'. '3 + 4'}.
  ended := self structuredOf: 'debug_code'.
  self assert: (ended at: 'state') = 'ended'.
  self assert: (ended at: 'outcome') = 'value'.
  self assert: (ended at: 'value') = '7'.
  self deny: (ended includesKey: 'process')
%
category: 'tests - structured content'
method: McpDebuggerTest
testBreakpointsAreStructuredContent
  | entry |
  self breakAt: 'McpFixtureRate' selector: 'percentOf:' line: 2.
  entry := (self structuredOf: 'set_breakpoint') at: 'breakpoint'.
  self assert: (entry at: 'className') = 'McpFixtureRate'.
  self assert: (entry at: 'selector') = 'percentOf:'.
  self assert: (entry at: 'line') = 2.
  self assert: (entry at: 'meta') == false.
  self assert: (entry at: 'stale') == false.
  self callTool: 'list_breakpoints' with: {}.
  self assert: ((self structuredOf: 'list_breakpoints') at: 'breakpoints') size = 1.
  self callTool: 'clear_breakpoint' with: {'className'. 'McpFixtureRate'. 'selector'. 'percentOf:'. 'line'. 2}.
  self assert: ((self structuredOf: 'clear_breakpoint') at: 'cleared') = 1
%
