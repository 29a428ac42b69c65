set compile_env: 0
! ------------------- Class definition for McpTestCase
expectvalue /Class
doit
TestCase subclass: 'McpTestCase'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTestCase comment: 
'Abstract: the helpers the worker-core suites share, so each suite states only what it tests.
The kind of the McpError a block signals, whether a text holds a part, and Strings built from
code points or from copies of one character with nothing but what every extent has.'
%
expectvalue /Class
doit
McpTestCase category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpTestCase
removeallmethods McpTestCase
removeallclassmethods McpTestCase
! ------------------- Class methods for McpTestCase
category: 'testing'
classmethod: McpTestCase
isAbstract
  ^self == McpTestCase
%
! ------------------- Instance methods for McpTestCase
category: 'helpers'
method: McpTestCase
bytes: anArrayOfIntegers
  "A String of the characters with these code points."
  | out |
  out := WriteStream on: String new.
  anArrayOfIntegers do: [:each | out nextPut: (Character codePoint: each)].
  ^out contents
%
category: 'helpers'
method: McpTestCase
includes: aPart in: aString
  ^(aString findString: aPart startingAt: 1) > 0
%
category: 'helpers'
method: McpTestCase
kindRaisedBy: aBlock
  "The kind of the McpError aBlock signals, or nil when it signals none."
  ^[aBlock value. nil] on: McpError do: [:ex | ex return: ex kind]
%
category: 'helpers'
method: McpTestCase
string: aSize of: aCharacter
  "aSize copies of aCharacter, built from what every extent has."
  | out |
  out := WriteStream on: String new.
  aSize timesRepeat: [out nextPut: aCharacter].
  ^out contents
%
