! install.sh step 1: find or create the Mcp dictionary (in this user's symbol list), refuse one
! that another product installed, unbind the exact class names the files define from every other
! dictionary in the symbol list (an old binding earlier in the list would capture every method
! filed in after it), mark Mcp as this project's, and commit.
! @@CLASSES@@: the class names the selected groups define; @@KNOWN@@: those of every group.
! A dictionary without the McpGemstoneInstall marker that holds a class no group defines is
! another product's (GemTalk/mcp_server installs Mcp with McpServer, McpDispatcher, ...): each such
! class is named and nothing is changed.
run
"mcp-install:prepare v2"
| emit split up mcp names known foreign |
emit := SessionTemps current at: #McpEmit.
split := SessionTemps current at: #McpSplit.
up := System myUserProfile.
mcp := up objectNamed: #Mcp.
mcp isNil ifTrue: [
  AllUsers do: [:u | mcp isNil ifTrue: [
    [u symbolList do: [:d | (mcp isNil and: [d name = #Mcp]) ifTrue: [mcp := d]]]
      on: Error do: [:e | nil]]].
  mcp isNil
    ifTrue: [mcp := SymbolDictionary new. mcp at: #Mcp put: mcp. emit value: 'created Mcp']
    ifFalse: [emit value: 'found Mcp in another user''s symbol list'].
  up insertDictionary: mcp at: up symbolList size + 1].
names := IdentitySet new.
(split value: '
@@CLASSES@@
' value: Character lf) do: [:each | names add: each asSymbol].
known := IdentitySet new.
(split value: '
@@KNOWN@@
' value: Character lf) do: [:each | known add: each asSymbol].
foreign := OrderedCollection new.
(mcp isKindOf: SymbolDictionary) ifTrue: [
  (mcp includesKey: #McpGemstoneInstall) ifFalse: [
    mcp keysAndValuesDo: [:key :value |
      ((value isKindOf: Behavior) and: [(known includes: key) not]) ifTrue: [foreign add: key asString]]]].
(mcp isKindOf: SymbolDictionary)
  ifFalse: [emit value: 'fail the name Mcp is bound to a ' , mcp class name , ', not a SymbolDictionary']
  ifTrue: [foreign isEmpty
    ifFalse: [
      (foreign asSortedCollection: [:a :b | a <= b]) do: [:each | emit value: 'predecessor-class ' , each].
      emit value: 'fail the Mcp dictionary belongs to another product; nothing was changed']
    ifTrue: [
      up symbolList do: [:d | d == mcp ifFalse: [
        (names select: [:n | d includesKey: n]) do: [:n |
          [d removeKey: n. emit value: 'unbound ' , d name asString , ' ' , n]
            on: Error do: [:e | emit value: 'fail cannot unbind ' , d name asString , ' ' , n , ': ' , e description]].
        (d keys select: [:k | (k asString beginsWith: 'Mcp') and: [(names includes: k) not]])
          do: [:k | emit value: 'foreign ' , d name asString , ' ' , k]]].
      mcp at: #McpGemstoneInstall put: 'github.com/gemstone-mcp/mcp-gemstone'.
      System commitTransaction
        ifTrue: [emit value: 'committed']
        ifFalse: [emit value: 'fail commit refused: ' , System transactionConflicts printString]]].
emit value: 'done prepare'.
%
