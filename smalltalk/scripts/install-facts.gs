! install.sh --check: run McpKernelFactsTest, the kernel facts the worker relies on, when it is
! installed. Each broken fact is named by its test selector; the shell prints the test's comment,
! which names the code that depends on it. The session logs out without a commit.
run
"mcp-install:facts v1"
| emit mcp cls result |
emit := SessionTemps current at: #McpEmit.
mcp := System myUserProfile objectNamed: #Mcp.
cls := mcp isNil ifTrue: [nil] ifFalse: [mcp at: #McpKernelFactsTest ifAbsent: [nil]].
(cls isKindOf: Behavior)
  ifFalse: [emit value: 'facts absent']
  ifTrue: [
    result := cls suite run.
    emit value: 'facts ' , result runCount printString , ' ' , result passedCount printString.
    (result failures asArray , result errors asArray) do: [:t |
      emit value: 'fact-broken ' , ([t selector asString] on: Error do: [:e | e return: t asString])]].
emit value: 'done facts'.
%
