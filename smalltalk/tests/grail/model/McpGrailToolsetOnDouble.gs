set compile_env: 0
! ------------------- Class definition for McpGrailToolsetOnDouble
expectvalue /Class
doit
McpGrailToolset subclass: 'McpGrailToolsetOnDouble'
  instVarNames: #()
  classVars: #()
  classInstVars: #( testGem)
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpGrailToolsetOnDouble comment: 
'McpGrailToolset as the model suites serve it: identical but for newTestGem, which answers the
GrailDoubleTestGem a test set with testGem: (the model cannot fork a gem) instead of logging in a
GsTsExternalSession. Everything run_python_tests does with the gem it is given runs unchanged.'
%
expectvalue /Class
doit
McpGrailToolsetOnDouble category: 'Mcp-Tests-GrailModel'
%
! ------------------- Remove existing behavior from McpGrailToolsetOnDouble
removeallmethods McpGrailToolsetOnDouble
removeallclassmethods McpGrailToolsetOnDouble
! ------------------- Class methods for McpGrailToolsetOnDouble
category: 'test gem'
classmethod: McpGrailToolsetOnDouble
testGem
  ^testGem
%
category: 'test gem'
classmethod: McpGrailToolsetOnDouble
testGem: aGrailDoubleTestGem
  testGem := aGrailDoubleTestGem
%
! ------------------- Instance methods for McpGrailToolsetOnDouble
category: 'test gem'
method: McpGrailToolsetOnDouble
newTestGem
  self testGemConfig.
  self class testGem isNil ifTrue: [^Error signal: 'no GrailDoubleTestGem was set for this test'].
  ^self class testGem
%
