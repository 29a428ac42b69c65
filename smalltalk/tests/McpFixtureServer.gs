set compile_env: 0
! ------------------- Class definition for McpFixtureServer
expectvalue /Class
doit
McpServer subclass: 'McpFixtureServer'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpFixtureServer comment: 
'A vendor''s worker in miniature, for McpExtensionTest: an McpServer subclass that names itself
(fixture-mcp 9.9.9) and serves only its own toolset, McpFixtureToolset, unless the prepare config
names another surface. It changes identity and defaults and nothing else: the worker entries, the
dispatcher and the ledgers are inherited.

Must never be the worker of a real deployment; it exists to show that one can be written.'
%
expectvalue /Class
doit
McpFixtureServer category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpFixtureServer
removeallmethods McpFixtureServer
removeallclassmethods McpFixtureServer
! ------------------- Class methods for McpFixtureServer
category: 'identity'
classmethod: McpFixtureServer
defaultServerName
  ^'fixture-mcp'
%
category: 'identity'
classmethod: McpFixtureServer
defaultServerVersion
  ^'9.9.9'
%
category: 'defaults'
classmethod: McpFixtureServer
defaultToolsetNames
  ^#('McpFixtureToolset')
%
! ------------------- Instance methods for McpFixtureServer
