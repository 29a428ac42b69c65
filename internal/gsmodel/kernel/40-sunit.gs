! The model's kernel, part 5: SUnit as GemStone ships it (gemstone-smalltalk.md s7): TestCase
! with testSelector, TestSuite, TestResult whose failures and errors hold the TestCase instances
! (JAS, "verified via probe"; the kernel-facts suite pins it), TestFailure outside Error.
set compile_env: 0
run
Exception subclass: 'TestFailure' instVarNames: #() classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
Object subclass: 'TestCase' instVarNames: #(testSelector) classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
true
%
run
TestCase subclass: 'GsTestCase' instVarNames: #() classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
Object subclass: 'TestResult' instVarNames: #(passed failures errors) classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
Object subclass: 'TestSuite' instVarNames: #(name tests) classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
TestFailure subclass: 'ResumableTestFailure' instVarNames: #() classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
TestCase subclass: 'SUnitTest' instVarNames: #() classVars: #() classInstVars: #()
  poolDictionaries: #() inDictionary: Globals options: #().
true
%
category: 'kernel'
method: TestFailure
isResumable
  ^false
%
classmethod: TestCase
selector: aSymbol
  ^self new _setTestSelector: aSymbol
%
classmethod: TestCase
isAbstract
  ^self == TestCase or: [self == GsTestCase]
%
classmethod: TestCase
testSelectors
  | all cls |
  all := Set new.
  cls := self.
  [cls isNil or: [cls == TestCase]] whileFalse: [
    cls selectors do: [:s | ((s beginsWith: 'test') and: [(s indexOf: $:) = 0]) ifTrue: [all add: s]].
    cls := cls superclass].
  ^all asSortedCollection: [:a :b | a <= b]
%
classmethod: TestCase
suite
  "An abstract class's suite holds the tests of its concrete subclasses (GemTalk/Jasper
   client/src/queries/__tests__/querySunit.integration.test.ts: an abstract TestCase's suite
   cascades into its concrete subclasses, on 3.6.2 and 3.7.5 stones)."
  | suite |
  suite := TestSuite named: self name asString.
  self isAbstract
    ifTrue: [
      (ClassOrganizer new allSubclassesOf: self) do: [:c |
        c isAbstract ifFalse: [suite addTests: c suite tests]]]
    ifFalse: [self testSelectors do: [:s | suite _addTest: (self selector: s)]].
  ^suite
%
classmethod: TestCase
debug: aSymbol
  ^(self selector: aSymbol) runCase
%
method: TestCase
_setTestSelector: aSymbol
  testSelector := aSymbol
%
method: TestCase
selector
  ^testSelector
%
method: TestCase
setUp
%
method: TestCase
tearDown
%
method: TestCase
runCase
  [self setUp.
   self perform: testSelector] ensure: [self tearDown]
%
method: TestCase
run
  | result |
  result := TestResult new.
  result runCase: self.
  ^result
%
method: TestCase
assert: aBoolean
  aBoolean == true ifFalse: [TestFailure new signal: 'Assertion failed']
%
method: TestCase
assert: aBoolean description: aText
  aBoolean == true ifFalse: [TestFailure new signal: aText]
%
method: TestCase
deny: aBoolean
  self assert: aBoolean == false
%
method: TestCase
deny: aBoolean description: aText
  self assert: aBoolean == false description: aText
%
method: TestCase
assert: actual equals: expected
  expected = actual ifFalse: [
    TestFailure new signal: 'Expected ' , expected printString , ' but was ' , actual printString]
%
method: TestCase
should: aBlock raise: anExceptionClass
  | raised |
  raised := false.
  aBlock on: anExceptionClass do: [:ex | raised := true. ex return: nil].
  self assert: raised description: 'Expected ' , anExceptionClass name asString , ' to be signalled'
%
method: TestCase
shouldnt: aBlock raise: anExceptionClass
  | raised |
  raised := false.
  aBlock on: anExceptionClass do: [:ex | raised := true. ex return: nil].
  self deny: raised description: 'Did not expect ' , anExceptionClass name asString
%
method: TestCase
printOn: aStream
  aStream nextPutAll: self printString
%
method: TestCase
printString
  "Cls debug: #testFoo (gemstone-smalltalk.md s7: JAS, verified via probe)."
  ^self class name asString , ' debug: #' , testSelector asString
%
method: SUnitTest
testAssert
  "A pristine extent's SUnitTest>>testAssert passes (GemTalk/mcp_server McpToolTest.gs,
   testDescribeTestFailureOnPassingTest); the model's own body exercises assert: and deny:."
  self assert: true.
  self deny: false
%
method: TestResult
_init
  passed := OrderedCollection new.
  failures := OrderedCollection new.
  errors := OrderedCollection new
%
classmethod: TestResult
new
  ^self basicNew _init; yourself
%
method: TestResult
runCase: aTestCase
  [[aTestCase runCase. passed add: aTestCase]
     on: TestFailure do: [:ex | failures add: aTestCase. aTestCase _noteFailure: ex. ex return: nil]]
     on: Error do: [:ex | errors add: aTestCase. aTestCase _noteFailure: ex. ex return: nil]
%
method: TestResult
passed
  ^passed
%
method: TestResult
failures
  ^failures
%
method: TestResult
errors
  ^errors
%
method: TestResult
runCount
  ^passed size + failures size + errors size
%
method: TestResult
passedCount
  ^passed size
%
method: TestResult
failureCount
  ^failures size
%
method: TestResult
errorCount
  ^errors size
%
method: TestCase
_noteFailure: anException
  SessionTemps current at: #'gsmodel failure' put: anException description
%
classmethod: TestSuite
named: aString
  ^self new _setName: aString
%
method: TestSuite
_setName: aString
  name := aString.
  tests := OrderedCollection new
%
method: TestSuite
_addTest: aTest
  tests add: aTest
%
method: TestSuite
addTests: aCollection
  tests addAll: aCollection
%
method: TestSuite
tests
  ^tests
%
method: TestSuite
run
  | result |
  result := TestResult new.
  tests do: [:each | result runCase: each].
  ^result
%
