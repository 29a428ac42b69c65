set compile_env: 0
! ------------------- Class definition for McpStructuredContentTest
expectvalue /Class
doit
TestCase subclass: 'McpStructuredContentTest'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpStructuredContentTest comment: 
'The tools that answer a list (listing, search, the test classes) answer their page as
structuredContent beside the text, and declare its outputSchema in tools/list; a failed call
answers its error, a tool without a schema answers text only, and no page outlives its call.
Drives the default toolsets on an McpTestServer through its JSON entry; every tool it calls
only reads, and it touches nothing in the repository.'
%
expectvalue /Class
doit
McpStructuredContentTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpStructuredContentTest
removeallmethods McpStructuredContentTest
removeallclassmethods McpStructuredContentTest
! ------------------- Instance methods for McpStructuredContentTest
category: 'helpers'
method: McpStructuredContentTest
call: aToolName arguments: anArgumentsJson
  "The result of a tools/call, parsed."
  ^(McpJson parse: (server handle: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'
    , aToolName , '","arguments":' , anArgumentsJson , '}}')) at: 'result'
%
category: 'helpers'
method: McpStructuredContentTest
descriptorOf: aName
  ^(server registry toolNamed: aName ifAbsent: [nil]) descriptor
%
category: 'helpers'
method: McpStructuredContentTest
firstLineOf: aResult
  | text end |
  text := ((aResult at: 'content') first) at: 'text'.
  end := text indexOf: Character lf.
  end = 0 ifTrue: [^text].
  ^text copyFrom: 1 to: end - 1
%
category: 'running'
method: McpStructuredContentTest
setUp
  server := McpTestServer withToolsetNames: McpServer defaultToolsetNames
%
category: 'tests'
method: McpStructuredContentTest
testAFailedListingAnswersItsErrorAndNoPage
  | result |
  result := self call: 'list_classes' arguments: '{"dictionaryName":"NoSuchDictionaryAnywhere"}'.
  self assert: (result at: 'isError') == true.
  self assert: (((result at: 'structuredContent') at: 'error') at: 'kind') = 'notFound'.
  self deny: ((result at: 'structuredContent') includesKey: 'items')
%
category: 'tests'
method: McpStructuredContentTest
testAListingAnswersItsPageBesideTheText
  | result page names |
  result := self call: 'list_dictionaries' arguments: '{}'.
  self assert: (result at: 'isError') == false.
  page := result at: 'structuredContent'.
  names := System myUserProfile symbolList asArray collect: [:each | each name asString].
  self assert: ((page at: 'items') collect: [:each | each at: 'name']) asArray = names.
  self assert: ((page at: 'items') collect: [:each | each at: 'position']) asArray = (1 to: names size) asArray.
  self assert: (page at: 'offset') = 0.
  self assert: (page at: 'total') = names size.
  self assert: (page at: 'complete') == true.
  self deny: (page includesKey: 'nextOffset').
  "The text is still whole, for a client that reads only text."
  self assert: (self firstLineOf: result) = ('1. ' , names first)
%
category: 'tests'
method: McpStructuredContentTest
testAToolWithoutAnOutputSchemaAnswersTextOnly
  | result |
  result := self call: 'list_methods' arguments: '{"className":"McpTool"}'.
  self assert: (result at: 'isError') == false.
  self deny: (result includesKey: 'structuredContent').
  self deny: ((self descriptorOf: 'list_methods') includesKey: 'outputSchema')
%
category: 'tests'
method: McpStructuredContentTest
testAWindowNamesTheOffsetOfTheNextPage
  | result page |
  result := self call: 'list_classes' arguments: '{"dictionaryName":"Mcp","limit":2,"offset":1}'.
  page := result at: 'structuredContent'.
  self assert: (page at: 'items') size = 2.
  self assert: (page at: 'offset') = 1.
  self assert: (page at: 'total') > 3.
  self assert: (page at: 'nextOffset') = 3.
  self assert: (page at: 'complete') == true.
  self assert: ((self firstLineOf: result) copyFrom: 1 to: 16) = '(showing 2-3 of '
%
category: 'tests'
method: McpStructuredContentTest
testLimitZeroAnswersTheTotalAndNoItems
  | page |
  page := (self call: 'list_classes' arguments: '{"dictionaryName":"Mcp","limit":0}') at: 'structuredContent'.
  self assert: (page at: 'items') isEmpty.
  self assert: (page at: 'total') > 3.
  self deny: (page includesKey: 'nextOffset')
%
category: 'tests'
method: McpStructuredContentTest
testNoPageOutlivesItsCall
  self call: 'list_classes' arguments: '{"dictionaryName":"Mcp"}'.
  self assert: (server registry toolNamed: 'list_classes' ifAbsent: [nil]) takeStructuredContent isNil
%
category: 'tests'
method: McpStructuredContentTest
testToolsListDeclaresTheSchemaOfEveryListingTool
  #('list_all_classes' 'list_classes' 'list_dictionaries' 'list_dictionary_entries' 'find_implementors'
    'find_references_to' 'find_senders' 'search_method_source' 'list_test_classes') do: [:each | | schema |
      schema := (self descriptorOf: each) at: 'outputSchema'.
      self assert: (schema at: 'type') = 'object'.
      self assert: (((schema at: 'properties') at: 'items') at: 'type') = 'array'].
  self deny: ((self descriptorOf: 'execute_code') includesKey: 'outputSchema')
%
category: 'tests'
method: McpStructuredContentTest
testAListingOfClassesKeepsNameAndDictionaryAsFields
  | page item |
  page := (self call: 'list_all_classes' arguments: '{}') at: 'structuredContent'.
  item := (page at: 'items') detect: [:each | (each at: 'name') = 'McpServer'].
  self assert: (item at: 'dictionary') = 'Mcp'.
  self assert: ((((self descriptorOf: 'list_all_classes') at: 'outputSchema') at: 'properties') at: 'items')
    notNil
%
