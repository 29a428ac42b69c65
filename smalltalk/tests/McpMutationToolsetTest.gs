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
  self assert: (alpha categoryOfSelector: #delta) asString = 'as yet unclassified'
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
category: 'tests'
method: McpMutationToolsetTest
testAShapeChangeShowsTheSourceOfEachMethodItDropped
  | answer |
  self defineGamma.
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureGamma'}.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'z')}.
  self assert: (self text: answer includes: 'recompiled 1 of 2 methods; 1 failed to compile against the new shape and is missing from it:').
  self assert: (self text: answer includes: '  McpFixtureGamma>>y -- ').
  self assert: ((self lines: answer) includes: '      ^y')
%
category: 'tests'
method: McpMutationToolsetTest
testADryRunPredictsWhatAShapeChangeWouldDropAndWritesNothing
  | gamma answer |
  gamma := self defineGamma.
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureGamma'}.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'instVarNames'. #('x' 'z'). 'dryRun'. true}.
  self assert: (self text: answer includes: 'would make version 2').
  self assert: (self text: answer includes: '1 of 2 methods would come over').
  self assert: (self text: answer includes: 'McpFixtureGamma>>y -- it uses y, which the new shape drops').
  self assert: ((self lines: answer) includes: '      ^y').
  self assert: (self lines: answer) last = 'Nothing was written.'.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') == gamma.
  self assert: (gamma includesSelector: #y)
%
category: 'tests'
method: McpMutationToolsetTest
testADryRunSaysWhatWouldBeRefused
  | alpha answer |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureAlpha'. 'instVarNames'. #('a'). 'dryRun'. true}.
  self assert: (self text: answer includes: 'would be refused: refused: McpFixtureAlpha has not been read').
  self assert: (self fixtureClassNamed: 'McpFixtureAlpha') == alpha.
  self callTool: 'get_class_definition' with: {'className'. 'McpFixtureAlpha'}.
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureAlpha'. 'instVarNames'. #('a'). 'dryRun'. true}.
  self assert: (self text: answer includes: 'has subclasses (McpFixtureBeta)')
%
category: 'tests'
method: McpMutationToolsetTest
testADryRunOfANewClassCreatesNothing
  | answer |
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureDelta'. 'dictionary'. 'McpTestFixtures'. 'category'. 'Acme-Core'. 'dryRun'. true}.
  self assert: answer = 'Dry run: would create class McpFixtureDelta (subclass of Object) in McpTestFixtures, category Acme-Core. Nothing was written.'.
  self assert: (self fixtureClassNamed: 'McpFixtureDelta') isNil
%
category: 'tests'
method: McpMutationToolsetTest
testCompileClassDefinitionSetsTheCategory
  | gamma answer |
  answer := self callTool: 'compile_class_definition'
    with: {'className'. 'McpFixtureGamma'. 'dictionary'. 'McpTestFixtures'. 'category'. 'Acme-Core'}.
  gamma := self fixtureClassNamed: 'McpFixtureGamma'.
  self assert: gamma category asString = 'Acme-Core'.
  self assert: (self text: answer includes: 'category Acme-Core').
  answer := self callTool: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'category'. 'Acme-Tests'}.
  self assert: gamma category asString = 'Acme-Tests'.
  self assert: (self text: answer includes: 'Set the category of McpFixtureGamma to Acme-Tests')
%
category: 'tests'
method: McpMutationToolsetTest
testANewClassWithoutACategoryIsFiledUnderItsDictionary
  self callTool: 'compile_class_definition' with: {'className'. 'McpFixtureGamma'. 'dictionary'. 'McpTestFixtures'}.
  self assert: (self fixtureClassNamed: 'McpFixtureGamma') category asString = 'McpTestFixtures'
%
category: 'tests'
method: McpMutationToolsetTest
testDeleteClassNamesTheMethodsThatStillReferToIt
  | answer |
  self callTool: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'makeBeta
  ^McpFixtureBeta new'}.
  self callTool: 'export_class_source' with: {'className'. 'McpFixtureBeta'}.
  answer := self callTool: 'delete_class' with: {'className'. 'McpFixtureBeta'}.
  self assert: (self text: answer includes: '1 method elsewhere still refers to it')
    description: answer.
  self assert: (self text: answer includes: 'McpFixtureAlpha>>makeBeta')
%
category: 'tests'
method: McpMutationToolsetTest
testACompileErrorNamesTheVariableAndItsOwnNumber
  | failure |
  failure := self failureOf: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'broken
  | t t |
  ^t'}.
  self assert: failure kind = 'compileError'.
  self assert: (self text: failure messageText includes: 'variable has already been declared: t (error 1030)')
    description: failure messageText.
  self deny: (self text: failure messageText includes: '1001').
  self assert: ((failure extraFields at: 'errors') first at: 'number') = 1030
%
category: 'tests'
method: McpMutationToolsetTest
testASyntaxErrorNamesTheTokenOnce
  | failure |
  failure := self failureOf: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. 'broken
  ^[:x | x ]]'}.
  self assert: failure kind = 'compileError'.
  self assert: (self text: failure messageText includes: 'found '']''') description: failure messageText.
  self deny: (self text: failure messageText includes: 'found '']'' ]')
%
category: 'tests'
method: McpMutationToolsetTest
testANewMethodGoesInTheCategoryOfItsKind
  | alpha |
  alpha := self fixtureClassNamed: 'McpFixtureAlpha'.
  #('initialize
  a := 0' 'a
  ^a' 'b: x
  b := x' 'printOn: aStream
  aStream nextPutAll: ''alpha''' 'zeta
  ^1') do: [:source | self callTool: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'source'. source}].
  self callTool: 'compile_method' with: {'className'. 'McpFixtureAlpha'. 'meta'. true. 'source'. 'newWithA: x
  ^self new'}.
  self assert: (alpha categoryOfSelector: #initialize) asString = 'initialization'.
  self assert: (alpha categoryOfSelector: #a) asString = 'accessing'.
  self assert: (alpha categoryOfSelector: #b:) asString = 'accessing'.
  self assert: (alpha categoryOfSelector: #printOn:) asString = 'printing'.
  self assert: (alpha categoryOfSelector: #zeta) asString = 'as yet unclassified'.
  self assert: (alpha class categoryOfSelector: #newWithA:) asString = 'instance creation'
%
category: 'tests'
method: McpMutationToolsetTest
testANewTestMethodGoesInTests
  | sample |
  sample := self defineFixtureClass: 'McpFixtureSampleTest' superclass: TestCase instVarNames: #().
  self callTool: 'compile_method' with: {'className'. 'McpFixtureSampleTest'. 'source'. 'testPasses
  self assert: true'}.
  self assert: (sample categoryOfSelector: #testPasses) asString = 'tests'
%
