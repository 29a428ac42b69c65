set compile_env: 0
! ------------------- Class definition for GrailDoubleSymbolList
expectvalue /Class
doit
Object subclass: 'GrailDoubleSymbolList'
  instVarNames: #( dictionaries)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleSymbolList comment: 
'TEST DOUBLE of the SymbolList that Grail''s importlib ___grailCompileSymbolList___ answers: it
takes insertObject:at:, which is all McpGrailToolset sends it, and keeps what it was given.'
%
expectvalue /Class
doit
GrailDoubleSymbolList category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleSymbolList
removeallmethods GrailDoubleSymbolList
removeallclassmethods GrailDoubleSymbolList
! ------------------- Instance methods for GrailDoubleSymbolList
category: 'Grail API'
method: GrailDoubleSymbolList
insertObject: anObject at: anIndex
  dictionaries isNil ifTrue: [dictionaries := OrderedCollection new].
  anIndex = 1 ifFalse: [^Error signal: 'the Grail test double inserts only at 1, where the toolset inserts'].
  dictionaries addFirst: anObject.
  ^anObject
%
