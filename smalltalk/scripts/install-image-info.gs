! install.sh --check: the image's version, the user, and what the Mcp dictionary holds. When Mcp
! is not this project's (no McpGemstoneInstall marker) and holds classes the files do not define,
! each is named: another product (GemTalk/mcp_server installs Mcp too) that install.sh refuses to
! overwrite. @@KNOWN@@: every class name the files of every group define, one a line.
run
"mcp-install:image-info v2"
| emit split up mcp known |
emit := SessionTemps current at: #McpEmit.
split := SessionTemps current at: #McpSplit.
up := System myUserProfile.
emit value: 'version ' , ([(System gemVersionAt: 'gsVersion') asString] on: Error do: [:e | '?']).
emit value: 'user ' , up userId.
mcp := up objectNamed: #Mcp.
emit value: 'mcp ' , (mcp isNil ifTrue: ['absent'] ifFalse: [(mcp select: [:v | v isKindOf: Behavior]) size printString]).
known := (split value: '
@@KNOWN@@
' value: Character lf) collect: [:each | each asSymbol].
((mcp isKindOf: SymbolDictionary) and: [(mcp includesKey: #McpGemstoneInstall) not]) ifTrue: [
  mcp keysAndValuesDo: [:key :value |
    ((value isKindOf: Behavior) and: [(known includes: key) not])
      ifTrue: [emit value: 'predecessor-class ' , key]]].
emit value: 'done image-info'.
%
