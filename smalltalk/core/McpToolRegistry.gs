set compile_env: 0
! ------------------- Class definition for McpToolRegistry
expectvalue /Class
doit
Object subclass: 'McpToolRegistry'
  instVarNames: #( tools)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpToolRegistry comment: 
'The tool surface of one server: tool name to McpTool. Toolsets fill it at prepare time through
add:, and it answers the tools/list descriptors in name order, the whole surface in one page.
A name registered twice is refused, so two toolsets cannot shadow each other silently.
It never runs a tool and never changes after the server is prepared.'
%
expectvalue /Class
doit
McpToolRegistry category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpToolRegistry
removeallmethods McpToolRegistry
removeallclassmethods McpToolRegistry
! ------------------- Class methods for McpToolRegistry
category: 'instance creation'
classmethod: McpToolRegistry
new
  ^self basicNew initialize
%
! ------------------- Instance methods for McpToolRegistry
category: 'adding'
method: McpToolRegistry
add: aTool
  "Register aTool; a name already registered is badConfig, so two toolsets cannot shadow each
   other."
  (tools includesKey: aTool name) ifTrue: [
    ^McpError
      signalKind: 'badConfig'
      message: 'the tool ' , aTool name , ' is registered by two toolsets of this surface'].
  tools at: aTool name put: aTool.
  ^aTool
%
category: 'listing'
method: McpToolRegistry
descriptors
  "The tools/list entries, in name order."
  ^(self toolNames collect: [:each | (tools at: each) descriptor]) asArray
%
category: 'accessing'
method: McpToolRegistry
includesToolNamed: aName
  ^tools includesKey: aName
%
category: 'initialization'
method: McpToolRegistry
initialize
  tools := Dictionary new
%
category: 'accessing'
method: McpToolRegistry
size
  "How many tools are registered, granted or not."
  ^tools size
%
category: 'accessing'
method: McpToolRegistry
toolNamed: aName ifAbsent: aBlock
  "The tool registered as aName, granted or not."
  ^tools at: aName ifAbsent: aBlock
%
category: 'accessing'
method: McpToolRegistry
toolNames
  "Every registered tool name, sorted."
  | names |
  names := OrderedCollection new.
  tools keysAndValuesDo: [:key :value | names add: key].
  ^(names asSortedCollection: [:a :b | a <= b]) asArray
%
