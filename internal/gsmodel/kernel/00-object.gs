! The model's kernel, part 1: Object, UndefinedObject, Boolean, numbers, characters.
! Every public selector here is cited by the shared inventory (internal/gscheck/inventory);
! helpers start with an underscore. Filed in by gsmodel at boot, before any user code.
category: 'kernel'
method: Object
isNil
  ^false
%
method: Object
notNil
  ^true
%
method: Object
ifNil: aBlock
  ^self
%
method: Object
ifNotNil: aBlock
  ^aBlock numArgs = 0 ifTrue: [aBlock value] ifFalse: [aBlock value: self]
%
method: Object
ifNil: nilBlock ifNotNil: notNilBlock
  ^self ifNotNil: notNilBlock
%
method: Object
ifNotNil: notNilBlock ifNil: nilBlock
  ^self ifNotNil: notNilBlock
%
method: Object
~= anObject
  ^(self = anObject) not
%
method: Object
yourself
  ^self
%
method: Object
copy
  ^self shallowCopy postCopy
%
method: Object
postCopy
  ^self
%
method: Object
deepCopy
  ^self shallowCopy postCopy
%
method: Object
printOn: aStream
  aStream nextPutAll: self _basicPrintString
%
method: Object
displayString
  ^self printString
%
method: Object
asString
  "GemStone: Object>>asString is the printString; ByteArray does not override it."
  ^self printString
%
method: Object
isString
  ^false
%
method: Object
isSymbol
  ^false
%
method: Object
isNumber
  ^false
%
method: Object
isInteger
  ^false
%
method: Object
isBehavior
  ^false
%
method: Object
subclassResponsibility
  ^self error: 'a subclass should have overridden this method'
%
method: UndefinedObject
isNil
  ^true
%
method: UndefinedObject
notNil
  ^false
%
method: UndefinedObject
ifNil: aBlock
  ^aBlock value
%
method: UndefinedObject
ifNotNil: aBlock
  ^nil
%
method: UndefinedObject
ifNil: nilBlock ifNotNil: notNilBlock
  ^nilBlock value
%
method: UndefinedObject
ifNotNil: notNilBlock ifNil: nilBlock
  ^nilBlock value
%
method: Number
isNumber
  ^true
%
method: Number
isZero
  ^self = 0
%
method: Number
negative
  ^self < 0
%
method: Number
positive
  ^self >= 0
%
method: Number
sign
  self > 0 ifTrue: [^1].
  self < 0 ifTrue: [^-1].
  ^0
%
method: Number
abs
  ^self < 0 ifTrue: [0 - self] ifFalse: [self]
%
method: Number
negated
  ^0 - self
%
method: Number
max: aNumber
  ^self > aNumber ifTrue: [self] ifFalse: [aNumber]
%
method: Number
min: aNumber
  ^self < aNumber ifTrue: [self] ifFalse: [aNumber]
%
method: Number
between: low and: high
  ^self >= low and: [self <= high]
%
method: Number
squared
  ^self * self
%
method: Number
even
  ^self \\ 2 = 0
%
method: Number
odd
  ^self even not
%
method: Number
lcm: anInteger
  ^(self * anInteger) abs // (self gcd: anInteger)
%
method: Number
to: stop
  ^Interval _from: self to: stop by: 1
%
method: Number
to: stop by: step
  ^Interval _from: self to: stop by: step
%
method: Number
to: stop do: aBlock
  | i |
  i := self.
  [i <= stop] whileTrue: [aBlock value: i. i := i + 1]
%
method: Number
to: stop by: step do: aBlock
  | i |
  i := self.
  step > 0
    ifTrue: [[i <= stop] whileTrue: [aBlock value: i. i := i + step]]
    ifFalse: [[i >= stop] whileTrue: [aBlock value: i. i := i + step]]
%
method: Number
timesRepeat: aBlock
  | i |
  i := 1.
  [i <= self] whileTrue: [aBlock value. i := i + 1]
%
method: Number
printOn: aStream
  aStream nextPutAll: self _asString
%
method: Number
asString
  ^self _asString
%
method: Number
displayString
  ^self _asString
%
method: Number
@ y
  ^Point _x: self y: y
%
method: Integer
isInteger
  ^true
%
method: Integer
asInteger
  ^self
%
method: Character
asCharacter
  ^self
%
method: Character
asString
  ^String with: self
%
method: Character
displayString
  ^String with: self
%
method: Character
isVowel
  ^'aeiouAEIOU' includes: self
%
method: Character
isAlphaNumeric
  ^self isLetter or: [self isDigit]
%
method: Character
= aCharacter
  ^self == aCharacter
%
method: Character
hash
  ^self codePoint
%
classmethod: Character
lf
  ^self codePoint: 10
%
classmethod: Character
cr
  ^self codePoint: 13
%
classmethod: Character
tab
  ^self codePoint: 9
%
classmethod: Character
space
  ^self codePoint: 32
%
method: Boolean
printOn: aStream
  aStream nextPutAll: self _basicPrintString
%
method: Behavior
isBehavior
  ^true
%
method: Behavior
printOn: aStream
  aStream nextPutAll: self printString
%
classmethod: Point
_x: ax y: ay
  ^self new _instVarAt: 1 put: ax; _instVarAt: 2 put: ay; yourself
%
