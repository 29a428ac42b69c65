set compile_env: 0
! ------------------- Class definition for McpToolAnnotationsTest
expectvalue /Class
doit
TestCase subclass: 'McpToolAnnotationsTest'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpToolAnnotationsTest comment: 
'The titles and the four MCP behaviour hints tools/list carries: how McpTool puts them in its
descriptor, and that every tool of the default surface declares them, with the hints a client
needs to ask a human before a destructive call. Builds an McpTestServer with the default
toolsets; runs no tool and touches nothing in the repository.'
%
expectvalue /Class
doit
McpToolAnnotationsTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpToolAnnotationsTest
removeallmethods McpToolAnnotationsTest
removeallclassmethods McpToolAnnotationsTest
! ------------------- Instance methods for McpToolAnnotationsTest
category: 'helpers'
method: McpToolAnnotationsTest
bareTool
  ^McpTool
    name: 'bare'
    description: 'a tool with neither title nor hints'
    schema: (Dictionary new at: 'type' put: 'object'; yourself)
    handler: [:args | 'ok']
%
category: 'helpers'
method: McpToolAnnotationsTest
descriptorOf: aName
  ^(server registry toolNamed: aName ifAbsent: [nil]) descriptor
%
category: 'helpers'
method: McpToolAnnotationsTest
hint: aHintName of: aToolName
  ^((self descriptorOf: aToolName) at: 'annotations') at: aHintName
%
category: 'running'
method: McpToolAnnotationsTest
setUp
  server := McpTestServer withToolsetNames: McpServer defaultToolsetNames
%
category: 'tests'
method: McpToolAnnotationsTest
testADestructiveToolSaysSoAndIsNotReadOnly
  #('delete_class' 'delete_method' 'remove_dictionary' 'abort' 'commit' 'execute_code'
    'compile_method' 'compile_class_definition' 'set_class_comment') do: [:each |
      self assert: (self hint: 'readOnlyHint' of: each) == false.
      self assert: (self hint: 'destructiveHint' of: each) == true]
%
category: 'tests'
method: McpToolAnnotationsTest
testAnAdditiveWriteIsNeitherReadOnlyNorDestructive
  self assert: (self hint: 'readOnlyHint' of: 'add_dictionary') == false.
  self assert: (self hint: 'destructiveHint' of: 'add_dictionary') == false.
  self assert: (self hint: 'readOnlyHint' of: 'refresh') == false.
  self assert: (self hint: 'destructiveHint' of: 'refresh') == false
%
category: 'tests'
method: McpToolAnnotationsTest
testATitleGoesInTheEntryAndInItsAnnotations
  | tool entry |
  tool := self bareTool.
  tool title: 'A bare tool'.
  tool readOnly.
  entry := tool descriptor.
  self assert: (entry at: 'title') = 'A bare tool'.
  self assert: ((entry at: 'annotations') at: 'title') = 'A bare tool'.
  "The title is added to a copy: the hints the tool holds stay the four hints."
  self deny: (tool annotations includesKey: 'title')
%
category: 'tests'
method: McpToolAnnotationsTest
testAToolWithoutThemListsNeither
  | entry |
  entry := self bareTool descriptor.
  self deny: (entry includesKey: 'title').
  self deny: (entry includesKey: 'annotations').
  self assert: (entry at: 'name') = 'bare'
%
category: 'tests'
method: McpToolAnnotationsTest
testEveryDefaultToolHasATitleAndAllFourHints
  | descriptors |
  descriptors := server registry descriptors.
  self assert: descriptors size = 45.
  descriptors do: [:each | | hints |
    self assert: ((each at: 'title' ifAbsent: [nil]) isKindOf: CharacterCollection).
    self deny: (each at: 'title') isEmpty.
    hints := each at: 'annotations' ifAbsent: [nil].
    self assert: (hints isKindOf: Dictionary).
    #('readOnlyHint' 'destructiveHint' 'idempotentHint' 'openWorldHint') do: [:hint | | value |
      value := hints at: hint ifAbsent: [nil].
      self assert: (value == true or: [value == false])]]
%
category: 'tests'
method: McpToolAnnotationsTest
testHintsDeclareAllFourAsGiven
  | tool |
  tool := self bareTool.
  tool hintsReadOnly: false destructive: true idempotent: false openWorld: true.
  self assert: (tool annotations at: 'readOnlyHint') == false.
  self assert: (tool annotations at: 'destructiveHint') == true.
  self assert: (tool annotations at: 'idempotentHint') == false.
  self assert: (tool annotations at: 'openWorldHint') == true
%
category: 'tests'
method: McpToolAnnotationsTest
testOnlyTheToolsThatRunClientCodeReachOutsideTheRepository
  "execute_code, and the debugger's tools that run the client's code (debug_resume goes on with
   what debug_code started, and so does debug_step)."
  server registry descriptors do: [:each |
    self assert: ((each at: 'annotations') at: 'openWorldHint')
      = (#('execute_code' 'debug_code' 'debug_evaluate' 'debug_set_temp' 'debug_resume' 'debug_step') includes: (each at: 'name'))]
%
category: 'tests'
method: McpToolAnnotationsTest
testReadOnlyMeansTheReadingHints
  | tool |
  tool := self bareTool.
  tool readOnly.
  self assert: (tool annotations at: 'readOnlyHint') == true.
  self assert: (tool annotations at: 'destructiveHint') == false.
  self assert: (tool annotations at: 'idempotentHint') == true.
  self assert: (tool annotations at: 'openWorldHint') == false
%
category: 'tests'
method: McpToolAnnotationsTest
testTheListingBrowsingAndSearchToolsAreReadOnly
  (McpListingToolset toolNames , McpBrowsingToolset toolNames , McpSearchToolset toolNames , #('status' 'list_test_classes'))
    do: [:each | self assert: (self hint: 'readOnlyHint' of: each) == true]
%
