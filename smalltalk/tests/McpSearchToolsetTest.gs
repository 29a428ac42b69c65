set compile_env: 0
! ------------------- Class definition for McpSearchToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpSearchToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpSearchToolsetTest comment: 
'The search tools against fixture methods that send, implement and refer to names nothing else in
an image uses (mcpFixtureUniqueSelector, McpFixtureAlpha): exact answers, the paging header with its
true total, the 200 default of find_senders and search_method_source, the open-ended header of
search_method_source, its scan order and its case sensitivity.'
%
expectvalue /Class
doit
McpSearchToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpSearchToolsetTest
removeallmethods McpSearchToolsetTest
removeallclassmethods McpSearchToolsetTest
! ------------------- Class methods for McpSearchToolsetTest
! ------------------- Instance methods for McpSearchToolsetTest
category: 'fixtures'
method: McpSearchToolsetTest
compileSenders: aCount
  "aCount methods on McpFixtureBeta, sender1 ..., each sending mcpFixtureUniqueSelector."
  | beta |
  beta := self fixtureClassNamed: 'McpFixtureBeta'.
  1 to: aCount do: [:i |
    self compileFixtureMethod: 'sender' , i printString , '
  ^self mcpFixtureUniqueSelector' in: beta]
%
category: 'fixtures'
method: McpSearchToolsetTest
compileUniqueImplementor
  self compileFixtureMethod: 'mcpFixtureUniqueSelector
  ^42' in: (self fixtureClassNamed: 'McpFixtureAlpha')
%
category: 'running'
method: McpSearchToolsetTest
toolsetClasses
  ^{McpSearchToolset}
%
category: 'tests'
method: McpSearchToolsetTest
testEmptyPatternIsInvalidParams
  self
    assert: (self failureKindOf: 'search_method_source' with: {'pattern'. ''})
    = 'invalidParams'
%
category: 'tests'
method: McpSearchToolsetTest
testFindImplementorsAnswersEveryImplementorSorted
  self compileUniqueImplementor.
  self
    assert: (self lines: (self callTool: 'find_implementors' with: {'selector'. 'mcpFixtureUniqueSelector'}))
    = #('(showing all 1)' 'McpFixtureAlpha>>mcpFixtureUniqueSelector')
%
category: 'tests'
method: McpSearchToolsetTest
testFindReferencesToNamesTheReferringMethods
  self compileFixtureMethod: 'refersToAlpha
  ^McpFixtureAlpha' in: (self fixtureClassNamed: 'McpFixtureBeta').
  self assert: ((self lines: (self callTool: 'find_references_to' with: {'name'. 'McpFixtureAlpha'}))
    includes: 'McpFixtureBeta>>refersToAlpha')
%
category: 'tests'
method: McpSearchToolsetTest
testFindImplementorsAnswersTheKernelsImplementorsToo
  "On 3.7.5 the implementors of add: include Array>>add: and Set>>add: (GemTalk/mcp_server
   McpToolTest>>testFindImplementors)."
  | answer |
  answer := self lines: (self callTool: 'find_implementors' with: {'selector'. 'add:'. 'limit'. 500}).
  self assert: (answer includes: 'Array>>add:').
  self assert: (answer includes: 'Set>>add:')
%
category: 'tests'
method: McpSearchToolsetTest
testFindReferencesToReachesKernelMethods
  "On 3.7.5 Boolean>>& and Boolean>>| refer to Boolean (GemTalk/mcp_server
   McpToolTest>>testFindReferencesTo)."
  | answer |
  answer := self lines: (self callTool: 'find_references_to' with: {'name'. 'Boolean'. 'limit'. 500}).
  self assert: (answer includes: 'Boolean>>&').
  self assert: (answer includes: 'Boolean>>|')
%
category: 'tests'
method: McpSearchToolsetTest
testFindSendersOfAKernelSelectorPagesOverTheKernel
  "= has well over 200 senders on 3.7.5 (GemTalk/mcp_server McpToolTest>>testFindSendersTruncated);
   a page of five says how many there are in all."
  | answer |
  answer := self lines: (self callTool: 'find_senders' with: {'selector'. '='. 'limit'. 5}).
  self assert: answer size = 6.
  self assert: (answer first copyFrom: 1 to: 16) = '(showing 1-5 of '
%
category: 'tests'
method: McpSearchToolsetTest
testFindReferencesToAnUnboundNameIsNotFound
  self
    assert: (self failureKindOf: 'find_references_to' with: {'name'. 'McpNoSuchGlobal'})
    = 'notFound'
%
category: 'tests'
method: McpSearchToolsetTest
testFindSendersAnswers200ByDefaultWithTheTrueTotal
  | answer |
  self compileSenders: 201.
  answer := self lines: (self callTool: 'find_senders' with: {'selector'. 'mcpFixtureUniqueSelector'}).
  self assert: answer first = '(showing 1-200 of 201; pass offset: 200 for the next page)'.
  self assert: answer size = 201
%
category: 'tests'
method: McpSearchToolsetTest
testFindSendersPagesWithOffset
  | answer |
  self compileSenders: 3.
  answer := self lines: (self callTool: 'find_senders'
    with: {'selector'. 'mcpFixtureUniqueSelector'. 'limit'. 2. 'offset'. 2}).
  self assert: answer = #('(showing 3-3 of 3)' 'McpFixtureBeta>>sender3')
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceAnswers200ByDefaultAndSaysTheTotalIsNotKnown
  | answer |
  self compileSenders: 201.
  answer := self lines: (self callTool: 'search_method_source'
    with: {'pattern'. 'mcpFixtureUniqueSelector'. 'dictionaryName'. 'McpTestFixtures'}).
  self assert: answer first
    = '(showing 1-200 of at least 201 methods, in scan order; the total is not known; pass offset: 200 for the next page)'.
  self assert: (self labelsIn: answer) size = 201
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceKnowsTheTotalWhenTheScanEnds
  self compileSenders: 2.
  self
    assert: (self labelsIn: (self lines: (self callTool: 'search_method_source'
      with: {'pattern'. 'mcpFixtureUniqueSelector'. 'dictionaryName'. 'McpTestFixtures'. 'limit'. 5})))
    = #('(showing all 2)' 'McpFixtureBeta>>sender1' 'McpFixtureBeta>>sender2')
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceLimitZeroCountsEveryHit
  self compileSenders: 3.
  self
    assert: (self callTool: 'search_method_source'
      with: {'pattern'. 'mcpFixtureUniqueSelector'. 'dictionaryName'. 'McpTestFixtures'. 'limit'. 0})
    = '(3 methods)'
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceIsInScanOrder
  "Classes by name, the instance side before the class side, selectors sorted."
  self
    assert: (self labelsIn: (self lines: (self callTool: 'search_method_source'
      with: {'pattern'. '^'. 'dictionaryName'. 'McpTestFixtures'})))
    = #('(showing all 4)' 'McpFixtureAlpha>>alpha' 'McpFixtureAlpha>>beta:' 'McpFixtureAlpha class>>make'
        'McpFixtureBeta>>gamma')
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceIsCaseSensitive
  self
    assert: (self callTool: 'search_method_source'
      with: {'pattern'. '#ALPHA'. 'dictionaryName'. 'McpTestFixtures'})
    = '(0 methods)'.
  self
    assert: (self lines: (self callTool: 'search_method_source'
      with: {'pattern'. '#alpha'. 'dictionaryName'. 'McpTestFixtures'}))
    = #('(showing all 1)' 'McpFixtureAlpha>>alpha' '    2: ^#alpha')
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceInAnUnknownDictionaryIsNotFound
  self
    assert: (self failureKindOf: 'search_method_source'
      with: {'pattern'. 'x'. 'dictionaryName'. 'McpNoSuchDictionary'})
    = 'notFound'
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceRefusesANegativeOffset
  self
    assert: (self failureKindOf: 'search_method_source'
      with: {'pattern'. 'x'. 'dictionaryName'. 'McpTestFixtures'. 'offset'. -3})
    = 'invalidParams'
%
category: 'helpers'
method: McpSearchToolsetTest
labelsIn: aLineArray
  "The header and the Class>>selector lines of a search answer, without the matching lines."
  ^(aLineArray reject: [:each | each notEmpty and: [each first = $ ]]) asArray
%
category: 'tests'
method: McpSearchToolsetTest
testSearchMethodSourceShowsAndKeepsTheMatchingLines
  | answer page hit |
  self compileFixtureMethod: 'delta
  | x |
  x := #alpha.
  ^x -> #alpha' in: (self fixtureClassNamed: 'McpFixtureAlpha').
  answer := self lines: (self callTool: 'search_method_source'
    with: {'pattern'. '#alpha'. 'dictionaryName'. 'McpTestFixtures'}).
  self assert: answer
    = #('(showing all 2)' 'McpFixtureAlpha>>alpha' '    2: ^#alpha' 'McpFixtureAlpha>>delta' '    3: x := #alpha.' '    4: ^x -> #alpha').
  page := (registry toolNamed: 'search_method_source' ifAbsent: [nil]) takeStructuredContent.
  hit := (page at: 'items') last.
  self assert: (hit at: 'class') = 'McpFixtureAlpha'.
  self assert: (hit at: 'meta') == false.
  self assert: (hit at: 'selector') = 'delta'.
  self assert: ((hit at: 'matches') collect: [:each | each at: 'line']) asArray = #(3 4).
  self assert: ((hit at: 'matches') first at: 'text') = '  x := #alpha.'
%
category: 'tests'
method: McpSearchToolsetTest
testFindImplementorsKeepsEachMethodAsFields
  | page item |
  self callTool: 'find_implementors' with: {'selector'. 'make'}.
  page := (registry toolNamed: 'find_implementors' ifAbsent: [nil]) takeStructuredContent.
  item := (page at: 'items') detect: [:each | (each at: 'class') = 'McpFixtureAlpha'].
  self assert: (item at: 'meta') == true.
  self assert: (item at: 'selector') = 'make'
%
category: 'tests'
method: McpSearchToolsetTest
testFindImplementorsOfASelectorWithoutItsColonSuggestsIt
  | answer page |
  answer := self callTool: 'find_implementors' with: {'selector'. 'beta'}.
  self assert: answer = '(0 methods; did you mean beta:?)'.
  page := (registry toolNamed: 'find_implementors' ifAbsent: [nil]) takeStructuredContent.
  self assert: (page at: 'suggestions') = #('beta:').
  self assert: (page at: 'total') = 0
%
category: 'tests'
method: McpSearchToolsetTest
testFindSendersTakesASelectorWrittenAsASymbol
  self assert: (self lines: (self callTool: 'find_senders' with: {'selector'. '#alpha'})) size > 1
%
