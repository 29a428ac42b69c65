set compile_env: 0
! ------------------- Class definition for GrailDoublePyObject
expectvalue /Class
doit
Object subclass: 'GrailDoublePyObject'
  instVarNames: #( kind name file line signature attributes)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoublePyObject comment: 
'TEST DOUBLE of a Python module or function as Grail holds one, for GrailDoublePython: a kind
(#module or #function), a name, the .py it came from, for a function the line its def starts at
(__code__.co_firstlineno) and its signature as inspect.signature writes it, and for a module its
attributes by name.'
%
expectvalue /Class
doit
GrailDoublePyObject category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoublePyObject
removeallmethods GrailDoublePyObject
removeallclassmethods GrailDoublePyObject
! ------------------- Class methods for GrailDoublePyObject
category: 'instance creation'
classmethod: GrailDoublePyObject
function: aName file: aPath line: anInteger signature: aSignature
  ^self new setKind: #function name: aName file: aPath line: anInteger signature: aSignature
%
category: 'instance creation'
classmethod: GrailDoublePyObject
module: aName file: aPathOrNil
  ^self new setKind: #module name: aName file: aPathOrNil line: 1 signature: nil
%
! ------------------- Instance methods for GrailDoublePyObject
category: 'accessing'
method: GrailDoublePyObject
attributes
  attributes isNil ifTrue: [attributes := Dictionary new].
  ^attributes
%
category: 'accessing'
method: GrailDoublePyObject
file
  ^file
%
category: 'accessing'
method: GrailDoublePyObject
isFunction
  ^kind == #function
%
category: 'accessing'
method: GrailDoublePyObject
line
  ^line
%
category: 'accessing'
method: GrailDoublePyObject
name
  ^name
%
category: 'accessing'
method: GrailDoublePyObject
signature
  ^signature
%
category: 'initialization'
method: GrailDoublePyObject
setKind: aKind name: aName file: aPath line: anInteger signature: aSignature
  kind := aKind.
  name := aName.
  file := aPath.
  line := anInteger.
  signature := aSignature
%
