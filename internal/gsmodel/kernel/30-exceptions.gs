! The model's kernel, part 4: exception accessors and ExceptionSet. signal, return:, retry,
! pass, outer, resume: and resignalAs: are native (exception.go).
category: 'kernel'
classmethod: AbstractException
signal
  ^self new signal
%
classmethod: AbstractException
signal: aText
  ^self new signal: aText
%
classmethod: AbstractException
, another
  ^ExceptionSet new _add: self; _add: another; yourself
%
classmethod: AbstractException
handles: anException
  ^anException isKindOf: self
%
method: AbstractException
messageText
  ^self _instVarAt: 9
%
method: AbstractException
messageText: aText
  self _instVarAt: 9 put: aText
%
method: AbstractException
number
  ^self _instVarAt: 3
%
method: AbstractException
errorDetails
  ^self _instVarAt: 7
%
method: AbstractException
description
  | text details |
  text := self messageText.
  text isNil ifFalse: [^text].
  details := self _instVarAt: 7.
  text := self class name asString.
  text := ('AEIOU' includes: (text at: 1)) ifTrue: ['an ' , text] ifFalse: ['a ' , text].
  text := text , ' occurred'.
  self number isNil ifFalse: [text := text , ' (error ' , self number printString , ')'].
  (details isString) ifTrue: [text := text , ', ' , details].
  ^text
%
method: AbstractException
addText: aText
  self messageText: self description , ' ' , aText
%
method: AbstractException
isResumable
  ^true
%
method: AbstractException
receiver
  | args |
  args := self _instVarAt: 10.
  ^args isNil ifTrue: [nil] ifFalse: [args at: 1]
%
method: AbstractException
stackReport
  ^'(the model keeps no stack report)'
%
method: Error
isResumable
  ^false
%
method: MessageNotUnderstood
_receiver: anObject selector: aSelector
  self _instVarAt: 10 put: (Array with: anObject with: aSelector with: #()).
  self _instVarAt: 3 put: 2010.
  self _instVarAt: 7 put: 'a ' , anObject class name asString , ' does not understand  #' , aSelector
%
method: MessageNotUnderstood
isResumable
  ^true
%
method: ExceptionSet
_add: aClass
  self _grow: 1; _at: self _size put: aClass
%
method: ExceptionSet
, another
  ^ExceptionSet new _addAll: self; _add: another; yourself
%
method: ExceptionSet
_addAll: aSet
  1 to: aSet _size do: [:i | self _add: (aSet _at: i)]
%
method: ExceptionSet
handles: anException
  1 to: self _size do: [:i | ((self _at: i) handles: anException) ifTrue: [^true]].
  ^false
%
