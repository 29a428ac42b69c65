set compile_env: 0
! ------------------- Class definition for McpListingToolset
expectvalue /Class
doit
McpToolset subclass: 'McpListingToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpListingToolset comment: 
'The listing tools: which symbol dictionaries the session''s user sees, which classes they hold, and
what else is bound in them (list_all_classes, list_classes, list_dictionaries,
list_dictionary_entries).

A listing names things; it does not show their contents. So only list_dictionary_entries, which shows
every binding of one dictionary (exactly what remove_dictionary destroys), notes a read for the
blind-write guardrail; the other three note nothing.

Must never change the image, the symbol list or the transaction: every handler only reads.'
%
expectvalue /Class
doit
McpListingToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpListingToolset
removeallmethods McpListingToolset
removeallclassmethods McpListingToolset
! ------------------- Class methods for McpListingToolset
! ------------------- Instance methods for McpListingToolset
category: 'private'
method: McpListingToolset
classNamesIn: aDictionary
  "The names of the classes bound in aDictionary, sorted."
  | names |
  names := OrderedCollection new.
  aDictionary keysAndValuesDo: [:key :value |
    (value isKindOf: Behavior) ifTrue: [names add: key asString]].
  ^names asSortedCollection asArray
%
category: 'private'
method: McpListingToolset
entryLinesIn: aDictionary
  "One row per binding of aDictionary, tagged (class) or (global), sorted by key."
  | rows |
  rows := OrderedCollection new.
  aDictionary keysAndValuesDo: [:key :value | | kind |
    kind := (value isKindOf: Behavior) ifTrue: ['class'] ifFalse: ['global'].
    rows add: key asString , '  (' , kind , ')' -> (Dictionary new
      at: 'name' put: key asString;
      at: 'kind' put: kind;
      yourself)].
  ^self sortedRows: rows
%
category: 'tools'
method: McpListingToolset
listAllClasses: args
  "Every class bound in any dictionary of the symbol list, with the dictionary that binds it."
  | rows |
  rows := OrderedCollection new.
  System myUserProfile symbolList do: [:dict | | dictName |
    dictName := dict name asString.
    (self classNamesIn: dict) do: [:each |
      rows add: each , '  (' , dictName , ')' -> (Dictionary new
        at: 'name' put: each;
        at: 'dictionary' put: dictName;
        yourself)]].
  ^self page: (self sortedRows: rows) args: args defaultLimit: nil noun: 'classes'
%
category: 'tools'
method: McpListingToolset
listClasses: args
  "list_classes: the class names of one dictionary, sorted and paged."
  | dict |
  dict := self dictionaryNamed: (args at: 'dictionaryName').
  ^self page: ((self classNamesIn: dict) collect: [:each | each -> (Dictionary new at: 'name' put: each; yourself)])
    args: args defaultLimit: nil noun: 'classes'
%
category: 'tools'
method: McpListingToolset
listDictionaries: args
  "The symbol list in lookup order, numbered, because the order is what decides which binding of a
   name the compiler sees."
  | lines items |
  lines := OrderedCollection new.
  items := OrderedCollection new.
  System myUserProfile symbolList do: [:dict |
    items add: (Dictionary new
      at: 'name' put: dict name asString;
      at: 'position' put: items size + 1;
      yourself).
    lines add: items size printString , '. ' , dict name asString].
  self notePage: items offset: 0 total: items size complete: true.
  ^self linesFrom: lines
%
category: 'tools'
method: McpListingToolset
listDictionaryEntries: args
  "list_dictionary_entries; the read licenses remove_dictionary."
  | dict |
  dict := self dictionaryNamed: (args at: 'dictionaryName').
  self noteRead: (self dictionaryKey: dict name asString).
  ^self page: (self entryLinesIn: dict) args: args defaultLimit: nil noun: 'entries'
%
category: 'structured content'
method: McpListingToolset
classPageSchema
  "Each class with the dictionary that binds it."
  ^self pageSchemaWithItem: (self objectSchema: {self nameField.
    'dictionary' -> (self schemaOfType: 'string' description: 'the dictionary that binds it')})
%
category: 'structured content'
method: McpListingToolset
namePageSchema
  "The output schema of a page of names."
  ^self pageSchemaWithItem: (self objectSchema: {self nameField})
%
category: 'structured content'
method: McpListingToolset
dictionaryPageSchema
  "Each dictionary with its place in the symbol list."
  ^self pageSchemaWithItem: (self objectSchema: {self nameField.
    'position' -> (self schemaOfType: 'integer' description: 'its place in the symbol list, from 1')})
%
category: 'structured content'
method: McpListingToolset
entryPageSchema
  "Each binding with whether it binds a class."
  ^self pageSchemaWithItem: (self objectSchema: {self nameField.
    'kind' -> (Dictionary new at: 'type' put: 'string'; at: 'enum' put: #('class' 'global'); yourself)})
%
category: 'registration'
method: McpListingToolset
nameField
  "The one field of an item in a page of names."
  ^'name' -> (self schemaOfType: 'string' description: 'the name it is bound under')
%
category: 'registration'
method: McpListingToolset
pagingProperties
  "The limit and offset arguments of the listing tools."
  ^{ self integerProperty: 'limit' description: 'Most lines to answer (default: all; 0 answers the count alone)'.
     self integerProperty: 'offset' description: 'Lines to skip first (default 0)' }
%
category: 'registration'
method: McpListingToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each."
  self declareListAllClassesOn: aRegistry.
  self declareListClassesOn: aRegistry.
  self declareListDictionariesOn: aRegistry.
  self declareListDictionaryEntriesOn: aRegistry
%
category: 'declarations'
method: McpListingToolset
declareListAllClassesOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_all_classes'
    description: 'Every class in every symbol dictionary of the session''s symbol list, each with the dictionary that binds it, sorted by name. Pages with limit/offset.'
    schema: (self schemaProperties: self pagingProperties required: #())
    handler: [:args | self listAllClasses: args])
      title: 'List all classes';
      readOnly;
      outputSchema: self classPageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpListingToolset
declareListClassesOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_classes'
    description: 'The classes bound in one symbol dictionary, sorted by name. Pages with limit/offset.'
    schema: (self schemaProperties: {
        self stringProperty: 'dictionaryName' description: 'Name of a symbol dictionary in the symbol list, e.g. UserGlobals' } , self pagingProperties
      required: #('dictionaryName'))
    handler: [:args | self listClasses: args])
      title: 'List the classes of a dictionary';
      readOnly;
      outputSchema: self namePageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpListingToolset
declareListDictionariesOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_dictionaries'
    description: 'The symbol dictionaries of the session''s symbol list, in lookup order (the first one binding a name is the one the compiler uses).'
    schema: (self schemaProperties: #() required: #())
    handler: [:args | self listDictionaries: args])
      title: 'List the symbol dictionaries';
      readOnly;
      outputSchema: self dictionaryPageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpListingToolset
declareListDictionaryEntriesOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_dictionary_entries'
    description: 'Every binding in one symbol dictionary, tagged (class) or (global), sorted by name. Pages with limit/offset. This is the read that licenses remove_dictionary.'
    schema: (self schemaProperties: {
        self stringProperty: 'dictionaryName' description: 'Name of a symbol dictionary in the symbol list' } , self pagingProperties
      required: #('dictionaryName'))
    handler: [:args | self listDictionaryEntries: args])
      title: 'List the entries of a dictionary';
      readOnly;
      outputSchema: self entryPageSchema from: self;
      yourself)
%
