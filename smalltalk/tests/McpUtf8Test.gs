set compile_env: 0
! ------------------- Class definition for McpUtf8Test
expectvalue /Class
doit
McpTestCase subclass: 'McpUtf8Test'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpUtf8Test comment: 
'The inbound half of the UTF-8 wire: McpJson decodes the bytes of a body into the String family,
refuses every malformed sequence (truncated, overlong, an encoded surrogate, past U+10FFFF, a bad
continuation) naming the zero-based offset of its first byte, and folds an escaped surrogate
pair into one character before the kernel parser sees it. Touches nothing in the repository.'
%
expectvalue /Class
doit
McpUtf8Test category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpUtf8Test
removeallmethods McpUtf8Test
removeallclassmethods McpUtf8Test
! ------------------- Instance methods for McpUtf8Test
category: 'helpers'
method: McpUtf8Test
refusalOffsetFor: anArrayOfIntegers
  "The offset McpJson names when it refuses these bytes, or nil when it accepts them."
  ^[McpJson decodeUtf8: (self bytes: anArrayOfIntegers). nil]
    on: McpError
    do: [:ex |
      self assert: ex kind = 'invalidUtf8'.
      ex return: (ex extraFields at: 'offset')]
%
category: 'tests'
method: McpUtf8Test
testAsciiIsAnsweredUnchanged
  self assert: (McpJson decodeUtf8: 'plain {"a":1}') = 'plain {"a":1}'
%
category: 'tests'
method: McpUtf8Test
testAsciiByteArrayIsDecodedAsItsBytes
  "McpChannel reads every router frame into a ByteArray and McpJson parse: decodes it; a
   ByteArray's asString is its print string, so the bytes must be decoded as bytes."
  | codes bytes |
  codes := #(123 34 111 107 34 58 49).
  bytes := ByteArray new: codes size.
  1 to: codes size do: [:index | bytes at: index put: (codes at: index)].
  self assert: (McpJson decodeUtf8: bytes) = '{"ok":1'.
  self assert: (McpJson decodeUtf8: bytes) class == String.
  self assert: ((McpJson parse: ('{"ok":true}' asByteArray)) at: 'ok') == true
%
category: 'tests'
method: McpUtf8Test
testBadContinuationNamesTheLeadByte
  self assert: (self refusalOffsetFor: #(97 98 99 226 65 65)) = 3
%
category: 'tests'
method: McpUtf8Test
testBeyondU10FFFFIsRefused
  self assert: (self refusalOffsetFor: #(244 144 128 128)) = 0.
  self assert: (self refusalOffsetFor: #(245 128 128 128)) = 0
%
category: 'tests'
method: McpUtf8Test
testEncodedSurrogateIsRefused
  self assert: (self refusalOffsetFor: #(120 237 160 128)) = 1
%
category: 'tests'
method: McpUtf8Test
testEscapedBackslashDoesNotStartAnEscape
  "The JSON text is a backslash, uD83D, a backslash, uDE00: twelve characters, no emoji."
  | text |
  text := '"\\uD83D\\uDE00"'.
  self assert: (McpJson combineSurrogateEscapesIn: text) = text.
  self assert: (McpJson parse: text) size = 12
%
category: 'tests'
method: McpUtf8Test
testEscapedSurrogatePairBecomesOneCharacter
  | value |
  value := McpJson parse: '{"t":"a\uD83D\uDE00b"}'.
  self assert: (value at: 't') size = 3.
  self assert: ((value at: 't') at: 2) codePoint = 128512
%
category: 'tests'
method: McpUtf8Test
testLoneHighSurrogateEscapeIsLeftAlone
  self assert: (McpJson combineSurrogateEscapesIn: '"\uD83Dx"') = '"\uD83Dx"'
%
category: 'tests'
method: McpUtf8Test
testMalformedJsonIsParseError
  | kind |
  kind := [McpJson parse: '{"a":'. nil] on: McpError do: [:ex | ex return: ex kind].
  self assert: kind = 'parseError'.
  kind := [McpJson parse: '   '. nil] on: McpError do: [:ex | ex return: ex kind].
  self assert: kind = 'parseError'
%
category: 'tests'
method: McpUtf8Test
testMultiByteSequencesDecode
  | text |
  text := McpJson decodeUtf8: (self bytes: #(195 169 226 130 172 240 159 152 128)).
  self assert: text size = 3.
  self assert: (text at: 1) codePoint = 233.
  self assert: (text at: 2) codePoint = 8364.
  self assert: (text at: 3) codePoint = 128512
%
category: 'tests'
method: McpUtf8Test
testNarrowTextStaysAString
  "A Latin-1 codepoint decodes into a String, so it compares with String keys without raising."
  | value |
  value := McpJson parse: (self bytes: #(123 34 107 34 58 34 195 169 34 125)).
  self assert: ((value at: 'k') isKindOf: String).
  self assert: (value at: 'k') = (String with: (Character codePoint: 233))
%
category: 'tests'
method: McpUtf8Test
testOverlongFormsAreRefused
  self assert: (self refusalOffsetFor: #(192 175)) = 0.
  self assert: (self refusalOffsetFor: #(97 224 128 175)) = 1.
  self assert: (self refusalOffsetFor: #(240 128 128 175)) = 0
%
category: 'tests'
method: McpUtf8Test
testTextWithoutBackslashIsAnsweredItself
  | text |
  text := '{"a":"b"}'.
  self assert: (McpJson combineSurrogateEscapesIn: text) == text
%
category: 'tests'
method: McpUtf8Test
testTruncatedSequenceNamesItsFirstByte
  self assert: (self refusalOffsetFor: #(97 98 195)) = 2.
  self assert: (self refusalOffsetFor: #(240 159 152)) = 0
%
category: 'tests'
method: McpUtf8Test
testWellFormedInputIsAccepted
  self assert: (self refusalOffsetFor: #(194 128 223 191 224 160 128 239 191 191 240 144 128 128 244 143 191 191)) isNil
%
