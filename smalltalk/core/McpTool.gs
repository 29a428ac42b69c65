set compile_env: 0
! ------------------- Class definition for McpTool
expectvalue /Class
doit
Object subclass: 'McpTool'
  instVarNames: #( name description schema handler title annotations outputSchema
                    structuredSource)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTool comment: 
'One tool: its name, its description, its closed JSON Schema (a Dictionary as McpToolset
schemaProperties:required: builds it) and its handler, a one-argument block that takes the
validated argument Dictionary and answers a String or signals an McpError. A toolset also gives
it a title for people and the four MCP behaviour hints (readOnly, or
hintsReadOnly:destructive:idempotent:openWorld:), which tools/list carries so a client can tell
a listing from a deletion when it asks a human to approve a call. A tool that answers a list
declares an outputSchema and the toolset that keeps its structured content
(outputSchema:from:), which the dispatcher puts beside the text.

It checks arguments against the schema before the handler runs, so an unknown argument, a
missing required one or a value of the wrong type never reaches a tool. It never runs the
handler itself outside callWith:, and it never catches what the handler raises: that is the
job of McpDispatcher.'
%
expectvalue /Class
doit
McpTool category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpTool
removeallmethods McpTool
removeallclassmethods McpTool
! ------------------- Class methods for McpTool
category: 'instance creation'
classmethod: McpTool
name: aName description: aDescription schema: aSchema handler: aBlock
  "A tool without title or hints; the toolset adds them with title: and readOnly or
   hintsReadOnly:destructive:idempotent:openWorld:."
  ^self new setName: aName description: aDescription schema: aSchema handler: aBlock
%
category: 'session argument'
classmethod: McpTool
sessionArgument
  "The one tool argument the front end reads (docs/worker-contract.md): the GemStone session a
   call runs in. Every tool lists it; no tool's handler sees it."
  ^'session'
%
category: 'session argument'
classmethod: McpTool
sessionProperty
  "The session argument's schema: its description teaches a model the pattern."
  ^Dictionary new
    at: 'type' put: 'string';
    at: 'description' put: 'The GemStone session to run this call in: the session value that open_session answered. Calls with the same session share one transaction: each sees what the earlier ones changed, nobody else sees it until commit is called with that session, and close_session ends it. Without session, on an MCP 2026-07-28 connection a read-only tool reads the latest commit and a tool that changes anything is refused; on an MCP session of an earlier revision the call runs in that connection''s own GemStone session.';
    yourself
%
category: 'session argument'
classmethod: McpTool
sessionlessToolNames
  "The tools whose schema does not list the session argument: open_session makes a session and
   runs in none."
  ^#('open_session')
%
! ------------------- Instance methods for McpTool
category: 'calling'
method: McpTool
callWith: anArgumentDictionary
  "Run the handler. The caller has validated the arguments and catches what this raises."
  ^handler value: anArgumentDictionary
%
category: 'accessing'
method: McpTool
description
  ^description
%
category: 'listing'
method: McpTool
descriptor
  "The tools/list entry for this tool. The title goes both in the entry (2025-06-18 on) and in
   the annotations, where 2025-03-26 clients look for it."
  | entry |
  entry := Dictionary new
    at: 'name' put: name;
    at: 'description' put: description;
    at: 'inputSchema' put: self listedSchema;
    yourself.
  title isNil ifFalse: [entry at: 'title' put: title].
  annotations isNil ifFalse: [entry at: 'annotations' put: self annotationsWithTitle].
  outputSchema isNil ifFalse: [entry at: 'outputSchema' put: outputSchema].
  ^entry
%
category: 'listing'
method: McpTool
listedSchema
  "The schema tools/list shows: the tool's own with the optional session argument, so that every
   tool, a toolset's new ones included, accepts it the same way. A tool that declares session
   itself (close_session) or runs in no session (open_session) shows its own."
  | copy properties |
  ((self properties includesKey: self class sessionArgument)
    or: [self class sessionlessToolNames includes: name]) ifTrue: [^schema].
  properties := self properties copy.
  properties at: self class sessionArgument put: self class sessionProperty.
  copy := schema copy.
  copy at: 'properties' put: properties.
  ^copy
%
category: 'accessing'
method: McpTool
outputSchema
  "The JSON Schema of this tool's structuredContent, or nil when it answers text only."
  ^outputSchema
%
category: 'structured content'
method: McpTool
outputSchema: aSchema from: aToolset
  "Declare that this tool answers structured content described by aSchema, which aToolset keeps
   during each call and hands over with takeStructured."
  outputSchema := aSchema.
  structuredSource := aToolset
%
category: 'structured content'
method: McpTool
takeStructuredContent
  "The structured content of the call that just ran, or nil; asking again answers nil."
  structuredSource isNil ifTrue: [^nil].
  ^structuredSource takeStructured
%
category: 'listing'
method: McpTool
annotationsWithTitle
  "The annotations as tools/list shows them: the hints and the title again, for 2025-03-26
   clients."
  | copy |
  copy := annotations copy.
  title isNil ifFalse: [copy at: 'title' put: title].
  ^copy
%
category: 'accessing'
method: McpTool
annotations
  "The behaviour hints, or nil when the toolset declared none."
  ^annotations
%
category: 'hints'
method: McpTool
hintsReadOnly: readOnly destructive: destructive idempotent: idempotent openWorld: openWorld
  "Declare all four MCP behaviour hints. They are hints for a client asking a human, never a
   guarantee: the guardrails that keep a write safe are the toolsets' own."
  annotations := Dictionary new
    at: 'readOnlyHint' put: readOnly;
    at: 'destructiveHint' put: destructive;
    at: 'idempotentHint' put: idempotent;
    at: 'openWorldHint' put: openWorld;
    yourself
%
category: 'hints'
method: McpTool
readOnly
  "The hints of a tool that only reads this session's view of the repository."
  self hintsReadOnly: true destructive: false idempotent: true openWorld: false
%
category: 'accessing'
method: McpTool
title
  ^title
%
category: 'hints'
method: McpTool
title: aString
  "A short human name for the tool, shown by clients instead of its name."
  title := aString
%
category: 'accessing'
method: McpTool
name
  ^name
%
category: 'validating'
method: McpTool
propertyNames
  "The argument names the schema declares, sorted."
  | names |
  names := OrderedCollection new.
  self properties keysAndValuesDo: [:key :value | names add: key].
  ^names asSortedCollection: [:a :b | a <= b]
%
category: 'validating'
method: McpTool
properties
  "The argument schemas by name."
  ^schema at: 'properties' ifAbsent: [Dictionary new]
%
category: 'validating'
method: McpTool
requiredNames
  "The arguments a call must give."
  ^schema at: 'required' ifAbsent: [#()]
%
category: 'accessing'
method: McpTool
schema
  ^schema
%
category: 'initialization'
method: McpTool
setName: aName description: aDescription schema: aSchema handler: aBlock
  name := aName.
  description := aDescription.
  schema := aSchema.
  handler := aBlock
%
category: 'validating'
method: McpTool
typeProblemFor: aValue property: aPropertySchema
  "nil when aValue has the type aPropertySchema declares, else what is wrong with it."
  | type |
  type := aPropertySchema at: 'type' ifAbsent: [nil].
  type isNil ifTrue: [^nil].
  (self value: aValue hasType: type) ifFalse: [^'must be ' , (self typeNoun: type)].
  type = 'array' ifFalse: [^nil].
  ^self typeProblemForElementsOf: aValue items: (aPropertySchema at: 'items' ifAbsent: [nil])
%
category: 'validating'
method: McpTool
typeProblemForElementsOf: anArray items: anItemSchema
  "Why an array argument's elements do not match its items schema, or nil."
  | type |
  anItemSchema isNil ifTrue: [^nil].
  type := anItemSchema at: 'type' ifAbsent: [nil].
  type isNil ifTrue: [^nil].
  anArray do: [:each |
    (self value: each hasType: type)
      ifFalse: [^'must be an array whose every element is ' , (self typeNoun: type)]].
  ^nil
%
category: 'validating'
method: McpTool
typeNoun: aType
  "The JSON type as a validation message names it."
  aType = 'string' ifTrue: [^'a string'].
  aType = 'integer' ifTrue: [^'an integer'].
  aType = 'boolean' ifTrue: [^'true or false'].
  aType = 'number' ifTrue: [^'a number'].
  aType = 'array' ifTrue: [^'an array'].
  aType = 'object' ifTrue: [^'an object'].
  ^'of type ' , aType
%
category: 'validating'
method: McpTool
validationErrorFor: anArgumentDictionary
  "nil when the arguments satisfy the closed schema, else a message a model can act on."
  | properties |
  (anArgumentDictionary isKindOf: Dictionary) ifFalse: [^'arguments must be an object'].
  properties := self properties.
  anArgumentDictionary keysAndValuesDo: [:key :value |
    (properties includesKey: key) ifFalse: [^self unknownArgumentMessage: key]].
  self requiredNames do: [:required |
    (anArgumentDictionary includesKey: required)
      ifFalse: [^'missing required argument ' , required printString]].
  anArgumentDictionary keysAndValuesDo: [:key :value | | problem |
    problem := self typeProblemFor: value property: (properties at: key).
    problem isNil ifFalse: [^'argument ' , key printString , ' ' , problem]].
  ^nil
%
category: 'validating'
method: McpTool
unknownArgumentMessage: aKey
  "The message for an argument the schema does not declare, naming what the tool accepts."
  | accepted first |
  accepted := WriteStream on: String new.
  first := true.
  self propertyNames do: [:each |
    first ifFalse: [accepted nextPutAll: ', '].
    first := false.
    accepted nextPutAll: each].
  first ifTrue: [
    ^'unknown argument ' , aKey printString , '; ' , name , ' takes no arguments'].
  ^'unknown argument ' , aKey printString , '; ' , name , ' takes: ' , accepted contents
%
category: 'validating'
method: McpTool
value: aValue hasType: aType
  "Whether a parsed JSON value is of the JSON Schema type aType; an unknown type accepts
   anything."
  aType = 'string' ifTrue: [^aValue isKindOf: CharacterCollection].
  aType = 'integer' ifTrue: [^aValue isKindOf: Integer].
  aType = 'boolean' ifTrue: [^aValue == true or: [aValue == false]].
  aType = 'number' ifTrue: [^aValue isKindOf: Number].
  aType = 'array' ifTrue: [^McpJson isArray: aValue].
  aType = 'object' ifTrue: [^aValue isKindOf: Dictionary].
  ^true
%
