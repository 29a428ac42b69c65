! install.sh step 3: add Mcp to every UserProfile's symbol list (best effort: a profile that refuses
! is named), and commit.
run
"mcp-install:users v1"
| emit mcp |
emit := SessionTemps current at: #McpEmit.
mcp := System myUserProfile objectNamed: #Mcp.
AllUsers do: [:u |
  [(u symbolList includesIdentical: mcp)
     ifTrue: [emit value: 'user-had ' , u userId]
     ifFalse: [u insertDictionary: mcp at: u symbolList size + 1. emit value: 'user-added ' , u userId]]
    on: Error do: [:e | emit value: 'user-failed ' , u userId , ' ' , e description]].
System commitTransaction
  ifTrue: [emit value: 'committed']
  ifFalse: [emit value: 'fail commit refused: ' , System transactionConflicts printString].
emit value: 'done users'.
%
