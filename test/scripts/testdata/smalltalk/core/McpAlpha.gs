! ------------------- Class definition for McpAlpha
expectvalue /Class
doit
Object subclass: 'McpAlpha'
  instVarNames: #( count)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
! ------------------- Remove existing behavior from McpAlpha
removeallmethods McpAlpha
removeallclassmethods McpAlpha
! ------------------- Class methods for McpAlpha
category: 'instance creation'
classmethod: McpAlpha
withCount: anInteger
  ^self new setCount: anInteger
%
! ------------------- Instance methods for McpAlpha
category: 'accessing'
method: McpAlpha
count
  ^count
%
category: 'private'
method: McpAlpha
setCount: anInteger
  count := anInteger
%
category: 'comparing'
method: McpAlpha
= other
  ^(other isKindOf: McpAlpha) and: [other count = count]
%
category: 'accessing'
method: McpAlpha
at: index put: value
  "A keyword selector with two parts"
  ^value
%
