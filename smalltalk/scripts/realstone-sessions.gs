! test/realstone/run.sh: the stone's other session ids, to tell afterwards whether the server left a
! gem behind.
run
"mcp-realstone:sessions v1"
| emit |
emit := SessionTemps current at: #McpEmit.
System currentSessions do: [:each | each = System session ifFalse: [emit value: 'session ' , each printString]].
emit value: 'done sessions'.
%
