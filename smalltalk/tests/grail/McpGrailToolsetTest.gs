set compile_env: 0
! ------------------- Class definition for McpGrailToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpGrailToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpGrailToolsetTest comment: 
'McpGrailToolset against real Grail: the suite a Grail image runs (install.sh --grail files it in;
run-unit-tests.sh runs it). needsGrail and needsNetldi are true, so the model skips it by name:
there it has only the test double, which is what McpGrailToolsetDoubleTest exercises. Each test
checks a fact the toolset and the double both assume about Grail: that a Python multiplication
compiles to ___binOpMul___:, that Python exceptions are outside Error and come back as pythonError,
the selector rule importlib publishes, that pythonClasses answers classes, that a method that is
not Python publishes no positions, that a signature spec renders as inspect writes it, and that
run_python_tests runs a Grail test class in a gem of its own and reports its memory. No test
here has run: no Grail image was available where it was written.'
%
expectvalue /Class
doit
McpGrailToolsetTest category: 'Mcp-Tests-Grail'
%
! ------------------- Remove existing behavior from McpGrailToolsetTest
removeallmethods McpGrailToolsetTest
removeallclassmethods McpGrailToolsetTest
! ------------------- Class methods for McpGrailToolsetTest
category: 'testing'
classmethod: McpGrailToolsetTest
needsGrail
  ^true
%
category: 'testing'
classmethod: McpGrailToolsetTest
needsNetldi
  "run_python_tests logs in a gem of its own."
  ^true
%
! ------------------- Instance methods for McpGrailToolsetTest
category: 'running'
method: McpGrailToolsetTest
toolsetClasses
  ^Array with: McpGrailToolset
%
category: 'tests'
method: McpGrailToolsetTest
testAMultiplicationCompilesToBinOpMul
  self assert: (self text: (self callTool: 'compile_python' with: #('code' '6 * 7')) includes: '___binOpMul___:')
%
category: 'tests'
method: McpGrailToolsetTest
testEvalAnswersThePythonRepr
  self assert: (self callTool: 'eval_python' with: #('code' '6 * 7')) = '42'
%
category: 'tests'
method: McpGrailToolsetTest
testPythonExceptionsAreOutsideErrorAndComeBackAsPythonErrors
  self deny: (BaseException inheritsFrom: Error).
  #('undefined_xyz' '1 / 0' 'def (:') do: [:each |
    self assert: (self failureKindOf: 'eval_python' with: {'code'. each}) = 'pythonError']
%
category: 'tests'
method: McpGrailToolsetTest
testGrailDecodesSelectorsAsTheToolsetAssumes
  self assert: (importlib pythonNameOfSelector: #'copyfile:_:') = 'copyfile'.
  self assert: (importlib pythonNameOfSelector: #'_copyfile:kw:') = 'copyfile'.
  self assert: (importlib pythonNameOfSelector: #'at:put:') isNil
%
category: 'tests'
method: McpGrailToolsetTest
testAMethodThatIsNotPythonPublishesNoPositions
  "find_python_senders reads a method's lines from these positions and gives line ? without them."
  self assert: (BaseException pythonPositionsForMethod: (Object compiledMethodAt: #printString environmentId: 0)) isEmpty.
  self assert: (BaseException pythonPositionsForMethod: nil) isEmpty
%
category: 'tests'
method: McpGrailToolsetTest
testASignatureIsRenderedFromASpecAsInspectWritesIt
  "The kinds index POSITIONAL_ONLY .. VAR_KEYWORD, as Grail's inspect reads
   ___methodSignatureTable___ entries."
  | toolset |
  toolset := McpGrailToolset server: server options: Dictionary new.
  self assert: (toolset signatureFrom: #(#('a' 0) #('b' 1 '2') #('rest' 2) #('key' 3 'None') #('opts' 4))
      receiver: 'self')
    = '(self, a, /, b=2, *rest, key=None, **opts)'
%
category: 'tests'
method: McpGrailToolsetTest
testPythonClassesAnswersClasses
  self assert: (importlib pythonClasses reject: [:each | each isBehavior]) isEmpty
%
category: 'tests'
method: McpGrailToolsetTest
testRunPythonTestsRunsAGrailClassInAGemOfItsOwn
  | text |
  text := self callTool: 'run_python_tests' with: #('classNames' #('SelectorManglingApiTestCase')).
  self assert: (self text: text includes: 'SelectorManglingApiTestCase: ').
  self assert: (self text: text includes: 'peak memory: ')
%
