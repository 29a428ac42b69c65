set compile_env: 0
! ------------------- Class definition for McpGrailToolset
expectvalue /Class
doit
McpToolset subclass: 'McpGrailToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpGrailToolset comment: 
'The optional GemStone-Python toolset, for images with Grail (GemTalk/Grail) installed: nine tools
that understand Python compiled into GemStone (compile_python, eval_python, get_python_source,
run_python_tests, describe_python_class, list_python_methods, python_module_state,
find_python_senders, search_python_source).

Its own source group (smalltalk/grail), filed in only by install.sh --grail, because its methods name
Grail globals (ModuleAst, BaseException, importlib) and cannot compile without them. Loaded is not
served: a router serves these tools only when MCP_TOOLSETS names this class.

Options (declaredOptionNames): grailDirectory, the Grail checkout whose src/python/stdlib the image
was installed from (a worker gem cannot find it: its working directory is the stone''s);
testGemConfig, the gemnetobject -C string run_python_tests forks its test gem with; and
testGemMemoryCeilingPercent, how full that gem may get before a run stops starting classes.

Python exceptions are not Smalltalk Errors in Grail (BaseException is outside Error), so the
dispatcher cannot see them: every handler converts them into an McpError of kind pythonError.
eval_python keeps one module scope per worker gem in SessionTemps, so names persist between calls.

Python-level questions (import a module, read an attribute, a repr, a signature) are asked by
evaluating one straight-line Python expression in that scope, with the subject bound under an
_mcp_ name rather than spliced into the source, so a name holding a quote cannot change the code.

Nothing here has run against Grail itself: in this repository it runs in the model against the
test double of smalltalk/tests/grail/double.'
%
expectvalue /Class
doit
McpGrailToolset category: 'Mcp-Grail'
%
! ------------------- Remove existing behavior from McpGrailToolset
removeallmethods McpGrailToolset
removeallclassmethods McpGrailToolset
! ------------------- Class methods for McpGrailToolset
category: 'options'
classmethod: McpGrailToolset
declaredOptionNames
  "The options a prepare config may give this toolset: the Grail checkout, and the configuration
   and memory ceiling of the test gem."
  ^#('grailDirectory' 'testGemConfig' 'testGemMemoryCeilingPercent')
%
category: 'options'
classmethod: McpGrailToolset
defaultMemoryCeilingPercent
  "Above the 75% Grail's runner calls comfortable, below the 96% at which it measured breaking."
  ^85
%
category: 'options'
classmethod: McpGrailToolset
defaultTestGemConfig
  "The budget Grail's own scripts/run_tests.sh gives every test session."
  ^'GEM_TEMPOBJ_CACHE_SIZE=900000;GEM_TEMPOBJ_CODE_SIZE=300000;'
%
category: 'options'
classmethod: McpGrailToolset
testGemConfigProblem: aValue
  "nil when aValue can travel as one gemnetobject -C argument inside an NRS, else why not:
   whitespace or one of ! # @ ^ would end the argument early and apply half of it."
  (aValue isKindOf: CharacterCollection) ifFalse: [^'testGemConfig must be a string'].
  aValue isEmpty ifTrue: [^'testGemConfig must not be empty'].
  aValue do: [:each |
    (each isSeparator or: [(self nrsMetacharacters indexOf: each) > 0]) ifTrue: [
      ^'testGemConfig must hold no whitespace and none of ! # @ ^ (found '
        , each printString , '), because the NRS would end the -C argument there']].
  ^nil
%
category: 'python'
classmethod: McpGrailToolset
pointGrailAt: aDirectory
  "Point both halves of Grail at a checkout, as Grail's own scripts/runTests.gs does: importlib
   grailDir: for the Smalltalk module resolver, and GRAIL_DIR for the Python half, whose
   importlib.find_spec reads os.environ. Runs in the worker gem and, first, in a test gem."
  importlib grailDir: aDirectory.
  System gemEnvironmentVariable: 'GRAIL_DIR' put: aDirectory
%
category: 'options'
classmethod: McpGrailToolset
nrsMetacharacters
  "The characters that end an argument inside an NRS, so a testGemConfig may not hold them."
  ^'!#@^'
%
category: 'test gem'
classmethod: McpGrailToolset
testGemMemoryFigures
  "Runs in the test gem: its temporary object memory as used, max and the kernel's percentage,
   the three figures Grail's runner reports as GRAIL_SHARD_MEM, joined by spaces."
  ^System _tempObjSpaceUsed printString , ' ' , System _tempObjSpaceMax printString , ' '
    , System _tempObjSpacePercentUsed printString
%
category: 'test gem'
classmethod: McpGrailToolset
testGemReportFor: aClassName
  "Runs in the test gem: one test class run into Grail's GrailTestResult, which keeps what stock
   SUnit drops (each defect's message, and an error's stack), answered as JSON text: run, passed,
   failures, errors and the defects; or found false when the name resolves to no class."
  | cls result report |
  cls := System myUserProfile objectNamed: aClassName asSymbol.
  report := Dictionary new at: 'class' put: aClassName; yourself.
  (cls notNil and: [cls isBehavior]) ifFalse: [^McpJson write: (report at: 'found' put: false; yourself)].
  result := GrailTestResult run: cls suite.
  report
    at: 'found' put: true;
    at: 'run' put: result runCount;
    at: 'passed' put: result passedCount;
    at: 'failures' put: result failureCount;
    at: 'errors' put: result errorCount;
    at: 'defects' put: (self defectsOf: result).
  ^McpJson write: report
%
category: 'test gem'
classmethod: McpGrailToolset
defectsOf: aGrailTestResult
  "One Dictionary per defect in the order the run met them, from GrailTestResult's details
   ({kind. testCase. message. stack or nil}): kind (FAIL or ERROR), test, message, stack."
  ^(aGrailTestResult details collect: [:each |
      Dictionary new
        at: 'kind' put: (each at: 1) asString;
        at: 'test' put: (self testNameOf: (each at: 2));
        at: 'message' put: (each at: 3) asString;
        at: 'stack' put: ((each at: 4) ifNotNil: [:stack | stack asString]);
        yourself]) asArray
%
category: 'test gem'
classmethod: McpGrailToolset
testNameOf: aTestCase
  "Class>>selector of a test, as the report names it."
  ^aTestCase class name asString , '>>' , aTestCase selector asString
%
! ------------------- Instance methods for McpGrailToolset
category: 'registration'
method: McpGrailToolset
registerOn: aRegistry
  "Declare the nine tools on aRegistry, one declaration method each, grouped: running Python,
   browsing it, searching it."
  self declareCompilePythonOn: aRegistry.
  self declareEvalPythonOn: aRegistry.
  self declareRunPythonTestsOn: aRegistry.
  self declareGetPythonSourceOn: aRegistry.
  self declareDescribePythonClassOn: aRegistry.
  self declareListPythonMethodsOn: aRegistry.
  self declarePythonModuleStateOn: aRegistry.
  self declareFindPythonSendersOn: aRegistry.
  self declareSearchPythonSourceOn: aRegistry
%
category: 'declarations'
method: McpGrailToolset
declareCompilePythonOn: aRegistry
  aRegistry add: ((McpTool
    name: 'compile_python'
    description: 'Transpile Python source to Smalltalk with Grail (ModuleAst) and answer the generated Smalltalk. Runs nothing. A Python error is an isError result of kind pythonError.'
    schema: (self schemaProperties: {self codeProperty} required: #('code'))
    handler: [:args | self compilePython: args])
      title: 'Compile Python to Smalltalk';
      hintsReadOnly: true destructive: false idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareEvalPythonOn: aRegistry
  aRegistry add: ((McpTool
    name: 'eval_python'
    description: 'Evaluate Python in this session''s persistent namespace (names bound by one call are seen by the next; __name__ is __main__). Answers what it printed to stdout, what it wrote to stderr (each line marked [stderr]), then => and the repr of the value; on failure the same two channels ahead of the Python traceback, as an isError result of kind pythonError. Changes stay uncommitted until you call commit.'
    schema: (self schemaProperties: {self codeProperty} required: #('code'))
    handler: [:args | self evalPython: args])
      title: 'Evaluate Python';
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareRunPythonTestsOn: aRegistry
  aRegistry add: ((McpTool
    name: 'run_python_tests'
    description: 'Run Grail''s Python test classes (PythonTestCase subclasses) in a fresh gem that is logged out afterwards and never commits, one class at a time, and report counts per class and each defect with Grail''s message and, for an error, its stack, the gem''s peak memory, and where to resume if the run stopped at the memory ceiling. A name that resolves to no class is listed as NOT FOUND. Omit classNames to run them all (slow).'
    schema: (self schemaProperties: {
        self stringArrayProperty: 'classNames' description: 'Test class names to run, in order (default: every PythonTestCase subclass).'}
      required: #())
    handler: [:args | self runPythonTests: args])
      title: 'Run Python tests in a fresh gem';
      hintsReadOnly: true destructive: false idempotent: false openWorld: false;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareGetPythonSourceOn: aRegistry
  aRegistry add: ((McpTool
    name: 'get_python_source'
    description: 'Source of a Python module, class or function named dotted (e.g. shelf.stack.Stack.push), read from the .py it was loaded from, under a # path:line header naming the line the page starts at. Pages over lines with limit/offset. Resolving the name imports its module.'
    schema: (self schemaProperties: {self nameProperty: 'Dotted name of a module, class or function.'} , self pagingProperties required: #('name'))
    handler: [:args | self getPythonSource: args])
      title: 'Get Python source';
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareDescribePythonClassOn: aRegistry
  aRegistry add: ((McpTool
    name: 'describe_python_class'
    description: 'A Python class by its dotted name: the Smalltalk class behind it (the one the other tools take), its storage base, __bases__, __mro__, __slots__, class attributes and method names. Resolving the name imports its module.'
    schema: (self schemaProperties: {self nameProperty: 'Dotted class name, e.g. shelf.stack.Stack.'} required: #('name'))
    handler: [:args | self describePythonClass: args])
      title: 'Describe a Python class';
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareListPythonMethodsOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_python_methods'
    description: 'The methods of a Python class with their signatures as inspect.signature writes them and the .py line each was defined at, in source order. The class and its file head every page. Pages with limit/offset.'
    schema: (self schemaProperties: {self nameProperty: 'Dotted class name, e.g. shelf.stack.Stack.'} , self pagingProperties required: #('name'))
    handler: [:args | self listPythonMethods: args])
      title: 'List the methods of a Python class';
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      outputSchema: self pageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declarePythonModuleStateOn: aRegistry
  aRegistry add: ((McpTool
    name: 'python_module_state'
    description: 'What a Python module is here without importing it: native or .py (and where), compiled and committed (deployed) or only built in this session, its compile current or stale against the .py, whether it is in sys.modules (or was imported and removed), and what import would do from here.'
    schema: (self schemaProperties: {self nameProperty: 'Module name, e.g. json or shelf.stack.'} required: #('name'))
    handler: [:args | self pythonModuleState: args])
      title: 'Python module state';
      readOnly;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareFindPythonSendersOn: aRegistry
  aRegistry add: ((McpTool
    name: 'find_python_senders'
    description: 'Who calls or refers to a Python name: compiled call sites and references in the methods of every Python class the session can reach (importlib pythonClasses), and the .py text under the Grail checkout. Matching is syntactic on the last segment of the name; nothing is imported. The Smalltalk-defined bases a Python class is rooted at come with it, labelled as Python names them (builtins.list). Every answer ends with searched: and not searched: lines, each gap naming the argument that closes it. Pages with limit/offset (default 50).'
    schema: (self schemaProperties: {
        self nameProperty: 'Python name, bare or dotted (copyfile, shutil.copyfile); the last segment is matched.'.
        self stringArrayProperty: 'shapes' description: 'Any of compiled, references, source (default all three).'.
        self stringProperty: 'scope' description: 'Only modules at or under this dotted name (flask selects flask.app, not flask_login).'.
        self booleanProperty: 'includeNative' description: 'Also search Grail''s native modules (sys, os, math, ...), which are written in Smalltalk (default false).'.
        self booleanProperty: 'includeTests' description: 'Also search tests/python for the source shape (default false).'} , self pagingProperties
      required: #('name'))
    handler: [:args | self findPythonSenders: args])
      title: 'Find senders of a Python name';
      readOnly;
      outputSchema: self pageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpGrailToolset
declareSearchPythonSourceOn: aRegistry
  aRegistry add: ((McpTool
    name: 'search_python_source'
    description: 'Case-sensitive substring search over the .py files of the Grail checkout (src/python/stdlib, and tests/python with includeTests): the only tool that answers for a module nothing has imported. Answers path:line: text. Pages with limit/offset (default 50).'
    schema: (self schemaProperties: {
        self stringProperty: 'pattern' description: 'The text to find, case-sensitive.'.
        self stringProperty: 'scope' description: 'Only files of this dotted module or package (json selects json/*.py).'.
        self booleanProperty: 'includeTests' description: 'Also search tests/python (default false).'} , self pagingProperties
      required: #('pattern'))
    handler: [:args | self searchPythonSource: args])
      title: 'Search Python source';
      readOnly;
      outputSchema: self pageSchema from: self;
      yourself)
%
category: 'registration'
method: McpGrailToolset
codeProperty
  "The code argument of compile_python and eval_python."
  ^self stringProperty: 'code' description: 'Python source.'
%
category: 'registration'
method: McpGrailToolset
nameProperty: aDescription
  "The name argument of the browsing tools, described for each."
  ^self stringProperty: 'name' description: aDescription
%
category: 'registration'
method: McpGrailToolset
pagingProperties
  "The limit and offset arguments of the paged tools."
  ^{ self integerProperty: 'limit' description: 'Most lines to answer (0 answers the count alone).'.
     self integerProperty: 'offset' description: 'Lines to skip first (default 0).' }
%
category: 'tools'
method: McpGrailToolset
compilePython: args
  "compile_python: the Smalltalk Grail generates for the source; nothing runs."
  self ensureGrailConfigured.
  ^self capResult: (self withPythonErrors: [(ModuleAst parseSource: (args at: 'code')) smalltalkSource])
%
category: 'tools'
method: McpGrailToolset
evalPython: args
  "stdout, stderr and the repr, or the same channels ahead of the traceback as a pythonError.
   The streams are put back whatever ends the evaluation."
  | capturing outcome channels |
  self ensureGrailConfigured.
  capturing := self startCapture.
  channels := #('' '').
  outcome := [[Array with: #value with: (self evaluatePython: (args at: 'code'))]
      on: BaseException
      do: [:ex | ex return: (Array with: #raised with: ex)]]
    ensure: [capturing ifTrue: [channels := self endCapture]].
  (outcome at: 1) == #raised ifTrue: [
    ^McpError signalKind: 'pythonError'
      message: (self capResult: (self channelsText: channels) , (self tracebackOf: (outcome at: 2)))].
  ^self capResult: (self answerFrom: (self channelsText: channels) repr: (self reprOf: (outcome at: 2)))
%
category: 'tools'
method: McpGrailToolset
getPythonSource: args
  "get_python_source: the lines of the definition a dotted name resolves to, from its .py file,
   paged."
  | where lines |
  where := self sourceLocationOf: (self resolvePythonName: (args at: 'name')) named: (args at: 'name').
  lines := self definitionLinesOf: (self fileLines: (where at: 1)) from: (where at: 2).
  ^self capResult: (self pagedSource: lines path: (where at: 1) firstLine: (where at: 2) args: args)
%
category: 'tools'
method: McpGrailToolset
describePythonClass: args
  "describe_python_class: the class as Python and as its backing Smalltalk class."
  | cls lines |
  cls := self resolvePythonClass: (args at: 'name').
  lines := OrderedCollection new.
  lines
    add: 'class ' , (self qualifiedNameOf: cls);
    add: 'backing Smalltalk class: ' , cls name asString;
    add: 'storage base: ' , (self storageBaseOf: cls) name asString;
    add: '__bases__: ' , (self commaList: (self askPython: '[b.__name__ for b in _mcp_obj.__bases__]' with: cls));
    add: '__mro__: ' , (self commaList: (self askPython: '[c.__name__ for c in _mcp_obj.__mro__]' with: cls));
    add: '__slots__: ' , (self slotsTextOf: cls);
    add: 'class attributes: ' , (self commaList: (self classAttributesOf: cls));
    add: 'methods: ' , (self commaList: ((self methodTriplesOf: cls) collect: [:each | each at: 1])).
  ^self linesFrom: lines
%
category: 'tools'
method: McpGrailToolset
listPythonMethods: args
  "list_python_methods: each method with its signature and the .py line its def starts at, paged."
  | cls triples file head page |
  cls := self resolvePythonClass: (args at: 'name').
  triples := self methodTriplesOf: cls.
  file := self moduleFileOfClass: cls.
  head := 'class ' , (self qualifiedNameOf: cls) , '  (' , (file ifNil: ['no .py']) , ')'
    , (String with: Character lf)
    , 'signatures as inspect.signature writes them; the number is the .py line each def starts at'.
  page := self page: (triples collect: [:each | self methodLineFrom: each])
    args: args defaultLimit: nil noun: 'methods'.
  ^head , (String with: Character lf) , page
%
category: 'tools'
method: McpGrailToolset
pythonModuleState: args
  "Each fact, then what import would do. Only reads: Grail's registries, this session's record of
   what it imported, and the .py to hash; the module itself is never imported."
  | name native inSys path lines compiled source evicted |
  name := args at: 'name'.
  self ensureGrailConfigured.
  native := (self askPython: 'import sys
_mcp_obj in sys.builtin_module_names' with: name) == true.
  inSys := (self askPython: 'import sys
_mcp_obj in sys.modules' with: name) == true.
  path := self pyFileOfModule: name.
  compiled := self compiledStateOf: name.
  source := self sourceStateOf: name path: path.
  evicted := inSys not and: [self importedEarlierInSession: name].
  lines := OrderedCollection new.
  lines
    add: 'module ' , name;
    add: 'kind: ' , (native ifTrue: ['native (Smalltalk)'] ifFalse: [path isNil ifTrue: ['.py, none found'] ifFalse: ['.py ' , path]]).
  native ifFalse: [
    lines
      add: 'compiled: ' , (self describeCompiled: compiled);
      add: 'source: ' , (self describeSource: source)].
  lines
    add: 'in sys.modules: ' , (inSys ifTrue: ['yes'] ifFalse: [evicted
      ifTrue: ['no, but this session imported it and it has been removed since']
      ifFalse: ['no']]);
    add: 'import ' , name , ' would: '
      , (self nextImportInSys: inSys native: native path: path compiled: compiled source: source evicted: evicted).
  ^self linesFrom: lines
%
category: 'tools'
method: McpGrailToolset
findPythonSenders: args
  "find_python_senders: compiled call sites and references, and source hits, in the shapes asked
   for, paged with a trailer."
  | target shapes hits roots trailer page bases |
  self ensureGrailConfigured.
  target := self lastSegmentOf: (args at: 'name').
  shapes := self shapesFrom: args.
  hits := OrderedCollection new.
  bases := Set new.
  (shapes includes: 'compiled') | (shapes includes: 'references') ifTrue: [
    hits addAll: (self compiledHitsFor: target shapes: shapes args: args bases: bases)].
  roots := self sourceRootsIncludingTests: (self booleanArgument: 'includeTests' in: args default: false).
  (shapes includes: 'source') ifTrue: [
    hits addAll: (self sourceHitsFor: target roots: roots args: args)].
  trailer := self coverageFor: shapes roots: roots args: args bases: bases.
  page := self page: hits args: args defaultLimit: 50 noun: 'hits'.
  ^self capResult: page , (String with: Character lf) , trailer
%
category: 'tools'
method: McpGrailToolset
searchPythonSource: args
  "search_python_source: the .py lines under the checkout that hold the pattern, paged; without a
   checkout it is refused."
  | pattern roots hits |
  pattern := args at: 'pattern'.
  pattern isEmpty ifTrue: [^McpError signalKind: 'invalidParams' message: 'pattern must not be empty'].
  roots := self sourceRootsIncludingTests: (self booleanArgument: 'includeTests' in: args default: false).
  roots isEmpty ifTrue: [^self refuseWithoutCheckout].
  hits := OrderedCollection new.
  self filesOf: roots scope: (args at: 'scope' ifAbsent: [nil]) do: [:label :path |
    self lines: (self fileLines: path) with: [:line :index |
      (line findString: pattern startingAt: 1) > 0 ifTrue: [
        hits add: label , ':' , index printString , ': ' , (self trimmed: line)]]].
  ^self page: hits args: args defaultLimit: 50 noun: 'hits'
%
category: 'tools'
method: McpGrailToolset
runPythonTests: args
  "run_python_tests: the named PythonTestCase classes, or all of them, run in a test gem of their
   own; names that are no such class are reported NOT FOUND."
  | names found missing |
  names := args at: 'classNames' ifAbsent: [self allPythonTestClassNames].
  found := names select: [:each | self isPythonTestClassNamed: each].
  missing := names reject: [:each | self isPythonTestClassNamed: each].
  ^self reportTestRun: (found isEmpty
      ifTrue: [McpGrailTestRun new]
      ifFalse: [self runClasses: found])
    missing: missing
%
category: 'python'
method: McpGrailToolset
ensureGrailConfigured
  "Point Grail's module resolver at the configured checkout; without one Grail guesses from the
   gem's working directory, which for a worker gem is the stone's."
  | dir |
  dir := self grailDirectory.
  dir isNil ifFalse: [self class pointGrailAt: dir]
%
category: 'python'
method: McpGrailToolset
pythonScope
  "This worker gem's Python module scope, made on first use with __name__ bound to __main__."
  | scope |
  scope := SessionTemps current at: #McpGrailScope ifAbsent: [nil].
  scope isNil ifTrue: [
    scope := SymbolDictionary new.
    scope at: #'__name__' put: '__main__'.
    SessionTemps current at: #McpGrailScope put: scope].
  ^scope
%
category: 'python'
method: McpGrailToolset
evaluatePython: aSource
  "The value of aSource in this gem's scope; Python exceptions propagate to the caller."
  | list module |
  list := importlib ___grailCompileSymbolList___.
  list insertObject: self pythonScope at: 1.
  module := ModuleAst parseSource: aSource.
  module useTempsForBlock: false.
  module ensureModuleScope: self pythonScope.
  ^module evaluateWithScope: list
%
category: 'python'
method: McpGrailToolset
askPython: aSource with: anObject
  "The value of one Python expression about anObject (bound as _mcp_obj), or nil when it raises."
  ^[self pythonScope at: #'_mcp_obj' put: anObject.
    self evaluatePython: aSource]
    on: BaseException
    do: [:ex | ex return: nil]
%
category: 'python'
method: McpGrailToolset
withPythonErrors: aBlock
  "aBlock's value; a Python exception becomes an McpError of kind pythonError."
  ^aBlock
    on: BaseException
    do: [:ex | McpError signalKind: 'pythonError' message: (self messageOf: ex)]
%
category: 'python'
method: McpGrailToolset
messageOf: aPythonException
  "The text of a Python exception: its description, else its class name."
  | detail |
  detail := [aPythonException description] on: Error do: [:ex | ex return: nil].
  ^detail isNil ifTrue: [aPythonException class name asString] ifFalse: [detail asString]
%
category: 'python'
method: McpGrailToolset
tracebackOf: aPythonException
  "Python's formatted traceback of the exception, or its one-line message when none can be built."
  | text |
  self attachFramesTo: aPythonException.
  text := self askPython: 'import traceback
"".join(traceback.format_exception(_mcp_obj))' with: aPythonException.
  (text isKindOf: CharacterCollection) ifTrue: [^text asString].
  ^self messageOf: aPythonException
%
category: 'python'
method: McpGrailToolset
attachFramesTo: aPythonException
  "Grail attaches a __traceback__ on the Python catch path, which an exception caught by a
   Smalltalk handler never took, so it has none and would format as its last line alone. Grail
   builds the frames from the stack the VM captured at the raise (BaseException>>
   ___buildFramesFromCapturedStack___:pos:, an internal of Grail's, hence guarded: a Grail
   without it costs the frames, never the answer)."
  (self askPython: '_mcp_obj.__traceback__ is None' with: aPythonException) == true ifFalse: [^self].
  [[aPythonException ___buildFramesFromCapturedStack___: nil pos: nil]
      on: Error
      do: [:ex | ex return: nil]]
    on: BaseException
    do: [:ex | ex return: nil]
%
category: 'python'
method: McpGrailToolset
reprOf: aValue
  "Python's repr of aValue, or its Smalltalk print string when Python gives none."
  | repr |
  repr := self askPython: 'repr(_mcp_obj)' with: aValue.
  (repr isKindOf: CharacterCollection) ifTrue: [^repr asString].
  ^aValue printString
%
category: 'python'
method: McpGrailToolset
startCapture
  "Swap sys.stdout and sys.stderr for buffers; false when they cannot be swapped."
  ^[self evaluatePython: 'import io, sys
_mcp_streams = (sys.stdout, sys.stderr)
sys.stdout, sys.stderr = io.StringIO(), io.StringIO()'. true]
    on: BaseException
    do: [:ex | ex return: false]
%
category: 'python'
method: McpGrailToolset
endCapture
  "What the code wrote, {stdout. stderr}, with the streams it found put back."
  | captured |
  captured := [self evaluatePython: 'import sys
_mcp_out = (sys.stdout.getvalue(), sys.stderr.getvalue())
sys.stdout, sys.stderr = _mcp_streams
_mcp_out']
    on: BaseException
    do: [:ex | ex return: nil].
  captured isNil ifTrue: [^#('' '')].
  ^Array with: (captured at: 1) asString with: (captured at: 2) asString
%
category: 'python'
method: McpGrailToolset
answerFrom: aChannelsText repr: aRepr
  "The bare repr when the code wrote nothing, else the output then => and the repr."
  aChannelsText isEmpty ifTrue: [^aRepr].
  ^aChannelsText , '=> ' , aRepr
%
category: 'python'
method: McpGrailToolset
channelsText: aPair
  "stdout as written, then every stderr line marked [stderr]; empty channels print nothing."
  | out |
  out := WriteStream on: String new.
  (self splitLines: (aPair at: 1)) do: [:each | out nextPutAll: each; nextPut: Character lf].
  (self splitLines: (aPair at: 2)) do: [:each |
    out nextPutAll: '[stderr] '; nextPutAll: each; nextPut: Character lf].
  ^out contents
%
category: 'resolving'
method: McpGrailToolset
resolvePythonName: aDottedName
  "The object a dotted name denotes: the longest leading part that imports as a module, then
   attributes; notFound naming the name otherwise."
  | parts |
  self ensureGrailConfigured.
  parts := self dottedSegmentsOf: aDottedName.
  parts size to: 1 by: -1 do: [:count | | object |
    object := self importModuleNamed: (self joinSegments: parts upTo: count).
    object isNil ifFalse: [
      object := self attributesOf: object path: parts from: count + 1.
      object isNil ifFalse: [^object]]].
  ^McpError signalKind: 'notFound'
    message: 'no Python module, class or function ' , aDottedName printString
      , ' could be imported here (is the grailDirectory option the checkout the image was installed from?)'
%
category: 'resolving'
method: McpGrailToolset
importModuleNamed: aModuleName
  "The module importlib imports for a dotted name."
  ^self askPython: 'import importlib
importlib.import_module(_mcp_obj)' with: aModuleName
%
category: 'resolving'
method: McpGrailToolset
attributesOf: anObject path: parts from: start
  "Follow the attributes parts from index start on, from anObject; nil when one is missing."
  | object |
  object := anObject.
  start to: parts size do: [:index |
    self pythonScope at: #'_mcp_attr' put: (parts at: index).
    object := self askPython: 'getattr(_mcp_obj, _mcp_attr)' with: object.
    object isNil ifTrue: [^nil]].
  ^object
%
category: 'resolving'
method: McpGrailToolset
resolvePythonClass: aDottedName
  "The class a dotted name resolves to; anything else is notFound, pointing at get_python_source."
  | object |
  object := self resolvePythonName: aDottedName.
  object isBehavior ifFalse: [
    ^McpError signalKind: 'notFound'
      message: aDottedName , ' is not a class; get_python_source shows a module or function'].
  ^object
%
category: 'resolving'
method: McpGrailToolset
qualifiedNameOf: aPythonClass
  "module.qualname of a class, or its Smalltalk name when Python gives none."
  | name |
  name := self askPython: '_mcp_obj.__module__ + "." + _mcp_obj.__qualname__' with: aPythonClass.
  ^name isNil ifTrue: [aPythonClass name asString] ifFalse: [name asString]
%
category: 'resolving'
method: McpGrailToolset
storageBaseOf: aPythonClass
  "The first superclass that a symbol dictionary names: Grail creates Python classes unnamed, so
   that is the Smalltalk class whose storage the Python one inherits."
  | each |
  each := aPythonClass superclass.
  [each notNil] whileTrue: [
    (System myUserProfile symbolList objectNamed: each name asSymbol) == each ifTrue: [^each].
    each := each superclass].
  ^Object
%
category: 'classes'
method: McpGrailToolset
classAttributesOf: aPythonClass
  "The class attributes its body declares: Grail keeps each as a class-instance variable of the
   class (a slot on its metaclass, with a getter and a setter), so they are the class side's own
   instVarNames, less Grail's own ___name___ slots."
  ^(aPythonClass class instVarNames collect: [:each | each asString])
    reject: [:each | self isGrailInternalName: each]
%
category: 'classes'
method: McpGrailToolset
isGrailInternalName: aName
  "Grail names its own slots with three underscores each side; a Python dunder has two."
  ^aName size > 6 and: [(self string: aName startsWith: '___') and: [self string: aName endsWith: '___']]
%
category: 'classes'
method: McpGrailToolset
methodTriplesOf: aPythonClass
  "{name. signature. line or nil. fromSelector} for each def of the class body, in source order.
   Grail compiles a class-body def to a Smalltalk method, which the class's computed __dict__ does
   not list, and keeps its Python metadata beside it in class-side tables: the def names and their
   code objects in ___methodCodeTable___, the parameters in ___methodSignatureTable___. A class
   without a code table falls back to the names its env-1 selectors decode to, with no line."
  | codes names |
  codes := self pythonTable: #'___methodCodeTable___' of: aPythonClass.
  names := codes isNil
    ifTrue: [self decodedMethodNamesOf: aPythonClass]
    ifFalse: [codes keys asArray collect: [:each | each asString]].
  ^(names collect: [:name | | signature |
      signature := self signatureOf: name in: aPythonClass.
      Array
        with: name
        with: (signature at: 1)
        with: (self firstLineOf: (self entry: name in: codes))
        with: (signature at: 2)])
    asSortedCollection: [:a :b | self triple: a precedes: b]
%
category: 'classes'
method: McpGrailToolset
triple: a precedes: b
  "Source order: by .py line, a method with no line after those with one, then by name."
  (a at: 3) isNil ifTrue: [^(b at: 3) isNil and: [(a at: 1) <= (b at: 1)]].
  (b at: 3) isNil ifTrue: [^true].
  ^(a at: 3) < (b at: 3) or: [(a at: 3) = (b at: 3) and: [(a at: 1) <= (b at: 1)]]
%
category: 'classes'
method: McpGrailToolset
pythonTable: aSelector of: aPythonClass
  "One of the class-side metadata tables Grail's ClassDefAst compiles in environment 1 (def
   name -> entry), or nil when the class has none (a Smalltalk class, or a Grail without it)."
  ^[[aPythonClass perform: aSelector env: 1]
      on: Error
      do: [:ex | ex return: nil]]
    on: BaseException
    do: [:ex | ex return: nil]
%
category: 'classes'
method: McpGrailToolset
entry: aName in: aTableOrNil
  "aTableOrNil's entry for a name, or nil. Grail keys its metadata tables by the def's name and
   its module registries by the dotted module name, both Strings."
  aTableOrNil isNil ifTrue: [^nil].
  ^aTableOrNil at: aName asString ifAbsent: [nil]
%
category: 'classes'
method: McpGrailToolset
firstLineOf: aCodeOrNil
  "The .py line a def starts at: its code object's co_firstlineno, which Grail keeps as a dynamic
   instVar rather than an accessor."
  | line |
  aCodeOrNil isNil ifTrue: [^nil].
  line := [aCodeOrNil dynamicInstVarAt: #co_firstlineno] on: Error do: [:ex | ex return: nil].
  ^(line isKindOf: Integer) ifTrue: [line] ifFalse: [nil]
%
category: 'classes'
method: McpGrailToolset
decodedMethodNamesOf: aPythonClass
  "The Python names the class's env-1 selectors decode to by Grail's own rule, once each."
  | names |
  names := OrderedCollection new.
  (aPythonClass selectorsForEnvironment: 1) do: [:each | | name |
    name := importlib pythonNameOfSelector: each.
    (name notNil and: [(names includes: name asString) not]) ifTrue: [names add: name asString]].
  ^names asArray
%
category: 'signatures'
method: McpGrailToolset
signatureOf: aName in: aPythonClass
  "{signature. fromSelector}: from the class's ___methodSignatureTable___ with the receiver its
   ___methodReceiverTable___ names put back, as inspect.signature shows an unbound method; else
   the arity the def's selectors carry, and true to say so."
  | spec |
  spec := self entry: aName in: (self pythonTable: #'___methodSignatureTable___' of: aPythonClass).
  spec isNil ifTrue: [^Array with: (self selectorSignatureOf: aName in: aPythonClass) with: true].
  ^Array
    with: (self signatureFrom: spec
      receiver: (self entry: aName in: (self pythonTable: #'___methodReceiverTable___' of: aPythonClass)))
    with: false
%
category: 'signatures'
method: McpGrailToolset
signatureFrom: aSpec receiver: aNameOrNil
  "A signature as inspect.signature writes it, from Grail's parameter spec: one {name. kind} or
   {name. kind. default source text} per parameter, the kind an index into POSITIONAL_ONLY (0),
   POSITIONAL_OR_KEYWORD (1), VAR_POSITIONAL (2), KEYWORD_ONLY (3), VAR_KEYWORD (4). The receiver,
   which the spec leaves out, is positional-only when the parameters after it are."
  | params |
  params := OrderedCollection new.
  aNameOrNil isNil ifFalse: [
    params add: (Array
      with: aNameOrNil asString
      with: ((aSpec notEmpty and: [((aSpec at: 1) at: 2) = 0]) ifTrue: [0] ifFalse: [1]))].
  params addAll: aSpec.
  ^'(' , (self joined: (self renderedParameters: params) with: ', ') , ')'
%
category: 'signatures'
method: McpGrailToolset
renderedParameters: aSpec
  "Each parameter's text, with / closing the positional-only ones and a bare * opening the
   keyword-only ones when no *args does."
  | out previous |
  out := OrderedCollection new.
  previous := nil.
  aSpec do: [:each | | kind |
    kind := each at: 2.
    (previous = 0 and: [kind ~= 0]) ifTrue: [out add: '/'].
    (kind = 3 and: [previous ~= 3 and: [previous ~= 2]]) ifTrue: [out add: '*'].
    out add: (self parameterText: each).
    previous := kind].
  previous = 0 ifTrue: [out add: '/'].
  ^out asArray
%
category: 'signatures'
method: McpGrailToolset
parameterText: anEntry
  "name, *name or **name, and =default with the default as the def wrote it."
  | kind text |
  kind := anEntry at: 2.
  text := (anEntry at: 1) asString.
  kind = 2 ifTrue: [text := '*' , text].
  kind = 4 ifTrue: [text := '**' , text].
  (anEntry size > 2 and: [(anEntry at: 3) notNil]) ifTrue: [text := text , '=' , (anEntry at: 3) asString].
  ^text
%
category: 'signatures'
method: McpGrailToolset
selectorSignatureOf: aName in: aPythonClass
  "What the selectors a def compiled to carry: positional placeholders for the widest fixed-arity
   one (name: then _: per further argument), else (*args, **kwargs) for the varargs _name:kw:."
  | widest varargs |
  widest := nil.
  varargs := false.
  (aPythonClass selectorsForEnvironment: 1) do: [:each | | name |
    name := importlib pythonNameOfSelector: each.
    (name notNil and: [name asString = aName]) ifTrue: [
      (self string: each asString endsWith: ':kw:')
        ifTrue: [varargs := true]
        ifFalse: [widest := (self colonsIn: each asString) max: (widest ifNil: [0])]]].
  widest notNil ifTrue: [^'(' , (self placeholders: widest) , ')'].
  ^varargs ifTrue: ['(*args, **kwargs)'] ifFalse: ['()']
%
category: 'signatures'
method: McpGrailToolset
colonsIn: aString
  "How many arguments a keyword selector takes."
  | count |
  count := 0.
  aString do: [:each | each = $: ifTrue: [count := count + 1]].
  ^count
%
category: 'signatures'
method: McpGrailToolset
placeholders: aCount
  "a1, a2, ... as the positional placeholders of a signature."
  ^self joined: ((1 to: aCount) asArray collect: [:each | 'a' , each printString]) with: ', '
%
category: 'classes'
method: McpGrailToolset
methodLineFrom: aTriple
  "line  name(signature), the line ? when the class keeps none, and a note when the signature is
   only the selector's arity."
  ^((aTriple at: 3) isNil ifTrue: ['?'] ifFalse: [(aTriple at: 3) printString]) , '  '
    , (aTriple at: 1) , (aTriple at: 2)
    , ((aTriple at: 4) ifTrue: ['  [no signature table entry: arity from the selector]'] ifFalse: [''])
%
category: 'classes'
method: McpGrailToolset
slotsTextOf: aPythonClass
  "The __slots__ a class declares, as a list."
  | slots |
  slots := self askPython: 'getattr(_mcp_obj, "__slots__", None)' with: aPythonClass.
  slots isNil ifTrue: [^'(none declared)'].
  ^self commaList: slots
%
category: 'classes'
method: McpGrailToolset
moduleFileOfClass: aPythonClass
  "The .py file of the module that defines the class, or nil."
  | module |
  module := self askPython: 'import sys
sys.modules[_mcp_obj.__module__]' with: aPythonClass.
  module isNil ifTrue: [^nil].
  ^self askPython: '_mcp_obj.__file__' with: module
%
category: 'source'
method: McpGrailToolset
sourceLocationOf: anObject named: aDottedName
  "{path. firstLine} of a function (its __code__), a module (its __file__ from line 1) or a class
   (its module's file, at its class statement)."
  | code file |
  code := self askPython: '(_mcp_obj.__code__.co_filename, _mcp_obj.__code__.co_firstlineno)' with: anObject.
  code isNil ifFalse: [^Array with: (code at: 1) asString with: (code at: 2)].
  anObject isBehavior ifTrue: [^self classLocationOf: anObject named: aDottedName].
  file := self askPython: '_mcp_obj.__file__' with: anObject.
  file isNil ifTrue: [
    ^McpError signalKind: 'notFound'
      message: aDottedName , ' has no .py source here (a native module or a value)'].
  ^Array with: file asString with: 1
%
category: 'source'
method: McpGrailToolset
classLocationOf: aPythonClass named: aDottedName
  "The .py file and the line of the class statement of a class; notFound when either is missing."
  | file header index |
  file := self moduleFileOfClass: aPythonClass.
  file isNil ifTrue: [
    ^McpError signalKind: 'notFound' message: aDottedName , ' was defined in no .py file'].
  header := 'class ' , (self lastSegmentOf: aDottedName).
  index := 0.
  self lines: (self fileLines: file) with: [:line :at |
    (index = 0 and: [self string: (self trimmed: line) startsWith: header]) ifTrue: [index := at]].
  index = 0 ifTrue: [
    ^McpError signalKind: 'notFound' message: 'no class statement for ' , aDottedName , ' in ' , file].
  ^Array with: file asString with: index
%
category: 'source'
method: McpGrailToolset
definitionLinesOf: fileLines from: firstLine
  "The lines of the definition starting at firstLine: a module is the whole file; a def or class
   runs on through blank lines and lines indented further than its first line."
  | indent last |
  firstLine = 1 ifTrue: [^fileLines].
  indent := self indentOf: (fileLines at: firstLine).
  last := firstLine.
  firstLine + 1 to: fileLines size do: [:index | | line |
    line := fileLines at: index.
    (self trimmed: line) isEmpty ifFalse: [
      (self indentOf: line) <= indent ifTrue: [
        ^self trailingBlanksOff: (fileLines copyFrom: firstLine to: last)].
      last := index]].
  ^self trailingBlanksOff: (fileLines copyFrom: firstLine to: fileLines size)
%
category: 'source'
method: McpGrailToolset
pagedSource: lines path: aPath firstLine: firstLine args: args
  "One page of source under '# path:line', the line this page starts at; with a page header when
   the page is not the whole definition."
  | limit offset stop window header |
  limit := self pagingArgument: 'limit' in: args default: nil.
  offset := self pagingArgument: 'offset' in: args default: 0.
  stop := limit isNil ifTrue: [lines size] ifFalse: [(offset + limit) min: lines size].
  window := self window: lines from: offset + 1 to: stop.
  header := '# ' , aPath , ':' , (firstLine + offset) printString.
  (offset = 0 and: [stop = lines size]) ifFalse: [
    header := (self pageHeaderFrom: offset + 1 to: stop of: lines size noun: 'lines')
      , (String with: Character lf) , header].
  ^self linesFrom: (OrderedCollection new add: header; addAll: window; yourself)
%
category: 'modules'
method: McpGrailToolset
pyFileOfModule: aModuleName
  "The .py under the checkout's stdlib that would back aModuleName, or nil."
  | root base |
  root := self stdlibDirectory.
  root isNil ifTrue: [^nil].
  base := root , '/' , (self pathOfModule: aModuleName).
  (GsFile existsOnServer: base , '.py') == true ifTrue: [^base , '.py'].
  (GsFile existsOnServer: base , '/__init__.py') == true ifTrue: [^base , '/__init__.py'].
  ^nil
%
category: 'modules'
method: McpGrailToolset
grailRegistry: aName
  "One of Grail's committed registries in UserGlobals, read and never created (asking importlib
   for it would create an empty one), or nil."
  ^System myUserProfile objectNamed: aName
%
category: 'modules'
method: McpGrailToolset
compiledStateOf: aModuleName
  "#committed when Grail's GrailCanonicalModules holds a committed module instance for the name
   (deployed: every session binds it), #sessionBuilt when it holds one this transaction made,
   #none when it holds none."
  | instance |
  instance := self entry: aModuleName in: (self grailRegistry: #GrailCanonicalModules).
  instance isNil ifTrue: [^#none].
  ^instance isCommitted ifTrue: [#committed] ifFalse: [#sessionBuilt]
%
category: 'modules'
method: McpGrailToolset
sourceStateOf: aModuleName path: aPathOrNil
  "#current or #stale: the source hash Grail recorded at the compile (GrailCanonicalModuleHashes)
   against the sha1Sum of the .py as importlib reads it now; #unrecorded with no recorded hash,
   #unreadable when the .py cannot be read to compare."
  | recorded now |
  recorded := self entry: aModuleName in: (self grailRegistry: #GrailCanonicalModuleHashes).
  recorded isNil ifTrue: [^#unrecorded].
  now := self sourceHashOf: aPathOrNil.
  now isNil ifTrue: [^#unreadable].
  ^now = recorded ifTrue: [#current] ifFalse: [#stale]
%
category: 'modules'
method: McpGrailToolset
sourceHashOf: aPathOrNil
  "The sha1Sum of a .py's text as importlib decodes it, the digest loadModuleFromPath: records,
   or nil."
  aPathOrNil isNil ifTrue: [^nil].
  ^[[(importlib ___sourceStringForPath___: aPathOrNil) sha1Sum]
      on: Error
      do: [:ex | ex return: nil]]
    on: BaseException
    do: [:ex | ex return: nil]
%
category: 'modules'
method: McpGrailToolset
importedEarlierInSession: aModuleName
  "Whether this session's load of the module left its verdict in Grail's session record
   (GrailModuleHashState in SessionTemps, keyed by the module name as a Symbol, -> #match or
   #stale)."
  | state |
  state := SessionTemps current at: #GrailModuleHashState ifAbsent: [nil].
  ^state notNil and: [(state at: aModuleName asString asSymbol ifAbsent: [nil]) notNil]
%
category: 'modules'
method: McpGrailToolset
describeCompiled: aState
  "The state of a module's compiled form, as python_module_state words it."
  aState == #committed ifTrue: [^'committed (deployed): every session binds it'].
  aState == #sessionBuilt ifTrue: [^'built in this session and not committed: it goes with this transaction'].
  ^'none registered'
%
category: 'modules'
method: McpGrailToolset
describeSource: aState
  "Whether the .py still matches what was compiled, as python_module_state words it."
  aState == #current ifTrue: [^'current: the .py matches what was compiled'].
  aState == #stale ifTrue: [^'stale: the .py has changed since it was compiled'].
  aState == #unreadable ifTrue: [^'a compile is recorded, but the .py could not be read to compare'].
  ^'no compile recorded'
%
category: 'modules'
method: McpGrailToolset
nextImportInSys: inSys native: native path: aPathOrNil compiled: compiled source: source evicted: evicted
  "What import would do from here, by Grail's module lifecycle: a sys.modules hit, a native
   module, a deployed current compile bound (or refused, once this session removed it from
   sys.modules), a stale or undeployed one compiled."
  inSys ifTrue: [^'nothing: it is already in this session''s sys.modules'].
  native ifTrue: [^'bind the native module; nothing is compiled'].
  (compiled == #committed and: [source == #current]) ifTrue: [
    evicted ifTrue: [
      ^'raise: this session imported it and removed it from sys.modules, and Grail will not bind the committed compile again (importlib.reload() it, or use a fresh session)'].
    ^'bind the committed compile: nothing is compiled and the module body does not run'].
  aPathOrNil isNil ifTrue: [
    ^'fail: no .py for it under the configured checkout'
      , (self grailDirectory isNil ifTrue: [' (no grailDirectory is configured)'] ifFalse: [''])].
  (compiled == #committed and: [source == #stale]) ifTrue: [
    ^'compile ' , aPathOrNil , ' again, the committed compile being stale: the body runs (a database write, uncommitted until you commit)'].
  ^'compile ' , aPathOrNil , ': the body runs (a database write, uncommitted until you commit)'
%
category: 'senders'
method: McpGrailToolset
shapesFrom: args
  "The shapes asked for (default all three); an unknown one is refused, since silently searching
   less would read as no senders."
  | known given |
  known := #('compiled' 'references' 'source').
  given := args at: 'shapes' ifAbsent: [known].
  given isEmpty ifTrue: [given := known].
  given do: [:each |
    (known includes: each) ifFalse: [
      ^McpError signalKind: 'invalidParams'
        message: each printString , ' is not a shape; the shapes are compiled, references, source']].
  ^given
%
category: 'senders'
method: McpGrailToolset
compiledHitsFor: aName shapes: shapes args: args bases: bases
  "Hits in the env-1 methods of every class importlib pythonClasses answers, each labelled as
   Python prints it: the Python classes and the Smalltalk-defined bases they are rooted at, whose
   module Python names builtins (builtins.list), each of those added to bases; with includeNative
   also in Grail's native modules, whose methods are written in Smalltalk."
  | hits scope native |
  hits := OrderedCollection new.
  scope := args at: 'scope' ifAbsent: [nil].
  native := self booleanArgument: 'includeNative' in: args default: false.
  importlib pythonClasses do: [:cls | | label |
    label := self qualifiedNameOf: cls.
    (self scope: scope selects: label) ifTrue: [
      (self string: label startsWith: 'builtins.') ifTrue: [bases add: label].
      hits addAll: (self hitsFor: aName in: cls label: label shapes: shapes)]].
  native ifTrue: [
    self nativeModulesDo: [:name :cls |
      (self scope: scope selects: name)
        ifTrue: [hits addAll: (self hitsFor: aName in: cls label: name shapes: shapes)]]].
  ^hits
%
category: 'senders'
method: McpGrailToolset
nativeModulesDo: aBlock
  "aBlock value: name value: class for each of Grail's native modules (sys, os, math, ...):
   the module classes written in Smalltalk that its install puts in the dictionary Python, in
   name order."
  | python names |
  python := System myUserProfile objectNamed: #Python.
  python isNil ifTrue: [^self].
  names := (python keys collect: [:each | each asString]) asSortedCollection.
  names do: [:name | | cls |
    cls := python at: name asSymbol.
    ((cls isKindOf: Behavior) and: [cls == module or: [cls inheritsFrom: module]])
      ifTrue: [aBlock value: name value: cls]]
%
category: 'senders'
method: McpGrailToolset
hitsFor: aName in: aClass label: aLabel shapes: shapes
  "A selector Grail does not decode to a Python name is its own plumbing and is not searched."
  | hits |
  hits := OrderedCollection new.
  (aClass selectorsForEnvironment: 1) asSortedCollection do: [:selector | | pythonName |
    pythonName := importlib pythonNameOfSelector: selector.
    pythonName isNil ifFalse: [
      hits addAll: (self hitsFor: aName
        inMethod: (aClass compiledMethodAt: selector environmentId: 1)
        source: (aClass sourceCodeAt: selector environmentId: 1)
        label: aLabel , '.' , pythonName asString
        shapes: shapes)]].
  ^hits
%
category: 'senders'
method: McpGrailToolset
hitsFor: aName inMethod: aMethod source: aSource label: aMethodLabel shapes: shapes
  "The hits in one method. Whether it calls aName is its selector pool's answer (a send that
   decodes to aName); where, the source's: compiled to IR, a method's source is the Python of its
   def, whose first line names the method and calls nothing. A call the pool proves is compiled;
   the name anywhere else, or called without a send (an unresolved attribute call), is a
   reference. In a method written in Smalltalk (a Smalltalk base's, a native module's) every line
   naming a name its pool sends is a call. A proven call no line shows is reported once, without
   a position."
  | hits lines calls positions smalltalk |
  hits := OrderedCollection new.
  aSource isNil ifTrue: [^hits].
  calls := self pool: aMethod sends: aName.
  positions := self positionsOf: aMethod.
  smalltalk := self isWrittenInSmalltalk: aMethod.
  lines := self splitLines: aSource.
  2 to: lines size do: [:index | | line shape |
    line := lines at: index.
    shape := self shapeOf: aName in: line provenBy: calls smalltalk: smalltalk.
    (shape notNil and: [shapes includes: shape]) ifTrue: [
      hits add: (self padded: shape) , aMethodLabel , '  '
        , (self placeOf: line at: index in: positions)
        , ((shape = 'references' and: [self isStoreOf: aName in: line]) ifTrue: ['  [store]'] ifFalse: [''])]].
  (calls and: [(shapes includes: 'compiled')
      and: [(hits detect: [:each | self string: each startsWith: 'compiled'] ifNone: [nil]) isNil]]) ifTrue: [
    hits add: (self padded: 'compiled') , aMethodLabel , (smalltalk
      ifTrue: ['  line ? [written in Smalltalk: no line names it]']
      ifFalse: ['  line ? [compiled to IR: no call-site positions]'])].
  ^hits
%
category: 'senders'
method: McpGrailToolset
pool: aMethodOrNil sends: aName
  "Whether the method's selector pool holds a send that Grail decodes to aName."
  | pool |
  aMethodOrNil isNil ifTrue: [^false].
  pool := [aMethodOrNil _selectorPool] on: Error do: [:ex | ex return: #()].
  ^(pool detect: [:each | | name |
      name := importlib pythonNameOfSelector: each.
      name notNil and: [name asString = aName]]
    ifNone: [nil]) notNil
%
category: 'senders'
method: McpGrailToolset
positionsOf: aMethodOrNil
  "The positions Grail publishes for a method compiled to IR, one {line. col. endLine. endCol.
   text} per line of the def (BaseException class>>pythonPositionsForMethod:), or empty. Only an
   IR method's source is its def's Python, whose lines can be counted against them; a text-path
   method's source is generated Smalltalk, so its hits get no line."
  aMethodOrNil isNil ifTrue: [^#()].
  ^[[(BaseException pythonPositionKindForMethod: aMethodOrNil) == #irSource
      ifTrue: [BaseException pythonPositionsForMethod: aMethodOrNil]
      ifFalse: [#()]]
      on: Error
      do: [:ex | ex return: #()]]
    on: BaseException
    do: [:ex | ex return: #()]
%
category: 'senders'
method: McpGrailToolset
isWrittenInSmalltalk: aMethodOrNil
  "Whether Grail holds aMethodOrNil as a method that is not Python (its position kind is nil):
   one written in Smalltalk, as the env-1 methods Grail gives a Smalltalk base are
   (GemTalk/Grail src/smalltalk/Python/list.gs, OrderedCollection's as list's)."
  aMethodOrNil isNil ifTrue: [^false].
  ^[[(BaseException pythonPositionKindForMethod: aMethodOrNil) isNil]
      on: Error
      do: [:ex | ex return: false]]
    on: BaseException
    do: [:ex | ex return: false]
%
category: 'senders'
method: McpGrailToolset
placeOf: aLine at: anIndex in: positions
  "line N and the text Grail published for it: the def's first published line counted on to the
   anIndex-th line of its source. Published positions list every line and so cannot locate a
   call themselves; a counted line they do not list is line ? with the source's text."
  | number position |
  positions isEmpty ifTrue: [^'line ?  ' , (self trimmed: aLine)].
  number := ((positions collect: [:each | each at: 1]) inject: (positions first at: 1) into: [:a :b | a min: b])
    + anIndex - 1.
  position := positions detect: [:each | (each at: 1) = number] ifNone: [nil].
  (position isNil or: [(position at: 5) isNil]) ifTrue: [^'line ?  ' , (self trimmed: aLine)].
  ^'line ' , number printString , '  ' , (self trimmed: (position at: 5) asString)
%
category: 'senders'
method: McpGrailToolset
shapeOf: aName in: aLine provenBy: aPoolSendsIt smalltalk: aSmalltalkSource
  "compiled when aName is called in aLine and the method's pool sends it (in Python source, called
   with a paren; in Smalltalk source, named at all), references when it is named otherwise, nil
   when it is not there as a whole identifier."
  | at |
  at := self wholeName: aName in: aLine.
  at = 0 ifTrue: [^nil].
  ^(aPoolSendsIt and: [aSmalltalkSource
      or: [(self nextNonBlankIn: aLine after: at + aName size - 1) = $(]])
    ifTrue: ['compiled']
    ifFalse: ['references']
%
category: 'senders'
method: McpGrailToolset
isStoreOf: aName in: aLine
  "Whether aLine stores into aName rather than reading it, by the text beside it: an assignment
   (=, an augmented one such as +=, :=) after it, or a for before it."
  | at next rest |
  at := self wholeName: aName in: aLine.
  at = 0 ifTrue: [^false].
  (self string: (self trimmed: (aLine copyFrom: 1 to: at - 1)) endsWith: 'for') ifTrue: [^true].
  rest := self trimmed: (aLine copyFrom: at + aName size to: aLine size).
  rest isEmpty ifTrue: [^false].
  next := rest at: 1.
  next = $= ifTrue: [^rest size = 1 or: [(rest at: 2) ~= $=]].
  ^rest size >= 2 and: [(rest at: 2) = $= and: ['+-*/%&|^:@' includes: next]]
%
category: 'senders'
method: McpGrailToolset
sourceHitsFor: aName roots: roots args: args
  "The source lines under roots that name aName as a whole word, as sender hits."
  | hits |
  hits := OrderedCollection new.
  self filesOf: roots scope: (args at: 'scope' ifAbsent: [nil]) do: [:label :path |
    self lines: (self fileLines: path) with: [:line :index |
      (self wholeName: aName in: line) > 0 ifTrue: [
        hits add: (self padded: 'source') , label , ':' , index printString , '  ' , (self trimmed: line)]]].
  ^hits
%
category: 'senders'
method: McpGrailToolset
coverageFor: shapes roots: roots args: args bases: bases
  "What was searched and what was not, one gap a line, each naming what closes it; bases are the
   labels of the Smalltalk bases whose methods were searched."
  | searched missing |
  searched := OrderedCollection new.
  missing := OrderedCollection new.
  (shapes includes: 'compiled') | (shapes includes: 'references')
    ifTrue: [
      searched add: 'the env-1 methods of the Python classes importlib pythonClasses answers'.
      bases isEmpty ifFalse: [
        searched add: 'the Smalltalk bases they are rooted at ('
          , (self joined: bases asSortedCollection asArray with: ', ') , ')']]
    ifFalse: [missing add: 'compiled methods: pass shapes including compiled or references'].
  (shapes includes: 'source')
    ifTrue: [roots do: [:each | searched add: (each at: 1)]]
    ifFalse: [missing add: 'the .py files: pass shapes including source'].
  ((shapes includes: 'source') and: [roots isEmpty]) ifTrue: [
    missing add: 'the .py files: no grailDirectory is configured (MCP_GRAIL_DIR)'].
  (self booleanArgument: 'includeTests' in: args default: false) ifFalse: [
    missing add: 'tests/python: pass includeTests: true'].
  (self booleanArgument: 'includeNative' in: args default: false)
    ifTrue: [searched add: 'Grail''s native modules']
    ifFalse: [missing add: 'Grail''s native modules (sys, os, math, ...), written in Smalltalk: pass includeNative: true'].
  missing add: 'functions defined in an eval scope (blocks with no methods to read)'.
  missing add: 'modules nothing has imported in this session, except through their .py text'.
  ^'searched: ' , (self joined: searched with: ', ') , (String with: Character lf)
    , 'not searched:' , (String with: Character lf)
    , (self linesFrom: (missing collect: [:each | '  ' , each]))
%
category: 'files'
method: McpGrailToolset
grailDirectory
  ^self optionNamed: 'grailDirectory' ifAbsent: [nil]
%
category: 'files'
method: McpGrailToolset
stdlibDirectory
  "The Python standard library of the Grail checkout, or nil without one."
  | dir |
  dir := self grailDirectory.
  ^dir isNil ifTrue: [nil] ifFalse: [dir , '/src/python/stdlib']
%
category: 'files'
method: McpGrailToolset
sourceRootsIncludingTests: aBoolean
  "{label. path} of each .py tree to read: the stdlib, and tests/python when asked."
  | dir roots |
  dir := self grailDirectory.
  roots := OrderedCollection new.
  dir isNil ifTrue: [^roots].
  roots add: (Array with: 'src/python/stdlib' with: dir , '/src/python/stdlib').
  aBoolean == true ifTrue: [roots add: (Array with: 'tests/python' with: dir , '/tests/python')].
  ^roots select: [:each | (GsFile existsOnServer: (each at: 2)) == true]
%
category: 'files'
method: McpGrailToolset
refuseWithoutCheckout
  "Signal refused for a tool that reads .py files when no Grail checkout is configured."
  ^McpError signalKind: 'refused'
    message: 'no Grail checkout is configured: start the server with MCP_GRAIL_DIR (or the grailDirectory option of McpGrailToolset) naming the checkout that holds src/python/stdlib'
%
category: 'files'
method: McpGrailToolset
filesOf: roots scope: aScopeOrNil do: aBlock
  "aBlock value: label value: path for each .py file under roots whose module the scope selects,
   in sorted order; the label is the path below the root."
  roots do: [:root | | base |
    base := root at: 2.
    (self pyFilesUnder: base) asSortedCollection do: [:path | | relative |
      relative := path copyFrom: base size + 2 to: path size.
      (self scope: aScopeOrNil selectsPath: relative) ifTrue: [aBlock value: relative value: path]]]
%
category: 'files'
method: McpGrailToolset
pyFilesUnder: aDirectory
  "Every .py file below aDirectory. A directory lists its entries, . and .. among them, as full
   paths; a file lists only itself."
  | pending files |
  pending := OrderedCollection with: aDirectory.
  files := OrderedCollection new.
  [pending isEmpty] whileFalse: [| path entries |
    path := pending removeLast.
    entries := GsFile contentsOfDirectory: path onClient: false.
    entries isNil ifTrue: [entries := #()].
    (entries size = 1 and: [(entries at: 1) = path])
      ifTrue: [(self string: path endsWith: '.py') ifTrue: [files add: path]]
      ifFalse: [entries do: [:each | | last |
        last := self lastPathSegmentOf: each.
        (last = '.' or: [last = '..' or: [each = path]]) ifFalse: [pending add: each]]]].
  ^files
%
category: 'files'
method: McpGrailToolset
fileLines: aPath
  "The lines of a file, blank ones kept, or notFound naming the path."
  | file text |
  file := GsFile openReadOnServer: aPath.
  file isNil ifTrue: [^McpError signalKind: 'notFound' message: 'cannot read ' , aPath].
  text := [file contents] ensure: [file close].
  ^self splitLines: text
%
category: 'text'
method: McpGrailToolset
splitLines: aString
  "aString's lines without their line feeds; blank lines kept, no empty last line."
  | lines start |
  lines := OrderedCollection new.
  start := 1.
  1 to: aString size do: [:index |
    (aString at: index) = Character lf ifTrue: [
      lines add: (aString copyFrom: start to: index - 1).
      start := index + 1]].
  start <= aString size ifTrue: [lines add: (aString copyFrom: start to: aString size)].
  ^lines asArray
%
category: 'text'
method: McpGrailToolset
lines: aSequence with: aBlock
  "aBlock value: element value: index for each element of aSequence, in order."
  1 to: aSequence size do: [:index | aBlock value: (aSequence at: index) value: index]
%
category: 'text'
method: McpGrailToolset
string: aString startsWith: aPrefix
  ^aString size >= aPrefix size and: [(aString copyFrom: 1 to: aPrefix size) = aPrefix]
%
category: 'text'
method: McpGrailToolset
string: aString endsWith: aSuffix
  ^aString size >= aSuffix size
    and: [(aString copyFrom: aString size - aSuffix size + 1 to: aString size) = aSuffix]
%
category: 'text'
method: McpGrailToolset
trimmed: aString
  | first last |
  first := 1.
  last := aString size.
  [first <= last and: [(aString at: first) isSeparator]] whileTrue: [first := first + 1].
  [last >= first and: [(aString at: last) isSeparator]] whileTrue: [last := last - 1].
  ^aString copyFrom: first to: last
%
category: 'text'
method: McpGrailToolset
indentOf: aLine
  | index |
  index := 1.
  [index <= aLine size and: [(aLine at: index) isSeparator]] whileTrue: [index := index + 1].
  ^index - 1
%
category: 'text'
method: McpGrailToolset
trailingBlanksOff: lines
  "lines without the blank lines at their end, keeping at least one."
  | last |
  last := lines size.
  [last > 1 and: [(self trimmed: (lines at: last)) isEmpty]] whileTrue: [last := last - 1].
  ^lines copyFrom: 1 to: last
%
category: 'text'
method: McpGrailToolset
wholeName: aName in: aLine
  "Where aName occurs in aLine as a whole identifier, or 0."
  | at |
  aName isEmpty ifTrue: [^0].
  at := aLine findString: aName startingAt: 1.
  [at > 0] whileTrue: [
    ((self isIdentifierAt: at - 1 in: aLine) or: [self isIdentifierAt: at + aName size in: aLine])
      ifFalse: [^at].
    at := aLine findString: aName startingAt: at + 1].
  ^0
%
category: 'text'
method: McpGrailToolset
isIdentifierAt: anIndex in: aLine
  "Whether the character at anIndex can be part of a Python identifier; false outside the line."
  | char |
  (anIndex < 1 or: [anIndex > aLine size]) ifTrue: [^false].
  char := aLine at: anIndex.
  ^char isLetter or: [char isDigit or: [char = $_]]
%
category: 'text'
method: McpGrailToolset
nextNonBlankIn: aLine after: anIndex
  "The first character after anIndex that is no separator, or nil."
  anIndex + 1 to: aLine size do: [:index |
    (aLine at: index) isSeparator ifFalse: [^aLine at: index]].
  ^nil
%
category: 'text'
method: McpGrailToolset
padded: aShape
  "A hit's shape padded to a column of twelve."
  | out |
  out := WriteStream on: String new.
  out nextPutAll: aShape.
  (12 - aShape size max: 1) timesRepeat: [out nextPut: Character space].
  ^out contents
%
category: 'text'
method: McpGrailToolset
commaList: aCollectionOrNil
  "The items as a comma list; (none) for an empty one and (unknown) for nil."
  aCollectionOrNil isNil ifTrue: [^'(unknown)'].
  aCollectionOrNil isEmpty ifTrue: [^'(none)'].
  ^self joined: (aCollectionOrNil asArray collect: [:each | each asString]) with: ', '
%
category: 'names'
method: McpGrailToolset
dottedSegmentsOf: aName
  ^(aName subStrings: '.') asArray
%
category: 'names'
method: McpGrailToolset
joinSegments: parts upTo: aCount
  ^self joined: (parts copyFrom: 1 to: aCount) with: '.'
%
category: 'names'
method: McpGrailToolset
lastSegmentOf: aName
  | parts |
  parts := self dottedSegmentsOf: aName.
  ^parts isEmpty ifTrue: [aName] ifFalse: [parts last]
%
category: 'names'
method: McpGrailToolset
lastPathSegmentOf: aPath
  | index |
  index := aPath size.
  [index > 0 and: [(aPath at: index) ~= $/]] whileTrue: [index := index - 1].
  ^aPath copyFrom: index + 1 to: aPath size
%
category: 'names'
method: McpGrailToolset
pathOfModule: aModuleName
  ^aModuleName copyReplaceAll: '.' with: '/'
%
category: 'names'
method: McpGrailToolset
scope: aScopeOrNil selects: aLabel
  "Whether a dotted scope selects a dotted label: itself or anything below it at a dot."
  aScopeOrNil isNil ifTrue: [^true].
  aLabel = aScopeOrNil ifTrue: [^true].
  ^self string: aLabel startsWith: aScopeOrNil , '.'
%
category: 'names'
method: McpGrailToolset
scope: aScopeOrNil selectsPath: aRelativePath
  "Whether a dotted scope selects a .py path below a root: the module's own file, or any file of
   the package it names."
  | base |
  aScopeOrNil isNil ifTrue: [^true].
  base := self pathOfModule: aScopeOrNil.
  ^aRelativePath = (base , '.py') or: [self string: aRelativePath startsWith: base , '/']
%
category: 'test gem'
method: McpGrailToolset
testGemConfig
  "The configuration the test gem is forked with: the option, checked, else the default."
  | value problem |
  value := self optionNamed: 'testGemConfig' ifAbsent: [^self class defaultTestGemConfig].
  problem := self class testGemConfigProblem: value.
  problem isNil ifFalse: [^McpError signalKind: 'badOption' message: problem].
  ^value
%
category: 'test gem'
method: McpGrailToolset
testGemMemoryCeilingPercent
  "The memory percent at which a run stops starting classes: the option, checked, else the
   default; 0 means no ceiling."
  | value |
  value := self optionNamed: 'testGemMemoryCeilingPercent'
    ifAbsent: [^self class defaultMemoryCeilingPercent].
  ((value isKindOf: Integer) and: [value between: 0 and: 100]) ifFalse: [
    ^McpError signalKind: 'badOption'
      message: 'testGemMemoryCeilingPercent must be an integer from 0 to 100, not ' , value printString].
  ^value
%
category: 'test gem'
method: McpGrailToolset
allPythonTestClassNames
  "Every concrete PythonTestCase subclass, by name."
  ^(((ClassOrganizer new allSubclassesOf: PythonTestCase) reject: [:each | each isAbstract])
    collect: [:each | each name asString]) asSortedCollection asArray
%
category: 'test gem'
method: McpGrailToolset
isPythonTestClassNamed: aName
  "Whether aName is a PythonTestCase subclass in the symbol list of this user."
  | cls |
  cls := System myUserProfile symbolList objectNamed: aName asSymbol.
  ^cls notNil and: [cls isBehavior and: [cls inheritsFrom: PythonTestCase]]
%
category: 'test gem'
method: McpGrailToolset
newTestGem
  "A fresh gem logged in as this user with a one-time password, forked with testGemConfig as its
   gemnetobject -C argument, so the budget travels with the login."
  | gem |
  gem := GsTsExternalSession newDefault.
  gem gemNRS: (GsNetworkResourceString defaultGemNRSFromCurrent
    node: 'localhost';
    body: 'gemnetobject -C ' , self testGemConfig;
    yourself).
  gem onetimePassword: (GsCurrentSession currentSession createOnetimePasswordValidForSeconds: 300).
  gem login.
  ^gem
%
category: 'test gem'
method: McpGrailToolset
runClasses: classNames
  "Drive the test gem one class per call, so what finished outlives a gem that dies; stop starting
   classes once its memory crosses the ceiling."
  | run gem ceiling |
  run := McpGrailTestRun new.
  run config: self testGemConfig.
  ceiling := self testGemMemoryCeilingPercent.
  gem := self newTestGem.
  self grailDirectory isNil ifFalse: [
    self ask: gem expression: 'McpGrailToolset pointGrailAt: ' , self grailDirectory printString].
  [self lines: classNames with: [:name :index |
    (run stopped or: [run died]) ifFalse: [
      self runClass: name index: index of: classNames in: gem into: run ceiling: ceiling]]]
    ensure: [[gem logout] on: Error do: [:ex | ex return: nil]].
  ^run
%
category: 'test gem'
method: McpGrailToolset
runClass: aName index: anIndex of: classNames in: aGem into: aRun ceiling: aCeiling
  "Run one class in the test gem and add its report and memory reading to aRun; a gem that dies
   ends the run, and a reading at the ceiling stops it before the next class."
  | report figures |
  McpChannel progress: anIndex - 1 total: classNames size message: 'running ' , aName.
  [report := McpJson parse: (self ask: aGem expression: 'McpGrailToolset testGemReportFor: ' , aName printString).
   figures := self ask: aGem expression: 'McpGrailToolset testGemMemoryFigures']
    on: Error
    do: [:ex | ^aRun diedIn: aName number: (self gciNumberOf: ex)].
  aRun add: report memory: (figures subStrings: ' ').
  (aCeiling > 0 and: [aRun lastPercent >= aCeiling and: [anIndex < classNames size]]) ifTrue: [
    aRun stopBefore: (classNames copyFrom: anIndex + 1 to: classNames size)]
%
category: 'test gem'
method: McpGrailToolset
ask: aGem expression: aString
  "The printString of aString's value in aGem, read only when the call has ended."
  aGem nbExecute: aString.
  [aGem isCallInProgress] whileTrue: [aGem waitForResultForSeconds: 5 otherwise: [nil]].
  ^aGem lastResult asString
%
category: 'test gem'
method: McpGrailToolset
gciNumberOf: anError
  "The GCI error number of a dead gem's error, never its text: the kernel appends the gem's NRS
   to errors of the fatal band."
  | number |
  number := [anError number] on: Error do: [:ex | ex return: nil].
  ^((number isKindOf: Integer) and: [number between: 4000 and: 4999]) ifTrue: [number] ifFalse: [nil]
%
category: 'test gem'
method: McpGrailToolset
reportTestRun: aRun missing: missingNames
  "The answer of run_python_tests; a run whose test gem died is the error testGemDied, with the
   same lines."
  | lines warning |
  lines := OrderedCollection new.
  aRun reportLinesOn: lines.
  warning := aRun warningIfOverCeiling: self testGemMemoryCeilingPercent.
  warning isNil ifFalse: [lines add: warning].
  missingNames do: [:each | lines add: each , ': NOT FOUND (no PythonTestCase subclass of that name)'].
  aRun died ifTrue: [
    ^McpError signalKind: 'testGemDied' message: (self linesFrom: lines)].
  ^self linesFrom: lines
%
