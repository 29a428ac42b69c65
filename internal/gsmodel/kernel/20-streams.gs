! The model's kernel, part 3: streams over a collection, growing it as they write.
category: 'kernel'
classmethod: PositionableStream
on: aCollection
  ^self new _on: aCollection
%
classmethod: WriteStream
with: aCollection
  ^(self on: aCollection) _setToEnd
%
method: PositionableStream
_on: aCollection
  self _instVarAt: 1 put: aCollection; _instVarAt: 2 put: 0; _instVarAt: 3 put: aCollection size
%
method: PositionableStream
_setToEnd
  self _instVarAt: 2 put: (self _instVarAt: 3)
%
method: PositionableStream
position
  ^self _instVarAt: 2
%
method: PositionableStream
position: n
  (n between: 0 and: (self _instVarAt: 3)) ifFalse: [^OutOfRange new signal: 'position out of range'].
  self _instVarAt: 2 put: n
%
method: PositionableStream
reset
  self _instVarAt: 2 put: 0
%
method: PositionableStream
atEnd
  ^(self _instVarAt: 2) >= (self _instVarAt: 3)
%
method: PositionableStream
next
  | p |
  self atEnd ifTrue: [^nil].
  p := (self _instVarAt: 2) + 1.
  self _instVarAt: 2 put: p.
  ^(self _instVarAt: 1) at: p
%
method: PositionableStream
next: n
  | out |
  out := WriteStream on: ((self _instVarAt: 1) _species new: 0).
  n timesRepeat: [self atEnd ifFalse: [out nextPut: self next]].
  ^out contents
%
method: PositionableStream
peek
  self atEnd ifTrue: [^nil].
  ^(self _instVarAt: 1) at: (self _instVarAt: 2) + 1
%
method: PositionableStream
skip: n
  self _instVarAt: 2 put: (((self _instVarAt: 2) + n) max: 0) min: (self _instVarAt: 3)
%
method: PositionableStream
upTo: anObject
  | out e |
  out := WriteStream on: ((self _instVarAt: 1) _species new: 0).
  [self atEnd] whileFalse: [
    e := self next.
    e = anObject ifTrue: [^out contents].
    out nextPut: e].
  ^out contents
%
method: PositionableStream
upToEnd
  | out |
  out := WriteStream on: ((self _instVarAt: 1) _species new: 0).
  [self atEnd] whileFalse: [out nextPut: self next].
  ^out contents
%
method: PositionableStream
contents
  ^(self _instVarAt: 1) copyFrom: 1 to: (self _instVarAt: 3)
%
method: WriteStream
_on: aCollection
  self _instVarAt: 1 put: aCollection; _instVarAt: 2 put: 0; _instVarAt: 3 put: 0
%
method: WriteStream
nextPut: anObject
  | c p |
  c := self _instVarAt: 1.
  p := (self _instVarAt: 2) + 1.
  p > c size ifTrue: [c _grow: (c size max: 16)].
  c at: p put: anObject.
  self _instVarAt: 2 put: p.
  p > (self _instVarAt: 3) ifTrue: [self _instVarAt: 3 put: p].
  ^anObject
%
method: WriteStream
nextPutAll: aCollection
  aCollection do: [:each | self nextPut: each].
  ^aCollection
%
method: WriteStream
print: anObject
  self nextPutAll: anObject printString
%
method: WriteStream
lf
  self nextPut: Character lf
%
method: WriteStream
cr
  self nextPut: Character cr
%
method: WriteStream
tab
  self nextPut: Character tab
%
method: WriteStream
space
  self nextPut: Character space
%
method: WriteStream
contents
  ^(self _instVarAt: 1) copyFrom: 1 to: (self _instVarAt: 2)
%
method: WriteStream
reset
  self _instVarAt: 2 put: 0; _instVarAt: 3 put: 0
%
method: WriteStream
flush
  ^self
%
method: ReadWriteStream
contents
  ^(self _instVarAt: 1) copyFrom: 1 to: (self _instVarAt: 3)
%
method: ReadWriteStream
reset
  self _instVarAt: 2 put: 0
%
