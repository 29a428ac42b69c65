set compile_env: 0
! ------------------- Class definition for McpViewNotes
expectvalue /Class
doit
Object subclass: 'McpViewNotes'
  instVarNames: #( server viewNote failedCommit untracked announced)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpViewNotes comment: 
'What one session''s client is told about its transaction: the [session] lines at the end of each
tools/call result (docs/smalltalk-worker.md), and the view state behind them. It keeps the
one-shot note of the last view move, whether a commit failed (the view cannot move until an
abort), whether code the ledger does not follow left changes, and whether the client was already
told it holds uncommitted changes.

The server tells it when the view moves (a commit, abort or refresh tool, the view-hygiene
refresh), and it watches every other tool call for a commit, abort or refresh the tool did
itself, telling the server''s ledger (McpReadLedger) in each case. It asks the server whether
changes are pending, so a test server can answer that without a transaction. It never moves the
view itself.'
%
expectvalue /Class
doit
McpViewNotes category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpViewNotes
removeallmethods McpViewNotes
removeallclassmethods McpViewNotes
! ------------------- Class methods for McpViewNotes
category: 'instance creation'
classmethod: McpViewNotes
on: anMcpServer
  "The notes of the session anMcpServer serves, nothing said yet and no failed commit."
  ^self basicNew setServer: anMcpServer
%
! ------------------- Instance methods for McpViewNotes
category: 'initialization'
method: McpViewNotes
setServer: anMcpServer
  server := anMcpServer.
  failedCommit := false.
  untracked := false.
  announced := false
%
category: 'view state'
method: McpViewNotes
isViewMovable
  "false after a failed commit, until an abort: GemStone will not move that view."
  failedCommit ifTrue: [^false].
  ^server class kernelReportsFailedCommit not
%
category: 'view state'
method: McpViewNotes
hasUntrackedChanges
  "Whether code the ledger does not follow (execute_code, a test) left changes in this transaction."
  ^untracked == true
%
category: 'view moves'
method: McpViewNotes
noteCommitFailed
  "A commit conflicted: the view did not move and nothing in the ledger changes."
  failedCommit := true
%
category: 'view moves'
method: McpViewNotes
viewMovedWithNothingPending
  "An abort or a commit moved the view and left nothing uncommitted: the writes are forgotten and
   a failed commit no longer holds the view."
  failedCommit := false.
  untracked := false.
  announced := false.
  server ledger viewMovedKeepingWrites: false
%
category: 'view moves'
method: McpViewNotes
viewMovedByRefresh: keptChanges
  "A refresh that answered false moved the view too, and nothing pending can commit now."
  server ledger viewMovedKeepingWrites: keptChanges
%
category: 'view moves'
method: McpViewNotes
hygieneRefreshConflicting: aBoolean
  "The server's view-hygiene refresh moved the view between calls; the client hears it once."
  viewNote := aBoolean
    ifTrue: ['[session] Between calls the server moved this view to the latest commit, keeping your uncommitted changes, but they now conflict with commits of other sessions and cannot be committed: call abort.']
    ifFalse: ['[session] Between calls the server moved this view to the latest commit to release old commit records; your uncommitted changes were kept.']
%
category: 'watching calls'
method: McpViewNotes
watchTransactionDuring: aBlock toolNamed: aName
  "The value of aBlock, a tool call. A tool outside the transaction tools may itself commit,
   abort or refresh (execute_code, a test): what it did to the transaction is found by comparing
   the session before and after, so the view notes tell the truth and the ledger follows."
  | wasPending wasBehind changes |
  (server toolsetOfToolNamed: aName) = 'McpSessionToolset' ifTrue: [^aBlock value].
  wasPending := server hasUncommittedChanges.
  wasBehind := server commitsBehind.
  changes := server ledger pendingChanges.
  ^aBlock ensure: [
    [self noticeTransactionOf: aName wasPending: wasPending wasBehind: wasBehind changes: changes]
      on: Error do: [:ex | ex return: nil]]
%
category: 'watching calls'
method: McpViewNotes
noticeTransactionOf: aName wasPending: wasPending wasBehind: wasBehind changes: aCollectionOfChanges
  "Compare the session after the call of aName with before it: an ended transaction, a moved
   view, or changes left by a tool whose writes the ledger does not follow."
  | pending |
  pending := server hasUncommittedChanges.
  (wasPending and: [pending not]) ifTrue: [
    ^self noticeEndOfTransactionBy: aName changes: aCollectionOfChanges].
  (wasBehind > 0 and: [server commitsBehind = 0]) ifTrue: [
    ^self noticeViewMovedBy: aName keeping: pending].
  (pending and: [(server isToolReadOnly: aName) not and: [(server toolsetOfToolNamed: aName) ~= 'McpMutationToolset']])
    ifTrue: [untracked := true]
%
category: 'watching calls'
method: McpViewNotes
noticeEndOfTransactionBy: aName changes: aCollectionOfChanges
  "The call left no uncommitted changes where there were some: it committed or aborted. Whether
   what the tools wrote is still there tells which."
  | ledger survived |
  ledger := server ledger.
  survived := ledger writesSurvive.
  survived == true ifTrue: [ledger restampKeysOf: aCollectionOfChanges].
  self viewMovedWithNothingPending.
  survived == true ifTrue: [
    ^viewNote := '[session] ' , aName , ' committed the transaction: '
      , (self changesPhrase: aCollectionOfChanges) , ' now visible to every session.'].
  survived == false ifTrue: [
    ^viewNote := '[session] ' , aName , ' aborted the transaction: '
      , (self changesPhrase: aCollectionOfChanges) , ' discarded, and the view moved to the latest commit.'].
  ^viewNote := '[session] ' , aName , ' ended the transaction (it committed or aborted): this session holds no uncommitted changes now, and the view moved to the latest commit.'
%
category: 'watching calls'
method: McpViewNotes
noticeViewMovedBy: aName keeping: aBoolean
  "The call of aName moved the view without ending the transaction (a refresh), or ended one
   that had nothing the worker saw pending."
  aBoolean ifTrue: [
    server ledger viewMovedKeepingWrites: true.
    ^viewNote := '[session] ' , aName , ' moved the view to the latest commit (a refresh) and kept your uncommitted changes.'].
  self viewMovedWithNothingPending.
  ^viewNote := '[session] ' , aName , ' moved the view to the latest commit (it aborted or committed the transaction).'
%
category: 'watching calls'
method: McpViewNotes
changesPhrase: aCollectionOfChanges
  "1 change (Foo>>bar), or 3 changes (Foo, Foo>>bar and 1 more) were ..."
  | shown out |
  aCollectionOfChanges isEmpty ifTrue: [^'its changes were'].
  out := WriteStream on: String new.
  out print: aCollectionOfChanges size.
  out nextPutAll: (aCollectionOfChanges size = 1 ifTrue: [' change ('] ifFalse: [' changes (']).
  shown := aCollectionOfChanges size min: 5.
  1 to: shown do: [:index |
    index > 1 ifTrue: [out nextPutAll: ', '].
    out nextPutAll: ((aCollectionOfChanges at: index) at: 'key')].
  aCollectionOfChanges size > shown ifTrue: [
    out nextPutAll: ' and '; print: aCollectionOfChanges size - shown; nextPutAll: ' more'].
  out nextPutAll: (aCollectionOfChanges size = 1 ifTrue: [') was'] ifFalse: [') were']).
  ^out contents
%
category: 'notes'
method: McpViewNotes
sessionNotes
  "The [session] lines for the result being built: the one-shot notes, then the state, said only
   when it changed or needs attention: a failed commit on every result until abort, uncommitted
   changes once, when the session first holds them."
  | notes note |
  notes := OrderedCollection new.
  note := self viewMoved.
  note isNil ifFalse: [notes add: note].
  note := server ledger staleReadNote.
  note isNil ifFalse: [notes add: note].
  self isViewMovable ifFalse: [
    notes add: self failedCommitNote.
    ^notes].
  server hasUncommittedChanges
    ifTrue: [
      announced == true ifFalse: [
        notes add: self uncommittedNote.
        announced := true]]
    ifFalse: [announced := false].
  ^notes
%
category: 'notes'
method: McpViewNotes
failedCommitNote
  "The [session] line on every result while a failed commit holds the view."
  ^'[session] The last commit failed on a conflict: nothing can be committed until abort, which discards every uncommitted change (pending_changes lists them).'
%
category: 'notes'
method: McpViewNotes
uncommittedNote
  "Said once, when the session first holds uncommitted changes: what keeps and what loses them."
  ^'[session] This session now holds uncommitted changes (pending_changes lists them): commit keeps them, abort discards them. They are lost if the session ends first: '
    , self deadlinePhrase , '.'
%
category: 'notes'
method: McpViewNotes
deadlinePhrase
  "The deadlines the prepare config's lifetime names, or the general case."
  | lifetime idle streamless out |
  lifetime := server config lifetime.
  (lifetime isKindOf: Dictionary) ifFalse: [^'the client disconnects or the session expires'].
  idle := lifetime at: 'idleSeconds' ifAbsent: [nil].
  streamless := lifetime at: 'streamlessIdleSeconds' ifAbsent: [nil].
  (idle isKindOf: Integer) ifFalse: [idle := nil].
  (streamless isKindOf: Integer) ifFalse: [streamless := nil].
  (idle isNil and: [streamless isNil]) ifTrue: [^'the client disconnects or the session expires'].
  out := WriteStream on: String new.
  idle isNil ifFalse: [out nextPutAll: 'after '; nextPutAll: (self durationPhrase: idle); nextPutAll: ' without a request'].
  streamless isNil ifFalse: [
    idle isNil ifFalse: [out nextPutAll: ', or '].
    out nextPutAll: 'after '; nextPutAll: (self durationPhrase: streamless);
      nextPutAll: ' without one while the client keeps no stream open (a session without a GET stream)'].
  ^out contents
%
category: 'notes'
method: McpViewNotes
durationPhrase: aNumberOfSeconds
  "12 minutes, 1 second, 90 seconds: whole minutes from two minutes on."
  (aNumberOfSeconds >= 120 and: [aNumberOfSeconds \\ 60 = 0]) ifTrue: [
    ^(aNumberOfSeconds // 60) printString , ' minutes'].
  aNumberOfSeconds = 1 ifTrue: [^'1 second'].
  ^aNumberOfSeconds printString , ' seconds'
%
category: 'notes'
method: McpViewNotes
viewMoved
  "The one-shot note of the last view move, consumed by asking; nil when there is none."
  | note |
  note := viewNote.
  viewNote := nil.
  ^note
%
