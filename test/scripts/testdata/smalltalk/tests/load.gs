run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
(mcp includesKey: #McpAlphaTest) ifFalse: [mcp at: #McpAlphaTest put: nil].
%
input smalltalk/tests/McpAlphaTest.gs
