set compile_env: 0
! ------------------- Class definition for GrailDoubleMethod
expectvalue /Class
doit
Object subclass: 'GrailDoubleMethod'
  instVarNames: #( source firstLine pool positionKind)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleMethod comment: 
'TEST DOUBLE of a method Grail compiled direct to IR, as GrailDoubleStack answers one from
compiledMethodAt:environmentId: 1: its source (the def''s slice of the module), the .py line the
def starts at, and the sends its selector pool holds (_selectorPool, which GemTalk/Grail
Env1PlumbingSendsTestCase reads on an IR method). positions answers what GemTalk/Grail
PythonCallSitePositionsTestCase pins for BaseException class>>pythonPositionsForMethod: on an
IR method, exactly the non-blank lines of the def, each {module line. nil. nil. nil. its text}
(columns are not modelled, and the toolset reads none). One made with smalltalkSource:pool: is
a method written in Smalltalk, as GrailDoubleList answers one: not Python, so it has no position
kind and publishes no positions.'
%
expectvalue /Class
doit
GrailDoubleMethod category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleMethod
removeallmethods GrailDoubleMethod
removeallclassmethods GrailDoubleMethod
! ------------------- Class methods for GrailDoubleMethod
category: 'instance creation'
classmethod: GrailDoubleMethod
source: aString firstLine: anInteger pool: anArray
  ^self new setSource: aString firstLine: anInteger pool: anArray positionKind: #irSource
%
category: 'instance creation'
classmethod: GrailDoubleMethod
smalltalkSource: aString pool: anArray
  ^self new setSource: aString firstLine: nil pool: anArray positionKind: nil
%
! ------------------- Instance methods for GrailDoubleMethod
category: 'kernel API'
method: GrailDoubleMethod
_selectorPool
  ^pool
%
category: 'Grail API'
method: GrailDoubleMethod
positionKind
  "#irSource, or nil for a method written in Smalltalk."
  ^positionKind
%
category: 'Grail API'
method: GrailDoubleMethod
positions
  | positions |
  positionKind isNil ifTrue: [^#()].
  positions := OrderedCollection new.
  self linesDo: [:line :index |
    (line detect: [:each | each isSeparator not] ifNone: [nil]) isNil ifFalse: [
      positions add: {firstLine + index - 1. nil. nil. nil. line}]].
  ^positions asArray
%
category: 'private'
method: GrailDoubleMethod
linesDo: aBlock
  "aBlock value: line value: index for each line of the source, blank ones counted."
  | start index |
  start := 1.
  index := 1.
  1 to: source size do: [:at |
    (source at: at) = Character lf ifTrue: [
      aBlock value: (source copyFrom: start to: at - 1) value: index.
      start := at + 1.
      index := index + 1]].
  start <= source size ifTrue: [aBlock value: (source copyFrom: start to: source size) value: index]
%
category: 'initialization'
method: GrailDoubleMethod
setSource: aString firstLine: anInteger pool: anArray positionKind: aSymbolOrNil
  source := aString.
  firstLine := anInteger.
  pool := anArray.
  positionKind := aSymbolOrNil
%
