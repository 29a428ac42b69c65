set compile_env: 0
! ------------------- Class definition for McpTestingToolset
expectvalue /Class
doit
McpToolset subclass: 'McpTestingToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTestingToolset comment: 
'The SUnit tools: list the TestCase subclasses, run a class or one test, list the failing tests,
and re-run one test for the exception that failed it.

Summaries are built from the run''s own counts (runCount, passedCount, failureCount, errorCount),
never from a TestResult printString, which can raise. A failure''s detail names the exception''s
class and its description. A class name that does not resolve is reported as not found -- never as
a run of zero tests, because "ran nothing" and "misspelled it" must not look alike.

Running a test runs its code in this session and can change the image like any other code; this
toolset itself never commits, aborts or refreshes.'
%
expectvalue /Class
doit
McpTestingToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpTestingToolset
removeallmethods McpTestingToolset
removeallclassmethods McpTestingToolset
! ------------------- Class methods for McpTestingToolset
category: 'limits'
classmethod: McpTestingToolset
maxExplained
  "Failing tests a run re-runs alone to say where and why they failed; describe_test_failure
   explains any other."
  ^3
%
! ------------------- Instance methods for McpTestingToolset
category: 'running'
method: McpTestingToolset
allConcreteTestClasses
  "Every TestCase subclass that is not abstract; an abstract one would run its leaves twice."
  ^((ClassOrganizer new allSubclassesOf: self testCaseClass) reject: [:cls | cls isAbstract]) asArray
%
category: 'running'
method: McpTestingToolset
explainRunOf: aSelector in: aClass
  "Runs setUp, the test and tearDown as SUnit would, in a process of its own (McpProcessRun) that
   stops where the test failed. Answers nil when the test passed, else a Dictionary: kind, the
   exception's fields, the frames from the signal to the test method, and the text lines. The
   stopped process is terminated before this answers, which runs tearDown."
  | test run |
  test := aClass selector: aSelector.
  run := McpProcessRun
    on: [test setUp. [test perform: aSelector] ensure: [test tearDown]]
    boundedBy: (Array with: self).
  run start.
  run isStopped ifFalse: [^nil].
  ^[self explanationOf: run report: (McpStackReport of: run endingAt: test selector: aSelector)]
    ensure: [run terminate]
%
category: 'running'
method: McpTestingToolset
explanationOf: aStoppedRun report: aStackReport
  "Why a test stopped: failure or error, the exception, the frames and the lines under its
   headline."
  | ex explanation |
  ex := aStoppedRun exception.
  explanation := Dictionary new.
  explanation at: 'kind' put: ((ex isKindOf: TestFailure) ifTrue: ['failure'] ifFalse: ['error']).
  explanation at: 'exception' put: (McpStackReport fieldsOf: ex).
  explanation at: 'frames' put: aStackReport frames.
  explanation at: 'lines' put: (aStackReport linesUnder: (McpStackReport headlineOf: ex)).
  ^explanation
%
category: 'running'
method: McpTestingToolset
explain: aProblemCollection
  "Re-runs alone the first few problems (by label) to say where and why each failed: adds the
   exception and frames to each problem's Dictionary and answers label -> text lines."
  | explained sorted |
  explained := Dictionary new.
  sorted := (aProblemCollection asSortedCollection: [:a :b | (a at: 'test') <= (b at: 'test')]) asArray.
  (sorted copyFrom: 1 to: (sorted size min: self class maxExplained)) do: [:problem |
    explained at: (problem at: 'test') put: (self explainProblem: problem)].
  ^explained
%
category: 'running'
method: McpTestingToolset
explainProblem: aProblem
  "The text lines for one problem, whose Dictionary gains exception and frames."
  | label cls explanation |
  label := aProblem at: 'test'.
  cls := self testClassOrNilNamed: (label copyFrom: 1 to: (label indexOf: $>) - 1).
  cls isNil ifTrue: [^#()].
  explanation := self explainRunOf: (label copyFrom: (label indexOf: $>) + 2 to: label size) asSymbol in: cls.
  explanation isNil ifTrue: [^#('    (passed when run alone)')].
  aProblem at: 'exception' put: (explanation at: 'exception').
  aProblem at: 'frames' put: (explanation at: 'frames').
  ^(explanation at: 'lines') collect: [:each | '    ' , each]
%
category: 'running'
method: McpTestingToolset
problemLines: aSortedLineArray explained: aDictionary of: aProblemCount
  "The FAIL and ERROR lines, each followed by its explanation when it has one, and a note naming
   how many were not explained."
  | out |
  out := OrderedCollection new.
  aSortedLineArray do: [:line |
    out add: line.
    out addAll: (aDictionary at: (line copyFrom: 8 to: line size) ifAbsent: [#()])].
  aProblemCount > aDictionary size ifTrue: [
    out add: '(' , (aProblemCount - aDictionary size) printString
      , ' more not explained here: describe_test_failure says where and why each failed)'].
  ^out asArray
%
category: 'tools'
method: McpTestingToolset
describeTestFailure: args
  "describe_test_failure: runs the one test alone, stopped where it failed; a test that passes
   alone says so."
  | cls sel explanation label lines |
  cls := self testClassNamed: (args at: 'className').
  sel := self testSelector: (args at: 'selector') in: cls.
  label := cls name asString , '>>' , sel asString.
  explanation := self explainRunOf: sel in: cls.
  explanation isNil ifTrue: [
    self noteStructured: (Dictionary new at: 'test' put: label; at: 'passed' put: true; yourself).
    ^label , ' passed when run alone (no failure to describe).'].
  self noteStructured: (Dictionary new
    at: 'test' put: label;
    at: 'passed' put: false;
    at: 'kind' put: (explanation at: 'kind');
    at: 'exception' put: (explanation at: 'exception');
    at: 'frames' put: (explanation at: 'frames');
    yourself).
  lines := (explanation at: 'lines') copy.
  lines at: 1 put: label , (((explanation at: 'kind') = 'failure')
      ifTrue: [' failed: ']
      ifFalse: [' raised an error: ']) , lines first.
  ^self capResult: (self linesFrom: lines)
%
category: 'private'
method: McpTestingToolset
describe: anException
  "The exception's description, which unlike messageText is never nil."
  ^[anException description asString]
    on: Error do: [:e | e return: (anException messageText ifNil: ['(no description)']) asString]
%
category: 'running'
method: McpTestingToolset
labelOf: aTestCaseOrString
  "A failed or erroring test as Class>>selector; an entry that is not a TestCase is shown as is."
  ^(aTestCaseOrString isKindOf: TestCase)
    ifTrue: [aTestCaseOrString class name asString , '>>' , aTestCaseOrString selector asString]
    ifFalse: [aTestCaseOrString asString]
%
category: 'tools'
method: McpTestingToolset
listFailingTests: args
  "list_failing_tests: runs the classes and lists only what failed or erred, with the totals."
  | classes lines totals done problems |
  classes := self classesToRun: args.
  lines := OrderedCollection new.
  problems := OrderedCollection new.
  totals := {0. 0. 0. 0}.
  done := 0.
  classes do: [:cls | | result |
    result := cls suite run.
    done := done + 1.
    self reportProgress: done of: classes size about: cls name asString.
    self add: result to: totals.
    lines addAll: (self problemLinesOf: result).
    problems addAll: (self problemsOf: result)].
  lines := self problemLines: lines asSortedCollection asArray explained: (self explain: problems) of: problems size.
  self noteCounts: totals problems: problems.
  ^self capResult: (self linesFrom: {self summaryLabel: (self count: classes size of: 'classes') counts: totals} , lines)
%
category: 'running'
method: McpTestingToolset
add: aTestResult to: aCountArray
  "Add a result's run, passed, failed and error counts to aCountArray, in that order."
  aCountArray at: 1 put: (aCountArray at: 1) + aTestResult runCount.
  aCountArray at: 2 put: (aCountArray at: 2) + aTestResult passedCount.
  aCountArray at: 3 put: (aCountArray at: 3) + aTestResult failureCount.
  aCountArray at: 4 put: (aCountArray at: 4) + aTestResult errorCount.
  ^aCountArray
%
category: 'running'
method: McpTestingToolset
classesToRun: args
  "The named classes, every one of which must resolve to a TestCase subclass, or all of them."
  | names missing |
  names := self argument: 'classNames' in: args ifAbsent: [nil].
  names isNil ifTrue: [^self allConcreteTestClasses].
  names isEmpty ifTrue: [^McpError signalKind: 'invalidParams' message: 'classNames is empty; leave it out to run every test class'].
  missing := names reject: [:each | (self testClassOrNilNamed: each) notNil].
  missing isEmpty ifFalse: [
    ^McpError signalKind: 'notFound'
      message: 'no TestCase subclass named ' , (self joined: missing with: ', ') , '; nothing was run'].
  ^names asArray collect: [:each | self testClassOrNilNamed: each]
%
category: 'tools'
method: McpTestingToolset
listTestClasses: args
  "list_test_classes: every TestCase subclass, abstract ones marked, sorted and paged."
  | rows |
  rows := (ClassOrganizer new allSubclassesOf: self testCaseClass) collect: [:cls |
    cls name asString , (cls isAbstract ifTrue: ['  (abstract)'] ifFalse: [''])
      -> (Dictionary new at: 'name' put: cls name asString; at: 'abstract' put: cls isAbstract; yourself)].
  ^self page: (self sortedRows: rows) args: args defaultLimit: nil noun: 'test classes'
%
category: 'structured content'
method: McpTestingToolset
noteCounts: aCountArray problems: aCollection
  "Keep a run's counts and its problems as the structured content of the call."
  self noteStructured: (Dictionary new
    at: 'run' put: (aCountArray at: 1);
    at: 'passed' put: (aCountArray at: 2);
    at: 'failed' put: (aCountArray at: 3);
    at: 'errors' put: (aCountArray at: 4);
    at: 'problems' put: ((aCollection asSortedCollection: [:a :b | (a at: 'test') <= (b at: 'test')]) asArray);
    yourself)
%
category: 'structured content'
method: McpTestingToolset
problemsOf: aTestResult
  "One Dictionary per test that did not pass: its Class>>selector and whether it failed or erred."
  | problems |
  problems := OrderedCollection new.
  aTestResult failures do: [:t | problems add: (self problem: t kind: 'failure')].
  aTestResult errors do: [:t | problems add: (self problem: t kind: 'error')].
  ^problems
%
category: 'structured content'
method: McpTestingToolset
problem: aTest kind: aKind
  "One failed or erred test in the structured content."
  ^Dictionary new
    at: 'test' put: (self labelOf: aTest);
    at: 'kind' put: aKind;
    yourself
%
category: 'structured content'
method: McpTestingToolset
testClassPageSchema
  "Each TestCase subclass with whether it is abstract."
  ^self pageSchemaWithItem: (self objectSchema: {
    'name' -> (self schemaOfType: 'string' description: 'the class name').
    'abstract' -> (self schemaOfType: 'boolean' description: 'true for an abstract class, whose tests run in its subclasses') })
%
category: 'structured content'
method: McpTestingToolset
failureSchema
  "The outputSchema of describe_test_failure: the test, whether it passed alone, and when it did
   not, the kind, the exception and the frames."
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: (Dictionary new
      at: 'test' put: (self schemaOfType: 'string' description: 'Class>>selector');
      at: 'passed' put: (self schemaOfType: 'boolean' description: 'true when the test passed when run alone');
      at: 'kind' put: (Dictionary new at: 'type' put: 'string'; at: 'enum' put: #('failure' 'error'); yourself);
      at: 'exception' put: McpStackReport exceptionSchema;
      at: 'frames' put: McpStackReport framesSchema;
      at: 'error' put: (self schemaOfType: 'object' description: 'present instead when the call failed');
      yourself);
    yourself
%
category: 'structured content'
method: McpTestingToolset
testRunSchema
  "The outputSchema of a tool that runs tests: the counts and one entry per test that did not
   pass. A failed call answers structuredContent.error instead, which the schema allows."
  | counts problem |
  counts := Dictionary new.
  #('run' 'passed' 'failed' 'errors') do: [:each |
    counts at: each put: (self schemaOfType: 'integer' description: 'tests ' , each)].
  problem := Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: (Dictionary new
      at: 'test' put: (self schemaOfType: 'string' description: 'Class>>selector');
      at: 'kind' put: (Dictionary new at: 'type' put: 'string'; at: 'enum' put: #('failure' 'error'); yourself);
      at: 'exception' put: McpStackReport exceptionSchema;
      at: 'frames' put: McpStackReport framesSchema;
      yourself);
    yourself.
  counts at: 'problems' put: (Dictionary new
    at: 'type' put: 'array';
    at: 'items' put: problem;
    yourself).
  counts at: 'error' put: (self schemaOfType: 'object' description: 'present instead of the counts when the call failed').
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: counts;
    at: 'anyOf' put: (Array
      with: (Dictionary new at: 'required' put: #('run' 'passed' 'failed' 'errors' 'problems'); yourself)
      with: (Dictionary new at: 'required' put: #('error'); yourself));
    yourself
%
category: 'running'
method: McpTestingToolset
problemLinesOf: aTestResult
  "FAIL and ERROR lines, one per test that did not pass."
  ^(aTestResult failures asArray collect: [:t | 'FAIL   ' , (self labelOf: t)])
    , (aTestResult errors asArray collect: [:t | 'ERROR  ' , (self labelOf: t)])
%
category: 'tools'
method: McpTestingToolset
runTestClass: args
  "Runs the tests of the class one at a time, as its suite holds them, so that progress can name
   each test as it finishes."
  | cls tests totals problems lines |
  cls := self testClassNamed: (args at: 'className').
  self continueAsTask.
  tests := cls suite tests asArray.
  totals := {0. 0. 0. 0}.
  problems := OrderedCollection new.
  lines := OrderedCollection new.
  self reportProgress: 0 of: tests size about: cls name asString.
  1 to: tests size do: [:index | | result |
    result := (tests at: index) run.
    self add: result to: totals.
    problems addAll: (self problemsOf: result).
    lines addAll: (self problemLinesOf: result).
    self reportProgress: index of: tests size about: (self outcomeOf: result label: (self labelOf: (tests at: index)))].
  lines := self problemLines: lines asSortedCollection asArray explained: (self explain: problems) of: problems size.
  self noteCounts: totals problems: problems.
  ^self capResult: (self linesFrom: {self summaryLabel: cls name asString counts: totals} , lines)
%
category: 'running'
method: McpTestingToolset
outcomeOf: aTestResult label: aLabel
  "Class>>selector and how it ended, for a progress message."
  aTestResult errorCount > 0 ifTrue: [^aLabel , ' raised an error'].
  aTestResult failureCount > 0 ifTrue: [^aLabel , ' failed'].
  ^aLabel , ' passed'
%
category: 'tools'
method: McpTestingToolset
runTestMethod: args
  "run_test_method: runs the one test and explains a failure or error."
  | cls sel result problems lines |
  cls := self testClassNamed: (args at: 'className').
  sel := self testSelector: (args at: 'selector') in: cls.
  result := (cls selector: sel) run.
  problems := self problemsOf: result.
  lines := self problemLines: (self problemLinesOf: result) explained: (self explain: problems) of: problems size.
  self noteCounts: (self add: result to: {0. 0. 0. 0}) problems: problems.
  ^self capResult: (self linesFrom: {self summaryOf: result label: cls name asString , '>>' , sel asString} , lines)
%
category: 'running'
method: McpTestingToolset
continueAsTask
  "A test class may run for minutes: a client that declared the MCP tasks extension gets a task
   it polls instead of an open request (the router decides with the client's capabilities). Like
   progress, through the channel when the session has one, McpChannel looked up by name."
  | channel |
  channel := System myUserProfile objectNamed: #McpChannel.
  channel isNil ifFalse: [channel becomeTask]
%
category: 'running'
method: McpTestingToolset
reportProgress: done of: total about: aLabel
  "Progress for the client (per test of run_test_class, per class of list_failing_tests), through the worker-to-router channel when the session
   has one. McpChannel is looked up by name: it is optional and loads after this toolset."
  | channel |
  channel := System myUserProfile objectNamed: #McpChannel.
  channel isNil ifFalse: [channel progress: done total: total message: aLabel]
%
category: 'running'
method: McpTestingToolset
summaryLabel: aLabel counts: aCountArray
  "The summary line: N run, N passed, N failed, N errors."
  ^aLabel , ': ' , (aCountArray at: 1) printString , ' run, ' , (aCountArray at: 2) printString
    , ' passed, ' , (aCountArray at: 3) printString , ' failed, ' , (self count: (aCountArray at: 4) of: 'errors')
%
category: 'running'
method: McpTestingToolset
summaryOf: aTestResult label: aLabel
  "The summary line of one result."
  ^self summaryLabel: aLabel counts: (self add: aTestResult to: ({0. 0. 0. 0}))
%
category: 'lookup'
method: McpTestingToolset
testCaseClass
  "TestCase as the symbol list binds it; an image without SUnit has no test tools to offer."
  | tc |
  tc := System myUserProfile objectNamed: #TestCase.
  (tc isKindOf: Behavior) ifFalse: [
    ^McpError signalKind: 'notFound' message: 'TestCase is not in this session''s symbol list'].
  ^tc
%
category: 'lookup'
method: McpTestingToolset
testClassNamed: aName
  "The TestCase subclass aName, or notFound with the closest test class names."
  ^(self testClassOrNilNamed: aName) ifNil: [
    self signalNotFound: 'no TestCase subclass named ' , aName , '; nothing was run'
      suggesting: (self suggestionsFor: aName
        among: ((ClassOrganizer new allSubclassesOf: self testCaseClass) collect: [:each | each name asString]))]
%
category: 'lookup'
method: McpTestingToolset
testClassOrNilNamed: aName
  "The TestCase subclass aName in the symbol list of this user, or nil."
  | cls |
  cls := System myUserProfile objectNamed: aName asString asSymbol.
  ^((cls isKindOf: Behavior) and: [cls inheritsFrom: self testCaseClass]) ifTrue: [cls] ifFalse: [nil]
%
category: 'lookup'
method: McpTestingToolset
testSelector: aString in: aTestClass
  "The selector when it is one of the class's tests (testSelectors: a test* selector without
   arguments), else notFound saying what it is instead and naming the tests that are near."
  | sel tests names |
  sel := self selectorFrom: aString.
  tests := aTestClass testSelectors.
  (tests includes: sel) ifTrue: [^sel].
  names := tests asArray collect: [:each | each asString].
  ^self
    signalNotFound: ((aTestClass canUnderstand: sel)
      ifTrue: [aTestClass name asString , '>>' , sel asString
        , ' is not a test (a test is a selector starting with test that takes no arguments); nothing was run']
      ifFalse: [aTestClass name asString , ' has no test method ' , sel asString , '; nothing was run'])
      , '. Its tests: ' , (names isEmpty ifTrue: ['(none)'] ifFalse: [self listOf: names asSortedCollection upTo: 10])
    suggesting: (self suggestionsFor: sel asString among: names)
%
category: 'tools'
method: McpTestingToolset
debugTest: args
  "Run setUp, the test and tearDown in a process of its own that stops, suspended, where the test
   fails or errs; keep it under a handle (McpDebugger) and answer where it stopped, or that the
   test passed."
  | cls sel test run debugger answer |
  cls := self testClassNamed: (args at: 'className').
  sel := self testSelector: (args at: 'selector') in: cls.
  debugger := McpDebugger current.
  debugger checkRoom.
  test := cls selector: sel.
  run := McpProcessRun
    on: [test setUp. [test perform: sel] ensure: [test tearDown]]
    boundedBy: (Array with: self).
  run stopAtBreakpoints; start.
  answer := debugger settle: run subject: (Array with: test with: sel) handle: nil.
  self noteStructured: debugger takeAnswer.
  ^self capResult: (self linesFrom: answer)
%
category: 'registration'
method: McpTestingToolset
testClassProperty
  "The className argument of the testing tools."
  ^self stringProperty: 'className' description: 'Name of a TestCase subclass'
%
category: 'registration'
method: McpTestingToolset
testSelectorProperty
  "The selector argument of the tools on one test."
  ^self stringProperty: 'selector' description: 'A test selector, e.g. testParsesEmptyArray'
%
category: 'registration'
method: McpTestingToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each."
  self declareDescribeTestFailureOn: aRegistry.
  self declareDebugTestOn: aRegistry.
  self declareListFailingTestsOn: aRegistry.
  self declareListTestClassesOn: aRegistry.
  self declareRunTestClassOn: aRegistry.
  self declareRunTestMethodOn: aRegistry
%
category: 'declarations'
method: McpTestingToolset
declareDescribeTestFailureOn: aRegistry
  aRegistry add: ((McpTool
    name: 'describe_test_failure'
    description: 'Re-run one test on its own (setUp, test, tearDown) and say where and why it failed: the exception (class, number, description), then the frames from the one that signalled to the test method, innermost first, each with its Class>>selector, line, source line, receiver, arguments and temporaries. Says so when the test passes alone.'
    schema: (self schemaProperties: {self testClassProperty. self testSelectorProperty} required: #('className' 'selector'))
    handler: [:args | self describeTestFailure: args])
      title: 'Describe a test failure';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      outputSchema: self failureSchema from: self;
      yourself)
%
category: 'declarations'
method: McpTestingToolset
declareDebugTestOn: aRegistry
  aRegistry add: ((McpTool
    name: 'debug_test'
    description: 'Run one test (setUp, test, tearDown) in a process of its own that stops, suspended, where it fails or errs or at a breakpoint (set_breakpoint), and answer a process handle with the stack: numbered frames to the test method, each with its line, source, self, arguments and temporaries. Then debug_evaluate, debug_set_temp, debug_step, debug_restart_frame, debug_resume or debug_abandon with that handle. Says so when the test passes.'
    schema: (self schemaProperties: {self testClassProperty. self testSelectorProperty} required: #('className' 'selector'))
    handler: [:args | self debugTest: args])
      title: 'Debug a test';
      outputSchema: McpDebugger answerSchema from: self;
      hintsReadOnly: false destructive: true idempotent: false openWorld: false;
      yourself)
%
category: 'declarations'
method: McpTestingToolset
declareListFailingTestsOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_failing_tests'
    description: 'Run the named TestCase classes (default: every concrete one in the image, which can take a while) and list the tests that failed or raised an error, after a summary of the counts. A name that does not resolve is notFound and nothing runs. Tests run in this session''s transaction; a test that itself aborts or commits does so for the whole session.'
    schema: (self schemaProperties: {
        self stringArrayProperty: 'classNames' description: 'TestCase subclasses to run (default: all)' }
      required: #())
    handler: [:args | self listFailingTests: args])
      title: 'Run tests and list the failures';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      outputSchema: self testRunSchema from: self;
      yourself)
%
category: 'declarations'
method: McpTestingToolset
declareListTestClassesOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_test_classes'
    description: 'Every TestCase subclass, sorted, abstract ones marked. Pages with limit/offset.'
    schema: (self schemaProperties: {
        self integerProperty: 'limit' description: 'Most lines to answer (default: all; 0 answers the count alone)'.
        self integerProperty: 'offset' description: 'Lines to skip first (default 0)' }
      required: #())
    handler: [:args | self listTestClasses: args])
      title: 'List the test classes';
      readOnly;
      outputSchema: self testClassPageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpTestingToolset
declareRunTestClassOn: aRegistry
  aRegistry add: ((McpTool
    name: 'run_test_class'
    description: 'Run every test of a TestCase subclass: a summary of the counts, then one FAIL or ERROR line per test that did not pass. Tests run in this session''s transaction, against what it has compiled and not committed; a test that itself aborts or commits does so for the whole session.'
    schema: (self schemaProperties: {self testClassProperty} required: #('className'))
    handler: [:args | self runTestClass: args])
      title: 'Run a test class';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      outputSchema: self testRunSchema from: self;
      yourself)
%
category: 'declarations'
method: McpTestingToolset
declareRunTestMethodOn: aRegistry
  aRegistry add: ((McpTool
    name: 'run_test_method'
    description: 'Run one test method: the counts, and FAIL or ERROR when it did not pass. describe_test_failure says why.'
    schema: (self schemaProperties: {self testClassProperty. self testSelectorProperty} required: #('className' 'selector'))
    handler: [:args | self runTestMethod: args])
      title: 'Run a test method';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      outputSchema: self testRunSchema from: self;
      yourself)
%
