set compile_env: 0
! ------------------- Class definition for McpJson
expectvalue /Class
doit
Object subclass: 'McpJson'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpJson comment: 
'The UTF-8 JSON edge of the worker, class side only.

Out: write: renders a Dictionary, Array, String, Number, Boolean or nil as a byte String of
UTF-8. Only the quote, the backslash and the C0 controls are escaped; every other character is
written as its UTF-8 bytes, a codepoint above U+FFFF as four of them. It replaces Object asJson,
whose escaping keeps only part of an astral codepoint. Object keys are written in sorted order,
so the same value always renders to the same bytes.

In: parse: decodes the UTF-8 bytes of a body into the String family (String, or a wider String
when a codepoint needs it), combines surrogate-pair escapes into the one character they spell
(the kernel parser refuses each half), then hands the text to JsonParser. A malformed UTF-8
sequence is refused with an McpError of kind invalidUtf8 naming the zero-based byte offset, and
text the parser refuses with kind parseError. It never repairs a body into different text.'
%
expectvalue /Class
doit
McpJson category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpJson
removeallmethods McpJson
removeallclassmethods McpJson
! ------------------- Class methods for McpJson
category: 'reading'
classmethod: McpJson
byteAt: anIndex in: aByteObject
  "The byte at anIndex of a byte String (a Character) or of a ByteArray (an Integer)."
  | element |
  element := aByteObject at: anIndex.
  (element isKindOf: Integer) ifTrue: [^element].
  ^element codePoint
%
category: 'reading'
classmethod: McpJson
combineSurrogateEscapesIn: aString
  "Fold each escaped surrogate pair into the character it spells; answer aString itself when it
   holds no backslash. An escaped backslash is copied whole, so its second half never starts
   an escape."
  | in out |
  (aString indexOf: $\) = 0 ifTrue: [^aString].
  in := ReadStream on: aString.
  out := WriteStream on: String new.
  [in atEnd] whileFalse: [self copyEscapeFrom: in to: out].
  ^out contents
%
category: 'reading'
classmethod: McpJson
copyEscapeFrom: in to: out
  "Copy one character, or one escape sequence, from in to out."
  | ch high low |
  ch := in next.
  (ch = $\ and: [in atEnd not]) ifFalse: [^out nextPut: ch].
  (in peek = $u) ifFalse: [^out nextPut: ch; nextPut: in next].
  high := self hexValueAfterU: in.
  high isNil ifTrue: [^out nextPut: ch].
  (self isHighSurrogate: high) ifFalse: [^self writeUEscape: high on: out].
  low := self lowSurrogateAfter: in.
  low isNil ifTrue: [^self writeUEscape: high on: out].
  out nextPut: (Character codePoint: 65536 + ((high - 55296) * 1024) + (low - 56320))
%
category: 'reading'
classmethod: McpJson
decodeUtf8: aByteObject
  "Answer the text the UTF-8 bytes spell, in the String family. Signals McpError kind invalidUtf8
   with details offset (zero-based, the first byte of the bad sequence) on malformed input. A
   ByteArray is decoded byte by byte even when it is all ASCII: its asString is the print
   string of the object, not its bytes as text."
  | size index out |
  ((aByteObject isKindOf: CharacterCollection) and: [self isAscii: aByteObject])
    ifTrue: [^aByteObject asString].
  size := aByteObject size.
  index := 1.
  out := WriteStream on: String new.
  [index <= size] whileTrue: [
    index := self decodeSequenceAt: index in: aByteObject size: size on: out].
  ^out contents
%
category: 'reading'
classmethod: McpJson
decodeSequenceAt: index in: bytes size: size on: out
  "Decode the sequence that starts at index onto out; answer the index after it."
  | lead need codePoint next |
  lead := self byteAt: index in: bytes.
  lead < 128 ifTrue: [out nextPut: (Character codePoint: lead). ^index + 1].
  need := self continuationCountFor: lead.
  need isNil ifTrue: [^self refuseUtf8At: index].
  index + need > size ifTrue: [^self refuseUtf8At: index].
  codePoint := lead - (#(192 224 240) at: need).
  1 to: need do: [:k |
    next := self byteAt: index + k in: bytes.
    (next >= 128 and: [next <= 191]) ifFalse: [^self refuseUtf8At: index].
    codePoint := (codePoint * 64) + (next - 128)].
  (self isValidCodePoint: codePoint length: need) ifFalse: [^self refuseUtf8At: index].
  out nextPut: (Character codePoint: codePoint).
  ^index + need + 1
%
category: 'reading'
classmethod: McpJson
continuationCountFor: aLeadByte
  "How many continuation bytes follow aLeadByte, or nil when it cannot start a sequence.
   0xC0, 0xC1 and 0xF5-0xFF never can."
  (aLeadByte >= 194 and: [aLeadByte <= 223]) ifTrue: [^1].
  (aLeadByte >= 224 and: [aLeadByte <= 239]) ifTrue: [^2].
  (aLeadByte >= 240 and: [aLeadByte <= 244]) ifTrue: [^3].
  ^nil
%
category: 'reading'
classmethod: McpJson
hexValueAfterU: in
  "in is positioned on the u of a backslash-u escape. When four hex digits follow, consume the u
   and the digits and answer their value; otherwise consume nothing and answer nil."
  | start digits value |
  start := in position.
  in next.
  value := 0.
  1 to: 4 do: [:k |
    digits := in atEnd ifTrue: [nil] ifFalse: [self hexDigitValue: in next].
    digits isNil ifTrue: [in position: start. ^nil].
    value := (value * 16) + digits].
  ^value
%
category: 'reading'
classmethod: McpJson
hexDigitValue: aCharacter
  "The value of a hexadecimal digit, either case, or nil for any other character."
  | code |
  code := aCharacter codePoint.
  (code >= 48 and: [code <= 57]) ifTrue: [^code - 48].
  (code >= 65 and: [code <= 70]) ifTrue: [^code - 55].
  (code >= 97 and: [code <= 102]) ifTrue: [^code - 87].
  ^nil
%
category: 'reading'
classmethod: McpJson
isAscii: aByteObject
  1 to: aByteObject size do: [:k |
    (self byteAt: k in: aByteObject) >= 128 ifTrue: [^false]].
  ^true
%
category: 'reading'
classmethod: McpJson
isHighSurrogate: aCodePoint
  ^aCodePoint >= 55296 and: [aCodePoint <= 56319]
%
category: 'reading'
classmethod: McpJson
isLowSurrogate: aCodePoint
  ^aCodePoint >= 56320 and: [aCodePoint <= 57343]
%
category: 'reading'
classmethod: McpJson
isValidCodePoint: aCodePoint length: continuationCount
  "Refuse overlong forms, encoded surrogates and anything past U+10FFFF."
  aCodePoint < (#(128 2048 65536) at: continuationCount) ifTrue: [^false].
  (aCodePoint >= 55296 and: [aCodePoint <= 57343]) ifTrue: [^false].
  ^aCodePoint <= 1114111
%
category: 'reading'
classmethod: McpJson
lowSurrogateAfter: in
  "When the next six characters are a backslash-u escape of a low surrogate, consume them and
   answer its value; otherwise consume nothing and answer nil."
  | start value |
  start := in position.
  (in atEnd not and: [in next = $\]) ifFalse: [in position: start. ^nil].
  (in atEnd not and: [in peek = $u]) ifFalse: [in position: start. ^nil].
  value := self hexValueAfterU: in.
  (value notNil and: [self isLowSurrogate: value]) ifTrue: [^value].
  in position: start.
  ^nil
%
category: 'reading'
classmethod: McpJson
parse: aByteObject
  "The JSON value the UTF-8 bytes hold. Signals McpError kind invalidUtf8 or parseError."
  | text value failed |
  text := self combineSurrogateEscapesIn: (self decodeUtf8: aByteObject).
  (self isBalanced: text) ifFalse: [^self refuseJson].
  failed := false.
  value := [JsonParser parse: text]
    on: Error
    do: [:ex | failed := true. ex return: nil].
  failed ifTrue: [^self refuseJson].
  ^value
%
category: 'reading'
classmethod: McpJson
isArray: aValue
  "Whether aValue is what a JSON array parses to. The parser is assumed to answer an Array, but
   any sequenceable collection that is not text is taken, so that code does not depend on it."
  (aValue isKindOf: SequenceableCollection) ifFalse: [^false].
  ^(aValue isKindOf: CharacterCollection) not
%
category: 'reading'
classmethod: McpJson
isBalanced: aString
  "Whether aString holds something and closes every string, object and array it opens. The
   kernel parser is lenient about some malformed text; a truncated body must not get through."
  | depth inString escaped |
  aString trimSeparators isEmpty ifTrue: [^false].
  depth := 0.
  inString := false.
  escaped := false.
  aString do: [:ch |
    inString
      ifTrue: [
        escaped
          ifTrue: [escaped := false]
          ifFalse: [ch = $\ ifTrue: [escaped := true]. ch = $" ifTrue: [inString := false]]]
      ifFalse: [
        ch = $" ifTrue: [inString := true].
        (ch = ${ or: [ch = $[]) ifTrue: [depth := depth + 1].
        (ch = $} or: [ch = $]]) ifTrue: [
          depth := depth - 1.
          depth < 0 ifTrue: [^false]]]].
  ^inString not and: [depth = 0]
%
category: 'reading'
classmethod: McpJson
refuseJson
  "Signal parseError for a body the parser or the balance check refused."
  ^McpError
    signalKind: 'parseError'
    message: 'the message is not well-formed JSON'
%
category: 'reading'
classmethod: McpJson
refuseUtf8At: anIndex
  "Signal invalidUtf8 with the zero-based offset of the first byte of the bad sequence."
  | offset |
  offset := anIndex - 1.
  ^McpError
    signalKind: 'invalidUtf8'
    message: 'the message is not UTF-8: invalid byte at offset ' , offset printString
    details: (Dictionary new at: 'offset' put: offset; yourself)
%
category: 'reading'
classmethod: McpJson
writeUEscape: aCodePoint on: out
  "Write a backslash-u escape of aCodePoint, as four uppercase hex digits."
  | digits value |
  digits := String new: 4.
  value := aCodePoint.
  4 to: 1 by: -1 do: [:k |
    digits at: k put: ('0123456789ABCDEF' at: (value \\ 16) + 1).
    value := value // 16].
  out nextPut: $\; nextPut: $u; nextPutAll: digits
%
category: 'writing'
classmethod: McpJson
isJsonNumberText: aString
  "Whether a Float printString is a number JSON can carry (not NaN, not an infinity)."
  aString isEmpty ifTrue: [^false].
  aString do: [:ch |
    ('0123456789.eE+-' includes: ch) ifFalse: [^false]].
  ^(aString at: aString size) isDigit
%
category: 'writing'
classmethod: McpJson
keyString: aKey
  "An object key as a String: a key that is not text is written as its print string."
  (aKey isKindOf: CharacterCollection) ifTrue: [^aKey].
  ^aKey printString
%
category: 'writing'
classmethod: McpJson
sortedKeysOf: aDictionary
  "The keys in the order the writer emits them, sorted by their text, so equal objects are equal
   bytes."
  | keys |
  keys := OrderedCollection new.
  aDictionary keysAndValuesDo: [:key :value | keys add: key].
  ^keys asSortedCollection: [:a :b | (self keyString: a) asString <= (self keyString: b) asString]
%
category: 'writing'
classmethod: McpJson
write: anObject
  "Answer anObject as JSON: a byte String of UTF-8."
  | out |
  out := WriteStream on: String new.
  self write: anObject on: out.
  ^out contents
%
category: 'writing'
classmethod: McpJson
write: anObject on: out
  "Write anObject as JSON: nil, booleans, strings, numbers, dictionaries and sequenceable
   collections; anything else is written as its print string."
  anObject isNil ifTrue: [^out nextPutAll: 'null'].
  anObject == true ifTrue: [^out nextPutAll: 'true'].
  anObject == false ifTrue: [^out nextPutAll: 'false'].
  (anObject isKindOf: CharacterCollection) ifTrue: [^self writeString: anObject on: out].
  (anObject isKindOf: Integer) ifTrue: [^out nextPutAll: anObject printString].
  (anObject isKindOf: Number) ifTrue: [^self writeNumber: anObject on: out].
  (anObject isKindOf: Dictionary) ifTrue: [^self writeObject: anObject on: out].
  (anObject isKindOf: SequenceableCollection) ifTrue: [^self writeArray: anObject on: out].
  ^self writeString: anObject printString on: out
%
category: 'writing'
classmethod: McpJson
writeArray: aCollection on: out
  out nextPut: $[.
  1 to: aCollection size do: [:index |
    index > 1 ifTrue: [out nextPut: $,].
    self write: (aCollection at: index) on: out].
  out nextPut: $]
%
category: 'writing'
classmethod: McpJson
writeCharacter: aCharacter on: out
  "Escape the quote, the backslash and the C0 controls; write every other character as its UTF-8
   bytes."
  | code |
  code := aCharacter codePoint.
  code = 34 ifTrue: [^out nextPut: $\; nextPut: $"].
  code = 92 ifTrue: [^out nextPut: $\; nextPut: $\].
  code < 32 ifTrue: [^self writeControl: code on: out].
  code < 128 ifTrue: [^out nextPut: aCharacter].
  self writeUtf8CodePoint: code on: out
%
category: 'writing'
classmethod: McpJson
writeControl: aCode on: out
  "The short escapes RFC 8259 names, else a backslash-u escape."
  | letters |
  letters := Dictionary new
    at: 8 put: $b; at: 9 put: $t; at: 10 put: $n; at: 12 put: $f; at: 13 put: $r; yourself.
  (letters includesKey: aCode)
    ifTrue: [out nextPut: $\; nextPut: (letters at: aCode)]
    ifFalse: [self writeUEscape: aCode on: out]
%
category: 'writing'
classmethod: McpJson
writeNumber: aNumber on: out
  "A non-integer as its Float print string when that is a JSON number, else null."
  | text |
  text := aNumber asFloat printString.
  (self isJsonNumberText: text)
    ifTrue: [out nextPutAll: text]
    ifFalse: [out nextPutAll: 'null']
%
category: 'writing'
classmethod: McpJson
writeObject: aDictionary on: out
  "A JSON object with its members in key order."
  | first |
  out nextPut: ${.
  first := true.
  (self sortedKeysOf: aDictionary) do: [:key |
    first ifFalse: [out nextPut: $,].
    first := false.
    self writeString: (self keyString: key) on: out.
    out nextPut: $:.
    self write: (aDictionary at: key) on: out].
  out nextPut: $}
%
category: 'writing'
classmethod: McpJson
writeString: aString on: out
  out nextPut: $".
  aString do: [:ch | self writeCharacter: ch on: out].
  out nextPut: $"
%
category: 'writing'
classmethod: McpJson
writeUtf8CodePoint: aCodePoint on: out
  "Write the UTF-8 bytes of aCodePoint as byte characters. A lone surrogate, which no valid
   text holds, is written as U+FFFD."
  | code |
  code := (self isHighSurrogate: aCodePoint) | (self isLowSurrogate: aCodePoint)
    ifTrue: [65533] ifFalse: [aCodePoint].
  code < 128 ifTrue: [^self writeBytes: {code} on: out].
  code < 2048 ifTrue: [^self writeBytes: {192 + (code // 64). 128 + (code \\ 64)} on: out].
  code < 65536 ifTrue: [
    ^self writeBytes: {224 + (code // 4096). 128 + ((code // 64) \\ 64). 128 + (code \\ 64)} on: out].
  self writeBytes: {240 + (code // 262144). 128 + ((code // 4096) \\ 64).
    128 + ((code // 64) \\ 64). 128 + (code \\ 64)} on: out
%
category: 'writing'
classmethod: McpJson
writeBytes: anArrayOfIntegers on: out
  "Each byte as the character of that code, so the String holds UTF-8 bytes."
  anArrayOfIntegers do: [:byte | out nextPut: (Character codePoint: byte)]
%
