set compile_env: 0
! ------------------- Class definition for McpListingToolsetTest
expectvalue /Class
doit
McpToolsetTestCase subclass: 'McpListingToolsetTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpListingToolsetTest comment: 
'The listing tools against the fixture dictionary McpTestFixtures: lookup order, sorting, the
(class)/(global) tags, the paging header and its errors, and notFound for a dictionary that is not
in the symbol list.'
%
expectvalue /Class
doit
McpListingToolsetTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpListingToolsetTest
removeallmethods McpListingToolsetTest
removeallclassmethods McpListingToolsetTest
! ------------------- Class methods for McpListingToolsetTest
! ------------------- Instance methods for McpListingToolsetTest
category: 'running'
method: McpListingToolsetTest
toolsetClasses
  ^{McpListingToolset}
%
category: 'tests'
method: McpListingToolsetTest
testListAllClassesTagsEachClassWithItsDictionary
  | answer |
  answer := self lines: (self callTool: 'list_all_classes' with: #()).
  self assert: (answer includes: 'McpFixtureAlpha  (McpTestFixtures)').
  self assert: (answer includes: 'McpFixtureBeta  (McpTestFixtures)')
%
category: 'tests'
method: McpListingToolsetTest
testListAllClassesIsSortedAfterItsHeader
  | answer |
  answer := self lines: (self callTool: 'list_all_classes' with: #()).
  self assert: (answer first beginsWith: '(showing all ').
  2 to: answer size - 1 do: [:i |
    self assert: (answer at: i) <= (answer at: i + 1)]
%
category: 'tests'
method: McpListingToolsetTest
testListClassesAnswersTheDictionarysClassesSorted
  self
    assert: (self lines: (self callTool: 'list_classes' with: {'dictionaryName'. 'McpTestFixtures'}))
    = #('(showing all 2)' 'McpFixtureAlpha' 'McpFixtureBeta')
%
category: 'tests'
method: McpListingToolsetTest
testListClassesLeavesOutGlobalsThatAreNotClasses
  fixtureDictionary at: #McpFixtureSetting put: 42.
  self deny: ((self lines: (self callTool: 'list_classes' with: {'dictionaryName'. 'McpTestFixtures'}))
    includes: 'McpFixtureSetting')
%
category: 'tests'
method: McpListingToolsetTest
testListClassesOfAnUnknownDictionaryIsNotFound
  self
    assert: (self failureKindOf: 'list_classes' with: {'dictionaryName'. 'McpNoSuchDictionary'})
    = 'notFound'
%
category: 'tests'
method: McpListingToolsetTest
testLimitZeroAnswersTheCountAlone
  self
    assert: (self callTool: 'list_classes' with: {'dictionaryName'. 'McpTestFixtures'. 'limit'. 0})
    = '(2 classes)'
%
category: 'tests'
method: McpListingToolsetTest
testLimitAndOffsetSelectAWindowAndNameTheNextPage
  self
    assert: (self lines: (self callTool: 'list_classes' with: {'dictionaryName'. 'McpTestFixtures'. 'limit'. 1}))
    = #('(showing 1-1 of 2; pass offset: 1 for the next page)' 'McpFixtureAlpha').
  self
    assert: (self lines: (self callTool: 'list_classes'
      with: {'dictionaryName'. 'McpTestFixtures'. 'limit'. 1. 'offset'. 1}))
    = #('(showing 2-2 of 2)' 'McpFixtureBeta')
%
category: 'tests'
method: McpListingToolsetTest
testNegativeLimitIsInvalidParams
  self
    assert: (self failureKindOf: 'list_classes' with: {'dictionaryName'. 'McpTestFixtures'. 'limit'. -1})
    = 'invalidParams'
%
category: 'tests'
method: McpListingToolsetTest
testNonIntegerOffsetIsInvalidParams
  self
    assert: (self failureKindOf: 'list_all_classes' with: {'offset'. 'two'})
    = 'invalidParams'
%
category: 'tests'
method: McpListingToolsetTest
testListDictionariesNumbersTheSymbolListInLookupOrder
  | answer |
  answer := self lines: (self callTool: 'list_dictionaries' with: #()).
  self assert: answer size = System myUserProfile symbolList size.
  self assert: answer last = (answer size printString , '. McpTestFixtures')
%
category: 'tests'
method: McpListingToolsetTest
testListDictionaryEntriesTagsClassesAndGlobals
  | answer |
  fixtureDictionary at: #McpFixtureSetting put: 42.
  answer := self lines: (self callTool: 'list_dictionary_entries' with: {'dictionaryName'. 'McpTestFixtures'}).
  self assert: (answer includes: 'McpFixtureAlpha  (class)').
  self assert: (answer includes: 'McpFixtureSetting  (global)')
%
category: 'tests'
method: McpListingToolsetTest
testListDictionaryEntriesOfAnUnknownDictionaryIsNotFound
  self
    assert: (self failureKindOf: 'list_dictionary_entries' with: {'dictionaryName'. 'McpNoSuchDictionary'})
    = 'notFound'
%
