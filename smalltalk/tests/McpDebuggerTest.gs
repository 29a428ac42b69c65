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
debug_resume, debug_abandon) against McpFixtureRateTest, whose test fails until
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
  debugger isNil ifFalse: [debugger handles do: [:each | debugger abandon: each]].
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
