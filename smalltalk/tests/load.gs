! Files in the SUnit suites and their fixtures (smalltalk/tests) into the symbol dictionary Mcp.
! Load smalltalk/core/load.gs first. Run from the repository root: every input path below is
! relative to it. The tool-surface suites and fixtures add their own input lines in the marked
! block; their class names are pre-declared here already.
set compile_env: 0
!
! ------------------- Pre-declare the class names of this group (bound to nil only where absent)
run
| mcp |
mcp := System myUserProfile objectNamed: #Mcp.
#( #McpTestCase #McpCoreTestToolset #McpTestServer #McpTestLedger #McpReadLedgerTest
   #McpJsonTest #McpProcessRunTest #McpUtf8Test #McpToolTest #McpDispatcherTest #McpServerTest
   #McpSessionToolsetTest #McpResourceCatalogTest #McpContractTest #McpContractFixtures #McpContractFixturesTest
   #McpFixtureToolset #McpFixtureServer #McpToolsetTestCase #McpExtensionTest #McpBlindWriteTest
   #McpListingToolsetTest #McpBrowsingToolsetTest #McpSearchToolsetTest #McpMutationToolsetTest
   #McpTestingToolsetTest #McpDebuggerTest #McpKernelFactsTest #McpRefusedLogChannel #McpGrantTest
   #McpToolAnnotationsTest #McpStructuredContentTest #McpTraceLineTest #McpExecutionToolsetTest )
  do: [:each | (mcp includesKey: each) ifFalse: [mcp at: each put: nil]].
true
%
!
! ------------------- Helpers of the worker-core suites
input smalltalk/tests/McpTestCase.gs
input smalltalk/tests/McpCoreTestToolset.gs
input smalltalk/tests/McpTestLedger.gs
input smalltalk/tests/McpTestServer.gs
input smalltalk/tests/McpContractFixtures.gs
input smalltalk/tests/McpRefusedLogChannel.gs
!
! ------------------- The kernel facts the rest relies on (run-unit-tests.sh runs this suite first)
input smalltalk/tests/McpKernelFactsTest.gs
!
! ------------------- The worker-core suites
input smalltalk/tests/McpJsonTest.gs
input smalltalk/tests/McpProcessRunTest.gs
input smalltalk/tests/McpUtf8Test.gs
input smalltalk/tests/McpToolTest.gs
input smalltalk/tests/McpReadLedgerTest.gs
input smalltalk/tests/McpToolAnnotationsTest.gs
input smalltalk/tests/McpStructuredContentTest.gs
input smalltalk/tests/McpTraceLineTest.gs
input smalltalk/tests/McpDispatcherTest.gs
input smalltalk/tests/McpServerTest.gs
input smalltalk/tests/McpSessionToolsetTest.gs
input smalltalk/tests/McpResourceCatalogTest.gs
input smalltalk/tests/McpContractTest.gs
input smalltalk/tests/McpContractFixturesTest.gs
input smalltalk/tests/McpGrantTest.gs
!
! ------------------- The tool-surface fixtures and suites (input lines added by their owner)
input smalltalk/tests/McpFixtureToolset.gs
input smalltalk/tests/McpFixtureServer.gs
input smalltalk/tests/McpToolsetTestCase.gs
input smalltalk/tests/McpListingToolsetTest.gs
input smalltalk/tests/McpBrowsingToolsetTest.gs
input smalltalk/tests/McpExecutionToolsetTest.gs
input smalltalk/tests/McpSearchToolsetTest.gs
input smalltalk/tests/McpMutationToolsetTest.gs
input smalltalk/tests/McpTestingToolsetTest.gs
input smalltalk/tests/McpDebuggerTest.gs
input smalltalk/tests/McpBlindWriteTest.gs
input smalltalk/tests/McpExtensionTest.gs
input smalltalk/tests/McpChannelTest.gs
