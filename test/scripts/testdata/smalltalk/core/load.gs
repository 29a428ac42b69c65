! Loader for the fixture core group: pre-declare, then file in.
run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
#( #McpAlpha #McpBeta ) do: [:n | (mcp includesKey: n) ifFalse: [mcp at: n put: nil]].
%
input smalltalk/core/McpAlpha.gs
input smalltalk/core/McpBeta.gs
