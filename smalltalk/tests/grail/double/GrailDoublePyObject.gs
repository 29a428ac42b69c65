set compile_env: 0
! ------------------- Class definition for GrailDoublePyObject
expectvalue /Class
doit
Object subclass: 'GrailDoublePyObject'
  instVarNames: #( kind name file line attributes committed)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoublePyObject comment: 
'TEST DOUBLE of a Python module, function or code object as Grail holds one, for
GrailDoublePython: a kind (#module, #function or #code), a name, the .py it came from, for a
function or code object the line its def starts at (co_firstlineno), and for a module its
attributes by name. A code object
answers co_filename and co_firstlineno to dynamicInstVarAt:, where Grail''s PyCode keeps them
(GemTalk/mcp_server src/grail/McpGrailToolset.gs read them so on a Grail image). A module
instance a suite puts in GrailCanonicalModules answers isCommitted as the suite set it with
beCommitted, standing for the commit the model has no second session to see.'
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
function: aName file: aPath line: anInteger
  ^self new setKind: #function name: aName file: aPath line: anInteger
%
category: 'instance creation'
classmethod: GrailDoublePyObject
code: aName file: aPath line: anInteger
  ^self new setKind: #code name: aName file: aPath line: anInteger
%
category: 'instance creation'
classmethod: GrailDoublePyObject
module: aName file: aPathOrNil
  ^self new setKind: #module name: aName file: aPathOrNil line: 1
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
category: 'kernel API'
method: GrailDoublePyObject
isCommitted
  ^committed == true
%
category: 'configuring'
method: GrailDoublePyObject
beCommitted
  committed := true
%
category: 'Grail API'
method: GrailDoublePyObject
dynamicInstVarAt: aName
  kind == #code ifFalse: [^nil].
  aName = #co_filename ifTrue: [^file].
  aName = #co_firstlineno ifTrue: [^line].
  ^nil
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
category: 'initialization'
method: GrailDoublePyObject
setKind: aKind name: aName file: aPath line: anInteger
  kind := aKind.
  name := aName.
  file := aPath.
  line := anInteger
%
