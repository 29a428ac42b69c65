set compile_env: 0
! ------------------- Class definition for McpProcessRunTest
expectvalue /Class
doit
TestCase subclass: 'McpProcessRunTest'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpProcessRunTest comment: 
'McpProcessRun and McpStackReport: a run that ends answers its value; one that meets an error the
block does not handle stops with its process suspended and its frames readable, innermost first,
from the signal to the run''s bounds; terminating a stopped run runs its ensure: blocks.'
%
expectvalue /Class
doit
McpProcessRunTest category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpProcessRunTest
removeallmethods McpProcessRunTest
removeallclassmethods McpProcessRunTest
! ------------------- Instance methods for McpProcessRunTest
category: 'helpers'
method: McpProcessRunTest
started: aBlock
  ^(McpProcessRun on: aBlock boundedBy: #()) start; yourself
%
category: 'helpers'
method: McpProcessRunTest
divide: aNumber by: aDivisor
  | quotient |
  quotient := aNumber / aDivisor.
  ^quotient
%
category: 'tests'
method: McpProcessRunTest
testARunThatEndsAnswersItsValue
  | run |
  run := self started: [3 + 4].
  self assert: run state == #finished.
  self assert: run result = 7.
  self deny: run isStopped
%
category: 'tests'
method: McpProcessRunTest
testAnErrorTheBlockHandlesDoesNotStopIt
  | run |
  run := self started: [[1 / 0] on: ZeroDivide do: [:ex | ex return: 5]].
  self assert: run state == #finished.
  self assert: run result = 5
%
category: 'tests'
method: McpProcessRunTest
testAnUnhandledErrorStopsTheRunWhereItWasSignalled
  | run report frames |
  run := self started: [self divide: 6 by: 0].
  [self assert: run isStopped.
   self assert: (run exception isKindOf: ZeroDivide).
   report := McpStackReport of: run.
   frames := report frames.
   self assert: (frames first at: 'method') = 'McpProcessRunTest>>divide:by:'.
   self assert: (frames first at: 'line') = 3.
   self assert: (frames first at: 'source') = 'quotient := aNumber / aDivisor.'.
   self assert: ((frames first at: 'args') at: 'aNumber') = '6'.
   self assert: ((frames first at: 'args') at: 'aDivisor') = '0'.
   self assert: ((frames first at: 'temps') at: 'quotient') = 'nil']
    ensure: [run terminate]
%
category: 'tests'
method: McpProcessRunTest
testTheReportEndsBeforeTheFramesOfItsBounds
  | run frames |
  run := (McpProcessRun on: [self class new divide: 1 by: 0] boundedBy: (Array with: self)) start; yourself.
  [frames := (McpStackReport of: run) frames.
   self assert: frames size = 1.
   self assert: (frames first at: 'method') = 'McpProcessRunTest>>divide:by:']
    ensure: [run terminate]
%
category: 'tests'
method: McpProcessRunTest
testAFailedAssertionStopsTheRunToo
  | run |
  run := self started: [self assert: false].
  [self assert: run isStopped.
   self assert: (run exception isKindOf: TestFailure)]
    ensure: [run terminate]
%
category: 'tests'
method: McpProcessRunTest
testTerminatingAStoppedRunRunsItsEnsureBlocks
  | run log |
  log := OrderedCollection new.
  run := self started: [[1 / 0] ensure: [log add: #ensured]].
  self assert: run isStopped.
  self assert: log isEmpty.
  run terminate.
  self assert: log asArray = #(#ensured).
  self assert: run state == #terminated
%
category: 'tests'
method: McpProcessRunTest
testADeepStackKeepsTheInnermostFramesAndTheLast
  | run report |
  run := self started: [self recurse: McpStackReport maxFrames + 5].
  [report := McpStackReport of: run.
   self assert: report frames size = McpStackReport maxFrames.
   self assert: report omitted > 5.
   self assert: (report lines includes: '  ... ' , report omitted printString , ' frames not shown').
   self assert: (report frames last at: 'method') = '[] in McpProcessRunTest>>testADeepStackKeepsTheInnermostFramesAndTheLast']
    ensure: [run terminate]
%
category: 'helpers'
method: McpProcessRunTest
recurse: aCount
  aCount = 0 ifTrue: [^1 / 0].
  ^self recurse: aCount - 1
%
