set compile_env: 0
! ------------------- Class definition for McpJsonTest
expectvalue /Class
doit
TestCase subclass: 'McpJsonTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpJsonTest comment: 
'The outbound half of the UTF-8 wire: McpJson write: answers a byte String of UTF-8, escapes only
the quote, the backslash and the C0 controls, writes an astral codepoint as four bytes, sorts
object keys, and agrees with the kernel encoder encodeAsUTF8 on every sequence-length boundary.
Touches nothing in the repository.'
%
expectvalue /Class
doit
McpJsonTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpJsonTest
removeallmethods McpJsonTest
removeallclassmethods McpJsonTest
! ------------------- Instance methods for McpJsonTest
category: 'helpers'
method: McpJsonTest
bytesOf: aByteString
  "The codepoints of a byte String, as an Array of Integers."
  ^(aByteString asArray collect: [:each | each codePoint]) asArray
%
category: 'helpers'
method: McpJsonTest
kernelUtf8Of: aCodePoint
  "The bytes the kernel encoder answers for one codepoint, as an Array of Integers."
  | stream |
  stream := WriteStream on: Unicode7 new.
  stream nextPut: (Character codePoint: aCodePoint).
  ^stream contents encodeAsUTF8 asByteArray asArray
%
category: 'helpers'
method: McpJsonTest
stringWith: aCodePoint
  | stream |
  stream := WriteStream on: String new.
  stream nextPut: (Character codePoint: aCodePoint).
  ^stream contents
%
category: 'tests'
method: McpJsonTest
testAstralCodePointIsWrittenAsFourBytes
  self assert: (self bytesOf: (McpJson write: (self stringWith: 128512)))
    = #(34 240 159 152 128 34)
%
category: 'tests'
method: McpJsonTest
testControlsAreEscaped
  self assert: (McpJson write: (String with: Character tab with: Character lf)) = '"\t\n"'.
  self assert: (McpJson write: (self stringWith: 1)) = '"\u0001"'.
  self assert: (McpJson write: (self stringWith: 31)) = '"\u001F"'
%
category: 'tests'
method: McpJsonTest
testNestedValuesRender
  | value |
  value := Dictionary new
    at: 'list' put: {1. nil. true. 'x'};
    at: 'empty' put: Dictionary new;
    yourself.
  self assert: (McpJson write: value) = '{"empty":{},"list":[1,null,true,"x"]}'
%
category: 'tests'
method: McpJsonTest
testObjectKeysAreSorted
  | value |
  value := Dictionary new at: 'b' put: 2; at: 'a' put: 1; at: 'c' put: 3; yourself.
  self assert: (McpJson write: value) = '{"a":1,"b":2,"c":3}'
%
category: 'tests'
method: McpJsonTest
testOnlyQuoteAndBackslashAreEscapedAmongPrintables
  self assert: (McpJson write: 'a"b\c/d<e>') = '"a\"b\\c/d<e>"'
%
category: 'tests'
method: McpJsonTest
testOutputIsAByteString
  self assert: (McpJson write: (self stringWith: 128512)) class == String.
  self assert: (McpJson write: (self stringWith: 8364)) class == String
%
category: 'tests'
method: McpJsonTest
testRoundTripKeepsAstralText
  | text parsed |
  text := 'smile ' , (self stringWith: 128512).
  parsed := McpJson parse: (McpJson write: (Dictionary new at: 'text' put: text; yourself)).
  self assert: (parsed at: 'text') size = 7.
  self assert: ((parsed at: 'text') at: 7) codePoint = 128512
%
category: 'tests'
method: McpJsonTest
testScalarsRender
  self assert: (McpJson write: nil) = 'null'.
  self assert: (McpJson write: true) = 'true'.
  self assert: (McpJson write: false) = 'false'.
  self assert: (McpJson write: 42) = '42'.
  self assert: (McpJson write: -7) = '-7'.
  self assert: (McpJson write: 'x') = '"x"'.
  self assert: (McpJson write: #sym) = '"sym"'
%
category: 'tests'
method: McpJsonTest
testTwoAndThreeByteCodePointsAreUtf8
  self assert: (self bytesOf: (McpJson write: (self stringWith: 233))) = #(34 195 169 34).
  self assert: (self bytesOf: (McpJson write: (self stringWith: 8364))) = #(34 226 130 172 34)
%
category: 'tests'
method: McpJsonTest
testUtf8AgreesWithKernelEncoderAtEveryBoundary
  #(0 127 128 233 2047 2048 8364 55295 57344 65533 65535 65536 128512 1114111) do: [:code |
    | out |
    out := WriteStream on: String new.
    McpJson writeUtf8CodePoint: code on: out.
    self assert: (self bytesOf: out contents) = (self kernelUtf8Of: code)]
%
