set compile_env: 0
! ------------------- Class definition for McpToolset
expectvalue /Class
doit
Object subclass: 'McpToolset'
  instVarNames: #( server options structured)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpToolset comment: 
'Abstract tool pack. A subclass declares each of its tools once, in a method of its own in
category declarations (declare<Tool>On: aRegistry) that registerOn: sends, as an McpTool whose
name, description, schema and handler block stand together (class-side toolNames derives the
names from registerOn:), declares the options it accepts in the class-side declaredOptionNames,
and writes each handler as an instance method in category tools that takes the validated
argument Dictionary and answers a String or signals an McpError. The static checker holds the
two together: every self-send of a handler block is implemented by the toolset, and every method
in category tools is the handler of a declared tool.

Inherited here: the schema builders (every schema is closed: additionalProperties false, and a
required list), the lookups (resolveClass:, dictionaryNamed:, argument:in:ifAbsent:), output
helpers (linesFrom:, joined:with:, capResult:, the limit and offset paging of page:args:defaultLimit:noun:,
which also keeps the page as structured content for a tool declared with
outputSchema: self pageSchema from: self; takeStructured hands it to the dispatcher once),
the options of this toolset only (optionNamed:ifAbsent:), and the blind-write guardrail, which
forwards to the ledger of the server (McpReadLedger: noteRead:, requireRead:, noteWrite:).

A toolset never commits, aborts or refreshes the view; only McpSessionToolset does, through its
commit, abort and refresh tools. It never decides who may change what: that is the business of
the GemStone user the worker runs as.'
%
expectvalue /Class
doit
McpToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpToolset
removeallmethods McpToolset
removeallclassmethods McpToolset
! ------------------- Class methods for McpToolset
category: 'options'
classmethod: McpToolset
declaredOptionNames
  "The allow-list of option names this toolset accepts; none by default."
  ^#()
%
category: 'instance creation'
classmethod: McpToolset
server: anMcpServer options: aDictionaryOrNil
  "A toolset of anMcpServer with the options its config gives it; a nil server only lists the
   tool names."
  ^self new setServer: anMcpServer options: aDictionaryOrNil
%
category: 'registration'
classmethod: McpToolset
toolNames
  "The names of the tools registerOn: registers, sorted, from their one declaration each: a
   toolset with no server registers on a fresh registry, and no handler runs."
  | registry |
  registry := McpToolRegistry new.
  (self server: nil options: nil) registerOn: registry.
  ^registry toolNames
%
! ------------------- Instance methods for McpToolset
category: 'arguments'
method: McpToolset
argument: aName in: args ifAbsent: aBlock
  "An optional argument; the schema has already checked its type."
  ^args at: aName ifAbsent: aBlock
%
category: 'schema'
method: McpToolset
booleanProperty: aName description: aDescription
  ^self property: aName type: 'boolean' description: aDescription
%
category: 'arguments'
method: McpToolset
booleanArgument: aName in: args default: aBoolean
  "An optional boolean argument, or aBoolean when it was left out."
  ^args at: aName ifAbsent: [aBoolean]
%
category: 'output'
method: McpToolset
capResult: aString
  "aString, or its first resultCap characters followed by a marker naming what was dropped."
  | cap |
  cap := self resultCap.
  (cap isNil or: [cap <= 0 or: [aString size <= cap]]) ifTrue: [^aString].
  ^(aString copyFrom: 1 to: cap) , (self truncationMarkerShowing: cap of: aString size)
%
category: 'blind-write guardrail'
method: McpToolset
classKey: aClass
  "The ledger key of a class definition and comment."
  ^McpReadLedger classKeyFor: aClass
%
category: 'lookups'
method: McpToolset
dictionaryNamed: aName
  "The SymbolDictionary called aName in the symbol list of this user, or notFound."
  System myUserProfile symbolList do: [:each | | dictName |
    dictName := each name.
    (dictName notNil and: [dictName asString = aName asString]) ifTrue: [^each]].
  ^self signalNotFound: 'dictionary ' , aName , ' not found in the symbol list'
    suggesting: (self suggestionsFor: aName
      among: (System myUserProfile symbolList asArray collect: [:each | each name asString]))
%
category: 'blind-write guardrail'
method: McpToolset
dictionaryKey: aName
  "The ledger key of a symbol dictionary, by name."
  ^McpReadLedger dictionaryKeyFor: aName
%
category: 'schema'
method: McpToolset
integerProperty: aName description: aDescription
  ^self property: aName type: 'integer' description: aDescription
%
category: 'output'
method: McpToolset
linesFrom: aCollectionOfStrings
  "The strings joined with line feeds."
  ^self joined: aCollectionOfStrings with: (String with: Character lf)
%
category: 'output'
method: McpToolset
joined: aCollectionOfStrings with: aSeparator
  "The strings separated by aSeparator; empty when there are none. A flag, never the stream
   position, says whether one was written: legacy streams differ in its polarity."
  | out first |
  out := WriteStream on: String new.
  first := true.
  aCollectionOfStrings do: [:each |
    first ifFalse: [out nextPutAll: aSeparator].
    first := false.
    out nextPutAll: each].
  ^out contents
%
category: 'blind-write guardrail'
method: McpToolset
methodKey: aClass selector: aSelector
  "The ledger key of one method; aClass may be a metaclass."
  ^McpReadLedger methodKeyFor: aClass selector: aSelector
%
category: 'blind-write guardrail'
method: McpToolset
noteRead: aKey
  "Record that the client read aKey in this view, which licenses a write to it."
  ^self server ledger noteRead: aKey
%
category: 'blind-write guardrail'
method: McpToolset
noteWrite: aKey
  "Record that the client wrote aKey, which licenses the next write to it."
  ^self server ledger noteWrite: aKey
%
category: 'blind-write guardrail'
method: McpToolset
noteWrite: aKey change: anEntry
  "The client has just changed aKey; anEntry (changeOf:...) says what the change was, which
   pending_changes lists until a commit or an abort."
  self noteWrite: aKey.
  ^self server ledger noteChange: anEntry key: aKey
%
category: 'blind-write guardrail'
method: McpToolset
change: aKind ofClass: aClass
  "A pending_changes entry for a class."
  ^Dictionary new
    at: 'change' put: aKind;
    at: 'className' put: aClass theNonMetaClass name asString;
    yourself
%
category: 'blind-write guardrail'
method: McpToolset
change: aKind ofMethod: aSelector in: aBehavior
  "A pending_changes entry for a method, naming its side."
  ^(self change: aKind ofClass: aBehavior)
    at: 'selector' put: aSelector asString;
    at: 'side' put: (aBehavior isMeta ifTrue: ['class'] ifFalse: ['instance']);
    yourself
%
category: 'blind-write guardrail'
method: McpToolset
change: aKind ofDictionary: aName
  "A pending_changes entry for a symbol dictionary."
  ^Dictionary new
    at: 'change' put: aKind;
    at: 'dictionary' put: aName asString;
    yourself
%
category: 'options'
method: McpToolset
optionNamed: aName ifAbsent: aBlock
  "One option of this toolset. Every option is optional, so the caller says what it does without."
  options isNil ifTrue: [^aBlock value].
  ^options at: aName ifAbsent: aBlock
%
category: 'paging'
method: McpToolset
page: aCollection args: args defaultLimit: anIntegerOrNil noun: aNoun
  "The window of aCollection that the limit and offset arguments select, headed by a line that
   names the window, the total and the offset of the next page. limit 0 answers the count alone.
   The same page is kept as structured content (notePage:offset:total:complete:). A row is a
   String, shown and kept as it is, or text -> item: the text is shown, the item (a Dictionary of
   fields) kept."
  | limit offset total stop window |
  limit := self pagingArgument: 'limit' in: args default: anIntegerOrNil.
  offset := self pagingArgument: 'offset' in: args default: 0.
  total := aCollection size.
  limit = 0 ifTrue: [
    self notePage: #() offset: offset total: total complete: true.
    ^'(' , (self count: total of: aNoun) , ')'].
  stop := limit isNil ifTrue: [total] ifFalse: [(offset + limit) min: total].
  window := self window: aCollection from: offset + 1 to: stop.
  self notePage: (window collect: [:row | self itemOfRow: row]) offset: offset total: total complete: true.
  ^self linesFrom: (OrderedCollection new
    add: (self pageHeaderFrom: offset + 1 to: stop of: total noun: aNoun);
    addAll: (window collect: [:row | self textOfRow: row]);
    yourself)
%
category: 'structured content'
method: McpToolset
notePage: aWindow offset: anOffset total: aTotal complete: aBoolean
  "Keep one page as the structured content of the call: the items shown, where they start, the
   total (a lower bound when aBoolean is false) and, when more follow, the offset of the next."
  | page |
  page := Dictionary new
    at: 'items' put: aWindow asArray;
    at: 'offset' put: anOffset;
    at: 'total' put: aTotal;
    at: 'complete' put: aBoolean;
    yourself.
  (aWindow notEmpty and: [anOffset + aWindow size < aTotal])
    ifTrue: [page at: 'nextOffset' put: anOffset + aWindow size].
  self noteStructured: page
%
category: 'structured content'
method: McpToolset
noteStructured: aDictionary
  "Keep aDictionary as the structured content of the call that runs now."
  structured := aDictionary
%
category: 'structured content'
method: McpToolset
pageSchema
  "The outputSchema of a tool that answers a page. A failed call answers structuredContent.error
   instead, which the schema allows, so a client that checks results against it accepts both."
  | page |
  page := Dictionary new
    at: 'items' put: (Dictionary new
      at: 'type' put: 'array';
      at: 'items' put: (Dictionary new at: 'type' put: 'string'; yourself);
      at: 'description' put: 'the lines of this page, as the text shows them after its header';
      yourself);
    at: 'offset' put: (self schemaOfType: 'integer' description: 'how many items came before this page');
    at: 'total' put: (self schemaOfType: 'integer' description: 'how many items there are (at least this many when complete is false)');
    at: 'complete' put: (self schemaOfType: 'boolean' description: 'false when the scan stopped early and total is only a lower bound');
    at: 'nextOffset' put: (self schemaOfType: 'integer' description: 'the offset of the next page; absent on the last');
    at: 'suggestions' put: (Dictionary new
      at: 'type' put: 'array';
      at: 'items' put: (Dictionary new at: 'type' put: 'string'; yourself);
      at: 'description' put: 'on an empty page, the names that may have been meant';
      yourself);
    at: 'error' put: (self schemaOfType: 'object' description: 'present instead of the page when the call failed');
    yourself.
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: page;
    at: 'anyOf' put: (Array
      with: (Dictionary new at: 'required' put: #('items' 'offset' 'total' 'complete'); yourself)
      with: (Dictionary new at: 'required' put: #('error'); yourself));
    yourself
%
category: 'structured content'
method: McpToolset
schemaOfType: aType description: aDescription
  "A property schema of one JSON type."
  ^Dictionary new
    at: 'type' put: aType;
    at: 'description' put: aDescription;
    yourself
%
category: 'structured content'
method: McpToolset
takeStructured
  "The structured content the last call kept, once: it is forgotten as it is handed over."
  | answer |
  answer := structured.
  structured := nil.
  ^answer
%
category: 'paging'
method: McpToolset
pageHeaderFrom: start to: stop of: total noun: aNoun
  "The first line of a page: what it shows of how many, and the offset of the next page when
   there is one."
  total = 0 ifTrue: [^'(0 ' , aNoun , ')'].
  start > total ifTrue: [
    ^'(showing none of ' , total printString , '; offset ' , (start - 1) printString
      , ' is past the end)'].
  (start = 1 and: [stop = total]) ifTrue: [^'(showing all ' , total printString , ')'].
  stop < total ifTrue: [
    ^'(showing ' , start printString , '-' , stop printString , ' of ' , total printString
      , '; pass offset: ' , stop printString , ' for the next page)'].
  ^'(showing ' , start printString , '-' , stop printString , ' of ' , total printString , ')'
%
category: 'paging'
method: McpToolset
pagingArgument: aName in: args default: aDefault
  "A limit or offset argument: absent means aDefault; anything but a non-negative integer is
   refused with kind invalidParams."
  | value |
  value := args at: aName ifAbsent: [^aDefault].
  ((value isKindOf: Integer) and: [value >= 0]) ifTrue: [^value].
  ^McpError
    signalKind: 'invalidParams'
    message: aName , ' must be a non-negative integer, not ' , value printString
%
category: 'schema'
method: McpToolset
property: aName type: aType description: aDescription
  "One schema property, as an Association for schemaProperties:required:."
  ^aName -> (Dictionary new
    at: 'type' put: aType;
    at: 'description' put: aDescription;
    yourself)
%
category: 'registration'
method: McpToolset
registerOn: aRegistry
  "Add this toolset's tools to aRegistry: one send of a declaration method per tool, each sending
   aRegistry add: (McpTool name:description:schema:handler:)."
  ^McpError
    signalKind: 'other'
    message: self class name , ' does not implement registerOn:'
%
category: 'blind-write guardrail'
method: McpToolset
requireRead: aKey
  "Signals kind refused unless aKey was read (or written) in this view and is still current."
  ^self server ledger requireRead: aKey
%
category: 'lookups'
method: McpToolset
resolveClass: aName
  "The instance side of the class aName, or notFound."
  ^self resolveClass: aName meta: false
%
category: 'lookups'
method: McpToolset
resolveClass: aName meta: aBoolean
  "The class called aName in the symbol list of this user (its metaclass when aBoolean), or
   notFound naming the closest class names."
  | found |
  found := (aName isNil or: [aName isEmpty])
    ifTrue: [nil]
    ifFalse: [System myUserProfile symbolList objectNamed: aName asSymbol].
  (found notNil and: [found isBehavior]) ifFalse: [
    ^self signalNotFound: 'class ' , aName printString , ' not found'
      suggesting: (self suggestionsFor: aName among: self classNamesInSymbolList)].
  aBoolean == true ifTrue: [^found class].
  ^found
%
category: 'lookups'
method: McpToolset
classNamesInSymbolList
  "The names under which the dictionaries of the symbol list bind a class, each once."
  | names |
  names := Set new.
  System myUserProfile symbolList do: [:dict |
    dict keysAndValuesDo: [:key :value |
      (value isKindOf: Behavior) ifTrue: [names add: key asString]]].
  ^names
%
category: 'lookups'
method: McpToolset
selectorFrom: aString
  "A selector as a client may write it, #deposit: or deposit:, as a Symbol."
  | text |
  text := aString trimSeparators.
  (text size > 1 and: [text first = $#]) ifTrue: [text := text copyFrom: 2 to: text size].
  ^text asSymbol
%
category: 'lookups'
method: McpToolset
definerOf: aSelector above: aBehavior
  "The nearest superclass of aBehavior that defines aSelector, or nil."
  | each |
  each := aBehavior superclass.
  [each isNil] whileFalse: [
    (each includesSelector: aSelector) ifTrue: [^each].
    each := each superclass].
  ^nil
%
category: 'lookups'
method: McpToolset
signalMissingSelector: aSelector in: aBehavior
  "notFound for a method aBehavior does not define itself: where it is inherited from, else the
   closest selectors it does define."
  | definer label |
  label := (self labelOfBehavior: aBehavior) , '>>' , aSelector asString.
  definer := self definerOf: aSelector above: aBehavior.
  definer isNil ifFalse: [
    ^McpError signalKind: 'notFound'
      message: label , ' not found: the class does not define it; it inherits it from '
        , (self labelOfBehavior: definer) , ', which does'
      details: (Dictionary new at: 'inheritedFrom' put: (self labelOfBehavior: definer); yourself)].
  ((self otherSideOf: aBehavior) includesSelector: aSelector) ifTrue: [
    ^McpError signalKind: 'notFound'
      message: label , ' not found: the class does not define it on this side; '
        , (aBehavior isMeta
          ifTrue: ['the instance side does (leave meta out)']
          ifFalse: ['the class side does (pass meta: true)'])].
  ^self signalNotFound: label , ' not found: the class does not define it'
    suggesting: (self suggestionsFor: aSelector asString among: (aBehavior selectors collect: [:each | each asString]))
%
category: 'lookups'
method: McpToolset
otherSideOf: aBehavior
  "The metaclass of a class, the class of a metaclass."
  ^aBehavior isMeta ifTrue: [aBehavior theNonMetaClass] ifFalse: [aBehavior class]
%
category: 'lookups'
method: McpToolset
labelOfBehavior: aBehavior
  "Foo, or Foo class for a metaclass."
  ^aBehavior isMeta
    ifTrue: [aBehavior theNonMetaClass name asString , ' class']
    ifFalse: [aBehavior name asString]
%
category: 'suggestions'
method: McpToolset
signalNotFound: aMessage suggesting: aCollectionOfNames
  "notFound with aMessage, then the names that may have been meant, also as details.suggestions."
  aCollectionOfNames isEmpty ifTrue: [^McpError signalKind: 'notFound' message: aMessage].
  ^McpError
    signalKind: 'notFound'
    message: aMessage , '; did you mean ' , (self joined: aCollectionOfNames with: ' or ') , '?'
    details: (Dictionary new at: 'suggestions' put: aCollectionOfNames asArray; yourself)
%
category: 'suggestions'
method: McpToolset
suggestionsFor: aString among: aCollectionOfNames
  "Up to three names close to aString, closest first: the same but for case, a colon or a leading
   #, a few edits away (one for every five characters, at least one), or beginning with it."
  | key limit scored sorted |
  key := (self selectorFrom: aString) asString asLowercase.
  limit := (key size // 5) max: 1.
  scored := OrderedCollection new.
  aCollectionOfNames asSet do: [:each | | name lower distance |
    name := each asString.
    lower := name asLowercase.
    name = aString ifFalse: [
      distance := (lower size - key size) abs <= limit
        ifTrue: [self editDistanceFrom: key to: lower]
        ifFalse: [limit + 1].
      (distance > limit and: [self is: key aPrefixOf: lower]) ifTrue: [distance := limit].
      distance <= limit ifTrue: [scored add: distance -> name]]].
  sorted := (scored asSortedCollection: [:a :b |
    a key < b key or: [a key = b key and: [a value <= b value]]]) asArray.
  ^(sorted copyFrom: 1 to: (sorted size min: 3)) collect: [:each | each value]
%
category: 'suggestions'
method: McpToolset
is: aKey aPrefixOf: aName
  "A key of four characters or more that aName begins with and is longer than."
  ^aKey size >= 4 and: [aName size > aKey size and: [(aName copyFrom: 1 to: aKey size) = aKey]]
%
category: 'suggestions'
method: McpToolset
editDistanceFrom: aString to: anotherString
  "The number of single-character insertions, deletions and substitutions between the two."
  | previous current |
  previous := (0 to: anotherString size) asArray.
  1 to: aString size do: [:i |
    current := Array new: anotherString size + 1.
    current at: 1 put: i.
    1 to: anotherString size do: [:j |
      current at: j + 1 put: ((((previous at: j + 1) + 1) min: ((current at: j) + 1))
        min: ((previous at: j) + ((aString at: i) = (anotherString at: j) ifTrue: [0] ifFalse: [1])))].
    previous := current].
  ^previous at: anotherString size + 1
%
category: 'output'
method: McpToolset
listOf: aCollectionOfStrings upTo: aMax
  "The first aMax strings separated by commas, then how many more there are."
  | shown |
  aCollectionOfStrings size <= aMax ifTrue: [^self joined: aCollectionOfStrings asArray with: ', '].
  shown := aCollectionOfStrings asArray copyFrom: 1 to: aMax.
  ^(self joined: shown with: ', ') , ' and ' , (aCollectionOfStrings size - aMax) printString , ' more'
%
category: 'output'
method: McpToolset
count: anInteger of: aPluralNoun
  "1 method, 2 methods: the number and the noun, singular for one."
  ^anInteger printString , ' ' , (anInteger = 1
    ifTrue: [self singularOf: aPluralNoun]
    ifFalse: [aPluralNoun])
%
category: 'output'
method: McpToolset
singularOf: aPluralNoun
  "entries -> entry, classes -> class, methods -> method; a noun not ending in s is left alone."
  | size |
  size := aPluralNoun size.
  (size > 3 and: [(aPluralNoun copyFrom: size - 2 to: size) = 'ies'])
    ifTrue: [^(aPluralNoun copyFrom: 1 to: size - 3) , 'y'].
  (size > 4 and: [(aPluralNoun copyFrom: size - 3 to: size) = 'sses'])
    ifTrue: [^aPluralNoun copyFrom: 1 to: size - 2].
  (size > 1 and: [aPluralNoun last = $s]) ifTrue: [^aPluralNoun copyFrom: 1 to: size - 1].
  ^aPluralNoun
%
category: 'output'
method: McpToolset
resultCap
  "The server's result cap, or the default when the toolset only lists its tools."
  server isNil ifTrue: [^McpServer defaultResultCap].
  ^server resultCap
%
category: 'schema'
method: McpToolset
schemaProperties: anArrayOfAssociations required: anArrayOfNames
  "A closed object schema: additionalProperties false and a required list, possibly empty."
  | properties |
  properties := Dictionary new.
  anArrayOfAssociations do: [:each | properties at: each key put: each value].
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: properties;
    at: 'required' put: anArrayOfNames asArray;
    at: 'additionalProperties' put: false;
    yourself
%
category: 'accessing'
method: McpToolset
server
  "The McpServer this toolset serves."
  ^server
%
category: 'initialization'
method: McpToolset
setServer: anMcpServer options: aDictionaryOrNil
  server := anMcpServer.
  options := aDictionaryOrNil
%
category: 'schema'
method: McpToolset
stringArrayProperty: aName description: aDescription
  "An array-of-strings property."
  | association |
  association := self property: aName type: 'array' description: aDescription.
  association value at: 'items' put: (Dictionary new at: 'type' put: 'string'; yourself).
  ^association
%
category: 'schema'
method: McpToolset
stringProperty: aName description: aDescription
  ^self property: aName type: 'string' description: aDescription
%
category: 'output'
method: McpToolset
truncationMarkerShowing: aShown of: aTotal
  ^McpServer truncationMarkerShowing: aShown of: aTotal
%
category: 'paging'
method: McpToolset
window: aCollection from: start to: stop
  "The rows start..stop; empty when the window is empty."
  | rows |
  rows := OrderedCollection new.
  start to: stop do: [:index | rows add: (aCollection at: index)].
  ^rows
%
category: 'paging'
method: McpToolset
textOfRow: aRow
  "What the text shows of a row: a String row itself, the key of a text -> item row."
  (aRow isKindOf: Association) ifTrue: [^aRow key asString].
  ^aRow asString
%
category: 'paging'
method: McpToolset
itemOfRow: aRow
  "What the structured page keeps of a row: a String row itself, the item of a text -> item row."
  (aRow isKindOf: Association) ifTrue: [^aRow value].
  ^aRow asString
%
category: 'paging'
method: McpToolset
sortedRows: aCollection
  "text -> item rows sorted by their text."
  ^(aCollection asSortedCollection: [:a :b | a key <= b key]) asArray
%
category: 'structured content'
method: McpToolset
pageSchemaWithItem: anItemSchema
  "The outputSchema of a tool whose page holds objects of anItemSchema rather than lines."
  | schema |
  schema := self pageSchema.
  ((schema at: 'properties') at: 'items')
    at: 'items' put: anItemSchema;
    at: 'description' put: 'the entries of this page, one object each, in the order the text shows them'.
  ^schema
%
category: 'structured content'
method: McpToolset
objectSchema: anArrayOfAssociations
  "A closed object schema whose every property is required: the fields of a page item."
  | properties |
  properties := Dictionary new.
  anArrayOfAssociations do: [:each | properties at: each key put: each value].
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: properties;
    at: 'required' put: (anArrayOfAssociations collect: [:each | each key]) asArray;
    at: 'additionalProperties' put: false;
    yourself
%
category: 'structured content'
method: McpToolset
methodItemSchema
  "The item of a page of methods: the class (its name, without class for a metaclass), whether it
   is the class side, and the selector."
  ^self objectSchema: {
    'class' -> (self schemaOfType: 'string' description: 'the class name (the instance side''s, for a class-side method)').
    'meta' -> (self schemaOfType: 'boolean' description: 'true for a class-side method').
    'selector' -> (self schemaOfType: 'string' description: 'the selector') }
%
category: 'structured content'
method: McpToolset
methodPageSchema
  "A page of methods, each as its class, side and selector."
  ^self pageSchemaWithItem: self methodItemSchema
%
category: 'structured content'
method: McpToolset
methodItemOf: aBehavior selector: aSelector
  "One method in the structuredContent of a page: class, side and selector."
  ^Dictionary new
    at: 'class' put: aBehavior theNonMetaClass name asString;
    at: 'meta' put: aBehavior isMeta;
    at: 'selector' put: aSelector asString;
    yourself
%
category: 'compile errors'
method: McpToolset
compileErrorReportFrom: aCompileError source: aString
  "A Dictionary: the line of the first error and one entry per error the compiler reported
   (number, offset, line, text, and the name it is about when the kernel gives one). Reading the
   descriptors never raises: a part that cannot be read is left out, and only when no error
   could be read is the exception's own description kept, as compiler."
  | report errors |
  errors := OrderedCollection new.
  ([aCompileError errorDetails] on: Error do: [:e | e return: #()]) do: [:each |
    errors add: (self describeCompileErrorDescriptor: each source: aString)].
  report := Dictionary new.
  report at: 'errors' put: errors asArray.
  report at: 'line' put: (errors isEmpty ifTrue: [nil] ifFalse: [errors first at: 'line' ifAbsent: [nil]]).
  report at: 'column' put: (errors isEmpty ifTrue: [nil] ifFalse: [errors first at: 'column' ifAbsent: [nil]]).
  errors isEmpty ifTrue: [report at: 'compiler' put: (self describe: aCompileError)].
  ^report
%
category: 'compile errors'
method: McpToolset
compileErrorSummaryOf: aReport
  "Each error as line L: text: name (error N), joined; the kernel's description when there are none."
  | errors |
  errors := aReport at: 'errors'.
  errors isEmpty ifTrue: [^aReport at: 'compiler' ifAbsent: ['the compiler gave no detail']].
  ^self joined: (errors collect: [:each | self compileErrorLineOf: each]) with: '; '
%
category: 'compile errors'
method: McpToolset
compileErrorLineOf: anEntry
  "One compile error as a line of text: line, the compiler's text, the name it is about and the
   error number."
  | out text name |
  out := WriteStream on: String new.
  (anEntry includesKey: 'line') ifTrue: [out nextPutAll: 'line '; print: (anEntry at: 'line'); nextPutAll: ': '].
  text := anEntry at: 'text' ifAbsent: ['error'].
  name := anEntry at: 'name' ifAbsent: [nil].
  out nextPutAll: text.
  (name notNil and: [(text findString: name startingAt: 1) = 0]) ifTrue: [out nextPutAll: ': '; nextPutAll: name].
  (anEntry includesKey: 'number') ifTrue: [out nextPutAll: ' (error '; print: (anEntry at: 'number'); nextPutAll: ')'].
  ^out contents
%
category: 'compile errors'
method: McpToolset
describe: anException
  "The exception's own description, which unlike messageText is never nil."
  ^[anException description asString]
    on: Error do: [:e | e return: (anException messageText ifNil: [anException class name asString]) asString]
%
category: 'compile errors'
method: McpToolset
describeCompileErrorDescriptor: aDescriptor source: aString
  "One kernel error descriptor as JSON-safe fields: the error number first, the source offset
   second, the text third, and for some errors the name they are about fifth (gemstone-smalltalk.md
   s6: 1031 carries the undefined name there)."
  | entry number offset text name |
  entry := Dictionary new.
  number := self element: 1 of: aDescriptor.
  offset := self element: 2 of: aDescriptor.
  text := self element: 3 of: aDescriptor.
  name := self element: 5 of: aDescriptor.
  (number isKindOf: Integer) ifTrue: [entry at: 'number' put: number].
  (offset isKindOf: Integer) ifTrue: [
    entry at: 'offset' put: offset.
    entry at: 'line' put: (self lineOf: offset in: aString).
    entry at: 'column' put: (self columnOf: offset in: aString)].
  (text isKindOf: CharacterCollection) ifTrue: [entry at: 'text' put: text asString].
  (name isKindOf: CharacterCollection) ifTrue: [entry at: 'name' put: name asString].
  ^entry
%
category: 'compile errors'
method: McpToolset
element: anIndex of: aDescriptor
  "The element at anIndex of an error descriptor, or nil when it has none there."
  ^[((aDescriptor isKindOf: SequenceableCollection) and: [aDescriptor size >= anIndex])
      ifTrue: [aDescriptor at: anIndex]
      ifFalse: [nil]]
    on: Error do: [:e | e return: nil]
%
category: 'compiling'
method: McpToolset
columnOf: anOffset in: aString
  "The 1-based column, within its line, of the character at anOffset."
  | column |
  column := 1.
  1 to: ((anOffset - 1) min: aString size) do: [:i |
    column := (aString at: i) == Character lf ifTrue: [1] ifFalse: [column + 1]].
  ^column
%
category: 'compile errors'
method: McpToolset
lineOf: anOffset in: aString
  "The 1-based line of aString holding the character at anOffset."
  | line |
  line := 1.
  1 to: ((anOffset - 1) min: aString size) do: [:i |
    (aString at: i) == Character lf ifTrue: [line := line + 1]].
  ^line
%
category: 'compile errors'
method: McpToolset
signalCompileError: aReport
  "kind compileError: one error as compile error at line L: text (error N), several counted, each
   with its line; the report rides along as the details."
  | errors line |
  errors := aReport at: 'errors'.
  line := aReport at: 'line' ifAbsent: [nil].
  errors size > 1 ifTrue: [
    ^McpError signalKind: 'compileError'
      message: (self count: errors size of: 'compile errors') , ': ' , (self compileErrorSummaryOf: aReport)
      details: aReport].
  ^McpError
    signalKind: 'compileError'
    message: 'compile error' , (line isNil ifTrue: [''] ifFalse: [' at line ' , line printString])
      , ': ' , (errors isEmpty
        ifTrue: [self compileErrorSummaryOf: aReport]
        ifFalse: [self compileErrorTextOf: errors first])
    details: aReport
%
category: 'compile errors'
method: McpToolset
compileErrorTextOf: anEntry
  "One error without its line: text: name (error N)."
  | copy |
  copy := Dictionary new.
  anEntry keysAndValuesDo: [:key :value | key = 'line' ifFalse: [copy at: key put: value]].
  ^self compileErrorLineOf: copy
%
