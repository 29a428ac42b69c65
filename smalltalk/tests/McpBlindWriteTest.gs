set compile_env: 0
! ------------------- Class definition for McpBlindWriteTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpBlindWriteTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpBlindWriteTest comment: 
'The blind-write guardrail as the mutation tools apply it: a write that would replace or destroy
something is refused, and changes nothing, unless this view has read it; the read each write needs
is the one the tool descriptions name; reading one thing licenses nothing else; creating something
new needs no read; and a write licenses the next write of the same thing.

The other half of the guardrail -- a read made stale by another session''s commit -- needs a second
session and is not covered here.'
%
expectvalue /Class
doit
McpBlindWriteTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpBlindWriteTest
removeallmethods McpBlindWriteTest
removeallclassmethods McpBlindWriteTest
! ------------------- Class methods for McpBlindWriteTest
! ------------------- Instance methods for McpBlindWriteTest
category: 'fixtures'
method: McpBlindWriteTest
alpha
  ^self fixtureClassNamed: 'McpFixtureAlpha'
%
category: 'fixtures'
method: McpBlindWriteTest
replaceAlphaSource
  ^{'className'. 'McpFixtureAlpha'. 'source'. 'alpha
  ^#replaced'}
%
category: 'running'
method: McpBlindWriteTest
toolsetClasses
  ^{McpMutationToolset. McpBrowsingToolset. McpListingToolset}
%
category: 'tests'
method: McpBlindWriteTest
testReplacingAnUnreadMethodIsRefusedAndChangesNothing
  self assert: (self failureKindOf: 'compile_method' with: self replaceAlphaSource) = 'refused'.
  self assert: (self alpha sourceCodeAt: #alpha) = 'alpha
  ^#alpha'
%
category: 'tests'
method: McpBlindWriteTest
testReadingAMethodLicensesReplacingIt
  self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'}.
  self assert: (self failureKindOf: 'compile_method' with: self replaceAlphaSource) isNil.
  self assert: (self alpha sourceCodeAt: #alpha) = 'alpha
  ^#replaced'
%
category: 'tests'
method: McpBlindWriteTest
testReadingOneMethodDoesNotLicenseAnother
  self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'beta:'}.
  self assert: (self failureKindOf: 'compile_method' with: self replaceAlphaSource) = 'refused'
%
category: 'tests'
method: McpBlindWriteTest
testReadingTheClassSideDoesNotLicenseTheInstanceSide
  self compileFixtureMethod: 'alpha
  ^#classSide' in: self alpha class.
  self callTool: 'get_method_source'
    with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'. 'meta'. true}.
  self assert: (self failureKindOf: 'compile_method' with: self replaceAlphaSource) = 'refused'
%
category: 'tests'
method: McpBlindWriteTest
testExportClassSourceLicensesEveryMethod
  self callTool: 'export_class_source' with: {'className'. 'McpFixtureAlpha'}.
  self assert: (self failureKindOf: 'compile_method' with: self replaceAlphaSource) isNil.
  self assert: (self failureKindOf: 'delete_method'
    with: {'className'. 'McpFixtureAlpha'. 'selector'. 'make'. 'meta'. true}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testCreatingAMethodNeedsNoRead
  self assert: (self failureKindOf: 'compile_method'
    with: {'className'. 'McpFixtureAlpha'. 'source'. 'epsilon
  ^#epsilon'}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testWritingAMethodLicensesWritingItAgain
  self callTool: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'epsilon
  ^1'}.
  self assert: (self failureKindOf: 'compile_method'
    with: {'className'. 'McpFixtureAlpha'. 'source'. 'epsilon
  ^2'}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testDeletingAnUnreadMethodIsRefusedAndChangesNothing
  self assert: (self failureKindOf: 'delete_method'
    with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'}) = 'refused'.
  self assert: (self alpha includesSelector: #alpha)
%
category: 'tests'
method: McpBlindWriteTest
testRedefiningAnUnreadClassIsRefusedAndChangesNothing
  self assert: (self failureKindOf: 'compile_class_definition'
    with: {'className'. 'McpFixtureBeta'. 'superclassName'. 'McpFixtureAlpha'. 'instVarNames'. #('q')}) = 'refused'.
  self assert: (self fixtureClassNamed: 'McpFixtureBeta') instVarNames isEmpty
%
category: 'tests'
method: McpBlindWriteTest
testDescribeClassLicensesRedefiningTheClass
  self callTool: 'describe_class' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self failureKindOf: 'compile_class_definition'
    with: {'className'. 'McpFixtureBeta'. 'instVarNames'. #('q')}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testRedefiningWithoutRecompilingNeedsEveryMethodRead
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self failureKindOf: 'compile_class_definition'
    with: {'className'. 'McpFixtureBeta'. 'instVarNames'. #('q'). 'recompileMethods'. false}) = 'refused'.
  self callTool: 'export_class_source' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self failureKindOf: 'compile_class_definition'
    with: {'className'. 'McpFixtureBeta'. 'instVarNames'. #('q'). 'recompileMethods'. false}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testCreatingAClassNeedsNoRead
  self assert: (self failureKindOf: 'compile_class_definition'
    with: {'className'. 'McpFixtureDelta'. 'dictionary'. 'McpTestFixtures'}) isNil.
  self assert: (self fixtureClassNamed: 'McpFixtureDelta') notNil
%
category: 'tests'
method: McpBlindWriteTest
testDeleteClassNeedsMoreThanTheDefinition
  self callTool: 'describe_class' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self failureKindOf: 'delete_class' with: {'className'. 'McpFixtureBeta'}) = 'refused'.
  self assert: (self fixtureClassNamed: 'McpFixtureBeta') notNil.
  self callTool: 'export_class_source' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self failureKindOf: 'delete_class' with: {'className'. 'McpFixtureBeta'}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testReplacingAnUnreadCommentIsRefusedAndChangesNothing
  self assert: (self failureKindOf: 'set_class_comment'
    with: {'className'. 'McpFixtureAlpha'. 'comment'. 'Overwritten.'}) = 'refused'.
  self assert: self alpha comment asString = 'Alpha is a fixture of the tool-surface tests.'
%
category: 'tests'
method: McpBlindWriteTest
testAFirstCommentNeedsNoRead
  self assert: (self failureKindOf: 'set_class_comment'
    with: {'className'. 'McpFixtureBeta'. 'comment'. 'First words.'}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testRemovingAnUnreadDictionaryIsRefusedAndChangesNothing
  self assert: (self failureKindOf: 'remove_dictionary' with: {'dictionaryName'. 'McpTestFixtures'}) = 'refused'.
  self assert: (System myUserProfile symbolList includes: fixtureDictionary)
%
category: 'tests'
method: McpBlindWriteTest
testListClassesDoesNotLicenseRemovingTheDictionary
  self callTool: 'list_classes' with: {'dictionaryName'. 'McpTestFixtures'}.
  self assert: (self failureKindOf: 'remove_dictionary' with: {'dictionaryName'. 'McpTestFixtures'}) = 'refused'
%
category: 'tests'
method: McpBlindWriteTest
testListDictionaryEntriesLicensesRemovingTheDictionary
  self callTool: 'list_dictionary_entries' with: {'dictionaryName'. 'McpTestFixtures'}.
  self assert: (self failureKindOf: 'remove_dictionary' with: {'dictionaryName'. 'McpTestFixtures'}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testAddingADictionaryNeedsNoReadAndLicensesRemovingIt
  self assert: (self failureKindOf: 'add_dictionary' with: {'dictionaryName'. self extraDictionaryName}) isNil.
  self assert: (self failureKindOf: 'remove_dictionary' with: {'dictionaryName'. self extraDictionaryName}) isNil.
  self assert: self extraDictionary isNil
%
category: 'tests'
method: McpBlindWriteTest
testACutExportLicensesTheClassButNotItsMethods
  | capped |
  capped := McpTestServer new.
  capped resultCap: 20.
  self useServer: capped.
  self assert: (self text: (self callTool: 'export_class_source' with: {'className'. 'McpFixtureAlpha'})
    includes: '...[truncated: showing 20 of ').
  self assert: (self failureKindOf: 'compile_method' with: self replaceAlphaSource) = 'refused'.
  self assert: (self failureKindOf: 'set_class_comment'
    with: {'className'. 'McpFixtureAlpha'. 'comment'. 'Overwritten.'}) isNil
%
category: 'tests'
method: McpBlindWriteTest
testACompoundWriteIsRefusedNamingTheReadThatLicensesIt
  | failure |
  self callTool: 'describe_class' with: {'className'. 'McpFixtureAlpha'}.
  self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'}.
  failure := self failureOf: 'delete_class' with: {'className'. 'McpFixtureAlpha'}.
  self assert: failure kind = 'refused'.
  self assert: (self text: failure messageText includes: 'delete_class destroys McpFixtureAlpha and its 3 methods, and 2 of them').
  self assert: (self text: failure messageText includes: 'export_class_source (className: McpFixtureAlpha)').
  self assert: (failure extraFields at: 'readWith') = #('export_class_source').
  self assert: (failure extraFields at: 'unread') asArray = #('McpFixtureAlpha>>beta:' 'McpFixtureAlpha class>>make')
%
category: 'tests'
method: McpBlindWriteTest
testAnUnreadMethodIsRefusedNamingTheReadsThatLicenseIt
  | failure |
  failure := self failureOf: 'delete_method' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'}.
  self assert: failure kind = 'refused'.
  self assert: (self text: failure messageText
    includes: 'Read it with get_method_source or export_class_source (className: McpFixtureAlpha)').
  self assert: (failure extraFields at: 'key') = 'McpFixtureAlpha>>alpha'
%
