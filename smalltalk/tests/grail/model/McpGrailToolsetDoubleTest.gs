set compile_env: 0
! ------------------- Class definition for McpGrailToolsetDoubleTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpGrailToolsetDoubleTest'
  instVarNames: #( grailOptions)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpGrailToolsetDoubleTest comment: 
'The logic of McpGrailToolset, run in the model against the TEST DOUBLE of Grail
(smalltalk/tests/grail/double): error conversion, the persistent namespace and the output channels
of eval_python, source pages and their headers, class and method browsing, module state, the
three sender shapes with their searched / not searched trailer, the text search, and
run_python_tests'' counts, peak memory, ceiling, NOT FOUND and a dying gem, plus option
validation. What passes here is evidence about the toolset against what the double answers, not
about Grail: McpGrailToolsetTest is the suite a Grail image runs.

The checkout is the double''s stand-in (checkout/ beside it), named relative to the repository
root, where bin/gsmodel -test runs.'
%
expectvalue /Class
doit
McpGrailToolsetDoubleTest category: 'Mcp-Tests-GrailModel'
%
! ------------------- Remove existing behavior from McpGrailToolsetDoubleTest
removeallmethods McpGrailToolsetDoubleTest
removeallclassmethods McpGrailToolsetDoubleTest
! ------------------- Class methods for McpGrailToolsetDoubleTest
category: 'fixtures'
classmethod: McpGrailToolsetDoubleTest
checkout
  ^'smalltalk/tests/grail/double/checkout'
%
! ------------------- Instance methods for McpGrailToolsetDoubleTest
category: 'running'
method: McpGrailToolsetDoubleTest
setUp
  GrailDoublePython reset.
  SessionTemps current removeKey: #McpGrailScope ifAbsent: [nil].
  McpGrailToolsetOnDouble testGem: nil.
  grailOptions := Dictionary new at: 'grailDirectory' put: self class checkout; yourself.
  super setUp
%
category: 'running'
method: McpGrailToolsetDoubleTest
tearDown
  #(#GrailCanonicalModules #GrailCanonicalModuleHashes) do: [:each | UserGlobals removeKey: each ifAbsent: [nil]].
  GrailDoublePython reset.
  SessionTemps current removeKey: #McpGrailScope ifAbsent: [nil].
  McpGrailToolsetOnDouble testGem: nil.
  super tearDown
%
category: 'running'
method: McpGrailToolsetDoubleTest
toolsetClasses
  ^Array with: McpGrailToolsetOnDouble
%
category: 'running'
method: McpGrailToolsetDoubleTest
useServer: anMcpServer
  server := anMcpServer.
  registry := McpToolRegistry new.
  (McpGrailToolsetOnDouble server: server options: grailOptions) registerOn: registry
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
withoutCheckout
  grailOptions := Dictionary new.
  self useServer: server
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
deployStack: committed hash: aDigest
  "Grail's registries as a deploy of shelf.stack leaves them: its module instance (committed or
   only built in this transaction) and the source digest recorded at that compile."
  | instance |
  instance := GrailDoublePyObject module: 'shelf.stack' file: self stackPath.
  committed ifTrue: [instance beCommitted].
  UserGlobals at: #GrailCanonicalModules put: (Dictionary new at: 'shelf.stack' put: instance; yourself).
  UserGlobals at: #GrailCanonicalModuleHashes put: (Dictionary new at: 'shelf.stack' put: aDigest; yourself)
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
currentStackDigest
  ^(importlib ___sourceStringForPath___: self stackPath) sha1Sum
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
stackState
  ^self callTool: 'python_module_state' with: #('name' 'shelf.stack')
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
stackPath
  ^self class checkout , '/src/python/stdlib/shelf/stack.py'
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
eval: aSource
  ^self callTool: 'eval_python' with: {'code'. aSource}
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
gemWithReadings: anArray
  | gem |
  gem := GrailDoubleTestGem new.
  gem memoryReadings: anArray.
  McpGrailToolsetOnDouble testGem: gem.
  ^gem
%
category: 'helpers'
method: McpGrailToolsetDoubleTest
definePythonTests
  | shelf broken |
  shelf := self defineFixtureClass: 'GrailDoubleShelfTest' superclass: PythonTestCase instVarNames: #().
  self compileFixtureMethod: 'testPush
  self assert: 1 + 1 = 2' in: shelf.
  self compileFixtureMethod: 'testPop
  self assert: true' in: shelf.
  broken := self defineFixtureClass: 'GrailDoubleBrokenTest' superclass: PythonTestCase instVarNames: #().
  self compileFixtureMethod: 'testBroken
  self assert: false' in: broken.
  self compileFixtureMethod: 'testRaises
  ^1 / 0' in: broken
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testCompilePythonAnswersTheGeneratedSmalltalk
  self assert: (self text: (self callTool: 'compile_python' with: #('code' '6 * 7')) includes: '___binOpMul___:')
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testASyntaxErrorIsAPythonError
  | failure |
  failure := self failureOf: 'compile_python' with: #('code' 'def (:').
  self assert: failure kind = 'pythonError'.
  self assert: (self text: failure messageText includes: 'SyntaxError')
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testAPythonExceptionIsOutsideError
  "The hazard the conversion exists for: a handler for Error does not see it."
  self deny: (BaseException inheritsFrom: Error).
  self assert: ([[GrailDoublePython current raise: 'NameError: x'] on: Error do: [:ex | ex return: #error]]
    on: BaseException do: [:ex | ex return: #python]) = #python
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testEvalKeepsNamesBetweenCalls
  self assert: (self eval: 'counter = 41') = 'None'.
  self assert: (self eval: 'counter + 1') = '42'
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testBothHalvesOfGrailArePointedAtTheCheckout
  self eval: '6 * 7'.
  self assert: (System gemEnvironmentVariable: 'GRAIL_DIR') = self class checkout.
  self assert: (GrailDoublePython current checkout) = self class checkout
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testEvalRunsAsMain
  self assert: (self eval: '__name__') = '''__main__'''
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testEvalReportsStdoutThenMarkedStderrThenTheRepr
  self assert: (self eval: 'print(''to stdout''); import warnings; warnings.warn(''careful''); ''done''')
    = 'to stdout
[stderr] <grail>:1: UserWarning: careful
=> ''done'''
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testEvalFailureCarriesTheChannelsAheadOfTheTraceback
  | failure |
  failure := self failureOf: 'eval_python' with: #('code' 'print(''step one''); 1 / 0').
  self assert: failure kind = 'pythonError'.
  self assert: (self text: failure messageText includes: 'step one
Traceback (most recent call last):').
  self assert: (self text: failure messageText includes: 'ZeroDivisionError: division by zero')
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testTheStreamsArePutBackWhateverEndsTheEvaluation
  self assert: (self failureOf: 'eval_python' with: #('code' '1 / 0')) notNil.
  self deny: GrailDoublePython current isCapturing.
  self assert: ([self eval: '(1'. nil] on: Error do: [:ex | ex return: ex messageText]) = 'the Grail test double does not model this Python: (1'.
  self deny: GrailDoublePython current isCapturing
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testAnUndefinedNameIsAPythonError
  | failure |
  failure := self failureOf: 'eval_python' with: #('code' 'undefined_xyz').
  self assert: failure kind = 'pythonError'.
  self assert: (self text: failure messageText includes: 'NameError: name ''undefined_xyz'' is not defined')
%
category: 'tests - compile and eval'
method: McpGrailToolsetDoubleTest
testWithoutACheckoutEvalStillAnswersAndErrorsFallBackToTheMessage
  | failure |
  self withoutCheckout.
  self assert: (self eval: '6 * 7') = '42'.
  failure := self failureOf: 'eval_python' with: #('code' '1 / 0').
  self assert: failure messageText = 'ZeroDivisionError: division by zero'
%
category: 'tests - source'
method: McpGrailToolsetDoubleTest
testSourceOfAFunctionIsHeadedWithItsFileAndLine
  | lines |
  lines := self lines: (self callTool: 'get_python_source' with: #('name' 'shelf.stack.copy_all')).
  self assert: lines first = ('# ' , self stackPath , ':26').
  self assert: (lines at: 2) = 'def copy_all(source, target):'.
  self assert: lines last = '    return target'
%
category: 'tests - source'
method: McpGrailToolsetDoubleTest
testSourceOfAMethodStopsAtTheNextDefinition
  | lines |
  lines := self lines: (self callTool: 'get_python_source' with: #('name' 'shelf.stack.Stack.push')).
  self assert: lines size = 4.
  self assert: lines first = ('# ' , self stackPath , ':13').
  self assert: lines last = '        return item'
%
category: 'tests - source'
method: McpGrailToolsetDoubleTest
testASourcePageIsHeadedWithTheLineItStartsAt
  | lines |
  lines := self lines: (self callTool: 'get_python_source' with: #('name' 'shelf.stack.Stack' 'limit' 2 'offset' 3)).
  self assert: (self text: lines first includes: '(showing 4-5 of 16; pass offset: 5 for the next page)').
  self assert: (lines at: 2) = ('# ' , self stackPath , ':11').
  self assert: (lines at: 3) = '    limit = 100'
%
category: 'tests - source'
method: McpGrailToolsetDoubleTest
testSourceOfAModuleIsItsWholeFile
  | lines |
  lines := self lines: (self callTool: 'get_python_source' with: #('name' 'shelf')).
  self assert: lines first = ('# ' , self class checkout , '/src/python/stdlib/shelf/__init__.py:1').
  self assert: lines last = 'from shelf.stack import Stack, copy_all'
%
category: 'tests - source'
method: McpGrailToolsetDoubleTest
testAnUnknownNameIsNotFound
  self assert: (self failureKindOf: 'get_python_source' with: #('name' 'shelf.stack.Nope')) = 'notFound'.
  self assert: (self failureKindOf: 'get_python_source' with: #('name' 'nosuchmodule')) = 'notFound'
%
category: 'tests - classes'
method: McpGrailToolsetDoubleTest
testDescribeNamesTheSmalltalkClassAndItsStorageBase
  self assert: (self lines: (self callTool: 'describe_python_class' with: #('name' 'shelf.stack.Stack')))
    = #('class shelf.stack.Stack' 'backing Smalltalk class: GrailDoubleStack'
      'storage base: OrderedCollection' '__bases__: list' '__mro__: Stack, list, object'
      '__slots__: (none declared)' 'class attributes: limit' 'methods: push, pop, peek')
%
category: 'tests - classes'
method: McpGrailToolsetDoubleTest
testDescribingAFunctionIsRefused
  | failure |
  failure := self failureOf: 'describe_python_class' with: #('name' 'shelf.stack.copy_all').
  self assert: failure kind = 'notFound'.
  self assert: (self text: failure messageText includes: 'get_python_source')
%
category: 'tests - classes'
method: McpGrailToolsetDoubleTest
testMethodsComeWithSignaturesAndLinesInSourceOrder
  | lines |
  lines := self lines: (self callTool: 'list_python_methods' with: #('name' 'shelf.stack.Stack')).
  self assert: lines first = ('class shelf.stack.Stack  (' , self stackPath , ')').
  self assert: (lines copyFrom: 4 to: 6) asArray
    = #('13  push(self, item)' '17  pop(self, index=-1)' '20  peek(self, *, default=None)')
%
category: 'tests - classes'
method: McpGrailToolsetDoubleTest
testAMethodPageKeepsTheClassAndItsFile
  | lines |
  lines := self lines: (self callTool: 'list_python_methods' with: #('name' 'shelf.stack.Stack' 'limit' 1 'offset' 1)).
  self assert: lines first = ('class shelf.stack.Stack  (' , self stackPath , ')').
  self assert: (self text: (lines at: 3) includes: '(showing 2-2 of 3').
  self assert: (lines at: 4) = '17  pop(self, index=-1)'
%
category: 'tests - classes'
method: McpGrailToolsetDoubleTest
testASignatureIsWrittenAsInspectWritesIt
  | toolset |
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  self assert: (toolset signatureFrom: #(#('a' 0) #('b' 1 '2') #('rest' 2) #('key' 3 'None') #('opts' 4))
      receiver: 'self')
    = '(self, a, /, b=2, *rest, key=None, **opts)'.
  self assert: (toolset signatureFrom: #(#('key' 3)) receiver: nil) = '(*, key)'.
  self assert: (toolset signatureFrom: #(#('x' 0)) receiver: nil) = '(x, /)'.
  self assert: (toolset signatureFrom: #() receiver: 'cls') = '(cls)'
%
category: 'tests - classes'
method: McpGrailToolsetDoubleTest
testWithoutSignatureTablesTheSelectorsGiveArityAndSaySo
  | bare toolset lines |
  bare := self defineFixtureClass: 'GrailDoubleBareClass' superclass: Object instVarNames: #().
  self compileFixtureMethod: 'selectorsForEnvironment: anId
  ^#(#''_pop:kw:'' #''__setitem__:_:'' #''___internal___:'')' in: bare class.
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  lines := (toolset methodTriplesOf: bare) asArray collect: [:each | toolset methodLineFrom: each].
  self assert: lines = #('?  __setitem__(a1, a2)  [no signature table entry: arity from the selector]'
    '?  pop(*args, **kwargs)  [no signature table entry: arity from the selector]')
%
category: 'tests - modules'
method: McpGrailToolsetDoubleTest
testModuleStateReadsWithoutImporting
  | before after |
  before := self callTool: 'python_module_state' with: #('name' 'shelf.stack').
  self assert: (self text: before includes: 'kind: .py ' , self stackPath).
  self assert: (self text: before includes: 'in sys.modules: no').
  self assert: (self text: before includes: 'compiled: none registered').
  self assert: (self text: before includes: 'would: compile ' , self stackPath , ': the body runs').
  self assert: (self text: (self callTool: 'python_module_state' with: #('name' 'shelf.stack')) includes: 'in sys.modules: no').
  self callTool: 'describe_python_class' with: #('name' 'shelf.stack.Stack').
  after := self callTool: 'python_module_state' with: #('name' 'shelf.stack').
  self assert: (self text: after includes: 'in sys.modules: yes').
  self assert: (self text: after includes: 'would: nothing')
%
category: 'tests - modules'
method: McpGrailToolsetDoubleTest
testACommittedCurrentModuleIsBoundAndAStaleOneCompiledAgain
  | text |
  self deployStack: true hash: self currentStackDigest.
  text := self stackState.
  self assert: (self text: text includes: 'compiled: committed (deployed)').
  self assert: (self text: text includes: 'source: current').
  self assert: (self text: text includes: 'would: bind the committed compile').
  self deployStack: true hash: 'the text of an earlier compile'.
  text := self stackState.
  self assert: (self text: text includes: 'source: stale').
  self assert: (self text: text includes: 'would: compile ' , self stackPath , ' again, the committed compile being stale')
%
category: 'tests - modules'
method: McpGrailToolsetDoubleTest
testAnUncommittedCompileIsNotADeployment
  | text |
  self deployStack: false hash: self currentStackDigest.
  text := self stackState.
  self assert: (self text: text includes: 'compiled: built in this session and not committed').
  self assert: (self text: text includes: 'would: compile ' , self stackPath , ': the body runs')
%
category: 'tests - modules'
method: McpGrailToolsetDoubleTest
testAModuleThisSessionImportedAndRemovedWouldRaise
  | text |
  self deployStack: true hash: self currentStackDigest.
  self callTool: 'describe_python_class' with: #('name' 'shelf.stack.Stack').
  GrailDoublePython current sysModules remove: 'shelf.stack'.
  text := self stackState.
  self assert: (self text: text includes: 'in sys.modules: no, but this session imported it').
  self assert: (self text: text includes: 'would: raise: this session imported it and removed it')
%
category: 'tests - modules'
method: McpGrailToolsetDoubleTest
testModuleStateOfANativeAndAMissingModule
  self assert: (self text: (self callTool: 'python_module_state' with: #('name' 'sys')) includes: 'kind: native').
  self assert: (self text: (self callTool: 'python_module_state' with: #('name' 'nosuch')) includes: 'would: fail: no .py')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testSendersSearchTheThreeShapesAndSaySo
  | text |
  text := self callTool: 'find_python_senders' with: #('name' 'shelf.stack.helper').
  self assert: (self text: text includes: 'compiled    shelf.stack.Stack.push  line 14  self.append(helper(item))').
  self assert: (self text: text includes: 'source      shelf/stack.py:28  target.push(helper(item))').
  self assert: (self text: text includes: 'searched: the env-1 methods of the Python classes importlib pythonClasses answers, the Smalltalk bases they are rooted at (builtins.list), src/python/stdlib').
  self assert: (self text: text includes: 'not searched:
  tests/python: pass includeTests: true').
  self deny: (self text: text includes: 'test_shelf.py')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testSendersIncludeTestsWhenAsked
  | text |
  text := self callTool: 'find_python_senders' with: #('name' 'helper' 'includeTests' true 'shapes' #('source')).
  self assert: (self text: text includes: 'source      test_shelf.py:5').
  self deny: (self text: text includes: 'tests/python: pass').
  self assert: (self text: text includes: 'compiled methods: pass shapes including compiled or references')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testAReferenceThatIsNotACallIsItsOwnShape
  | text |
  text := self callTool: 'find_python_senders' with: #('name' 'index' 'shapes' #('references')).
  self assert: (self text: text includes: 'references  shelf.stack.Stack.pop  line 18  return list.pop(self, index)').
  self deny: (self text: text includes: 'compiled    ')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testOnlyASendInThePoolMakesACallCompiled
  | toolset method hits |
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  method := GrailDoubleMethod source: '    def f(self):
        return helper(1)' firstLine: 40 pool: #().
  hits := toolset hitsFor: 'helper' inMethod: method source: '    def f(self):
        return helper(1)' label: 'm.C.f' shapes: #('compiled' 'references').
  self assert: hits asArray = #('references  m.C.f  line 41  return helper(1)')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testAProvenSendNoLineShowsIsReportedOnceWithoutAPosition
  | toolset source hits |
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  source := '    def drop(self):

        del helper'.
  hits := toolset hitsFor: 'helper' inMethod: (GrailDoubleMethod source: source firstLine: 30 pool: #(#helper:))
    source: source label: 'm.C.drop' shapes: #('compiled' 'references').
  self assert: hits asArray = #('references  m.C.drop  line 32  del helper'
    'compiled    m.C.drop  line ? [compiled to IR: no call-site positions]')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testALineThePositionsDoNotListHasNoNumber
  | toolset source hits |
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  source := '    def f(self):
        return helper(1)'.
  hits := toolset hitsFor: 'helper' inMethod: nil source: source label: 'm.C.f' shapes: #('references').
  self assert: hits asArray = #('references  m.C.f  line ?  return helper(1)').
  hits := toolset hitsFor: 'helper' inMethod: Object new "a method Grail does not call IR"
    source: source label: 'm.C.f' shapes: #('references').
  self assert: hits asArray = #('references  m.C.f  line ?  return helper(1)')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testAStoreIsToldFromALoadByTheTextBesideIt
  | toolset |
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  #('helper = 1' 'helper += 1' 'helper := f()' 'for helper in items:') do: [:each |
    self assert: (toolset isStoreOf: 'helper' in: each)].
  #('helper == 1' 'return helper' 'x = helper' 'helper(1)' 'if helper <= 2:') do: [:each |
    self deny: (toolset isStoreOf: 'helper' in: each)]
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testIncludeNativeAlsoSearchesGrailsNativeModules
  | text |
  text := self callTool: 'find_python_senders' with: #('name' 'SystemExit').
  self assert: (self text: text includes: '(0 hits)').
  self assert: (self text: text includes: 'Grail''s native modules (sys, os, math, ...), written in Smalltalk: pass includeNative: true').
  text := self callTool: 'find_python_senders' with: #('name' 'SystemExit' 'includeNative' true 'scope' 'sys').
  self assert: (self text: text includes: 'references  sys.exit  line ?  ^self ___raise___: (SystemExit new code: aCode)').
  self assert: (self text: text includes: ', Grail''s native modules').
  self deny: (self text: text includes: 'pass includeNative: true')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testASenderInASmalltalkBaseIsLabelledAsPythonNamesIt
  | text |
  text := self callTool: 'find_python_senders' with: #('name' '__lt__').
  self assert: (self text: text includes: '(showing all 1)').
  self assert: (self text: text includes: 'compiled    builtins.list.sort  line ?  self @env0:sortInPlace: [:left :right | left __lt__: right].').
  self assert: (self text: text includes: 'the Smalltalk bases they are rooted at (builtins.list)')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testAScopeOutsideTheBasesLeavesThemOutOfTheTrailer
  | text |
  text := self callTool: 'find_python_senders' with: #('name' '__lt__' 'scope' 'shelf').
  self assert: (self text: text includes: '(0 hits)').
  self deny: (self text: text includes: 'builtins.list').
  text := self callTool: 'find_python_senders' with: #('name' '__lt__' 'scope' 'builtins').
  self assert: (self text: text includes: '(showing all 1)').
  self assert: (self text: text includes: '(builtins.list)')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testInASmalltalkMethodANameThePoolSendsIsACallAnywhereOnItsLine
  | toolset method hits |
  toolset := McpGrailToolsetOnDouble server: server options: grailOptions.
  method := GrailDoubleMethod smalltalkSource: 'f
  ^self helper: 1' pool: #(#helper:).
  hits := toolset hitsFor: 'helper' inMethod: method source: 'f
  ^self helper: 1' label: 'builtins.list.f' shapes: #('compiled' 'references').
  self assert: hits asArray = #('compiled    builtins.list.f  line ?  ^self helper: 1').
  method := GrailDoubleMethod smalltalkSource: 'f
  ^#helper' pool: #().
  hits := toolset hitsFor: 'helper' inMethod: method source: 'f
  ^#helper' label: 'builtins.list.f' shapes: #('compiled' 'references').
  self assert: hits asArray = #('references  builtins.list.f  line ?  ^#helper')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testIncludeNativeWithoutScopeSearchesEverything
  | text |
  text := self callTool: 'find_python_senders' with: #('name' 'SystemExit' 'includeNative' true).
  self assert: (self text: text includes: 'references  sys.exit  line ?  ^self ___raise___: (SystemExit new code: aCode)').
  self assert: (self text: text includes: 'the Smalltalk bases they are rooted at (builtins.list)').
  self assert: (self text: text includes: ', Grail''s native modules')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testAnUnknownShapeIsRefused
  self assert: (self failureKindOf: 'find_python_senders' with: #('name' 'helper' 'shapes' #('compile'))) = 'invalidParams'
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testScopeNarrowsAtADotBoundary
  | text |
  text := self callTool: 'find_python_senders' with: #('name' 'helper' 'scope' 'shelf.st').
  self assert: (self text: text includes: '(0 hits)').
  text := self callTool: 'find_python_senders' with: #('name' 'helper' 'scope' 'shelf.stack' 'limit' 0).
  self assert: (self text: text includes: '(5 hits)')
%
category: 'tests - senders'
method: McpGrailToolsetDoubleTest
testWithoutACheckoutTheTrailerSaysTheFilesWereNotRead
  self withoutCheckout.
  self assert: (self text: (self callTool: 'find_python_senders' with: #('name' 'helper'))
    includes: 'the .py files: no grailDirectory is configured (MCP_GRAIL_DIR)')
%
category: 'tests - search'
method: McpGrailToolsetDoubleTest
testSearchAnswersPathLineAndText
  | lines |
  lines := self lines: (self callTool: 'search_python_source' with: #('pattern' 'helper(')).
  self assert: lines = #('(showing all 3)' 'shelf/stack.py:4: def helper(item):'
    'shelf/stack.py:14: self.append(helper(item))' 'shelf/stack.py:28: target.push(helper(item))')
%
category: 'tests - search'
method: McpGrailToolsetDoubleTest
testSearchIsCaseSensitiveAndScoped
  self assert: (self callTool: 'search_python_source' with: #('pattern' 'HELPER')) = '(0 hits)'.
  self assert: (self callTool: 'search_python_source' with: #('pattern' 'helper' 'scope' 'json')) = '(0 hits)'.
  self assert: (self text: (self callTool: 'search_python_source' with: #('pattern' 'import' 'scope' 'shelf' 'includeTests' true))
    includes: 'shelf/__init__.py:3: from shelf.stack import Stack, copy_all')
%
category: 'tests - search'
method: McpGrailToolsetDoubleTest
testSearchWithoutACheckoutIsRefusedNamingTheVariable
  | failure |
  self withoutCheckout.
  failure := self failureOf: 'search_python_source' with: #('pattern' 'x').
  self assert: failure kind = 'refused'.
  self assert: (self text: failure messageText includes: 'MCP_GRAIL_DIR')
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testARunReportsEachClassTheTotalsAndThePeakMemory
  | gem text |
  self definePythonTests.
  gem := self gemWithReadings: #('314572800 691142656 45' '452984832 691142656 65').
  text := self callTool: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest' 'GrailDoubleBrokenTest')).
  self assert: (self text: text includes: 'GrailDoubleShelfTest: 2 run, 2 passed, 0 failed, 0 errors').
  self assert: (self text: text includes: 'GrailDoubleBrokenTest: 2 run, 0 passed, 1 failed, 1 errors').
  self assert: (self text: text includes: 'total: 4 run, 2 passed, 1 failed, 1 errors in 2 classes').
  self assert: (self text: text includes: 'peak memory: 432MB of 659MB (65%)').
  self assert: gem loggedOut.
  self assert: gem expressions first = ('McpGrailToolset pointGrailAt: ' , self class checkout printString)
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testEachDefectComesWithGrailsMessageAndAnErrorWithItsStack
  | lines failAt errorAt |
  self definePythonTests.
  self gemWithReadings: #('314572800 691142656 45').
  lines := self lines: (self callTool: 'run_python_tests' with: #('classNames' #('GrailDoubleBrokenTest'))).
  failAt := lines indexOf: '  FAIL GrailDoubleBrokenTest>>testBroken'.
  errorAt := lines indexOf: '  ERROR GrailDoubleBrokenTest>>testRaises'.
  self assert: failAt > 0.
  self assert: (lines at: failAt + 1) = '    Assertion failed'.
  self deny: ((lines at: failAt + 2) = '    stack:').
  self assert: errorAt > 0.
  self assert: (lines at: errorAt + 2) = '    stack:'.
  self assert: (lines at: errorAt + 3) = '      GrailDoubleBrokenTest >> testRaises'
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testANameThatResolvesToNoTestClassIsNotFoundAndNoGemIsForked
  | text |
  text := self callTool: 'run_python_tests' with: #('classNames' #('NoSuchTest' 'Object')).
  self assert: (self text: text includes: 'NoSuchTest: NOT FOUND').
  self assert: (self text: text includes: 'Object: NOT FOUND').
  self assert: McpGrailToolsetOnDouble testGem isNil
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testARunStopsStartingClassesPastTheCeilingAndSaysWhereToResume
  | gem text |
  self definePythonTests.
  gem := self gemWithReadings: #('600000000 691142656 87').
  text := self callTool: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest' 'GrailDoubleBrokenTest')).
  self assert: (self text: text includes: 'GrailDoubleShelfTest: 2 run').
  self deny: (self text: text includes: 'GrailDoubleBrokenTest: 2 run').
  self assert: (self text: text includes: 'stopped at the memory ceiling: 1 classes not started; resume from GrailDoubleBrokenTest').
  self assert: gem loggedOut
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testALastClassOverTheCeilingCarriesAWarning
  | text |
  self definePythonTests.
  self gemWithReadings: #('600000000 691142656 90').
  text := self callTool: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest')).
  self assert: (self text: text includes: 'warning: the gem ended over the 85% ceiling')
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testACeilingOfZeroRunsEverything
  | text |
  self definePythonTests.
  grailOptions at: 'testGemMemoryCeilingPercent' put: 0.
  self useServer: server.
  self gemWithReadings: #('600000000 691142656 99').
  text := self callTool: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest' 'GrailDoubleBrokenTest')).
  self assert: (self text: text includes: 'GrailDoubleBrokenTest: 2 run').
  self deny: (self text: text includes: 'stopped')
%
category: 'tests - run tests'
method: McpGrailToolsetDoubleTest
testADyingGemKeepsWhatFinishedAndNeverQuotesItsError
  | gem failure |
  self definePythonTests.
  gem := self gemWithReadings: #('10485760 691142656 2').
  gem dieOn: 'GrailDoubleBrokenTest'.
  failure := self failureOf: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest' 'GrailDoubleBrokenTest')).
  self assert: failure kind = 'testGemDied'.
  self assert: (self text: failure messageText includes: 'GrailDoubleShelfTest: 2 run, 2 passed').
  self assert: (self text: failure messageText includes: 'the test gem died while running GrailDoubleBrokenTest').
  self assert: (self text: failure messageText includes: McpGrailToolset defaultTestGemConfig).
  self deny: (self text: failure messageText includes: 'stonehost').
  self assert: gem loggedOut
%
category: 'tests - options'
method: McpGrailToolsetDoubleTest
testTheOptionsAreDeclaredAndTestGemConfigIsValidated
  self assert: McpGrailToolset declaredOptionNames asArray
    = #('grailDirectory' 'testGemConfig' 'testGemMemoryCeilingPercent').
  self assert: (McpGrailToolset testGemConfigProblem: McpGrailToolset defaultTestGemConfig) isNil.
  self assert: (McpGrailToolset testGemConfigProblem: 'GEM_TEMPOBJ_CACHE_SIZE=300000;') isNil.
  #('A=1; B=2;' 'A=1!' 'A=1#' 'A=1@' 'A=1^' '' ) do: [:each |
    self assert: (McpGrailToolset testGemConfigProblem: each) notNil].
  self assert: (McpGrailToolset testGemConfigProblem: 42) notNil
%
category: 'tests - options'
method: McpGrailToolsetDoubleTest
testABadTestGemOptionRefusesTheRunBeforeAGemIsForked
  self definePythonTests.
  self gemWithReadings: #('1 2 3').
  grailOptions at: 'testGemConfig' put: 'A=1 B=2'.
  self useServer: server.
  self assert: (self failureKindOf: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest'))) = 'badOption'.
  grailOptions at: 'testGemConfig' put: 'A=1;'.
  grailOptions at: 'testGemMemoryCeilingPercent' put: 101.
  self useServer: server.
  self assert: (self failureKindOf: 'run_python_tests' with: #('classNames' #('GrailDoubleShelfTest'))) = 'badOption'.
  self deny: McpGrailToolsetOnDouble testGem loggedOut
%
category: 'tests - surface'
method: McpGrailToolsetDoubleTest
testTheNineToolsAreDeclared
  self assert: McpGrailToolset toolNames asArray = #('compile_python' 'describe_python_class'
    'eval_python' 'find_python_senders' 'get_python_source' 'list_python_methods'
    'python_module_state' 'run_python_tests' 'search_python_source')
%
