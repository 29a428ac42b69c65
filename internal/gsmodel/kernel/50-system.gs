! The model's kernel, part 6: the user's symbol list (gemstone-smalltalk.md s3).
category: 'kernel'
method: SymbolList
names
  ^self collect: [:d | d name]
%
method: SymbolList
objectNamed: aSymbol
  | assoc |
  assoc := self resolveSymbol: aSymbol.
  ^assoc isNil ifTrue: [nil] ifFalse: [assoc value]
%
method: SymbolList
resolveSymbol: aSymbol
  | sym |
  sym := aSymbol asSymbol.
  self do: [:d | (d includesKey: sym) ifTrue: [^d _associationAt: sym ifAbsent: [nil]]].
  ^nil
%
method: UserProfile
objectNamed: aSymbol
  ^self symbolList objectNamed: aSymbol
%
method: UserProfile
resolveSymbol: aSymbol
  ^self symbolList resolveSymbol: aSymbol
%
method: UserProfile
insertDictionary: aDictionary at: index
  self symbolList _insertAt: index value: aDictionary
%
method: UserProfile
removeDictionaryAt: index
  ^self symbolList _removeIndex: index
%
method: UserProfile
createDictionary: aSymbol
  | d |
  d := SymbolDictionary new.
  d name: aSymbol.
  d at: aSymbol asSymbol put: d.
  self insertDictionary: d at: self symbolList size + 1.
  ^d
%
method: UserProfile
dictionaryAndSymbolOf: anObject
  self symbolList do: [:d |
    d keysAndValuesDo: [:k :v | v == anObject ifTrue: [^Array with: d with: k]]].
  ^nil
%
method: ClassOrganizer
allSubclassesOf: aClass
  | out |
  out := OrderedCollection new.
  aClass subclasses do: [:c | out add: c; addAll: (self allSubclassesOf: c)].
  ^out asArray
%
method: ClassOrganizer
subclassesOf: aClass
  ^aClass subclasses
%
method: ClassOrganizer
allSuperclassesOf: aClass
  | out c |
  out := OrderedCollection new.
  c := aClass superclass.
  [c isNil] whileFalse: [out addFirst: c. c := c superclass].
  ^out asArray
%
method: ClassOrganizer
classes
  ^self _classes
%
method: Behavior
fileOutClass
  "The canonical topaz file-out (gemstone-smalltalk.md s1): definition, comment, category,
   removeall lines, then each side's methods by category, selectors sorted."
  | ws cls |
  cls := self theNonMetaClass.
  ws := WriteStream on: String new.
  ws nextPutAll: 'set compile_env: 0'; lf;
    nextPutAll: '! ------------------- Class definition for ' , cls name; lf;
    nextPutAll: 'expectvalue /Class'; lf; nextPutAll: 'doit'; lf;
    nextPutAll: cls definition; lf; lf; nextPutAll: '%'; lf.
  cls comment isNil ifFalse: [
    ws nextPutAll: 'expectvalue /Class'; lf; nextPutAll: 'doit'; lf;
      nextPutAll: cls name , ' comment: '; lf;
      nextPutAll: cls comment printString; lf; nextPutAll: '%'; lf].
  cls category isNil ifFalse: [
    ws nextPutAll: 'expectvalue /Class'; lf; nextPutAll: 'doit'; lf;
      nextPutAll: cls name , ' category: ' , cls category printString; lf; nextPutAll: '%'; lf].
  ws nextPutAll: '! ------------------- Remove existing behavior from ' , cls name; lf;
    nextPutAll: 'removeallmethods ' , cls name; lf;
    nextPutAll: 'removeallclassmethods ' , cls name; lf.
  cls class _fileOutMethodsOn: ws label: 'Class methods for ' , cls name keyword: 'classmethod: '.
  cls _fileOutMethodsOn: ws label: 'Instance methods for ' , cls name keyword: 'method: '.
  ^ws contents
%
method: Behavior
_fileOutMethodsOn: ws label: aLabel keyword: aKeyword
  | sels |
  sels := self selectors asSortedCollection: [:a :b | a asLowercase <= b asLowercase].
  sels isEmpty ifTrue: [^self].
  ws nextPutAll: '! ------------------- ' , aLabel; lf.
  sels do: [:sel |
    ws nextPutAll: 'category: ''' , (self categoryOfSelector: sel) asString , ''''; lf;
      nextPutAll: aKeyword , self theNonMetaClass name; lf;
      nextPutAll: (self sourceCodeAt: sel); lf; nextPutAll: '%'; lf]
%
! Transcript as 3.x binds it: a TranscriptStreamPortable whose writes go to the stream kept in
! SessionTemps at #TranscriptStream_SessionStream, so a tool that puts its own stream there sees
! what the session wrote (GemTalk/Jasper client/src/transcriptSink.ts: the portable transcript
! delegates nextPutAll:, nextPut:, contents and reset to that stream, 3.6.2 and 3.7.x; the same
! hook in Rowan's JadeServer64bit3x>>installTranscript). Only the writes attested there are modelled.
run
Object subclass: 'TranscriptStreamPortable' instVarNames: #() classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
true
%
run
Globals at: #Transcript put: TranscriptStreamPortable new.
true
%
category: 'kernel'
method: TranscriptStreamPortable
_sessionStream
  ^SessionTemps current at: #TranscriptStream_SessionStream ifAbsentPut: [WriteStream on: String new]
%
method: TranscriptStreamPortable
nextPutAll: aString
  self _sessionStream nextPutAll: aString.
  ^aString
%
method: TranscriptStreamPortable
nextPut: aCharacter
  self _sessionStream nextPut: aCharacter.
  ^aCharacter
%
method: TranscriptStreamPortable
show: aString
  ^self nextPutAll: aString
%
