set compile_env: 0
! ------------------- Class definition for GrailDoubleList
expectvalue /Class
doit
Object subclass: 'GrailDoubleList'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleList comment: 
'TEST DOUBLE standing in for the kernel class OrderedCollection as Grail''s Python type list, the
Smalltalk base shelf.stack.Stack(list) is rooted at. In Grail it is OrderedCollection itself: its
env-1 methods are list''s, written in Smalltalk and compiled into environment 1 beside its
environment-0 ones (GemTalk/Grail src/smalltalk/Python/list.gs: append:, sort, ..., sort ordering
by __lt__), and Python names it list in module builtins (GemTalk/Grail
src/smalltalk/Python/Object.gs, object class>>__name__ and ___pythonBuiltinTypeModule___:
list for OrderedCollection, builtins for every kernel-backed type). importlib pythonClasses
answers it with the class rooted at it (GrailDoublePython>>pythonClasses). The model holds
environment-0 methods only for kernel classes and refuses environment 1 on them by name, so the
double answers this class in OrderedCollection''s place, with two env-1 methods of its own
whose text is the double''s, not Grail''s: append: and sort, whose pool sends __lt__:. A method
written in Smalltalk is not Python, so BaseException pythonPositionKindForMethod: answers nil
for it and no positions are published.'
%
expectvalue /Class
doit
GrailDoubleList category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleList
removeallmethods GrailDoubleList
removeallclassmethods GrailDoubleList
! ------------------- Class methods for GrailDoubleList
category: 'kernel API, environment 1'
classmethod: GrailDoubleList
selectorsForEnvironment: anEnvironmentId
  anEnvironmentId = 1 ifFalse: [^#()].
  ^#( #append: #sort )
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleList
sourceCodeAt: aSelector environmentId: anEnvironmentId
  "Smalltalk source, as a method written in Smalltalk has: its first line is its selector."
  aSelector = #append: ifTrue: [^'append: anItem
  self @env0:addLast: anItem.
  ^None'].
  ^'sort
  self @env0:sortInPlace: [:left :right | left __lt__: right].
  ^None'
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleList
compiledMethodAt: aSelector environmentId: anEnvironmentId
  "The method, with the sends its pool holds."
  ^GrailDoubleMethod
    smalltalkSource: (self sourceCodeAt: aSelector environmentId: anEnvironmentId)
    pool: (aSelector = #sort ifTrue: [#(#sortInPlace: #'__lt__:')] ifFalse: [#(#addLast:)])
%
