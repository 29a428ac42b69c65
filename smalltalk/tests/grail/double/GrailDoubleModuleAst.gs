set compile_env: 0
! ------------------- Class definition for GrailDoubleModuleAst
expectvalue /Class
doit
Object subclass: 'GrailDoubleModuleAst'
  instVarNames: #( source scope)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleModuleAst comment: 
'TEST DOUBLE of Grail''s ModuleAst (GemTalk/Grail smalltalk/ModuleAst.gs), bound as ModuleAst in
the GrailDouble dictionary of the model only. It models the calls McpGrailToolset makes and
nothing more: parseSource: answers a parsed module, or raises SyntaxError for source Grail cannot
parse (def (: in the double); smalltalkSource answers generated Smalltalk (6 * 7 sends
___binOpMul___:, as Grail compiles a Python multiplication); evaluateWithScope: hands the source to
GrailDoublePython, which answers the few programs the suites and the e2e tests run. It never loads
on a real stone.'
%
expectvalue /Class
doit
GrailDoubleModuleAst category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleModuleAst
removeallmethods GrailDoubleModuleAst
removeallclassmethods GrailDoubleModuleAst
! ------------------- Class methods for GrailDoubleModuleAst
category: 'Grail API'
classmethod: GrailDoubleModuleAst
parseSource: aString
  (aString findString: 'def (:' startingAt: 1) > 0 ifTrue: [
    GrailDoubleBaseException signalPython: 'SyntaxError: invalid syntax (<grail>, line 1)'].
  ^self new setSource: aString
%
! ------------------- Instance methods for GrailDoubleModuleAst
category: 'Grail API'
method: GrailDoubleModuleAst
ensureModuleScope: aSymbolDictionary
  scope := aSymbolDictionary
%
category: 'Grail API'
method: GrailDoubleModuleAst
evaluateWithScope: aSymbolList
  ^GrailDoublePython current evaluate: source in: scope
%
category: 'Grail API'
method: GrailDoubleModuleAst
smalltalkSource
  ^GrailDoublePython current smalltalkFor: source
%
category: 'Grail API'
method: GrailDoubleModuleAst
useTempsForBlock: aBoolean
  ^self
%
category: 'initialization'
method: GrailDoubleModuleAst
setSource: aString
  source := aString
%
