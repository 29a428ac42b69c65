! Files in the worker core (smalltalk/core) into the symbol dictionary Mcp.
! Run from the repository root: every input path below is relative to it.
! The tool-surface toolsets add their own input lines in the marked block; nothing else here
! needs to change for them, because their class names are pre-declared already.
set compile_env: 0
!
! ------------------- Create Mcp if absent (install.sh normally has)
run
| up |
up := System myUserProfile.
(up objectNamed: #Mcp) isNil ifTrue: [
  up insertDictionary: (SymbolDictionary new name: #Mcp; yourself) at: up symbolList size + 1].
true
%
!
! ------------------- Pre-declare the class names of this group (bound to nil only where absent)
run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
#( #McpError #McpJson #McpJsonRpcCodes #McpTool #McpToolRegistry #McpReadLedger #McpToolset #McpTranscriptSink
   #McpProcessRun #McpStackReport #McpDebugger #McpExecutionToolset #McpSessionToolset
   #McpListingToolset #McpBrowsingToolset #McpSearchToolset #McpMutationToolset #McpTestingToolset
   #McpResourceCatalog #McpDispatcher #McpPrepareConfig #McpViewNotes #McpServer )
  do: [:each | (mcp includesKey: each) ifFalse: [mcp at: each put: nil]].
true
%
!
! ------------------- The worker core, in dependency order
input smalltalk/core/McpError.gs
input smalltalk/core/McpJson.gs
input smalltalk/core/McpJsonRpcCodes.gs
input smalltalk/core/McpTool.gs
input smalltalk/core/McpToolRegistry.gs
input smalltalk/core/McpReadLedger.gs
input smalltalk/core/McpToolset.gs
input smalltalk/core/McpTranscriptSink.gs
input smalltalk/core/McpProcessRun.gs
input smalltalk/core/McpStackReport.gs
input smalltalk/core/McpDebugger.gs
input smalltalk/core/McpExecutionToolset.gs
input smalltalk/core/McpSessionToolset.gs
!
! ------------------- The tool-surface toolsets (input lines added by their owner)
input smalltalk/core/McpListingToolset.gs
input smalltalk/core/McpBrowsingToolset.gs
input smalltalk/core/McpSearchToolset.gs
input smalltalk/core/McpMutationToolset.gs
input smalltalk/core/McpTestingToolset.gs
!
! ------------------- The worker side of the worker-to-router channel (before its users)
input smalltalk/core/McpChannel.gs
!
! ------------------- Dispatch and the worker entry
input smalltalk/core/McpResourceCatalog.gs
input smalltalk/core/McpDispatcher.gs
input smalltalk/core/McpPrepareConfig.gs
input smalltalk/core/McpViewNotes.gs
input smalltalk/core/McpServer.gs
