! Files in the suite of the optional Grail toolset (smalltalk/tests/grail) into the symbol
! dictionary Mcp: McpGrailToolsetTest, which needs a Grail image. install.sh --grail inputs it after
! smalltalk/grail/load.gs; in the model, smalltalk/model.gs does, after the test double (the suite
! compiles there and is skipped by name). Run from the repository root.
set compile_env: 0
!
run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
#( #McpGrailToolsetTest )
  do: [:each | (mcp includesKey: each) ifFalse: [mcp at: each put: nil]].
true
%
!
input smalltalk/tests/grail/McpGrailToolsetTest.gs
