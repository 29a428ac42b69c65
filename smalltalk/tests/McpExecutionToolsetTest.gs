set compile_env: 0
! ------------------- Class definition for McpExecutionToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpExecutionToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpExecutionToolsetTest comment: 
'execute_code as an agent meets it: the printString of the value, what Transcript received during
the call ahead of it, maxChars capping both, the session''s own transcript stream put back after
the call, and a compile error reported with the compiler''s own error numbers.'
%
expectvalue /Class
doit
McpExecutionToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpExecutionToolsetTest
removeallmethods McpExecutionToolsetTest
removeallclassmethods McpExecutionToolsetTest
! ------------------- Class methods for McpExecutionToolsetTest
! ------------------- Instance methods for McpExecutionToolsetTest
category: 'running'
method: McpExecutionToolsetTest
toolsetClasses
  ^{McpExecutionToolset}
%
category: 'tests'
method: McpExecutionToolsetTest
testWithoutTranscriptOutputTheAnswerIsThePrintString
  self assert: (self callTool: 'execute_code' with: {'code'. '3 + 4'}) = '7'
%
category: 'tests'
method: McpExecutionToolsetTest
testTranscriptOutputComesAheadOfTheValue
  | lf |
  lf := String with: Character lf.
  self
    assert: (self callTool: 'execute_code' with: {'code'. 'Transcript show: ''hello''; show: '' world''. 6 * 7'})
    = ('Transcript (11 characters):' , lf , 'hello world' , lf , 'Value: 42')
%
category: 'tests'
method: McpExecutionToolsetTest
testTheSessionsOwnTranscriptStreamIsPutBack
  | temps previous mine |
  temps := SessionTemps current.
  previous := temps at: #TranscriptStream_SessionStream otherwise: nil.
  mine := WriteStream on: String new.
  temps at: #TranscriptStream_SessionStream put: mine.
  [self callTool: 'execute_code' with: {'code'. 'Transcript show: ''captured''. 1'}.
   self assert: (temps at: #TranscriptStream_SessionStream otherwise: nil) == mine.
   self assert: mine contents isEmpty]
    ensure: [temps at: #TranscriptStream_SessionStream put: previous]
%
category: 'tests'
method: McpExecutionToolsetTest
testMaxCharsCapsTheValueWithAMarker
  self
    assert: (self callTool: 'execute_code' with: {'code'. '''abcdefghij'''. 'maxChars'. 4})
    = ('''abc' , (McpServer truncationMarkerShowing: 4 of: 12)).
  self
    assert: (self callTool: 'execute_code' with: {'code'. '1000'. 'maxChars'. 0})
    = (McpServer truncationMarkerShowing: 0 of: 4)
%
category: 'tests'
method: McpExecutionToolsetTest
testANegativeMaxCharsIsInvalidParams
  self
    assert: (self failureKindOf: 'execute_code' with: {'code'. '1'. 'maxChars'. -1})
    = 'invalidParams'
%
category: 'tests'
method: McpExecutionToolsetTest
testACompileErrorCarriesTheCompilersErrors
  | failure |
  failure := self failureOf: 'execute_code' with: {'code'. '| t t | t := 1'}.
  self assert: failure kind = 'compileError'.
  self assert: (self text: failure messageText includes: 'already been declared: t (error 1030)')
    description: failure messageText.
  self assert: ((failure extraFields at: 'errors') first at: 'number') = 1030
%
