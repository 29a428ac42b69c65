set compile_env: 0
! ------------------- Class definition for GrailDoubleStack
expectvalue /Class
doit
OrderedCollection subclass: 'GrailDoubleStack'
  instVarNames: #( )
  classVars: #()
  classInstVars: #( limit)
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleStack comment: 
'TEST DOUBLE of the class Grail builds for the Python class shelf.stack.Stack(list) of the stand-in
checkout (checkout/src/python/stdlib/shelf/stack.py). Grail backs a list subclass with
OrderedCollection and compiles each def into environment 1, where, compiled to IR, a method''s
source is the Python of its def: the class side answers selectorsForEnvironment: 1 and
sourceCodeAt:environmentId: 1 from that file, and compiledMethodAt:environmentId: 1 answers a
GrailDoubleMethod with the sends of its selector pool and the positions Grail publishes. Beside the methods Grail''s ClassDefAst compiles
class-side tables in environment 1, read with perform:env: (GemTalk/Grail
IRTextSourcesChunkedTestCase reads ___irTextSources___ so): ___methodCodeTable___ (def name ->
code object, co_filename and co_firstlineno), ___methodSignatureTable___ (def name -> one
{name. kind} or {name. kind. default text} per parameter, the receiver left out; the spec
inspect.py in Grail''s stdlib reads) and ___methodReceiverTable___ (def name -> the receiver''s
name). Grail would create the class unnamed; this one is named only because the model needs a
name to file it in.'
%
expectvalue /Class
doit
GrailDoubleStack category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleStack
removeallmethods GrailDoubleStack
removeallclassmethods GrailDoubleStack
! ------------------- Class methods for GrailDoubleStack
category: 'kernel API, environment 1'
classmethod: GrailDoubleStack
perform: aSelector env: anEnvironmentId
  anEnvironmentId = 1 ifFalse: [^Error signal: 'the Grail test double answers perform:env: 1 only'].
  (#( #'___methodCodeTable___' #'___methodSignatureTable___' #'___methodReceiverTable___' )
    includes: aSelector) ifFalse: [^self doesNotUnderstand: aSelector].
  ^self perform: aSelector
%
category: 'Grail tables, environment 1'
classmethod: GrailDoubleStack
___methodCodeTable___
  | file |
  file := (GrailDoublePython current modules at: 'shelf.stack') file.
  ^Dictionary new
    at: 'push' put: (GrailDoublePyObject code: 'push' file: file line: 13);
    at: 'pop' put: (GrailDoublePyObject code: 'pop' file: file line: 17);
    at: 'peek' put: (GrailDoublePyObject code: 'peek' file: file line: 20);
    yourself
%
category: 'Grail tables, environment 1'
classmethod: GrailDoubleStack
___methodSignatureTable___
  "push(self, item), pop(self, index=-1), peek(self, *, default=None), the receiver left out."
  ^Dictionary new
    at: 'push' put: (Array with: #('item' 1));
    at: 'pop' put: (Array with: #('index' 1 '-1'));
    at: 'peek' put: (Array with: #('default' 3 'None'));
    yourself
%
category: 'Grail tables, environment 1'
classmethod: GrailDoubleStack
___methodReceiverTable___
  ^Dictionary new
    at: 'push' put: 'self';
    at: 'pop' put: 'self';
    at: 'peek' put: 'self';
    yourself
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleStack
selectorsForEnvironment: anEnvironmentId
  anEnvironmentId = 1 ifFalse: [^#()].
  ^#( #push: #pop: #'_peek:kw:' )
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleStack
sourceCodeAt: aSelector environmentId: anEnvironmentId
  "Compiled to IR, a method's source is its def's slice of the module, indentation and all."
  aSelector = #push: ifTrue: [^'    def push(self, item):
        self.append(helper(item))
        return item'].
  aSelector = #pop: ifTrue: [^'    def pop(self, index=-1):
        return list.pop(self, index)'].
  ^'    def peek(self, *, default=None):
        if not self:
            return default
        return self[-1]'
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleStack
compiledMethodAt: aSelector environmentId: anEnvironmentId
  "The method, with the sends its pool holds: push calls self.append and the module function
   helper, each a send; pop''s list.pop is an attribute call on a value the compiler cannot
   resolve, which leaves a Symbol and no send."
  | first |
  first := Dictionary new at: #push: put: 13; at: #pop: put: 17; at: #'_peek:kw:' put: 20; yourself.
  ^GrailDoubleMethod
    source: (self sourceCodeAt: aSelector environmentId: anEnvironmentId)
    firstLine: (first at: aSelector)
    pool: (aSelector = #push: ifTrue: [#(#append: #helper:)] ifFalse: [#()])
%
