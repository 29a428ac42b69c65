set compile_env: 0
! ------------------- Class definition for McpSearchToolset
expectvalue /Class
doit
McpToolset subclass: 'McpSearchToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpSearchToolset comment: 
'The code-search tools: implementors and senders of a selector, methods referring to a global, and
a case-sensitive substring search over method source.

Every answer pages with limit/offset and a header line naming the window, the total and the offset
of the next page. find_senders and search_method_source answer 200 at a time unless told otherwise.
search_method_source alone cannot know its total without scanning everything, so it stops one hit
past the page, says the total is not known, and answers in scan order (dictionaries in lookup order,
classes by name, instance side before class side, selectors sorted): sorting a collected prefix
would move names between pages.

Searches are exploratory and note no reads for the blind-write guardrail. Must never change the
image or the transaction.'
%
expectvalue /Class
doit
McpSearchToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpSearchToolset
removeallmethods McpSearchToolset
removeallclassmethods McpSearchToolset
! ------------------- Class methods for McpSearchToolset
category: 'accessing'
classmethod: McpSearchToolset
matchingLinesShown
  "How many matching lines of one method the text of search_method_source shows."
  ^3
%
category: 'accessing'
classmethod: McpSearchToolset
sourceSearchDefaultLimit
  "The hits search_method_source answers when the call gives no limit."
  ^200
%
! ------------------- Instance methods for McpSearchToolset
category: 'private'
method: McpSearchToolset
behaviorsToSearchIn: aDictionaryNameOrNil
  "The classes and metaclasses a source search visits, in scan order, each once."
  | dicts seen out |
  dicts := aDictionaryNameOrNil isNil
    ifTrue: [System myUserProfile symbolList asArray]
    ifFalse: [{self dictionaryNamed: aDictionaryNameOrNil}].
  seen := IdentitySet new.
  out := OrderedCollection new.
  dicts do: [:dict | (self classesSortedIn: dict) do: [:cls |
    (seen includes: cls) ifFalse: [
      seen add: cls.
      out add: cls; add: cls class]]].
  ^out
%
category: 'private'
method: McpSearchToolset
classesSortedIn: aDictionary
  "The classes bound in aDictionary, ordered by the name they are bound under."
  | pairs |
  pairs := OrderedCollection new.
  aDictionary keysAndValuesDo: [:key :value |
    (value isKindOf: Behavior) ifTrue: [pairs add: key asString -> value]].
  ^(pairs asSortedCollection: [:a :b | a key <= b key]) asArray collect: [:each | each value]
%
category: 'tools'
method: McpSearchToolset
findImplementors: args
  "find_implementors; none found is notFound with the selectors it may have meant."
  | sel rows |
  sel := self selectorArgument: args.
  rows := self labelsOf: (ClassOrganizer new implementorsOf: sel).
  rows isEmpty ifTrue: [
    ^self noMethodsFor: sel args: args suggesting: [:each | (ClassOrganizer new implementorsOf: each) notEmpty]].
  ^self page: rows args: args defaultLimit: nil noun: 'methods'
%
category: 'tools'
method: McpSearchToolset
findReferencesTo: args
  "find_references_to: the methods that refer to the object a global of the symbol list is bound
   to; a global bound to nil is refused, since every nil literal would match."
  | name binding |
  name := args at: 'name'.
  name isEmpty ifTrue: [^McpError signalKind: 'invalidParams' message: 'name must not be empty'].
  binding := System myUserProfile resolveSymbol: name asSymbol.
  binding isNil ifTrue: [
    ^McpError signalKind: 'notFound'
      message: 'no global named ' , name , ' in the symbol list'].
  binding value isNil ifTrue: [
    ^McpError signalKind: 'refused'
      message: name , ' is bound to nil, and references to nil cannot be told apart from the literal nil'].
  ^self page: (self labelsOf: (ClassOrganizer new referencesToObject: binding value))
    args: args defaultLimit: nil noun: 'methods'
%
category: 'tools'
method: McpSearchToolset
findSenders: args
  "sendersOf: answers the methods together with where each sends the selector; only the methods
   are wanted, wherever the answer nests them."
  | sel rows |
  sel := self selectorArgument: args.
  rows := self labelsOf: (self methodsIn: (ClassOrganizer new sendersOf: sel)).
  rows isEmpty ifTrue: [
    ^self noMethodsFor: sel args: args suggesting: [:each | (ClassOrganizer new implementorsOf: each) notEmpty]].
  ^self page: rows args: args defaultLimit: self class sourceSearchDefaultLimit noun: 'methods'
%
category: 'private'
method: McpSearchToolset
noMethodsFor: aSelector args: args suggesting: aBlock
  "(0 methods), and when the selector with its colon added or dropped is implemented, a did you
   mean naming it, in the header and as the page's suggestions."
  | answer variants |
  answer := self page: #() args: args defaultLimit: nil noun: 'methods'.
  variants := (self colonVariantsOf: aSelector) select: [:each | aBlock value: each].
  variants isEmpty ifTrue: [^answer].
  structured isNil ifFalse: [structured at: 'suggestions' put: (variants collect: [:each | each asString]) asArray].
  ^(answer copyFrom: 1 to: answer size - 1) , '; did you mean '
    , (self joined: (variants collect: [:each | each asString]) with: ' or ') , '?)'
%
category: 'private'
method: McpSearchToolset
colonVariantsOf: aSelector
  "The selector with a trailing colon added (withdraw -> withdraw:) or, for a one-keyword
   selector, dropped (deposit: -> deposit)."
  | name |
  name := aSelector asString.
  (name includes: $:) ifFalse: [^{(name , ':') asSymbol}].
  ((name occurrencesOf: $:) = 1 and: [name last = $:])
    ifTrue: [^{(name copyFrom: 1 to: name size - 1) asSymbol}].
  ^#()
%
category: 'private'
method: McpSearchToolset
labelFor: aBehavior
  "Foo or Foo class, as a method label names its side."
  ^aBehavior isMeta
    ifTrue: [aBehavior theNonMetaClass name asString , ' class']
    ifFalse: [aBehavior name asString]
%
category: 'private'
method: McpSearchToolset
labelsOf: aCollectionOfMethods
  "A Class>>selector -> item row for each method, sorted."
  ^self sortedRows: (aCollectionOfMethods collect: [:m |
    (self labelFor: m inClass) , '>>' , m selector asString -> (self methodItemOf: m inClass selector: m selector)])
%
category: 'private'
method: McpSearchToolset
methodsIn: aNestedCollection
  "The GsNMethods found at the top level of aNestedCollection or one level down."
  | out |
  out := OrderedCollection new.
  aNestedCollection do: [:each |
    (each isKindOf: GsNMethod)
      ifTrue: [out add: each]
      ifFalse: [(each isKindOf: Collection) ifTrue: [
        each do: [:m | (m isKindOf: GsNMethod) ifTrue: [out add: m]]]]].
  ^out
%
category: 'private'
method: McpSearchToolset
openEndedHeaderFrom: anOffset shown: aCount
  "Names the window, says the total is at least one more than it, and where the next page starts."
  ^'(showing ' , (anOffset + 1) printString , '-' , (anOffset + aCount) printString
    , ' of at least ' , (anOffset + aCount + 1) printString
    , ' methods, in scan order; the total is not known; pass offset: '
    , (anOffset + aCount) printString , ' for the next page)'
%
category: 'private'
method: McpSearchToolset
pageOpenEnded: aScanBlock args: args defaultLimit: aDefault
  "aScanBlock takes the most hits wanted (nil for all) and answers the hits found, in scan order.
   Scanning stops one hit past the page; only if it finds that hit is the total unknown."
  | limit offset hits window |
  limit := self pagingArgument: 'limit' in: args default: aDefault.
  offset := self pagingArgument: 'offset' in: args default: 0.
  limit = 0 ifTrue: [^self page: (aScanBlock value: nil) args: args defaultLimit: aDefault noun: 'methods'].
  hits := aScanBlock value: offset + limit + 1.
  hits size <= (offset + limit) ifTrue: [
    ^self page: hits args: args defaultLimit: aDefault noun: 'methods'].
  window := hits copyFrom: offset + 1 to: offset + limit.
  self notePage: (window collect: [:row | self itemOfRow: row]) offset: offset total: offset + limit + 1 complete: false.
  ^self linesFrom: {self openEndedHeaderFrom: offset shown: limit} , (window collect: [:row | self textOfRow: row])
%
category: 'private'
method: McpSearchToolset
scanFor: aPattern in: aDictionaryNameOrNil upTo: aMaxOrNil
  "Hits in scan order, stopping once aMaxOrNil have been found: each Class>>selector with its
   matching lines -> the method's item with those lines."
  | hits |
  hits := OrderedCollection new.
  (self behaviorsToSearchIn: aDictionaryNameOrNil) do: [:behavior |
    behavior selectors asSortedCollection do: [:sel | | source |
      (aMaxOrNil notNil and: [hits size >= aMaxOrNil]) ifTrue: [^hits asArray].
      source := self sourceOf: sel in: behavior.
      (source findString: aPattern startingAt: 1) > 0
        ifTrue: [hits add: (self hitIn: behavior selector: sel matching: (self linesOf: source matching: aPattern))]]].
  ^hits asArray
%
category: 'tools'
method: McpSearchToolset
searchMethodSource: args
  "search_method_source: methods whose source holds the pattern, in one dictionary or all, paged
   open-ended."
  | pattern dictName |
  pattern := args at: 'pattern'.
  pattern isEmpty ifTrue: [^McpError signalKind: 'invalidParams' message: 'pattern must not be empty'].
  dictName := self argument: 'dictionaryName' in: args ifAbsent: [nil].
  dictName isNil ifFalse: [self dictionaryNamed: dictName].
  ^self
    pageOpenEnded: [:max | self scanFor: pattern in: dictName upTo: max]
    args: args
    defaultLimit: self class sourceSearchDefaultLimit
%
category: 'private'
method: McpSearchToolset
linesOf: aSource matching: aPattern
  "{line number. line} for each line of aSource that contains aPattern."
  | matches number |
  matches := OrderedCollection new.
  number := 0.
  (self splitLines: aSource) do: [:line |
    number := number + 1.
    (line findString: aPattern startingAt: 1) > 0 ifTrue: [matches add: {number. line}]].
  ^matches
%
category: 'private'
method: McpSearchToolset
splitLines: aString
  "The lines of aString, empty ones included, split at line feeds."
  | lines current |
  lines := OrderedCollection new.
  current := WriteStream on: String new.
  aString do: [:each |
    each == Character lf
      ifTrue: [lines add: current contents. current := WriteStream on: String new]
      ifFalse: [current nextPut: each]].
  lines add: current contents.
  ^lines
%
category: 'private'
method: McpSearchToolset
hitIn: aBehavior selector: aSelector matching: aMatchCollection
  "Class>>selector and, indented under it, the first few matching lines, numbered from the
   selector line, each trimmed and clipped -> the method's item with every matching line."
  | text shown |
  text := WriteStream on: String new.
  text nextPutAll: (self labelFor: aBehavior) , '>>' , aSelector asString.
  shown := aMatchCollection size min: self class matchingLinesShown.
  1 to: shown do: [:index | | match |
    match := aMatchCollection at: index.
    text lf; nextPutAll: '    '; print: (match at: 1); nextPutAll: ': '; nextPutAll: (self clip: (match at: 2) trimSeparators)].
  aMatchCollection size > shown ifTrue: [
    text lf; nextPutAll: '    (and '; print: aMatchCollection size - shown; nextPutAll: ' more matching '
      , ((aMatchCollection size - shown) = 1 ifTrue: ['line'] ifFalse: ['lines']) , ')'].
  ^text contents -> ((self methodItemOf: aBehavior selector: aSelector)
    at: 'matches' put: (aMatchCollection asArray collect: [:match |
      Dictionary new at: 'line' put: (match at: 1); at: 'text' put: (match at: 2); yourself]);
    yourself)
%
category: 'private'
method: McpSearchToolset
clip: aLine
  "aLine, or its first 160 characters and an ellipsis."
  aLine size <= 160 ifTrue: [^aLine].
  ^(aLine copyFrom: 1 to: 160) , '...'
%
category: 'private'
method: McpSearchToolset
selectorArgument: args
  "The selector argument as a Symbol; empty is invalidParams."
  | sel |
  sel := args at: 'selector'.
  sel isEmpty ifTrue: [^McpError signalKind: 'invalidParams' message: 'selector must not be empty'].
  ^self selectorFrom: sel
%
category: 'private'
method: McpSearchToolset
sourceOf: aSelector in: aBehavior
  "The method's source, or an empty String for one whose source cannot be read."
  ^[(aBehavior sourceCodeAt: aSelector) ifNil: ['']] on: Error do: [:e | e return: '']
%
category: 'structured content'
method: McpSearchToolset
hitPageSchema
  "The output schema of a page of source hits."
  ^self pageSchemaWithItem: self hitItemSchema
%
category: 'registration'
method: McpSearchToolset
hitItemSchema
  "A method item with the lines of its source that matched."
  | schema match |
  schema := self methodItemSchema.
  match := self objectSchema: {
    'line' -> (self schemaOfType: 'integer' description: 'the line of the method source, from 1 (the selector line)').
    'text' -> (self schemaOfType: 'string' description: 'the whole line') }.
  (schema at: 'properties') at: 'matches' put: (Dictionary new
    at: 'type' put: 'array';
    at: 'items' put: match;
    at: 'description' put: 'every line of the source that contains the pattern';
    yourself).
  schema at: 'required' put: (schema at: 'required') , #('matches').
  ^schema
%
category: 'registration'
method: McpSearchToolset
pagingPropertiesDefault: aDescription
  "The limit and offset arguments, the default limit described as aDescription."
  ^{ self integerProperty: 'limit' description: 'Most results to answer (default: ' , aDescription , '; 0 answers the count alone)'.
     self integerProperty: 'offset' description: 'Results to skip first (default 0)' }
%
category: 'registration'
method: McpSearchToolset
selectorProperty
  "The selector argument of the sender and implementor searches."
  ^self stringProperty: 'selector' description: 'A selector, e.g. printOn: or at:put:'
%
category: 'registration'
method: McpSearchToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each."
  self declareFindImplementorsOn: aRegistry.
  self declareFindReferencesToOn: aRegistry.
  self declareFindSendersOn: aRegistry.
  self declareSearchMethodSourceOn: aRegistry
%
category: 'declarations'
method: McpSearchToolset
declareFindImplementorsOn: aRegistry
  aRegistry add: ((McpTool
    name: 'find_implementors'
    description: 'Methods that implement a selector, as Class>>selector, sorted. Pages with limit/offset.'
    schema: (self schemaProperties: {self selectorProperty} , (self pagingPropertiesDefault: 'all') required: #('selector'))
    handler: [:args | self findImplementors: args])
      title: 'Find implementors';
      readOnly;
      outputSchema: self methodPageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpSearchToolset
declareFindReferencesToOn: aRegistry
  aRegistry add: ((McpTool
    name: 'find_references_to'
    description: 'Methods that refer to a named global (a class, or any other binding in the symbol list), sorted. Pages with limit/offset.'
    schema: (self schemaProperties: {
        self stringProperty: 'name' description: 'Name of the global, e.g. OrderedCollection' } , (self pagingPropertiesDefault: 'all')
      required: #('name'))
    handler: [:args | self findReferencesTo: args])
      title: 'Find references to a global';
      readOnly;
      outputSchema: self methodPageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpSearchToolset
declareFindSendersOn: aRegistry
  aRegistry add: ((McpTool
    name: 'find_senders'
    description: 'Methods that send a selector, sorted, 200 at a time by default with the true total in the header; pass offset for the next page.'
    schema: (self schemaProperties: {self selectorProperty} , (self pagingPropertiesDefault: '200') required: #('selector'))
    handler: [:args | self findSenders: args])
      title: 'Find senders';
      readOnly;
      outputSchema: self methodPageSchema from: self;
      yourself)
%
category: 'declarations'
method: McpSearchToolset
declareSearchMethodSourceOn: aRegistry
  aRegistry add: ((McpTool
    name: 'search_method_source'
    description: 'Methods whose source contains a substring (case-sensitive), each with its first matching lines (numbered from the selector line), 200 at a time by default, in scan order. The scan stops one hit past the page, so the header says when the total is not known. Scope it with dictionaryName: scanning every dictionary reads the kernel too and is slow.'
    schema: (self schemaProperties: {
        self stringProperty: 'pattern' description: 'Substring to look for, case-sensitive'.
        self stringProperty: 'dictionaryName' description: 'Search only the classes of this symbol dictionary (default: every dictionary in the symbol list)' } , (self pagingPropertiesDefault: '200')
      required: #('pattern'))
    handler: [:args | self searchMethodSource: args])
      title: 'Search method source';
      readOnly;
      outputSchema: self hitPageSchema from: self;
      yourself)
%
