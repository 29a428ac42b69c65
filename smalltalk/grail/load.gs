! Files in the optional GemStone-Python toolset (smalltalk/grail) into the symbol dictionary Mcp.
! Only for an image with Grail (GemTalk/Grail) installed: its methods name ModuleAst,
! BaseException, importlib and PythonTestCase. install.sh --grail (or MCP_WITH_GRAIL=1) inputs it
! after smalltalk/core/load.gs. Loading it serves nothing: a router serves these tools only when
! MCP_TOOLSETS names McpGrailToolset. Run from the repository root.
set compile_env: 0
!
! ------------------- Pre-declare the class names of this group (bound to nil only where absent)
run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
#( #McpGrailTestRun #McpGrailToolset )
  do: [:each | (mcp includesKey: each) ifFalse: [mcp at: each put: nil]].
true
%
!
input smalltalk/grail/McpGrailTestRun.gs
input smalltalk/grail/McpGrailToolset.gs
