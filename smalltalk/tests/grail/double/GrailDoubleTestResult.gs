set compile_env: 0
! ------------------- Class definition for GrailDoubleTestResult
expectvalue /Class
doit
TestResult subclass: 'GrailDoubleTestResult'
  instVarNames: #( details)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleTestResult comment: 
'TEST DOUBLE of Grail''s GrailTestResult (GemTalk/Grail src/smalltalk/PythonTests/GrailTestResult.gs),
bound as GrailTestResult in the model only. As Grail''s does, run: runs a suite into a new result
and details answers one {kind. testCase. message. stack} per defect in the order met: kind FAIL
for a TestFailure and ERROR for an Error, the message the exception''s messageText (its class name
when that is nil), the stack nil for a failure. For an error Grail answers the frames of the live
stack between the capture and SUnit; the model keeps no stack, so the double answers one frame
naming the test method, which is all a suite here may assume about it.'
%
expectvalue /Class
doit
GrailDoubleTestResult category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleTestResult
removeallmethods GrailDoubleTestResult
removeallclassmethods GrailDoubleTestResult
! ------------------- Class methods for GrailDoubleTestResult
category: 'Grail API'
classmethod: GrailDoubleTestResult
run: aTestSuite
  | result |
  result := self new.
  aTestSuite tests do: [:each | result runCase: each].
  ^result
%
! ------------------- Instance methods for GrailDoubleTestResult
category: 'Grail API'
method: GrailDoubleTestResult
details
  details isNil ifTrue: [details := OrderedCollection new].
  ^details
%
category: 'running'
method: GrailDoubleTestResult
runCase: aTestCase
  [[aTestCase runCase. self passed add: aTestCase]
    on: TestFailure
    do: [:ex |
      self record: 'FAIL' for: aTestCase text: (self textOf: ex) stack: nil.
      self failures add: aTestCase.
      ex return: nil]]
    on: Error
    do: [:ex |
      self record: 'ERROR' for: aTestCase text: (self textOf: ex) stack: (self stackOf: aTestCase).
      self errors add: aTestCase.
      ex return: nil]
%
category: 'running'
method: GrailDoubleTestResult
record: aKind for: aTestCase text: aText stack: aStackOrNil
  self details add: (Array with: aKind with: aTestCase with: aText with: aStackOrNil)
%
category: 'running'
method: GrailDoubleTestResult
textOf: anException
  | text |
  text := anException messageText.
  ^text isNil ifTrue: [anException class name asString] ifFalse: [text asString]
%
category: 'running'
method: GrailDoubleTestResult
stackOf: aTestCase
  ^aTestCase class name asString , ' >> ' , aTestCase selector asString
%
