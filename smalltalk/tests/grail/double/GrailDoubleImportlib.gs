set compile_env: 0
! ------------------- Class definition for GrailDoubleImportlib
expectvalue /Class
doit
Object subclass: 'GrailDoubleImportlib'
  instVarNames: #( )
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleImportlib comment: 
'TEST DOUBLE of Grail''s importlib class, bound as importlib in the model only. Class side, as
Grail''s is: ___grailCompileSymbolList___ answers a fresh symbol list each call; grailDir: points
GrailDoublePython at a checkout; pythonClasses answers the Python classes the double knows
(GemTalk/Grail#885); pythonNameOfSelector: decodes an env-1 selector by the rule Grail''s
SelectorManglingApiTestCase pins (copyfile:_: is copyfile, _copyfile:kw: is copyfile, an
ordinary Smalltalk selector or a ___internal___ one is nil); ___sourceStringForPath___: answers a
.py''s text, as loadModuleFromPath: reads it to hash (GemTalk/Grail src/smalltalk/Python/importlib.gs).'
%
expectvalue /Class
doit
GrailDoubleImportlib category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleImportlib
removeallmethods GrailDoubleImportlib
removeallclassmethods GrailDoubleImportlib
! ------------------- Class methods for GrailDoubleImportlib
category: 'Grail API'
classmethod: GrailDoubleImportlib
___grailCompileSymbolList___
  ^GrailDoubleSymbolList new
%
category: 'Grail API'
classmethod: GrailDoubleImportlib
___sourceStringForPath___: aPath
  | file |
  file := GsFile openReadOnServer: aPath.
  file isNil ifTrue: [^Error signal: 'cannot open ' , aPath].
  ^GrailDoubleSourceText on: ([file contents] ensure: [file close])
%
category: 'Grail API'
classmethod: GrailDoubleImportlib
grailDir: aPath
  GrailDoublePython current checkout: aPath
%
category: 'Grail API'
classmethod: GrailDoubleImportlib
pythonClasses
  ^GrailDoublePython current pythonClasses
%
category: 'Grail API'
classmethod: GrailDoubleImportlib
pythonNameOfSelector: aSelector
  | text colon head |
  aSelector isNil ifTrue: [^nil].
  text := aSelector asString.
  colon := text indexOf: $:.
  head := colon = 0 ifTrue: [text] ifFalse: [text copyFrom: 1 to: colon - 1].
  (head isEmpty or: [(head at: 1) isLetter not and: [(head at: 1) ~= $_]]) ifTrue: [^nil].
  (self isInternal: head) ifTrue: [^nil].
  colon = 0 ifTrue: [^text].
  text = (head , ':kw:') ifTrue: [
    ^(head size > 1 and: [(head at: 1) = $_]) ifTrue: [head copyFrom: 2 to: head size] ifFalse: [nil]].
  (text copyFrom: colon to: text size) = (self fixedTail: text size - colon + 1) ifFalse: [^nil].
  ^head
%
category: 'private'
classmethod: GrailDoubleImportlib
isInternal: aHead
  "Grail's own ___name___ selectors, which no Python call compiles to."
  ^aHead size > 6 and: [(aHead copyFrom: 1 to: 3) = '___'
    and: [(aHead copyFrom: aHead size - 2 to: aHead size) = '___']]
%
category: 'private'
classmethod: GrailDoubleImportlib
fixedTail: aSize
  "':' then '_:' for each further argument."
  | out |
  out := WriteStream on: String new.
  out nextPut: $:.
  (aSize - 1) // 2 timesRepeat: [out nextPutAll: '_:'].
  ^out contents
%
