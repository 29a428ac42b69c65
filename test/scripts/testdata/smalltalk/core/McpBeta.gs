! ------------------- Class definition for McpBeta
expectvalue /Class
doit
Object subclass: 'McpBeta'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
removeallmethods McpBeta
removeallclassmethods McpBeta
category: 'running'
method: McpBeta
handle: aString
  "Builds a fixture class in a method: not a class definition of this file."
  ^Object subclass: 'McpNotDefinedHere' instVarNames: #() inDictionary: UserGlobals
%
