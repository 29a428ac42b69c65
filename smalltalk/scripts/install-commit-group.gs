! install.sh step 2, after each group's file-in: commit what loaded.
run
"mcp-install:commit-group v1"
| emit |
emit := SessionTemps current at: #McpEmit.
System commitTransaction
  ifTrue: [emit value: 'committed']
  ifFalse: [emit value: 'fail commit refused: ' , System transactionConflicts printString].
emit value: 'done commit-group'.
%
