set compile_env: 0
! ------------------- Class definition for McpReadLedger
expectvalue /Class
doit
Object subclass: 'McpReadLedger'
  instVarNames: #( reads writes staleReads lastReadCount changes readOrder readCounter)
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
The stale note names the most recently read keys first (what the client was working on), an
order of the ledger''s own: a Dictionary''s order is hash order on a stone.

Beside the keys it keeps what each write was (noteChange:key:), one entry per thing changed, for
pending_changes and for what abort discarded or commit published: a Dictionary with change (one
of changeKinds), key, and where they apply className, side, selector, category, dictionary,
shapeChanged, version. A second change to the same thing merges into its entry: what this
transaction created stays created, created and then removed leaves nothing to list.

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
  "The ledger key of a symbol dictionary: its name after a hash."
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
  lastReadCount := 0.
  changes := OrderedCollection new.
  readOrder := Dictionary new.
  readCounter := 0
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
  self remember: aKey
%
category: 'guardrail'
method: McpReadLedger
remember: aKey
  "Keep the stamp of aKey and when it was read, for the order of the stale note."
  reads at: aKey put: (self stampFor: aKey).
  readCounter := readCounter + 1.
  readOrder at: aKey put: readCounter
%
category: 'guardrail'
method: McpReadLedger
noteWrite: aKey
  "The client has just changed aKey; having written it licenses the next change without a read."
  writes add: aKey.
  self remember: aKey
%
category: 'guardrail'
method: McpReadLedger
requireRead: aKey
  "Refuse a write to aKey unless it was read, or written, in the current view."
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
  aBoolean ifFalse: [
    writes := Set new.
    changes := OrderedCollection new].
  self revalidateReads
%
category: 'view'
method: McpReadLedger
restampReads
  "The session is about to publish its own work: what it read is taken as it now sees it, so that
   after the commit only what other sessions changed is reported stale, never its own writes."
  | keys |
  keys := OrderedCollection new.
  reads keysAndValuesDo: [:key :stamp | keys add: key].
  keys do: [:key | reads at: key put: (self stampFor: key)]
%
category: 'view'
method: McpReadLedger
revalidateReads
  "Keep each read whose content is unchanged, drop and remember the rest, the most recently read
   first."
  | keys |
  keys := OrderedCollection new.
  reads keysAndValuesDo: [:key :stamp | keys add: key].
  lastReadCount := keys size.
  (keys asSortedCollection: [:a :b | (readOrder at: a) >= (readOrder at: b)]) do: [:key |
    (self stampFor: key) = (reads at: key) ifFalse: [
      reads removeKey: key.
      readOrder removeKey: key.
      writes remove: key ifAbsent: [nil].
      (staleReads includes: key) ifFalse: [staleReads add: key]]]
%
category: 'view'
method: McpReadLedger
writesSurvive
  "Whether what this session wrote is still there as it wrote it: true after its own commit, false
   once an abort took it away; nil when it wrote nothing through the tools."
  writes isEmpty ifTrue: [^nil].
  writes do: [:key | (self stampFor: key) = (reads at: key ifAbsent: [nil]) ifFalse: [^false]].
  ^true
%
category: 'view'
method: McpReadLedger
restampKeysOf: aCollectionOfChanges
  "This session itself published these changes: a read of what they touched (the thing, its
   class, its dictionary) is taken as it now is, so it is not reported stale."
  | keys |
  keys := OrderedCollection new.
  aCollectionOfChanges do: [:each |
    keys add: (each at: 'key').
    (each at: 'className' ifAbsent: [nil]) isNil ifFalse: [keys add: (each at: 'className')].
    (each at: 'dictionary' ifAbsent: [nil]) isNil ifFalse: [
      keys add: (self class dictionaryKeyFor: (each at: 'dictionary'))]].
  keys do: [:key | (reads includesKey: key) ifTrue: [reads at: key put: (self stampFor: key)]]
%
category: 'changes'
method: McpReadLedger
changeKinds
  "The kinds of change pending_changes lists, in the order phraseOf: names them."
  ^#('classCreated' 'classRedefined' 'classRemoved' 'commentSet' 'methodAdded' 'methodChanged'
     'methodRemoved' 'dictionaryAdded' 'dictionaryRemoved')
%
category: 'changes'
method: McpReadLedger
createdKinds
  "The changes that make something new in this transaction."
  ^#('classCreated' 'methodAdded' 'dictionaryAdded')
%
category: 'changes'
method: McpReadLedger
removedKinds
  "The changes that remove something."
  ^#('classRemoved' 'methodRemoved' 'dictionaryRemoved')
%
category: 'changes'
method: McpReadLedger
noteChange: anEntry key: aKey
  "Keep anEntry as what the write of aKey was, merged with an earlier change of the same thing."
  | existing |
  anEntry at: 'key' put: aKey.
  existing := changes detect: [:each | (self identityOf: each) = (self identityOf: anEntry)] ifNone: [nil].
  existing isNil ifTrue: [^changes add: anEntry].
  ^self merge: anEntry into: existing
%
category: 'changes'
method: McpReadLedger
identityOf: anEntry
  "A class definition and its comment share a key but are two things to list."
  (anEntry at: 'change') = 'commentSet' ifTrue: [^(anEntry at: 'key') , ' comment'].
  ^anEntry at: 'key'
%
category: 'changes'
method: McpReadLedger
merge: anEntry into: anExisting
  "Created here and then removed: nothing to list. Removed and made again: a change. Created here
   and then changed: still created."
  | old new |
  old := anExisting at: 'change'.
  new := anEntry at: 'change'.
  ((self createdKinds includes: old) and: [self removedKinds includes: new]) ifTrue: [
    ^changes remove: anExisting].
  ((self removedKinds includes: old) and: [self createdKinds includes: new]) ifTrue: [
    anEntry at: 'change' put: (self changedKindAfterRemoval: new)].
  (self createdKinds includes: old) ifTrue: [
    anEntry keysAndValuesDo: [:key :value |
      (#('change' 'shapeChanged' 'version') includes: key) ifFalse: [anExisting at: key put: value]].
    ^anExisting].
  ^changes at: (changes indexOf: anExisting) put: anEntry
%
category: 'changes'
method: McpReadLedger
changedKindAfterRemoval: aCreatedKind
  "What removing and then making again amounts to: a class or method changed, a dictionary added
   again."
  aCreatedKind = 'classCreated' ifTrue: [^'classRedefined'].
  aCreatedKind = 'methodAdded' ifTrue: [^'methodChanged'].
  ^aCreatedKind
%
category: 'changes'
method: McpReadLedger
pendingChanges
  "What this session changed through the tools since its last commit or abort, in the order of
   the first change of each thing."
  ^changes asArray
%
category: 'changes'
method: McpReadLedger
changesOfClassNamed: aName
  "The pending changes to the class aName and its methods, in the order they were made."
  ^(changes select: [:each | (each at: 'className' ifAbsent: [nil]) = aName]) asArray
%
category: 'changes'
method: McpReadLedger
lineFor: anEntry
  "One change as a line: what happened, to what, and its details."
  | out kind |
  kind := anEntry at: 'change'.
  out := WriteStream on: String new.
  out nextPutAll: (self phraseOf: kind); nextPutAll: ': '; nextPutAll: (self subjectOf: anEntry).
  (anEntry at: 'category' ifAbsent: [nil]) isNil ifFalse: [
    out nextPutAll: ' (category '; nextPutAll: (anEntry at: 'category') asString; nextPutAll: ')'].
  ((anEntry at: 'dictionary' ifAbsent: [nil]) notNil and: [(kind findString: 'dictionary' startingAt: 1) = 0]) ifTrue: [
    out nextPutAll: ((self removedKinds includes: kind) ifTrue: [' from '] ifFalse: [' in ']);
      nextPutAll: (anEntry at: 'dictionary') asString].
  (anEntry at: 'shapeChanged' ifAbsent: [nil]) == true ifTrue: [
    out nextPutAll: ' (new shape: version '; print: (anEntry at: 'version' ifAbsent: [0]);
      nextPutAll: ' of its class history)'].
  (anEntry at: 'shapeChanged' ifAbsent: [nil]) == false ifTrue: [out nextPutAll: ' (in place, same shape)'].
  ^out contents
%
category: 'changes'
method: McpReadLedger
phraseOf: aKind
  "A change kind as words for the pending_changes text."
  | index |
  index := self changeKinds indexOf: aKind.
  index = 0 ifTrue: [^aKind].
  ^#('class created' 'class redefined' 'class removed' 'comment set' 'method added' 'method changed'
     'method removed' 'dictionary added' 'dictionary removed') at: index
%
category: 'changes'
method: McpReadLedger
subjectOf: anEntry
  "What a change is to: its ledger key, without the hash of a dictionary key."
  | key |
  key := anEntry at: 'key'.
  (key size > 1 and: [key first = $#]) ifTrue: [^key copyFrom: 2 to: key size].
  ^key
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
  "The first six keys, then how many more."
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
  "The stamp of something that is not there, so that its coming into being is a change too."
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
  "What a read of the class saw: its definition and comment; the absent stamp when there is no
   such class."
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
  "What a read of the method saw: its source; aClassPart ends in ' class' for the class side."
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
