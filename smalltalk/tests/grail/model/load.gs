! Files in the model-only suites of the Grail toolset (smalltalk/tests/grail/model): they run
! McpGrailToolset against the test double of Grail (smalltalk/tests/grail/double), so they are
! filed in only by smalltalk/model.gs, after the double, smalltalk/grail and smalltalk/tests/grail.
! Run from the repository root.
set compile_env: 0
!
run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
#( #McpGrailToolsetOnDouble #McpGrailToolsetDoubleTest )
  do: [:each | (mcp includesKey: each) ifFalse: [mcp at: each put: nil]].
true
%
!
input smalltalk/tests/grail/model/McpGrailToolsetOnDouble.gs
input smalltalk/tests/grail/model/McpGrailToolsetDoubleTest.gs
