set compile_env: 0
! ------------------- Class definition for McpToolsetTestCase
expectvalue /Class
doit
TestCase subclass: 'McpToolsetTestCase'
  instVarNames: #( server registry fixtureDictionary)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpToolsetTestCase comment: 
'Abstract base of the tool-surface suites. Each test gets a fresh McpServer (so fresh blind-write
ledgers), a registry holding the tools of the toolsets under test, and a fixture symbol dictionary,
McpTestFixtures, appended to the symbol list and holding two fixture classes:

  McpFixtureAlpha  Object subclass, instance variables a b, a comment, methods alpha, beta:,
                   and the class-side method make
  McpFixtureBeta   McpFixtureAlpha subclass, method gamma

tearDown removes every class bound in the fixture dictionary and the dictionary itself, so a test
leaves the image as it found it. Nothing here commits; a test runs inside the transaction of the
session running it, and the image is back to its former state when tearDown has run.

Test methods refer to fixture classes by name only, through the tools or fixtureClassNamed:,
because the fixtures do not exist when this code is filed in.'
%
expectvalue /Class
doit
McpToolsetTestCase category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpToolsetTestCase
removeallmethods McpToolsetTestCase
removeallclassmethods McpToolsetTestCase
! ------------------- Class methods for McpToolsetTestCase
category: 'testing'
classmethod: McpToolsetTestCase
isAbstract
  ^self == McpToolsetTestCase
%
! ------------------- Instance methods for McpToolsetTestCase
category: 'calling tools'
method: McpToolsetTestCase
argsFrom: anArrayOfPairs
  "A tool argument Dictionary from {key. value. key. value ...}."
  | args |
  args := Dictionary new.
  1 to: anArrayOfPairs size by: 2 do: [:i |
    args at: (anArrayOfPairs at: i) put: (anArrayOfPairs at: i + 1)].
  ^args
%
category: 'calling tools'
method: McpToolsetTestCase
callTool: aName with: anArrayOfPairs
  "The String the tool answers, after the schema check the dispatcher makes (a refusal there is
   signalled as kind invalidParams); an McpError the tool signals is not caught here."
  | tool args problem |
  tool := registry toolNamed: aName ifAbsent: [nil].
  self assert: tool notNil.
  args := self argsFrom: anArrayOfPairs.
  problem := tool validationErrorFor: args.
  problem isNil ifFalse: [^McpError signalKind: 'invalidParams' message: problem].
  ^tool callWith: args
%
category: 'fixtures'
method: McpToolsetTestCase
compileFixtureMethod: aSource in: aBehavior
  | errors |
  errors := aBehavior
    compileMethod: aSource
    dictionaries: System myUserProfile symbolList
    category: 'fixture'.
  self assert: errors isNil
%
category: 'fixtures'
method: McpToolsetTestCase
defineFixtureClass: aName superclass: aSuperclass instVarNames: anArray
  ^aSuperclass
    subclass: aName
    instVarNames: anArray
    classVars: #()
    classInstVars: #()
    poolDictionaries: #()
    inDictionary: fixtureDictionary
    options: #()
%
category: 'calling tools'
method: McpToolsetTestCase
failureOf: aName with: anArrayOfPairs
  "The McpError the tool signals, or nil when it answers."
  ^[self callTool: aName with: anArrayOfPairs. nil]
    on: McpError
    do: [:ex | ex return: ex]
%
category: 'calling tools'
method: McpToolsetTestCase
failureKindOf: aName with: anArrayOfPairs
  "The kind of the McpError the tool signals, or nil when it answers."
  | failure |
  failure := self failureOf: aName with: anArrayOfPairs.
  ^failure isNil ifTrue: [nil] ifFalse: [failure kind]
%
category: 'fixtures'
method: McpToolsetTestCase
fixtureClassNamed: aString
  ^fixtureDictionary at: aString asSymbol ifAbsent: [nil]
%
category: 'fixtures'
method: McpToolsetTestCase
fixtureDictionaryName
  ^'McpTestFixtures'
%
category: 'asserting'
method: McpToolsetTestCase
lines: aString
  "aString split at line feeds."
  ^(aString subStrings: (String with: Character lf)) asArray
%
category: 'asserting'
method: McpToolsetTestCase
text: aString includes: aSubstring
  "Case-sensitive substring test; includesString: ignores case."
  ^(aString findString: aSubstring startingAt: 1) > 0
%
category: 'fixtures'
method: McpToolsetTestCase
installFixtures
  | up alpha beta |
  up := System myUserProfile.
  fixtureDictionary := SymbolDictionary new name: self fixtureDictionaryName asSymbol; yourself.
  up insertDictionary: fixtureDictionary at: up symbolList size + 1.
  alpha := self defineFixtureClass: 'McpFixtureAlpha' superclass: Object instVarNames: #(#a #b).
  alpha comment: 'Alpha is a fixture of the tool-surface tests.'.
  self compileFixtureMethod: 'alpha
  ^#alpha' in: alpha.
  self compileFixtureMethod: 'beta: x
  ^x' in: alpha.
  self compileFixtureMethod: 'make
  ^self new' in: alpha class.
  beta := self defineFixtureClass: 'McpFixtureBeta' superclass: alpha instVarNames: #().
  self compileFixtureMethod: 'gamma
  ^self alpha' in: beta
%
category: 'fixtures'
method: McpToolsetTestCase
newServer
  "A server that serves nothing yet: each suite registers the toolsets it tests."
  ^McpServer new
%
category: 'running'
method: McpToolsetTestCase
setUp
  super setUp.
  self useServer: self newServer.
  self installFixtures
%
category: 'calling tools'
method: McpToolsetTestCase
useServer: anMcpServer
  "Serve the toolsets under test from anMcpServer, with a registry of their own."
  server := anMcpServer.
  registry := McpToolRegistry new.
  self toolsetClasses do: [:each |
    (each server: server options: nil) registerOn: registry]
%
category: 'running'
method: McpToolsetTestCase
tearDown
  self removeFixtures.
  super tearDown
%
category: 'fixtures'
method: McpToolsetTestCase
removeFixtures
  "Unbinds every class in the fixture dictionary and takes the dictionary out of the symbol list,
   wherever a test left it, and the extra dictionary a test may have added."
  | up index |
  fixtureDictionary isNil ifFalse: [
    fixtureDictionary keys asArray do: [:key |
      key = self fixtureDictionaryName asSymbol ifFalse: [fixtureDictionary removeKey: key]]].
  up := System myUserProfile.
  {fixtureDictionary. self extraDictionary} do: [:dict |
    dict isNil ifFalse: [
      index := up symbolList indexOf: dict.
      index > 0 ifTrue: [up removeDictionaryAt: index]]].
  fixtureDictionary := nil
%
category: 'fixtures'
method: McpToolsetTestCase
extraDictionary
  "The dictionary a test may add with add_dictionary, if it is in the symbol list."
  System myUserProfile symbolList do: [:dict |
    dict name asString = self extraDictionaryName ifTrue: [^dict]].
  ^nil
%
category: 'fixtures'
method: McpToolsetTestCase
extraDictionaryName
  ^'McpTestFixturesExtra'
%
category: 'running'
method: McpToolsetTestCase
toolsetClasses
  "The toolsets whose tools this suite calls."
  ^#()
%
