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
  ^1 / 0' in: sample
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
  self assert: answer size = 3
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
    = #('McpFixtureSampleTest>>testFails: 1 run, 0 passed, 1 failed, 0 errors' 'FAIL   McpFixtureSampleTest>>testFails')
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
  self assert: answer size = 3
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
  self assert: (answer beginsWith: 'McpFixtureSampleTest>>testErrors raised an error: ZeroDivide: ')
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
