! The model's kernel, part 2: collections. Sequenceable collections stand on the primitives
! _size, _at:, _at:put:, _grow:, _insertAt:value: and _removeIndex:; hashed ones on native
! dictionaries (dict.go).
category: 'kernel'
method: Collection
isEmpty
  ^self size = 0
%
method: Collection
notEmpty
  ^self isEmpty not
%
method: Collection
size
  | n |
  n := 0.
  self do: [:each | n := n + 1].
  ^n
%
method: Collection
do: aBlock separatedBy: sepBlock
  | first |
  first := true.
  self do: [:each | first ifFalse: [sepBlock value]. first := false. aBlock value: each]
%
method: Collection
collect: aBlock
  | out |
  out := OrderedCollection new.
  self do: [:each | out add: (aBlock value: each)].
  ^out
%
method: Collection
select: aBlock
  | out |
  out := self _emptyCopy.
  self do: [:each | (aBlock value: each) ifTrue: [out add: each]].
  ^out
%
method: Collection
reject: aBlock
  ^self select: [:each | (aBlock value: each) not]
%
method: Collection
detect: aBlock
  ^self detect: aBlock ifNone: [self error: 'no element satisfies the block']
%
method: Collection
detect: aBlock ifNone: noneBlock
  self do: [:each | (aBlock value: each) ifTrue: [^each]].
  ^noneBlock value
%
method: Collection
inject: start into: aBlock
  | acc |
  acc := start.
  self do: [:each | acc := aBlock value: acc value: each].
  ^acc
%
method: Collection
includes: anObject
  self do: [:each | each = anObject ifTrue: [^true]].
  ^false
%
method: Collection
occurrencesOf: anObject
  | n |
  n := 0.
  self do: [:each | each = anObject ifTrue: [n := n + 1]].
  ^n
%
method: Collection
addAll: aCollection
  aCollection do: [:each | self add: each].
  ^aCollection
%
method: Collection
removeAll: aCollection
  aCollection do: [:each | self remove: each].
  ^aCollection
%
method: Collection
remove: anObject
  ^self remove: anObject ifAbsent: [self error: 'the object is not in the collection']
%
method: Collection
asArray
  | out i |
  out := Array new: self size.
  i := 0.
  self do: [:each | i := i + 1. out at: i put: each].
  ^out
%
method: Collection
asOrderedCollection
  ^OrderedCollection new addAll: self; yourself
%
method: Collection
asSet
  ^Set new addAll: self; yourself
%
method: Collection
asSortedCollection
  ^SortedCollection new addAll: self; yourself
%
method: Collection
asSortedCollection: aBlock
  ^(SortedCollection sortBlock: aBlock) addAll: self; yourself
%
method: Collection
_emptyCopy
  ^self _species new
%
method: Collection
_species
  ^self class
%
method: Collection
printOn: aStream
  aStream nextPutAll: self _basicPrintString
%
classmethod: Collection
with: a
  ^self new add: a; yourself
%
classmethod: Collection
with: a with: b
  ^self new add: a; add: b; yourself
%
classmethod: Collection
with: a with: b with: c
  ^self new add: a; add: b; add: c; yourself
%
classmethod: Collection
with: a with: b with: c with: d
  ^self new add: a; add: b; add: c; add: d; yourself
%
classmethod: Collection
withAll: aCollection
  ^self new addAll: aCollection; yourself
%
! ---- SequenceableCollection
method: SequenceableCollection
size
  ^self _size
%
method: SequenceableCollection
at: index
  ^self _at: index
%
method: SequenceableCollection
at: index put: anObject
  ^self _at: index put: anObject
%
method: SequenceableCollection
do: aBlock
  1 to: self size do: [:i | aBlock value: (self at: i)]
%
method: SequenceableCollection
reverseDo: aBlock
  self size to: 1 by: -1 do: [:i | aBlock value: (self at: i)]
%
method: SequenceableCollection
keysAndValuesDo: aBlock
  1 to: self size do: [:i | aBlock value: i value: (self at: i)]
%
method: SequenceableCollection
from: start to: stop do: aBlock
  start to: stop do: [:i | aBlock value: (self at: i)]
%
method: SequenceableCollection
with: other do: aBlock
  other size = self size ifFalse: [^self error: 'the collections differ in size'].
  1 to: self size do: [:i | aBlock value: (self at: i) value: (other at: i)]
%
method: SequenceableCollection
with: other collect: aBlock
  | out |
  other size = self size ifFalse: [^self error: 'the collections differ in size'].
  out := Array new: self size.
  1 to: self size do: [:i | out at: i put: (aBlock value: (self at: i) value: (other at: i))].
  ^out
%
method: SequenceableCollection
collect: aBlock
  | out |
  out := Array new: self size.
  1 to: self size do: [:i | out at: i put: (aBlock value: (self at: i))].
  ^out
%
method: SequenceableCollection
select: aBlock
  | out |
  out := OrderedCollection new.
  self do: [:each | (aBlock value: each) ifTrue: [out add: each]].
  ^self _sameKindFrom: out
%
method: SequenceableCollection
_sameKindFrom: anOrderedCollection
  ^anOrderedCollection asArray
%
method: SequenceableCollection
first
  self isEmpty ifTrue: [^self _emptyError].
  ^self at: 1
%
method: SequenceableCollection
last
  self isEmpty ifTrue: [^self _emptyError].
  ^self at: self size
%
method: SequenceableCollection
_emptyError
  ^OutOfRange new signal: 'the collection is empty'
%
method: SequenceableCollection
first: n
  ^self copyFrom: 1 to: n
%
method: SequenceableCollection
last: n
  ^self copyFrom: self size - n + 1 to: self size
%
method: SequenceableCollection
indexOf: anObject
  1 to: self size do: [:i | (self at: i) = anObject ifTrue: [^i]].
  ^0
%
method: SequenceableCollection
indexOf: anObject ifAbsent: aBlock
  "GemTalk/Rowan Cypress-GemStoneCompatibilityLayer.gs sends this to SequenceableCollection
  (copyAfter:, copyUpTo:) and defines lastIndexOf:ifAbsent: beside it, not this: the kernel has it."
  ^self indexOf: anObject startingAt: 1 ifAbsent: aBlock
%
method: SequenceableCollection
indexOf: anObject startingAt: start ifAbsent: aBlock
  start to: self size do: [:i | (self at: i) = anObject ifTrue: [^i]].
  ^aBlock value
%
method: SequenceableCollection
at: index ifAbsent: aBlock
  (index between: 1 and: self size) ifFalse: [^aBlock value].
  ^self at: index
%
method: SequenceableCollection
copyFrom: start to: stop
  | out |
  out := OrderedCollection new.
  start to: stop do: [:i | out add: (self at: i)].
  ^self _sameKindFrom: out
%
method: SequenceableCollection
copyWith: anObject
  ^self , (Array with: anObject)
%
method: SequenceableCollection
copyWithout: anObject
  ^self reject: [:each | each = anObject]
%
method: SequenceableCollection
reverse
  | out |
  out := OrderedCollection new.
  self reverseDo: [:each | out add: each].
  ^self _sameKindFrom: out
%
method: SequenceableCollection
, aCollection
  ^(OrderedCollection new addAll: self; addAll: aCollection; yourself) asArray
%
method: SequenceableCollection
= other
  self == other ifTrue: [^true].
  (other isKindOf: SequenceableCollection) ifFalse: [^false].
  other class == self class ifFalse: [^false].
  other size = self size ifFalse: [^false].
  1 to: self size do: [:i | (self at: i) = (other at: i) ifFalse: [^false]].
  ^true
%
method: SequenceableCollection
hash
  ^self size
%
method: SequenceableCollection
beginsWith: prefix
  prefix size > self size ifTrue: [^false].
  1 to: prefix size do: [:i | (self at: i) = (prefix at: i) ifFalse: [^false]].
  ^true
%
method: SequenceableCollection
copyReplaceAll: old with: new
  | out i n |
  n := old size.
  n = 0 ifTrue: [^self copy].
  out := OrderedCollection new.
  i := 1.
  [i <= self size] whileTrue: [
    (i + n - 1 <= self size and: [(self copyFrom: i to: i + n - 1) = (old copyFrom: 1 to: n)])
      ifTrue: [out addAll: new. i := i + n]
      ifFalse: [out add: (self at: i). i := i + 1]].
  ^self _sameKindFrom: out
%
classmethod: ArrayedCollection
new
  ^self new: 0
%
classmethod: ArrayedCollection
new: n withAll: anObject
  | out |
  out := self new: n.
  1 to: n do: [:i | out at: i put: anObject].
  ^out
%
classmethod: ArrayedCollection
with: a
  ^(self new: 1) at: 1 put: a; yourself
%
classmethod: ArrayedCollection
with: a with: b
  ^(self new: 2) at: 1 put: a; at: 2 put: b; yourself
%
classmethod: ArrayedCollection
with: a with: b with: c
  ^(self new: 3) at: 1 put: a; at: 2 put: b; at: 3 put: c; yourself
%
classmethod: ArrayedCollection
with: a with: b with: c with: d
  ^(self new: 4) at: 1 put: a; at: 2 put: b; at: 3 put: c; at: 4 put: d; yourself
%
classmethod: ArrayedCollection
withAll: aCollection
  | out i |
  out := self new: aCollection size.
  i := 0.
  aCollection do: [:each | i := i + 1. out at: i put: each].
  ^out
%
method: ArrayedCollection
add: anObject
  ^self error: 'not supported by this collection'
%
method: ArrayedCollection
_sameKindFrom: anOrderedCollection
  ^self class withAll: anOrderedCollection
%
method: Array
asArray
  ^self class == Array ifTrue: [self] ifFalse: [Array withAll: self]
%
! ---- strings
method: CharacterCollection
isString
  ^true
%
method: CharacterCollection
displayString
  ^self asString
%
method: CharacterCollection
printOn: aStream
  aStream nextPutAll: self printString
%
method: CharacterCollection
indexOf: aCharacter
  1 to: self size do: [:i | (self at: i) == aCharacter ifTrue: [^i]].
  ^0
%
method: CharacterCollection
includes: aCharacter
  ^(self indexOf: aCharacter) > 0
%
method: CharacterCollection
matchPattern: anArray
  "A glob of Strings and $* wildcards, as GemStone's matchPattern: takes it."
  ^self _match: anArray from: 1 at: 1
%
method: CharacterCollection
_match: pattern from: pi at: si
  | part |
  pi > pattern size ifTrue: [^si > self size].
  part := pattern at: pi.
  part = $*
    ifTrue: [si to: self size + 1 do: [:k | (self _match: pattern from: pi + 1 at: k) ifTrue: [^true]]. ^false].
  part isString ifFalse: [part := String with: part].
  si + part size - 1 > self size ifTrue: [^false].
  (self copyFrom: si to: si + part size - 1) = part ifFalse: [^false].
  ^self _match: pattern from: pi + 1 at: si + part size
%
method: String
asUnicodeString
  ^self decodeFromUTF8
%
classmethod: String
new: n withAll: aCharacter
  "Missing on some extents (the predecessor's notes): the model does not have it either."
  ^self _missing: #new:withAll:
%
classmethod: Object
_missing: aSelector
  ^MessageNotUnderstood new _receiver: self selector: aSelector; signal
%
method: Symbol
isSymbol
  ^true
%
method: Symbol
asSymbol
  ^self
%
method: Symbol
size
  ^self _size
%
classmethod: Symbol
new: n
  ^self error: 'not supported by this collection'
%
! ---- OrderedCollection and SortedCollection
classmethod: OrderedCollection
new: n
  ^self new
%
method: OrderedCollection
add: anObject
  ^self addLast: anObject
%
method: OrderedCollection
addLast: anObject
  ^self _insertAt: self size + 1 value: anObject
%
method: OrderedCollection
addFirst: anObject
  ^self _insertAt: 1 value: anObject
%
method: OrderedCollection
removeFirst
  self isEmpty ifTrue: [^self _emptyError].
  ^self _removeIndex: 1
%
method: OrderedCollection
removeLast
  self isEmpty ifTrue: [^self _emptyError].
  ^self _removeIndex: self size
%
method: OrderedCollection
remove: anObject ifAbsent: aBlock
  | i |
  i := self indexOf: anObject.
  i = 0 ifTrue: [^aBlock value].
  self _removeIndex: i.
  ^anObject
%
method: OrderedCollection
, aCollection
  ^self copy addAll: aCollection; yourself
%
method: OrderedCollection
_sameKindFrom: anOrderedCollection
  ^self _species new addAll: anOrderedCollection; yourself
%
method: OrderedCollection
collect: aBlock
  | out |
  out := OrderedCollection new.
  self do: [:each | out add: (aBlock value: each)].
  ^out
%
classmethod: SortedCollection
sortBlock: aBlock
  ^self new _instVarAt: 1 put: aBlock; yourself
%
method: SortedCollection
add: anObject
  self _insertAt: self size + 1 value: anObject.
  self _sortWith: (self _instVarAt: 1).
  ^anObject
%
method: SortedCollection
addFirst: anObject
  ^self error: 'not supported by this collection'
%
method: SortedCollection
collect: aBlock
  | out |
  out := OrderedCollection new.
  self do: [:each | out add: (aBlock value: each)].
  ^out
%
method: SortedCollection
_sameKindFrom: anOrderedCollection
  ^(SortedCollection sortBlock: (self _instVarAt: 1)) addAll: anOrderedCollection; yourself
%
! ---- Interval
classmethod: Interval
_from: start to: stop by: step
  ^self new _instVarAt: 1 put: start; _instVarAt: 2 put: stop; _instVarAt: 3 put: step; yourself
%
method: Interval
size
  | n |
  n := ((self _instVarAt: 2) - (self _instVarAt: 1)) // (self _instVarAt: 3) + 1.
  ^n max: 0
%
method: Interval
at: i
  (i between: 1 and: self size) ifFalse: [^OutOfRange new signal: 'index out of range'].
  ^(self _instVarAt: 1) + ((i - 1) * (self _instVarAt: 3))
%
method: Interval
do: aBlock
  (self _instVarAt: 1) to: (self _instVarAt: 2) by: (self _instVarAt: 3) do: aBlock
%
! ---- hashed collections
method: HashedCollection
do: aBlock
  self _keys do: aBlock
%
method: Set
collect: aBlock
  | out |
  out := Set new.
  self do: [:each | out add: (aBlock value: each)].
  ^out
%
method: AbstractDictionary
at: key
  ^self at: key ifAbsent: [self _keyNotFound: key]
%
method: AbstractDictionary
_keyNotFound: key
  ^Error new signal: 'key not found: ' , key printString
%
method: AbstractDictionary
at: key otherwise: aValue
  ^self at: key ifAbsent: [aValue]
%
method: AbstractDictionary
at: key ifAbsentPut: aBlock
  ^self at: key ifAbsent: [self at: key put: aBlock value]
%
method: AbstractDictionary
at: key ifPresent: aBlock
  | v |
  v := self at: key ifAbsent: [^nil].
  ^aBlock value: v
%
method: AbstractDictionary
removeKey: key
  ^self removeKey: key ifAbsent: [self _keyNotFound: key]
%
method: AbstractDictionary
includesKey: key
  self at: key ifAbsent: [^false].
  ^true
%
method: AbstractDictionary
keys
  ^self _keys
%
method: AbstractDictionary
values
  | out |
  out := OrderedCollection new.
  self keysAndValuesDo: [:k :v | out add: v].
  ^out asArray
%
method: AbstractDictionary
keysDo: aBlock
  self keysAndValuesDo: [:k :v | aBlock value: k]
%
method: AbstractDictionary
valuesDo: aBlock
  self keysAndValuesDo: [:k :v | aBlock value: v]
%
method: AbstractDictionary
do: aBlock
  self keysAndValuesDo: [:k :v | aBlock value: v]
%
method: AbstractDictionary
associationsDo: aBlock
  self keysAndValuesDo: [:k :v | aBlock value: (Association key: k value: v)]
%
method: AbstractDictionary
keyAtValue: anObject
  self keysAndValuesDo: [:k :v | v = anObject ifTrue: [^k]].
  ^nil
%
method: AbstractDictionary
includes: anObject
  self keysAndValuesDo: [:k :v | v = anObject ifTrue: [^true]].
  ^false
%
method: AbstractDictionary
add: anAssociation
  self at: anAssociation key put: anAssociation value.
  ^anAssociation
%
method: AbstractDictionary
select: aBlock
  | out |
  out := self _species new.
  self keysAndValuesDo: [:k :v | (aBlock value: v) ifTrue: [out at: k put: v]].
  ^out
%
method: AbstractDictionary
collect: aBlock
  | out |
  out := OrderedCollection new.
  self do: [:each | out add: (aBlock value: each)].
  ^out
%
method: AbstractDictionary
remove: anObject ifAbsent: aBlock
  ^self error: 'not supported by this collection'
%
method: SymbolDictionary
name
  "keyAtValue: self (gemstone-smalltalk.md s2)"
  ^self keyAtValue: self
%
method: SymbolDictionary
name: aSymbol
  self at: aSymbol asSymbol put: self
%
classmethod: Association
key: k value: v
  ^self new key: k value: v
%
method: Association
key
  ^self _instVarAt: 1
%
method: Association
value
  ^self _instVarAt: 2
%
method: Association
key: k value: v
  self _instVarAt: 1 put: k; _instVarAt: 2 put: v
%
method: Association
= other
  ^(other isKindOf: Association) and: [self key = other key and: [self value = other value]]
%
method: Association
hash
  ^self key hash
%
