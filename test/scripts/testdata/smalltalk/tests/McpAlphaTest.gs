expectvalue /Class
doit
TestCase subclass: 'McpAlphaTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
removeallmethods McpAlphaTest
removeallclassmethods McpAlphaTest
category: 'tests'
method: McpAlphaTest
testCount
  self assert: (McpAlpha withCount: 3) count = 3
%
