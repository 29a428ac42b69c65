set compile_env: 0
! ------------------- Class definition for McpFixtureToolset
expectvalue /Class
doit
McpToolset subclass: 'McpFixtureToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpFixtureToolset comment: 
'A third-party toolset in miniature, for McpExtensionTest and as the worked example of writing one:
it registers its own tools, owns their handlers, declares the one option it accepts (greeting) and
reads it with a default, and signals a kind of error of its own.

fixture_echo answers its text after the greeting. fixture_refuse always fails, with kind
fixtureRefused, to show that a toolset may add kinds to the standard five.

Must never touch the image or the transaction: it exists to be served, not to change anything.'
%
expectvalue /Class
doit
McpFixtureToolset category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpFixtureToolset
removeallmethods McpFixtureToolset
removeallclassmethods McpFixtureToolset
! ------------------- Class methods for McpFixtureToolset
category: 'options'
classmethod: McpFixtureToolset
declaredOptionNames
  ^#('greeting')
%
! ------------------- Instance methods for McpFixtureToolset
category: 'tools'
method: McpFixtureToolset
echo: args
  ^(self optionNamed: 'greeting' ifAbsent: ['hello']) , ', ' , (args at: 'text')
%
category: 'tools'
method: McpFixtureToolset
refuse: args
  ^McpError signalKind: 'fixtureRefused' message: 'the fixture refuses, as it always does'
%
category: 'registration'
method: McpFixtureToolset
registerOn: aRegistry
  aRegistry add: (McpTool
    name: 'fixture_echo'
    description: 'Answer the text after the configured greeting (option greeting, default hello).'
    schema: (self schemaProperties: {
        self stringProperty: 'text' description: 'What to echo' }
      required: #('text'))
    handler: [:args | self echo: args]).
  aRegistry add: (McpTool
    name: 'fixture_refuse'
    description: 'Always fail with the toolset''s own error kind, fixtureRefused.'
    schema: (self schemaProperties: #() required: #())
    handler: [:args | self refuse: args]).
  ^self
%
