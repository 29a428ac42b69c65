set compile_env: 0
! ------------------- Class definition for McpRefusedLogChannel
expectvalue /Class
doit
McpChannel subclass: 'McpRefusedLogChannel'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpRefusedLogChannel comment: 
'A channel whose gem log refuses every line, as GsFile refuses a user who may not write files on
the server: McpChannelTest shows that giving up a channel, and installing none, still goes on.
It is never a served channel and never writes anything.'
%
expectvalue /Class
doit
McpRefusedLogChannel category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpRefusedLogChannel
removeallmethods McpRefusedLogChannel
removeallclassmethods McpRefusedLogChannel
! ------------------- Class methods for McpRefusedLogChannel
category: 'gem log'
classmethod: McpRefusedLogChannel
writeGemLog: aString
  ^Error new signal: 'the gem log is refused to this user'
%
