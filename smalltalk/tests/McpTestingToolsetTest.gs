set compile_env: 0
! ------------------- Class definition for McpTestingToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpTestingToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTestingToolsetTest comment: 
'The SUnit tools against McpFixtureSampleTest, a TestCase subclass made in setUp with one test that
passes, one that fails an assertion and one that raises ZeroDivide: summaries from the counts, the
FAIL and ERROR lines, the failure detail naming the exception class, and notFound -- never zero
tests -- for a class or selector that does not resolve.

list_failing_tests is only called here with classNames: run without them it runs every test class
in the image, this one included.'
%
expectvalue /Class
doit
McpTestingToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpTestingToolsetTest
removeallmethods McpTestingToolsetTest
removeallclassmethods McpTestingToolsetTest
! ------------------- Class methods for McpTestingToolsetTest
! ------------------- Instance methods for McpTestingToolsetTest
category: 'fixtures'
method: McpTestingToolsetTest
installFixtures
  | sample |
  super installFixtures.
  sample := self defineFixtureClass: 'McpFixtureSampleTest' superclass: TestCase instVarNames: #().
  self compileFixtureMethod: 'testPasses
  self assert: 3 + 4 = 7' in: sample.
  self compileFixtureMethod: 'testFails
  self assert: 3 + 4 = 8' in: sample.
  self compileFixtureMethod: 'testErrors
  ^1 / 0' in: sample.
  self installDeepFixturesIn: sample
%
category: 'fixtures'
method: McpTestingToolsetTest
installDeepFixturesIn: aTestClass
  "McpFixtureDeepTest: a failed assert:equals: with temporaries, and an error raised two sends
   deep in McpFixtureAccount (withdraw: called from transfer:)."
  | account deep |
  account := self defineFixtureClass: 'McpFixtureAccount' superclass: Object instVarNames: #(#balance).
  self compileFixtureMethod: 'balance
  ^balance ifNil: [0]' in: account.
  self compileFixtureMethod: 'withdraw: anAmount
  anAmount > self balance
    ifTrue: [^self error: ''insufficient funds''].
  balance := self balance - anAmount' in: account.
  self compileFixtureMethod: 'transfer: anAmount to: anAccount
  self withdraw: anAmount.
  ^anAccount' in: account.
  deep := self defineFixtureClass: 'McpFixtureDeepTest' superclass: TestCase instVarNames: #().
  self compileFixtureMethod: 'testEquals
  | first second |
  first := 3.
  second := 4.
  self assert: first + second equals: 8' in: deep.
  self compileFixtureMethod: 'testTransfer
  | from |
  from := (System myUserProfile objectNamed: #McpFixtureAccount) new.
  from transfer: 30 to: nil' in: deep
%
category: 'running'
method: McpTestingToolsetTest
toolsetClasses
  ^{McpTestingToolset}
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassSummarisesTheCountsAndNamesEachProblem
  | answer |
  answer := self lines: (self callTool: 'run_test_class' with: {'className'. 'McpFixtureSampleTest'}).
  self assert: answer first = 'McpFixtureSampleTest: 3 run, 1 passed, 1 failed, 1 error'.
  self assert: (answer includes: 'FAIL   McpFixtureSampleTest>>testFails').
  self assert: (answer includes: 'ERROR  McpFixtureSampleTest>>testErrors').
  self assert: (answer includes: '    TestFailure: Assertion failed').
  self assert: (answer includes: '      McpFixtureSampleTest>>testErrors (line 2): ^1 / 0')
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassKeepsItsCountsAndProblemsAsStructuredContent
  | run problems |
  self callTool: 'run_test_class' with: {'className'. 'McpFixtureSampleTest'}.
  run := (registry toolNamed: 'run_test_class' ifAbsent: [nil]) takeStructuredContent.
  self assert: (run at: 'run') = 3.
  self assert: (run at: 'passed') = 1.
  self assert: (run at: 'failed') = 1.
  self assert: (run at: 'errors') = 1.
  problems := run at: 'problems'.
  self assert: problems size = 2.
  self assert: ((problems at: 1) at: 'test') = 'McpFixtureSampleTest>>testErrors'.
  self assert: ((problems at: 1) at: 'kind') = 'error'.
  self assert: ((problems at: 2) at: 'test') = 'McpFixtureSampleTest>>testFails'.
  self assert: ((problems at: 2) at: 'kind') = 'failure'.
  self assert: (registry toolNamed: 'run_test_class' ifAbsent: [nil]) takeStructuredContent isNil
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestMethodOfAPassingTestKeepsNoProblems
  | run |
  self callTool: 'run_test_method' with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testPasses'}.
  run := (registry toolNamed: 'run_test_method' ifAbsent: [nil]) takeStructuredContent.
  self assert: (run at: 'run') = 1.
  self assert: (run at: 'passed') = 1.
  self assert: (run at: 'problems') isEmpty.
  self assert: (((registry toolNamed: 'run_test_method' ifAbsent: [nil]) descriptor at: 'outputSchema') at: 'type') = 'object'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassOfAnUnknownClassIsNotFoundNotZeroTests
  self
    assert: (self failureKindOf: 'run_test_class' with: {'className'. 'McpNoSuchTest'})
    = 'notFound'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassOfAClassThatIsNotATestCaseIsNotFound
  self
    assert: (self failureKindOf: 'run_test_class' with: {'className'. 'McpFixtureAlpha'})
    = 'notFound'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestMethodRunsExactlyOneTest
  self
    assert: (self callTool: 'run_test_method'
      with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testPasses'})
    = 'McpFixtureSampleTest>>testPasses: 1 run, 1 passed, 0 failed, 0 errors'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestMethodOfAFailingTestSaysFail
  self
    assert: (self lines: (self callTool: 'run_test_method'
      with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testFails'}))
    = #('McpFixtureSampleTest>>testFails: 1 run, 0 passed, 1 failed, 0 errors' 'FAIL   McpFixtureSampleTest>>testFails'
      '    TestFailure: Assertion failed' '    Where (innermost first):'
      '      [] in TestCase>>assert: (line 2): aBoolean == true ifFalse: [TestFailure new signal: ''Assertion failed'']'
      '          self = McpFixtureSampleTest debug: #testFails'
      '      TestCase>>assert: (line 2): aBoolean == true ifFalse: [TestFailure new signal: ''Assertion failed'']'
      '          self = McpFixtureSampleTest debug: #testFails; aBoolean = false'
      '      McpFixtureSampleTest>>testFails (line 2): self assert: 3 + 4 = 8'
      '          self = McpFixtureSampleTest debug: #testFails')
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestMethodWithAnUnknownSelectorIsNotFound
  self
    assert: (self failureKindOf: 'run_test_method'
      with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testNoSuchThing'})
    = 'notFound'
%
category: 'tests'
method: McpTestingToolsetTest
testListFailingTestsNamesOnlyTheTestsThatDidNotPass
  | answer |
  answer := self lines: (self callTool: 'list_failing_tests' with: {'classNames'. #('McpFixtureSampleTest')}).
  self assert: answer first = '1 class: 3 run, 1 passed, 1 failed, 1 error'.
  self assert: (answer includes: 'FAIL   McpFixtureSampleTest>>testFails').
  self assert: (answer includes: 'ERROR  McpFixtureSampleTest>>testErrors').
  self assert: (answer includes: '    Where (innermost first):').
  self assert: (answer includes: '      McpFixtureSampleTest>>testFails (line 2): self assert: 3 + 4 = 8')
%
category: 'tests'
method: McpTestingToolsetTest
testListFailingTestsWithAnUnknownNameRunsNothing
  | failure |
  failure := self failureOf: 'list_failing_tests'
    with: {'classNames'. #('McpFixtureSampleTest' 'McpNoSuchTest')}.
  self assert: failure kind = 'notFound'.
  self assert: (self text: failure messageText includes: 'McpNoSuchTest')
%
category: 'tests'
method: McpTestingToolsetTest
testDescribeTestFailureNamesTheAssertionFailure
  | answer |
  answer := self callTool: 'describe_test_failure'
    with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testFails'}.
  self assert: (answer beginsWith: 'McpFixtureSampleTest>>testFails failed: ')
%
category: 'tests'
method: McpTestingToolsetTest
testDescribeTestFailureNamesTheErrorClass
  | answer |
  answer := self callTool: 'describe_test_failure'
    with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testErrors'}.
  self assert: (answer beginsWith: 'McpFixtureSampleTest>>testErrors raised an error: ZeroDivide')
%
category: 'tests'
method: McpTestingToolsetTest
testDescribeTestFailureOfAPassingTestSaysItPassed
  self assert: (self text: (self callTool: 'describe_test_failure'
      with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testPasses'})
    includes: 'passed when run alone')
%
category: 'tests'
method: McpTestingToolsetTest
testListTestClassesMarksAbstractClasses
  | answer |
  answer := self lines: (self callTool: 'list_test_classes' with: #()).
  self assert: (answer includes: 'McpFixtureSampleTest').
  self assert: (answer includes: 'McpToolsetTestCase  (abstract)')
%
category: 'tests'
method: McpTestingToolsetTest
testAProblemEntryIsLabelledWhetherATestCaseOrAString
  "TestResult failures and errors hold TestCase instances on some extents and Strings on others;
   McpTestingToolset>>labelOf: and problemLinesOf: must name the test either way."
  | toolset |
  toolset := McpTestingToolset server: nil options: nil.
  self assert: (toolset labelOf: (McpJsonTest selector: #testControlsAreEscaped)) = 'McpJsonTest>>testControlsAreEscaped'.
  self assert: (toolset labelOf: 'McpJsonTest>>testControlsAreEscaped') = 'McpJsonTest>>testControlsAreEscaped'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassAsksToContinueAsATask
  "A long run is offered to the router as a task (the client's capabilities decide), before the
   first progress report, bound to the running call."
  | saved frames channel methods |
  saved := McpChannel current.
  frames := OrderedCollection new.
  [channel := McpChannel installFrom: (Dictionary new
      at: 'address' put: '127.0.0.1:9';
      at: 'secret' put: 'test-secret';
      yourself).
    channel captureFramesWith: [:frame | frames add: frame].
    channel beginCall: 'run-1' progressToken: 'tok'.
    self callTool: 'run_test_class' with: {'className'. 'McpFixtureSampleTest'}]
      ensure: [SessionTemps current at: McpChannel sessionKey put: saved].
  methods := frames collect: [:frame | (frame at: 'message') at: 'method'].
  self assert: methods first = McpChannel becomeTaskMethod.
  self assert: (methods at: 2) = 'notifications/progress'.
  self assert: (frames first at: 'call') = 'run-1'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestMethodRefusesASelectorThatIsNotATest
  #('setUp' 'printString' 'assert:') do: [:each | | failure |
    failure := self failureOf: 'run_test_method' with: {'className'. 'McpFixtureSampleTest'. 'selector'. each}.
    self assert: failure notNil.
    self assert: failure kind = 'notFound'.
    self assert: (self text: failure messageText includes: 'is not a test').
    self assert: (self text: failure messageText includes: 'testPasses')]
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestMethodOfAMisspelledTestSuggestsTheTest
  | failure |
  failure := self failureOf: 'run_test_method' with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testPass'}.
  self assert: failure kind = 'notFound'.
  self assert: (failure extraFields at: 'suggestions') = #('testPasses')
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassReportsProgressAfterEachTest
  | frames channel previous progress |
  frames := OrderedCollection new.
  channel := McpChannel new setAddress: '127.0.0.1:9' secret: 'test-secret'.
  channel captureFramesWith: [:frame | frames add: frame].
  previous := McpChannel current.
  SessionTemps current at: McpChannel sessionKey put: channel.
  [channel beginCall: 1 progressToken: 'p'.
   self callTool: 'run_test_class' with: {'className'. 'McpFixtureSampleTest'}]
    ensure: [SessionTemps current at: McpChannel sessionKey put: previous].
  progress := (frames select: [:each | ((each at: 'message') at: 'method') = 'notifications/progress'])
    collect: [:each | (each at: 'message') at: 'params'].
  self assert: (progress collect: [:each | each at: 'progress']) asArray = #(0 1 2 3).
  self assert: ((progress collect: [:each | each at: 'total']) asArray = #(3 3 3 3)).
  self assert: (progress last at: 'message') = 'McpFixtureSampleTest>>testPasses passed'
%
category: 'tests'
method: McpTestingToolsetTest
testRunTestClassOfAMisspelledClassSuggestsTheTestClass
  | failure |
  failure := self failureOf: 'run_test_class' with: {'className'. 'McpFixtureSampleTests'}.
  self assert: failure kind = 'notFound'.
  self assert: (failure extraFields at: 'suggestions') = #('McpFixtureSampleTest') description: failure messageText
%
category: 'helpers'
method: McpTestingToolsetTest
structuredOf: aToolName
  "The structured content the last call of aToolName kept."
  ^(registry toolNamed: aToolName ifAbsent: [nil]) takeStructuredContent
%
category: 'tests - where and why'
method: McpTestingToolsetTest
testDescribeTestFailureSaysWhereTheAssertionFailed
  | answer frames last |
  answer := self lines: (self callTool: 'describe_test_failure'
    with: {'className'. 'McpFixtureSampleTest'. 'selector'. 'testFails'}).
  self assert: answer first = 'McpFixtureSampleTest>>testFails failed: TestFailure: Assertion failed'.
  self assert: (answer includes: '  McpFixtureSampleTest>>testFails (line 2): self assert: 3 + 4 = 8').
  frames := (self structuredOf: 'describe_test_failure') at: 'frames'.
  last := frames last.
  self assert: (last at: 'method') = 'McpFixtureSampleTest>>testFails'.
  self assert: (last at: 'line') = 2.
  self assert: (last at: 'source') = 'self assert: 3 + 4 = 8'
%
category: 'tests - where and why'
method: McpTestingToolsetTest
testDescribeTestFailureShowsBothValuesOfAssertEqualsAndTheTemporaries
  | structured frames equals test |
  self callTool: 'describe_test_failure' with: {'className'. 'McpFixtureDeepTest'. 'selector'. 'testEquals'}.
  structured := self structuredOf: 'describe_test_failure'.
  self assert: (structured at: 'kind') = 'failure'.
  self assert: ((structured at: 'exception') at: 'class') = 'TestFailure'.
  frames := structured at: 'frames'.
  equals := frames detect: [:each | (each at: 'method') = 'TestCase>>assert:equals:'].
  self assert: (equals at: 'args') values asSortedCollection asArray = #('7' '8').
  test := frames last.
  self assert: (test at: 'method') = 'McpFixtureDeepTest>>testEquals'.
  self assert: (test at: 'line') = 5.
  self assert: ((test at: 'temps') at: 'first') = '3'.
  self assert: ((test at: 'temps') at: 'second') = '4'
%
category: 'tests - where and why'
method: McpTestingToolsetTest
testDescribeTestFailureFollowsAnErrorTwoSendsDeep
  | frames methods withdraw |
  self callTool: 'describe_test_failure' with: {'className'. 'McpFixtureDeepTest'. 'selector'. 'testTransfer'}.
  frames := (self structuredOf: 'describe_test_failure') at: 'frames'.
  methods := frames collect: [:each | each at: 'method'].
  self assert: (methods includes: 'McpFixtureAccount>>withdraw:').
  self assert: (methods indexOf: 'McpFixtureAccount>>withdraw:') < (methods indexOf: 'McpFixtureAccount>>transfer:to:').
  self assert: methods last = 'McpFixtureDeepTest>>testTransfer'.
  withdraw := frames detect: [:each | (each at: 'method') = 'McpFixtureAccount>>withdraw:'].
  self assert: (withdraw at: 'line') = 3.
  self assert: ((withdraw at: 'args') at: 'anAmount') = '30'.
  self assert: (frames last at: 'temps') keys asArray = #('from')
%
category: 'tests - where and why'
method: McpTestingToolsetTest
testARunExplainsAFewFailuresInlineAndKeepsThemStructured
  | answer problems failure |
  answer := self lines: (self callTool: 'run_test_class' with: {'className'. 'McpFixtureDeepTest'}).
  self assert: answer first = 'McpFixtureDeepTest: 2 run, 0 passed, 1 failed, 1 error'.
  self assert: (answer includes: '      McpFixtureAccount>>withdraw: (line 3): ifTrue: [^self error: ''insufficient funds''].').
  problems := (self structuredOf: 'run_test_class') at: 'problems'.
  failure := problems detect: [:each | (each at: 'test') = 'McpFixtureDeepTest>>testEquals'].
  self assert: (failure at: 'frames') last = ((failure at: 'frames') detect: [:each | (each at: 'method') = 'McpFixtureDeepTest>>testEquals']).
  self assert: ((failure at: 'exception') at: 'class') = 'TestFailure'
%
category: 'tests - where and why'
method: McpTestingToolsetTest
testTearDownRunsAfterTheFailureIsDescribed
  | cls |
  cls := self defineFixtureClass: 'McpFixtureTearDownTest' superclass: TestCase instVarNames: #().
  self compileFixtureMethod: 'tearDown
  SessionTemps current at: #McpFixtureTornDown put: true' in: cls.
  self compileFixtureMethod: 'testFails
  SessionTemps current at: #McpFixtureTornDown put: false.
  self assert: false' in: cls.
  [self callTool: 'describe_test_failure' with: {'className'. 'McpFixtureTearDownTest'. 'selector'. 'testFails'}.
   self assert: (SessionTemps current at: #McpFixtureTornDown) == true]
    ensure: [SessionTemps current removeKey: #McpFixtureTornDown ifAbsent: [nil]]
%
