set compile_env: 0
! ------------------- Class definition for McpCoreTestToolset
expectvalue /Class
doit
McpToolset subclass: 'McpCoreTestToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpCoreTestToolset comment: 
'A toolset for the worker-core suites only: tools that echo, fail with a chosen kind, raise a
kernel error, raise an exception outside the Error hierarchy, fail to compile, answer a long
text, and take one argument of every schema type. It declares one option, greeting.
It is never part of a served surface, and it never touches the repository or the view.'
%
expectvalue /Class
doit
McpCoreTestToolset category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpCoreTestToolset
removeallmethods McpCoreTestToolset
removeallclassmethods McpCoreTestToolset
! ------------------- Class methods for McpCoreTestToolset
category: 'options'
classmethod: McpCoreTestToolset
declaredOptionNames
  ^#('greeting')
%
! ------------------- Instance methods for McpCoreTestToolset
category: 'registration'
method: McpCoreTestToolset
registerOn: aRegistry
  aRegistry add: (McpTool name: 'echo' description: 'Answer the text.'
    schema: (self schemaProperties: {self stringProperty: 'text' description: 'Any text.'} required: #('text'))
    handler: [:args | args at: 'text']).
  aRegistry add: (McpTool name: 'fail' description: 'Signal an McpError of the given kind.'
    schema: (self schemaProperties: {
        self stringProperty: 'kind' description: 'The kind.'.
        self stringProperty: 'message' description: 'The message.'} required: #('kind'))
    handler: [:args | McpError signalKind: (args at: 'kind') message: (args at: 'message' ifAbsent: ['failed'])
      details: (Dictionary new at: 'extra' put: 1; yourself)]).
  aRegistry add: (McpTool name: 'raise_error' description: 'Divide by zero.'
    schema: self noArguments handler: [:args | 1 / 0]).
  aRegistry add: (McpTool name: 'raise_exception' description: 'Signal an Exception that is not an Error.'
    schema: self noArguments handler: [:args | Exception new signal: 'outside the Error hierarchy']).
  aRegistry add: (McpTool name: 'compile_error' description: 'Evaluate source that does not compile.'
    schema: self noArguments handler: [:args | '1 +' evaluate]).
  aRegistry add: (McpTool name: 'warn' description: 'Signal a CompileWarning, then answer resumed.'
    schema: self noArguments handler: [:args | CompileWarning new signal: 'a test warning'. 'resumed']).
  aRegistry add: (McpTool name: 'long_text' description: 'A text of n characters, capped.'
    schema: (self schemaProperties: {self integerProperty: 'n' description: 'How many.'} required: #('n'))
    handler: [:args | self capResult: (self textOfSize: (args at: 'n'))]).
  aRegistry add: (McpTool name: 'greet' description: 'The greeting option, or hello.'
    schema: self noArguments handler: [:args | self optionNamed: 'greeting' ifAbsent: ['hello']]).
  aRegistry add: (McpTool name: 'typed' description: 'One argument of every type.'
    schema: (self schemaProperties: {
        self integerProperty: 'count' description: 'An integer.'.
        self booleanProperty: 'flag' description: 'A boolean.'.
        self stringArrayProperty: 'names' description: 'Strings.'} required: #())
    handler: [:args | args size printString])
%
category: 'registration'
method: McpCoreTestToolset
noArguments
  ^self schemaProperties: #() required: #()
%
category: 'output'
method: McpCoreTestToolset
textOfSize: anInteger
  | out |
  out := WriteStream on: String new.
  anInteger timesRepeat: [out nextPut: $x].
  ^out contents
%
