set compile_env: 0
! ------------------- Class definition for McpMutationToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpMutationToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpMutationToolsetTest comment: 
'The mutation tools against the fixture classes, each write licensed by the read the guardrail asks
for (McpBlindWriteTest covers the refusals): what each tool changes in the image, compile errors
with their line, a class definition built from named parts, a shape change carrying the methods
over and reporting the ones that no longer compile, and the refusal of a shape change for a class
with subclasses.

That abort undoes every one of these is the kernel''s behaviour and is not exercised here: an abort
inside a test would discard the uncommitted work of the session running it. The real-stone contract
fixtures (test/contract/realstone) exercise it.'
%
expectvalue /Class
doit
McpMutationToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpMutationToolsetTest
removeallmethods McpMutationToolsetTest
removeallclassmethods McpMutationToolsetTest
! ------------------- Class methods for McpMutationToolsetTest
! ------------------- Instance methods for McpMutationToolsetTest
category: 'fixtures'
method: McpMutationToolsetTest
defineGamma
  "McpFixtureGamma, instance variables x y, methods x and y, no subclasses."
  self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'y'). 'dictionary'. 'McpTestFixtures'}.
  self callTool: 'compile_method' with: {'className'. 'McpFixtureGamma'. 'source'. 'x
  ^x'}.
  self callTool: 'compile_method' with: {'className'. 'McpFixtureGamma'. 'source'. 'y
  ^y'}.
  ^self fixtureClassNamed: 'McpFixtureGamma'
%
category: 'running'
method: McpMutationToolsetTest
toolsetClasses
  ^{McpMutationToolset. McpBrowsingToolset. McpListingToolset}
%
category: 'tests'
method: McpMutationToolsetTest
testAddDictionaryAppendsItToTheSymbolList
  self callTool: 'add_dictionary' with: {'dictionaryName'. self extraDictionaryName}.
  self assert: System myUserProfile symbolList last == self extraDictionary
%
category: 'tests'
method: McpMutationToolsetTest
testAddDictionaryWithATakenNameIsRefused
  self
    assert: (self failureKindOf: 'add_dictionary' with: {'dictionaryName'. 'McpTestFixtures'})
    = 'refused'
%
category: 'tests'
method: McpMutationToolsetTest
testCompileClassDefinitionCreatesAClassFromNamedParts
  | gamma |
  self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'superclassName'. 'McpFixtureAlpha'.
      'instVarNames'. #('c'). 'dictionary'. 'McpTestFixtures'}.
  gamma := self fixtureClassNamed: 'McpFixtureGamma'.
  self assert: gamma notNil.
  self assert: gamma superclass == (self fixtureClassNamed: 'McpFixtureAlpha').
  self assert: (gamma instVarNames collect: [:each | each asString]) asArray = #('c')
%
category: 'tests'
method: McpMutationToolsetTest
testCompileClassDefinitionLooksTheSuperclassUpAndEvaluatesNothing
  self
    assert: (self failureKindOf: 'compile_class_definition'
      with: {'className'. 'McpFixtureGamma'. 'superclassName'. 'Object new halt'. 'dictionary'. 'McpTestFixtures'})
    = 'notFound'.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testAClassNameThatIsNoIdentifierIsRefusedBeforeAnythingChanges
  "A stone validates the name in Class>>_subclass: (_validateNewClassName:, GemTalk/Rowan kernel-extension backport)."
  self
    assert: (self failureKindOf: 'compile_class_definition' with: {'className'. 'Bad Name'. 'dictionary'. 'McpTestFixtures'})
    = 'invalidParams'.
  self assert: (self fixtureClassNamed: 'Bad Name') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testAnInstanceVariableDeclaredTwiceIsRefusedBeforeAnythingChanges
  "A stone refuses it with rtErrAddDupInstvar (GemTalk/Grail smalltalk/ClassDefAst.gs)."
  self
    assert: (self failureKindOf: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'x'). 'dictionary'. 'McpTestFixtures'})
    = 'invalidParams'.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testAPseudoVariableAsInstanceVariableIsRefusedBeforeAnythingChanges
  "No method could ever read it: the compiler takes self as the receiver."
  self
    assert: (self failureKindOf: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('self'). 'dictionary'. 'McpTestFixtures'})
    = 'invalidParams'.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testAnInstanceVariableTheSuperclassHasIsRefusedBeforeAnythingChanges
  "A stone refuses a subclass redeclaring an inherited instance variable with rtErrAddDupInstvar (GemTalk/Grail FlaskScaffoldingTestCase>>testSubclassRedeclaresInstvar)."
  self
    assert: (self failureKindOf: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'superclassName'. 'McpFixtureAlpha'. 'instVarNames'. #('a'). 'dictionary'. 'McpTestFixtures'})
    = 'invalidParams'.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testAnUnknownClassOptionIsRefusedBeforeAnythingChanges
  "A stone takes only the options its subclass creation documents (GemTalk/Rowan)."
  self
    assert: (self failureKindOf: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'options'. #('noSuchOption'). 'dictionary'. 'McpTestFixtures'})
    = 'invalidParams'.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testRedefiningWithTheSameDefinitionWritesNothing
  | gamma answer |
  gamma := self defineGamma.
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureGamma'}.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'y')}.
  self assert: (self text: answer includes: 'unchanged').
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') == gamma
%
category: 'tests'
method: McpMutationToolsetTest
testShapeChangeRecompilesTheMethodsAndReportsTheOnesThatFail
  | old answer new |
  old := self defineGamma.
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureGamma'}.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'z')}.
  new := self fixtureClassNamed: 'McpFixtureGamma'.
  self deny: new == old.
  self assert: (new includesSelector: #x).
  self deny: (new includesSelector: #y).
  self assert: (self text: answer includes: 'recompiled 1 of 2 methods').
  self assert: (self text: answer includes: 'McpFixtureGamma>>y')
%
category: 'tests'
method: McpMutationToolsetTest
testShapeChangeWithoutRecompilingDropsTheMethods
  | answer new |
  self defineGamma.
  self callTool: 'export_class_source' with: {'className'. 'McpFixtureGamma'}.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x'). 'recompileMethods'. false}.
  new := self fixtureClassNamed: 'McpFixtureGamma'.
  self assert: new selectors isEmpty.
  self assert: (self text: answer includes: 'without its methods')
%
category: 'tests'
method: McpMutationToolsetTest
testShapeChangeOfAClassWithSubclassesIsRefusedAndChangesNothing
  | alpha |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureAlpha'}.
  self
    assert: (self failureKindOf: 'compile_class_definition'
      with: {'className'. 'McpFixtureAlpha'. 'instVarNames'. #('a' 'b' 'c')})
    = 'refused'.
  self assert: (self fixtureClassNamed: 'McpFixtureAlpha') == alpha.
  self assert: (alpha instVarNames collect: [:each | each asString]) asArray = #('a' 'b')
%
category: 'tests'
method: McpMutationToolsetTest
testCompileMethodAddsANewMethodInTheDefaultCategory
  | alpha answer |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  answer := self callTool: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'delta
  ^#delta'}.
  self assert: (self text: answer includes: 'Compiled new method McpFixtureAlpha>>delta').
  self assert: (alpha includesSelector: #delta).
  self assert: (alpha categoryOfSelector: #delta) asString = 'mcp'
%
category: 'tests'
method: McpMutationToolsetTest
testCompileMethodOnTheClassSide
  | alpha |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  self callTool: 'compile_method'
    with: {'className'. 'McpFixtureAlpha'. 'meta'. true. 'source'. 'default
  ^self make'}.
  self assert: (alpha class includesSelector: #default).
  self deny: (alpha includesSelector: #default)
%
category: 'tests'
method: McpMutationToolsetTest
testRecompilingKeepsTheMethodsCategory
  | alpha |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'}.
  self callTool: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'alpha
  ^#alphaAgain'}.
  self assert: (alpha sourceCodeAt: #alpha) = 'alpha
  ^#alphaAgain'.
  self assert: (alpha categoryOfSelector: #alpha) asString = 'fixture'
%
category: 'tests'
method: McpMutationToolsetTest
testACompileErrorInstallsNothingAndNamesTheLine
  | failure |
  failure := self failureOf: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'broken
  ^1 +'}.
  self assert: failure notNil.
  self assert: failure kind = 'compileError'.
  self assert: (failure extraFields at: 'line') = 2.
  self assert: (self text: failure messageText includes: 'line 2').
  self deny: ((self fixtureClassNamed: 'McpFixtureAlpha') includesSelector: #broken)
%
category: 'tests'
method: McpMutationToolsetTest
testCompileMethodOnAnUnknownClassIsNotFound
  self
    assert: (self failureKindOf: 'compile_method' with: {'className'. 'McpNoSuchClass'. 'source'. 'x ^1'})
    = 'notFound'
%
category: 'tests'
method: McpMutationToolsetTest
testDeleteMethodRemovesIt
  | alpha |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'beta:'}.
  self callTool: 'delete_method' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'beta:'}.
  self deny: (alpha includesSelector: #beta:)
%
category: 'tests'
method: McpMutationToolsetTest
testDeleteMethodThatIsNotThereIsNotFound
  self
    assert: (self failureKindOf: 'delete_method' with: {'className'. 'McpFixtureBeta'. 'selector'. 'alpha'})
    = 'notFound'
%
category: 'tests'
method: McpMutationToolsetTest
testDeleteClassUnbindsIt
  self callTool: 'export_class_source' with: {'className'. 'McpFixtureBeta'}.
  self callTool: 'delete_class' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self fixtureClassNamed: 'McpFixtureBeta') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testSetClassCommentReplacesIt
  | alpha |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  self callTool: 'describe_class' with: {'className'. 'McpFixtureAlpha'}.
  self callTool: 'set_class_comment' with: {'className'. 'McpFixtureAlpha'. 'comment'. 'Rewritten.'}.
  self assert: alpha comment asString = 'Rewritten.'
%
category: 'tests'
method: McpMutationToolsetTest
testRemoveDictionaryTakesItOutOfTheSymbolList
  | dict |
  dict := fixtureDictionary.
  self callTool: 'list_dictionary_entries' with: {'dictionaryName'. 'McpTestFixtures'}.
  self callTool: 'remove_dictionary' with: {'dictionaryName'. 'McpTestFixtures'}.
  self deny: (System myUserProfile symbolList includes: dict)
%
category: 'tests'
method: McpMutationToolsetTest
testANewVersionKeepsTheCommentOfThePreviousOne
  self defineGamma.
  self callTool: 'set_class_comment' with: {'className'. 'McpFixtureGamma'. 'comment'. 'Gamma says hello.'}.
  self callTool: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'y' 'w')}.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') comment asString = 'Gamma says hello.'
%
