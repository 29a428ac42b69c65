set compile_env: 0
! ------------------- Class definition for GrailDoublePython
expectvalue /Class
doit
Object subclass: 'GrailDoublePython'
  instVarNames: #( checkout sysModules stdout stderr saved programs)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoublePython comment: 
'TEST DOUBLE of the Python that Grail runs, for the model only: the state one session''s Python
has (the checkout importlib grailDir: named, sys.modules, sys.stdout and sys.stderr) and the answers
to the programs McpGrailToolset and its suites evaluate, nothing more. Two kinds of program:

- the toolset''s own one-line questions (import a module, getattr, repr, __code__, __file__,
  swapping sys.stdout and sys.stderr for buffers, formatting a traceback),
  each answered from a table keyed by its exact text;
- a few statements of user code, separated by ''; '': print(X), warnings.warn(''text''),
  NAME = EXPR, and the expressions INT, ''STR'', NAME, A + B, A * B, A / B.

It knows three modules: sys (native) and shelf and shelf.stack, whose .py live in the stand-in
checkout beside this file; a .py module imports only when a checkout is configured, as in Grail,
whose worker gem cannot find src/python/stdlib by itself. Python failures are raised as
GrailDoubleBaseException with the text Grail gives them (NameError: name ''x'' is not defined).
Anything else is refused with a Smalltalk Error naming the program, so a test never passes on
Python the double does not model. One instance per session, in SessionTemps (current, reset).'
%
expectvalue /Class
doit
GrailDoublePython category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoublePython
removeallmethods GrailDoublePython
removeallclassmethods GrailDoublePython
! ------------------- Class methods for GrailDoublePython
category: 'instance'
classmethod: GrailDoublePython
current
  | python |
  python := SessionTemps current at: #GrailDoublePython ifAbsent: [nil].
  python isNil ifTrue: [
    python := self new.
    SessionTemps current at: #GrailDoublePython put: python].
  ^python
%
category: 'instance'
classmethod: GrailDoublePython
reset
  SessionTemps current removeKey: #GrailDoublePython ifAbsent: [nil].
  SessionTemps current removeKey: #GrailModuleHashState ifAbsent: [nil]
%
! ------------------- Instance methods for GrailDoublePython
category: 'inspecting'
method: GrailDoublePython
isCapturing
  "Whether sys.stdout is a buffer the toolset swapped in."
  ^stdout notNil
%
category: 'inspecting'
method: GrailDoublePython
checkout
  "The checkout importlib grailDir: last named, or nil."
  ^checkout
%
category: 'Grail API'
method: GrailDoublePython
checkout: aPath
  checkout := aPath
%
category: 'Grail API'
method: GrailDoublePython
evaluate: aSource in: aScope
  | selector |
  selector := self programs at: aSource ifAbsent: [nil].
  selector isNil ifFalse: [^self perform: selector with: aScope].
  ^self statements: aSource in: aScope
%
category: 'Grail API'
method: GrailDoublePython
pythonClasses
  "The Python classes this session reaches, and the Smalltalk base one is rooted at, which
   Grail labels as Python names it (builtins.list): Grail's subclass registry records a class
   under the base it roots it at, its Smalltalk superclass (GemTalk/Grail
   importlib class>>___restoreCanonicalClassStructure___:). That base is
   OrderedCollection, answered here by GrailDoubleList, which stands in for it (see its comment)."
  ^Array with: GrailDoubleStack with: GrailDoubleList
%
category: 'Grail API'
method: GrailDoublePython
smalltalkFor: aSource
  (aSource findString: '*' startingAt: 1) > 0 ifTrue: [
    ^'___module___
  ___curPos___ := 1.
  ^(6 @env1:___binOpMul___: 7)'].
  ^'___module___
  ___curPos___ := 1.
  ^nil'
%
category: 'programs'
method: GrailDoublePython
programs
  "The toolset's questions, by their exact text."
  programs isNil ifFalse: [^programs].
  programs := Dictionary new.
  programs
    at: 'import io, sys
_mcp_streams = (sys.stdout, sys.stderr)
sys.stdout, sys.stderr = io.StringIO(), io.StringIO()' put: #startCapture:;
    at: 'import sys
_mcp_out = (sys.stdout.getvalue(), sys.stderr.getvalue())
sys.stdout, sys.stderr = _mcp_streams
_mcp_out' put: #endCapture:;
    at: 'import traceback
"".join(traceback.format_exception(_mcp_obj))' put: #traceback:;
    at: 'repr(_mcp_obj)' put: #repr:;
    at: '_mcp_obj.__traceback__ is None' put: #hasNoTraceback:;
    at: 'import importlib
importlib.import_module(_mcp_obj)' put: #importModule:;
    at: 'getattr(_mcp_obj, _mcp_attr)' put: #getattr:;
    at: '_mcp_obj.__module__ + "." + _mcp_obj.__qualname__' put: #qualifiedName:;
    at: '[b.__name__ for b in _mcp_obj.__bases__]' put: #bases:;
    at: '[c.__name__ for c in _mcp_obj.__mro__]' put: #mro:;
    at: 'getattr(_mcp_obj, "__slots__", None)' put: #slots:;
    at: 'import sys
sys.modules[_mcp_obj.__module__]' put: #moduleOfClass:;
    at: '_mcp_obj.__file__' put: #file:;
    at: '(_mcp_obj.__code__.co_filename, _mcp_obj.__code__.co_firstlineno)' put: #code:;
    at: 'import sys
_mcp_obj in sys.builtin_module_names' put: #isBuiltinModule:;
    at: 'import sys
_mcp_obj in sys.modules' put: #isInSysModules:.
  ^programs
%
category: 'programs'
method: GrailDoublePython
startCapture: aScope
  self requireStdlib: 'io'.
  saved := Array with: stdout with: stderr.
  stdout := WriteStream on: String new.
  stderr := WriteStream on: String new.
  ^nil
%
category: 'programs'
method: GrailDoublePython
endCapture: aScope
  | out |
  out := Array with: (stdout isNil ifTrue: [''] ifFalse: [stdout contents])
    with: (stderr isNil ifTrue: [''] ifFalse: [stderr contents]).
  saved isNil ifFalse: [stdout := saved at: 1. stderr := saved at: 2].
  ^out
%
category: 'programs'
method: GrailDoublePython
hasNoTraceback: aScope
  ^(aScope at: #'_mcp_obj') hasTraceback not
%
category: 'programs'
method: GrailDoublePython
traceback: aScope
  self requireStdlib: 'traceback'.
  ^(aScope at: #'_mcp_obj') traceback
%
category: 'programs'
method: GrailDoublePython
repr: aScope
  ^self reprOf: (aScope at: #'_mcp_obj')
%
category: 'programs'
method: GrailDoublePython
importModule: aScope
  | name module |
  name := aScope at: #'_mcp_obj'.
  module := self modules at: name ifAbsent: [
    ^self raise: 'ModuleNotFoundError: No module named ' , (self reprOf: name)].
  module file isNil ifFalse: [
    self requireStdlib: name.
    self noteLoaded: name].
  self sysModules add: name.
  (name findString: '.' startingAt: 1) > 0 ifTrue: [self sysModules add: (name copyFrom: 1 to: (name indexOf: $.) - 1)].
  ^module
%
category: 'programs'
method: GrailDoublePython
getattr: aScope
  | owner name |
  owner := aScope at: #'_mcp_obj'.
  name := aScope at: #'_mcp_attr'.
  ^(self attributesOf: owner) at: name ifAbsent: [
    self raise: 'AttributeError: ' , (self typeNameOf: owner) , ' has no attribute ' , (self reprOf: name)]
%
category: 'programs'
method: GrailDoublePython
qualifiedName: aScope
  (aScope at: #'_mcp_obj') == GrailDoubleStack ifTrue: [^'shelf.stack.Stack'].
  (aScope at: #'_mcp_obj') == GrailDoubleList ifTrue: [^'builtins.list'].
  ^self raise: 'AttributeError: no __qualname__'
%
category: 'programs'
method: GrailDoublePython
bases: aScope
  ^#('list')
%
category: 'programs'
method: GrailDoublePython
mro: aScope
  ^#('Stack' 'list' 'object')
%
category: 'programs'
method: GrailDoublePython
slots: aScope
  ^nil
%
category: 'programs'
method: GrailDoublePython
moduleOfClass: aScope
  ^self modules at: 'shelf.stack'
%
category: 'programs'
method: GrailDoublePython
file: aScope
  | object |
  object := aScope at: #'_mcp_obj'.
  ((object isKindOf: GrailDoublePyObject) and: [object file notNil and: [object isFunction not]])
    ifTrue: [^object file].
  ^self raise: 'AttributeError: ' , (self typeNameOf: object) , ' has no attribute ''__file__'''
%
category: 'programs'
method: GrailDoublePython
code: aScope
  | object |
  object := aScope at: #'_mcp_obj'.
  ((object isKindOf: GrailDoublePyObject) and: [object isFunction]) ifTrue: [
    ^Array with: object file with: object line].
  ^self raise: 'AttributeError: ' , (self typeNameOf: object) , ' has no attribute ''__code__'''
%
category: 'programs'
method: GrailDoublePython
isBuiltinModule: aScope
  ^#('sys' 'builtins') includes: (aScope at: #'_mcp_obj')
%
category: 'programs'
method: GrailDoublePython
isInSysModules: aScope
  ^self sysModules includes: (aScope at: #'_mcp_obj')
%
category: 'user code'
method: GrailDoublePython
statements: aSource in: aScope
  | value |
  value := nil.
  (aSource subStrings: ';') do: [:each | value := self statement: (self trimmed: each) in: aScope].
  ^value
%
category: 'user code'
method: GrailDoublePython
statement: aText in: aScope
  | equals |
  aText = 'import warnings' ifTrue: [^nil].
  (self text: aText startsWith: 'print(') ifTrue: [
    ^self write: (self strOf: (self expression: (self inner: aText) in: aScope)) to: #stdout].
  (self text: aText startsWith: 'warnings.warn(') ifTrue: [
    ^self write: '<grail>:1: UserWarning: ' , (self strOf: (self expression: (self inner: aText) in: aScope)) to: #stderr].
  equals := aText findString: ' = ' startingAt: 1.
  equals > 0 ifTrue: [
    aScope at: (aText copyFrom: 1 to: equals - 1) asSymbol
      put: (self expression: (aText copyFrom: equals + 3 to: aText size) in: aScope).
    ^nil].
  ^self expression: aText in: aScope
%
category: 'user code'
method: GrailDoublePython
expression: aText in: aScope
  #(' + ' ' * ' ' / ') do: [:operator | | at |
    at := aText findString: operator startingAt: 1.
    at > 0 ifTrue: [
      ^self apply: operator
        to: (self expression: (aText copyFrom: 1 to: at - 1) in: aScope)
        and: (self expression: (aText copyFrom: at + 3 to: aText size) in: aScope)]].
  (aText notEmpty and: [(aText at: 1) isDigit]) ifTrue: [^aText asNumber].
  (aText size >= 2 and: [(aText at: 1) = $' and: [(aText at: aText size) = $']]) ifTrue: [
    ^aText copyFrom: 2 to: aText size - 1].
  (aText notEmpty and: [(aText at: 1) isLetter or: [(aText at: 1) = $_]]) ifTrue: [
    ^aScope at: aText asSymbol ifAbsent: [
      self raise: 'NameError: name ' , (self reprOf: aText) , ' is not defined']].
  ^Error signal: 'the Grail test double does not model this Python: ' , aText
%
category: 'user code'
method: GrailDoublePython
apply: anOperator to: left and: right
  anOperator = ' + ' ifTrue: [^left + right].
  anOperator = ' * ' ifTrue: [^left * right].
  right = 0 ifTrue: [^self raise: 'ZeroDivisionError: division by zero'].
  ^left // right
%
category: 'user code'
method: GrailDoublePython
write: aString to: aChannel
  "Uncaptured, output goes to a console nothing reads, as in a detached worker gem."
  | stream |
  stream := aChannel == #stdout ifTrue: [stdout] ifFalse: [stderr].
  stream isNil ifFalse: [stream nextPutAll: aString; nextPut: Character lf].
  ^nil
%
category: 'world'
method: GrailDoublePython
modules
  "sys, and the two modules of the stand-in checkout with the lines of its files."
  | stack dir |
  dir := checkout isNil ifTrue: ['(no checkout)'] ifFalse: [checkout , '/src/python/stdlib/shelf'].
  stack := GrailDoublePyObject module: 'shelf.stack' file: dir , '/stack.py'.
  stack attributes
    at: 'helper' put: (GrailDoublePyObject function: 'helper' file: dir , '/stack.py' line: 4);
    at: 'Stack' put: GrailDoubleStack;
    at: 'copy_all' put: (GrailDoublePyObject function: 'copy_all' file: dir , '/stack.py' line: 26).
  ^Dictionary new
    at: 'sys' put: (GrailDoublePyObject module: 'sys' file: nil);
    at: 'shelf' put: (GrailDoublePyObject module: 'shelf' file: dir , '/__init__.py');
    at: 'shelf.stack' put: stack;
    yourself
%
category: 'world'
method: GrailDoublePython
attributesOf: anObject
  | file |
  (anObject isKindOf: GrailDoublePyObject) ifTrue: [^anObject attributes].
  anObject == GrailDoubleStack ifFalse: [^Dictionary new].
  file := (self modules at: 'shelf.stack') file.
  ^Dictionary new
    at: 'limit' put: 100;
    at: 'push' put: (GrailDoublePyObject function: 'push' file: file line: 13);
    at: 'pop' put: (GrailDoublePyObject function: 'pop' file: file line: 17);
    at: 'peek' put: (GrailDoublePyObject function: 'peek' file: file line: 20);
    yourself
%
category: 'world'
method: GrailDoublePython
noteLoaded: aModuleName
  "What Grail's loadModuleFromPath: leaves in the session for a .py module it loads: its hash
   verdict under the name, in SessionTemps at #GrailModuleHashState (a body run stamps #stale)."
  (SessionTemps current at: #GrailModuleHashState ifAbsentPut: [Dictionary new])
    at: aModuleName asSymbol put: #stale
%
category: 'world'
method: GrailDoublePython
requireStdlib: aModuleName
  "A .py-backed import fails when no checkout is configured, as in a worker gem Grail could not
   point at src/python/stdlib."
  checkout isNil ifTrue: [
    self raise: 'ModuleNotFoundError: No module named ' , (self reprOf: aModuleName)]
%
category: 'world'
method: GrailDoublePython
sysModules
  sysModules isNil ifTrue: [sysModules := Set new].
  ^sysModules
%
category: 'python values'
method: GrailDoublePython
raise: aText
  ^GrailDoubleBaseException signalPython: aText
%
category: 'python values'
method: GrailDoublePython
reprOf: aValue
  aValue isNil ifTrue: [^'None'].
  aValue == true ifTrue: [^'True'].
  aValue == false ifTrue: [^'False'].
  (aValue isKindOf: CharacterCollection) ifTrue: [^'''' , aValue asString , ''''].
  (aValue isKindOf: GrailDoublePyObject) ifTrue: [^'<' , (self typeNameOf: aValue) , ' ' , aValue name , '>'].
  ^aValue printString
%
category: 'python values'
method: GrailDoublePython
strOf: aValue
  (aValue isKindOf: CharacterCollection) ifTrue: [^aValue asString].
  ^self reprOf: aValue
%
category: 'python values'
method: GrailDoublePython
typeNameOf: anObject
  (anObject isKindOf: GrailDoublePyObject) ifTrue: [
    ^anObject isFunction ifTrue: ['function'] ifFalse: ['module']].
  (anObject isKindOf: CharacterCollection) ifTrue: [^'str'].
  ^anObject class name asString
%
category: 'text'
method: GrailDoublePython
inner: aCall
  "The argument text of NAME(ARG)."
  ^aCall copyFrom: (aCall indexOf: $() + 1 to: aCall size - 1
%
category: 'text'
method: GrailDoublePython
text: aString startsWith: aPrefix
  ^aString size >= aPrefix size and: [(aString copyFrom: 1 to: aPrefix size) = aPrefix]
%
category: 'text'
method: GrailDoublePython
trimmed: aString
  | first last |
  first := 1.
  last := aString size.
  [first <= last and: [(aString at: first) isSeparator]] whileTrue: [first := first + 1].
  [last >= first and: [(aString at: last) isSeparator]] whileTrue: [last := last - 1].
  ^aString copyFrom: first to: last
%
