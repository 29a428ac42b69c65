set compile_env: 0
! ------------------- Class definition for GrailDoubleModule
expectvalue /Class
doit
Object subclass: 'GrailDoubleModule'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleModule comment: 
'TEST DOUBLE of Grail''s class module, bound as module in the model only: the root of Grail''s
native modules, the module classes written in Smalltalk (sys, os, math, ...) that Grail''s install
puts in the dictionary Python and commits (GemTalk/Grail docs/Persistent_Modules_and_Classes.md
D8; GemTalk/mcp_server src/grail/McpGrailToolset.gs found them so on a Grail image).
GrailDoubleSysModule is the one native module the double has.'
%
expectvalue /Class
doit
GrailDoubleModule category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleModule
removeallmethods GrailDoubleModule
removeallclassmethods GrailDoubleModule
