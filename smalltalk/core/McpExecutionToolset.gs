set compile_env: 0
! ------------------- Class definition for McpExecutionToolset
expectvalue /Class
doit
McpToolset subclass: 'McpExecutionToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpExecutionToolset comment: 
'The execute_code tool: evaluates Smalltalk source in the worker session and answers the
printString of the value, capped at the result cap of the server with a marker naming what was
dropped. A syntax error surfaces as a CompileError, which the dispatcher reports with kind
compileError.

The tool itself never commits, aborts or refreshes the view. The code it runs is the client
code and runs with the rights of the worker user; that is the only boundary, and it is not
this class that draws it.'
%
expectvalue /Class
doit
McpExecutionToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpExecutionToolset
removeallmethods McpExecutionToolset
removeallclassmethods McpExecutionToolset
! ------------------- Class methods for McpExecutionToolset
! ------------------- Instance methods for McpExecutionToolset
category: 'tools'
method: McpExecutionToolset
executeCode: args
  "The printString of the value of the code, capped. A compiler warning (a temporary that
   shadows another name, say) is resumed, as Rowan and Jasper resume it: the code still runs."
  | value |
  value := [(args at: 'code') evaluate] on: CompileWarning do: [:warning | warning resume].
  ^self capResult: value printString
%
category: 'registration'
method: McpExecutionToolset
registerOn: aRegistry
  aRegistry add: ((McpTool
    name: 'execute_code'
    description: 'Evaluate Smalltalk source in this session and answer the printString of its value. Changes it makes stay uncommitted until you call commit.'
    schema: (self schemaProperties: {
        self stringProperty: 'code' description: 'Smalltalk source: one or more statements; the value of the last is answered.' }
      required: #('code'))
    handler: [:args | self executeCode: args])
      title: 'Execute Smalltalk code';
      hintsReadOnly: false destructive: true idempotent: false openWorld: true;
      yourself)
%
