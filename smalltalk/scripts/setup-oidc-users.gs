! setup-oidc-users.sh: trust the issuer's keys (@@KEYS@@: one "kid<TAB>PEM file" a line), and give
! each user of @@USERS@@ (one a line) JWT login for issuer @@ISSUER@@, audience @@AUDIENCE@@, the
! user id read from claim @@CLAIM@@; a user that does not exist is created with a password nothing
! uses (@@PASSWORD@@). Mcp goes into each one's symbol list. JwtSecurityData and GsTlsPublicKey are
! resolved by name, so that this compiles on an image without them and says so.
run
"mcp-oidc:setup v2"
| emit split version mcp me keys users m defect jsd tlsKey |
emit := SessionTemps current at: #McpEmit.
split := SessionTemps current at: #McpSplit.
me := System myUserProfile.
version := [System gemVersionAt: #gsVersion] on: Error do: [:e | '?'].
emit value: 'version ' , version printString.
jsd := me objectNamed: #JwtSecurityData.
tlsKey := me objectNamed: #GsTlsPublicKey.
(jsd isNil or: [tlsKey isNil])
  ifTrue: [emit value: 'fail this image has no JwtSecurityData: JWT login needs GemStone 3.7.5 or later (found ' , version printString , ')']
  ifFalse: [
    "The 3.7.5 defect: validateAudiences reads the issuer set. Reported, and worked around by
     checking the audience set below instead of trusting the kernel's check."
    m := [jsd compiledMethodAt: #validateAudiences] on: Error do: [:e | nil].
    defect := m notNil and: [[(m sourceString ifNil: ['']) includesString: 'validIssuers'] on: Error do: [:e | false]].
    emit value: 'defect ' , defect printString.
    keys := (split value: '
@@KEYS@@
' value: Character lf) collect: [:line | split value: line value: Character tab].
    keys do: [:pair |
      [System removeJwtKeyWithId: (pair at: 1)] on: Error do: [:e | nil].
      System addJwtKey: (tlsKey newFromPemFile: (pair at: 2)) withId: (pair at: 1).
      emit value: 'key ' , (pair at: 1)].
    mcp := me objectNamed: #Mcp.
    mcp isNil ifTrue: [emit value: 'warn there is no Mcp dictionary in the symbol list of ' , me userId , ': run ./install.sh, then re-run this'].
    users := split value: '
@@USERS@@
' value: Character lf.
    users do: [:uid | | up jwt created |
      up := AllUsers userWithId: uid ifAbsent: [nil].
      created := up isNil.
      created ifTrue: [
        up := AllUsers addNewUserWithId: uid password: '@@PASSWORD@@'].
      jwt := jsd new.
      jwt userIdKey: '@@CLAIM@@' asSymbol.
      jwt addUserId: uid.
      jwt addIssuer: '@@ISSUER@@'.
      jwt addAudience: '@@AUDIENCE@@'.
      (jwt validAudiences isEmpty or: [jwt validIssuers isEmpty])
        ifTrue: [emit value: 'fail ' , uid , ': the audience or issuer set came out empty; nothing enabled']
        ifFalse: [
          up enableJwtAuthenticationWith: jwt.
          (mcp notNil and: [(up symbolList includesIdentical: mcp) not])
            ifTrue: [up insertDictionary: mcp at: up symbolList size + 1. emit value: 'symbols ' , uid].
          emit value: (created ifTrue: ['created '] ifFalse: ['updated ']) , uid]].
    System commitTransaction
      ifFalse: [emit value: 'fail commit refused: ' , System transactionConflicts printString]
      ifTrue: [emit value: 'committed']].
emit value: 'done oidc'.
%
