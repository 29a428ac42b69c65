set compile_env: 0
! ------------------- Class definition for McpReadLedger
expectvalue /Class
doit
Object subclass: 'McpReadLedger'
  instVarNames: #( reads writes staleReads lastReadCount)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpReadLedger comment: 
'The blind-write ledger of one session: what the client was shown (a read) and what it changed
(a write) in the current view, so that a change to something it has not seen is refused. The
guardrail of McpToolset forwards to the ledger its McpServer holds: noteRead: after a tool
showed something, requireRead: before one replaces or destroys it, noteWrite: after it did.

A key names what was read: Foo for the definition and comment of a class, Foo>>bar or
Foo class>>bar for a method, #Name for a symbol dictionary (the class-side keyFor methods build
them). Each read is kept with a stamp of the content as the view had it (stampFor:). When the
view moves, the server says so (viewMovedKeepingWrites:): a read whose content changed is
dropped and named once in the stale note of the next result; the writes are forgotten unless
the move kept the uncommitted changes. Having written something licenses the next write of it.

It never reads the repository except through stampFor:, and never moves the view.'
%
expectvalue /Class
doit
McpReadLedger category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpReadLedger
removeallmethods McpReadLedger
removeallclassmethods McpReadLedger
! ------------------- Class methods for McpReadLedger
category: 'instance creation'
classmethod: McpReadLedger
new
  ^self basicNew initialize
%
category: 'keys'
classmethod: McpReadLedger
classKeyFor: aClass
  "The ledger key of a class definition and comment: its name."
  ^aClass theNonMetaClass name asString
%
category: 'keys'
classmethod: McpReadLedger
dictionaryKeyFor: aName
  ^'#' , aName asString
%
category: 'keys'
classmethod: McpReadLedger
methodKeyFor: aClass selector: aSelector
  "Foo>>bar: or Foo class>>bar:"
  | className |
  className := aClass theNonMetaClass name asString.
  aClass isMeta ifTrue: [className := className , ' class'].
  ^className , '>>' , aSelector asString
%
! ------------------- Instance methods for McpReadLedger
category: 'initialization'
method: McpReadLedger
initialize
  reads := Dictionary new.
  writes := Set new.
  staleReads := OrderedCollection new.
  lastReadCount := 0
%
category: 'guardrail'
method: McpReadLedger
isReadLicensed: aKey
  ^reads includesKey: aKey
%
category: 'guardrail'
method: McpReadLedger
noteRead: aKey
  "The client has just been shown the current content of aKey."
  reads at: aKey put: (self stampFor: aKey)
%
category: 'guardrail'
method: McpReadLedger
noteWrite: aKey
  "The client has just changed aKey; having written it licenses the next change without a read."
  writes add: aKey.
  reads at: aKey put: (self stampFor: aKey)
%
category: 'guardrail'
method: McpReadLedger
requireRead: aKey
  (self isReadLicensed: aKey) ifTrue: [^self].
  ^McpError
    signalKind: 'refused'
    message: 'refused: ' , aKey , ' has not been read in the current view of this session, or it changed since. Read it, then retry.'
    details: (Dictionary new at: 'key' put: aKey; yourself)
%
category: 'guardrail'
method: McpReadLedger
writtenKeys
  ^writes
%
category: 'view'
method: McpReadLedger
viewMovedKeepingWrites: aBoolean
  "The view moved: forget the writes unless the move kept the uncommitted changes, then check
   every read against the new view."
  aBoolean ifFalse: [writes := Set new].
  self revalidateReads
%
category: 'view'
method: McpReadLedger
revalidateReads
  "Keep each read whose content is unchanged, drop and remember the rest."
  | keys |
  keys := OrderedCollection new.
  reads keysAndValuesDo: [:key :stamp | keys add: key].
  lastReadCount := keys size.
  keys do: [:key |
    (self stampFor: key) = (reads at: key) ifFalse: [
      reads removeKey: key.
      writes remove: key ifAbsent: [nil].
      (staleReads includes: key) ifFalse: [staleReads add: key]]]
%
category: 'notes'
method: McpReadLedger
staleReadNote
  "One line naming the reads the last view moves made stale, once; nil when there are none."
  | note |
  staleReads isEmpty ifTrue: [^nil].
  note := '[session] The view moved: ' , staleReads size printString , ' of '
    , (lastReadCount max: staleReads size) printString
    , ' earlier reads are stale and must be re-read before writing to them: '
    , (self summaryOf: staleReads) , '.'.
  staleReads := OrderedCollection new.
  ^note
%
category: 'notes'
method: McpReadLedger
summaryOf: aCollectionOfKeys
  | out shown |
  shown := aCollectionOfKeys size min: 6.
  out := WriteStream on: String new.
  1 to: shown do: [:index |
    index > 1 ifTrue: [out nextPutAll: ', '].
    out nextPutAll: (aCollectionOfKeys at: index)].
  aCollectionOfKeys size > shown ifTrue: [
    out nextPutAll: ' and ' , (aCollectionOfKeys size - shown) printString , ' more'].
  ^out contents
%
category: 'stamps'
method: McpReadLedger
absentStamp
  ^'<absent>'
%
category: 'stamps'
method: McpReadLedger
classNamed: aName
  "The class called aName in the symbol list of this user, or nil."
  | found |
  aName isEmpty ifTrue: [^nil].
  found := System myUserProfile symbolList objectNamed: aName asSymbol.
  (found notNil and: [found isBehavior]) ifFalse: [^nil].
  ^found
%
category: 'stamps'
method: McpReadLedger
stampFor: aKey
  "The content aKey names, as the current view has it: what a read or write is checked against
   when the view moves."
  | split |
  (aKey size > 1 and: [aKey first = $#]) ifTrue: [^self stampForDictionary: (aKey copyFrom: 2 to: aKey size)].
  split := aKey findString: '>>' startingAt: 1.
  split > 0 ifTrue: [
    ^self stampForMethodOf: (aKey copyFrom: 1 to: split - 1) selector: (aKey copyFrom: split + 2 to: aKey size)].
  ^self stampForClass: aKey
%
category: 'stamps'
method: McpReadLedger
stampForClass: aName
  | subject comment |
  subject := self classNamed: aName.
  subject isNil ifTrue: [^self absentStamp].
  comment := [subject comment] on: Error do: [:ex | ex return: nil].
  ^subject definition asString , (String with: Character lf) , (comment isNil ifTrue: [''] ifFalse: [comment asString])
%
category: 'stamps'
method: McpReadLedger
stampForDictionary: aName
  "Each key and whether it binds a class, sorted; the values themselves are not compared."
  | dictionary entries out |
  dictionary := System myUserProfile symbolList detect: [:each | each name notNil and: [each name asString = aName]] ifNone: [nil].
  dictionary isNil ifTrue: [^self absentStamp].
  entries := OrderedCollection new.
  dictionary keysAndValuesDo: [:key :value |
    entries add: key asString , ((value isKindOf: Behavior) ifTrue: [' (class)'] ifFalse: [' (global)'])].
  out := WriteStream on: String new.
  (entries asSortedCollection: [:a :b | a <= b]) do: [:each | out nextPutAll: each; nextPut: Character lf].
  ^out contents
%
category: 'stamps'
method: McpReadLedger
stampForMethodOf: aClassPart selector: aSelector
  | meta baseName behavior source |
  meta := aClassPart size > 6 and: [(aClassPart copyFrom: aClassPart size - 5 to: aClassPart size) = ' class'].
  baseName := meta ifTrue: [aClassPart copyFrom: 1 to: aClassPart size - 6] ifFalse: [aClassPart].
  behavior := self classNamed: baseName.
  behavior isNil ifTrue: [^self absentStamp].
  meta ifTrue: [behavior := behavior class].
  (behavior includesSelector: aSelector asSymbol) ifFalse: [^self absentStamp].
  source := [behavior sourceCodeAt: aSelector asSymbol] on: Error do: [:ex | ex return: nil].
  source isNil ifTrue: [^self absentStamp].
  ^source asString
%
