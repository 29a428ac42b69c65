set compile_env: 0
! ------------------- Class definition for GrailDoubleStack
expectvalue /Class
doit
OrderedCollection subclass: 'GrailDoubleStack'
  instVarNames: #( )
  classVars: #()
  classInstVars: #()
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
sourceCodeAt:environmentId: 1 from that file. Grail would create the class unnamed; this one is
named only because the model needs a name to file it in.'
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
selectorsForEnvironment: anEnvironmentId
  anEnvironmentId = 1 ifFalse: [^#()].
  ^#( #push: #pop: #'_peek:kw:' )
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleStack
sourceCodeAt: aSelector environmentId: anEnvironmentId
  aSelector = #push: ifTrue: [^'def push(self, item):
    self.append(helper(item))
    return item'].
  aSelector = #pop: ifTrue: [^'def pop(self, index=-1):
    return list.pop(self, index)'].
  ^'def peek(self, *, default=None):
    if not self:
        return default
    return self[-1]'
%
