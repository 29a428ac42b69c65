set compile_env: 0
! ------------------- Class definition for McpBrowsingToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpBrowsingToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpBrowsingToolsetTest comment: 
'The browsing tools against the fixture classes McpFixtureAlpha and McpFixtureBeta: what each answer
shows, the instance/class side split, that an inherited method is not the class''s own, and
notFound for a class that does not resolve.'
%
expectvalue /Class
doit
McpBrowsingToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpBrowsingToolsetTest
removeallmethods McpBrowsingToolsetTest
removeallclassmethods McpBrowsingToolsetTest
! ------------------- Class methods for McpBrowsingToolsetTest
! ------------------- Instance methods for McpBrowsingToolsetTest
category: 'running'
method: McpBrowsingToolsetTest
toolsetClasses
  ^{McpBrowsingToolset}
%
category: 'tests'
method: McpBrowsingToolsetTest
testDescribeClassShowsShapeSelectorsAndComment
  | answer |
  answer := self lines: (self callTool: 'describe_class' with: {'className'. 'McpFixtureAlpha'}).
  self assert: (answer includes: 'superclass: Object').
  self assert: (answer includes: 'instance variables: a b').
  self assert: (answer includes: 'instance selectors: alpha beta:').
  self assert: (answer includes: 'class selectors: make').
  self assert: answer last = 'Alpha is a fixture of the tool-surface tests.'
%
category: 'tests'
method: McpBrowsingToolsetTest
testDescribeClassOfAKernelClassListsItsOwnSelectors
  "Array>>add: is Array's own method on 3.7.5 (GemTalk/mcp_server McpToolTest>>testFindImplementors)."
  | line |
  line := (self lines: (self callTool: 'describe_class' with: {'className'. 'Array'}))
    detect: [:each | each beginsWith: 'instance selectors:'] ifNone: [''].
  self assert: ((line subStrings: ' ') includes: 'add:')
%
category: 'tests'
method: McpBrowsingToolsetTest
testDescribeClassOfAnUnknownClassIsNotFound
  self
    assert: (self failureKindOf: 'describe_class' with: {'className'. 'McpNoSuchClass'})
    = 'notFound'
%
category: 'tests'
method: McpBrowsingToolsetTest
testExportClassSourceCarriesTheDefinitionAndEveryMethod
  | answer |
  answer := self callTool: 'export_class_source' with: {'className'. 'McpFixtureAlpha'}.
  self assert: (self text: answer includes: 'McpFixtureAlpha').
  self assert: (self text: answer includes: '^#alpha').
  self assert: (self text: answer includes: 'beta: x').
  self assert: (self text: answer includes: '^self new')
%
category: 'tests'
method: McpBrowsingToolsetTest
testGetClassDefinitionIsTheDefinitionMessage
  | answer |
  answer := self callTool: 'get_class_definition' with: {'className'. 'McpFixtureBeta'}.
  self assert: answer = (self fixtureClassNamed: 'McpFixtureBeta') definition asString.
  self assert: (self text: answer includes: 'McpFixtureAlpha').
  self assert: (self text: answer includes: 'subclass:')
%
category: 'tests'
method: McpBrowsingToolsetTest
testGetClassHierarchyRunsFromTheRootDownThenSubclasses
  self
    assert: (self lines: (self callTool: 'get_class_hierarchy' with: {'className'. 'McpFixtureAlpha'}))
    = #('Object' '  McpFixtureAlpha' 'direct subclasses (1):' '  McpFixtureBeta')
%
category: 'tests'
method: McpBrowsingToolsetTest
testGetClassHierarchyOfALeafSaysItHasNoSubclasses
  self
    assert: (self lines: (self callTool: 'get_class_hierarchy' with: {'className'. 'McpFixtureBeta'})) last
    = 'direct subclasses (0):'
%
category: 'tests'
method: McpBrowsingToolsetTest
testGetMethodSourceAnswersTheSourceAsCompiled
  self
    assert: (self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'alpha'})
    = 'alpha
  ^#alpha'
%
category: 'tests'
method: McpBrowsingToolsetTest
testGetMethodSourceWithMetaReadsTheClassSide
  self
    assert: (self callTool: 'get_method_source'
      with: {'className'. 'McpFixtureAlpha'. 'selector'. 'make'. 'meta'. true})
    = 'make
  ^self new'.
  self
    assert: (self failureKindOf: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'make'})
    = 'notFound'
%
category: 'tests'
method: McpBrowsingToolsetTest
testGetMethodSourceOfAnInheritedMethodIsNotFoundAndNamesTheDefiner
  | failure |
  failure := self failureOf: 'get_method_source' with: {'className'. 'McpFixtureBeta'. 'selector'. 'alpha'}.
  self assert: failure kind = 'notFound'.
  self assert: (self text: failure messageText includes: 'inherits it from McpFixtureAlpha').
  self assert: (failure extraFields at: 'inheritedFrom') = 'McpFixtureAlpha'
%
category: 'tests'
method: McpBrowsingToolsetTest
testListMethodsGroupsBothSidesByCategory
  | answer |
  answer := self lines: (self callTool: 'list_methods' with: {'className'. 'McpFixtureAlpha'}).
  self assert: answer first = 'McpFixtureAlpha (instance side) (2 methods)'.
  self assert: (answer at: 2) = '  fixture'.
  self assert: (answer at: 3) = '    alpha'.
  self assert: (answer at: 4) = '    beta:'.
  self assert: (answer includes: 'McpFixtureAlpha class (class side) (1 method)').
  self assert: answer last = '    make'
%
category: 'tests'
method: McpBrowsingToolsetTest
testDescribeClassShowsClassVariablesAndInheritedAndClassSideInstanceVariables
  | gamma answer |
  gamma := (self fixtureClassNamed: 'McpFixtureAlpha')
    subclass: 'McpFixtureGamma'
    instVarNames: #(#c)
    classVars: #(#Registry #Count)
    classInstVars: #(#cache)
    poolDictionaries: #()
    inDictionary: fixtureDictionary
    options: #().
  self assert: gamma notNil.
  answer := self lines: (self callTool: 'describe_class' with: {'className'. 'McpFixtureGamma'}).
  self assert: (answer includes: 'instance variables: c').
  self assert: (answer includes: 'inherited instance variables: a (McpFixtureAlpha) b (McpFixtureAlpha)').
  self assert: (answer includes: 'class variables: Count Registry').
  self assert: (answer includes: 'class-side instance variables: cache')
%
category: 'tests'
method: McpBrowsingToolsetTest
testDescribeClassLeavesOutAnEmptyCategoryAndSaysWhenThereIsNoComment
  | answer |
  answer := self lines: (self callTool: 'describe_class' with: {'className'. 'McpFixtureBeta'}).
  self deny: (answer includes: '').
  self deny: ((answer detect: [:each | self text: each includes: 'category:'] ifNone: [nil]) notNil).
  self assert: answer last = 'comment: (none)'.
  self assert: (answer includes: 'class variables: (none)')
%
category: 'tests'
method: McpBrowsingToolsetTest
testAMisspelledClassNameSuggestsTheClosestNames
  | failure |
  failure := self failureOf: 'describe_class' with: {'className'. 'McpFixtureAlfa'}.
  self assert: failure kind = 'notFound'.
  self assert: (self text: failure messageText includes: 'did you mean McpFixtureAlpha?').
  self assert: (failure extraFields at: 'suggestions') = #('McpFixtureAlpha')
%
category: 'tests'
method: McpBrowsingToolsetTest
testASelectorWithoutItsColonSuggestsTheKeywordSelector
  | failure |
  failure := self failureOf: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'beta'}.
  self assert: failure kind = 'notFound'.
  self assert: (failure extraFields at: 'suggestions') = #('beta:')
%
category: 'tests'
method: McpBrowsingToolsetTest
testASelectorWrittenAsASymbolLiteralIsTheSelector
  self
    assert: (self callTool: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. '#beta:'})
    = 'beta: x
  ^x'
%
category: 'tests'
method: McpBrowsingToolsetTest
testAClassSideSelectorAskedOfTheInstanceSideSaysToPassMeta
  | failure |
  failure := self failureOf: 'get_method_source' with: {'className'. 'McpFixtureAlpha'. 'selector'. 'make'}.
  self assert: failure kind = 'notFound'.
  self assert: (self text: failure messageText includes: 'the class side does (pass meta: true)')
%
