! setup-read-only-user.sh: (re)create the restricted user @@UID@@ with commits disabled, the
! privileges @@PRIVS@@ (space-separated names), Mcp in its symbol list (and, when @@COPY@@ is 1,
! every dictionary of the calling user's), a password nothing uses (@@PASSWORD@@), and the grant
! that lets the calling user mint one-time passwords for it; then mint one to prove the grant.
run
"mcp-readonly:setup v2"
| emit split uid privs copy me mcp up otp |
emit := SessionTemps current at: #McpEmit.
split := SessionTemps current at: #McpSplit.
uid := '@@UID@@'.
privs := ((split value: '@@PRIVS@@' value: Character space) collect: [:each | each asSymbol]) asArray.
copy := '@@COPY@@' = '1'.
me := System myUserProfile.
mcp := me objectNamed: #Mcp.
mcp isNil
  ifTrue: [emit value: 'fail there is no Mcp dictionary in the symbol list of ' , me userId , ': run ./install.sh first']
  ifFalse: [
    (AllUsers userWithId: uid ifAbsent: [nil]) notNil ifTrue: [
      AllUsers removeAndCleanupUserWithId: uid ifAbsent: [nil].
      emit value: 'recreated ' , uid].
    up := AllUsers addNewUserWithId: uid password: '@@PASSWORD@@'.
    up disableCommits.
    up privileges: privs.
    copy ifTrue: [
      me symbolList do: [:d |
        (up symbolList includesIdentical: d) ifFalse: [up insertDictionary: d at: up symbolList size + 1]]].
    (up symbolList includesIdentical: mcp) ifFalse: [up insertDictionary: mcp at: up symbolList size + 1].
    me addOnetimePasswordUserId: uid.
    System commitTransaction
      ifFalse: [emit value: 'fail commit refused: ' , System transactionConflicts printString]
      ifTrue: [
        emit value: 'user ' , uid , ' readonly ' , up isReadOnly printString.
        emit value: 'privileges ' , (up privileges inject: '' into: [:acc :each | acc , ' ' , each asString]).
        emit value: 'grant ' , me userId , ' ' , uid.
        otp := [GsCurrentSession currentSession createOnetimePasswordForUserId: uid validForSeconds: 5]
          on: Error do: [:e | emit value: 'mint-failed ' , e description. nil].
        otp isNil ifFalse: [emit value: 'mint ok']]].
emit value: 'done readonly'.
%
