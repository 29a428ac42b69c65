set compile_env: 0
! ------------------- Class definition for McpSessionToolset
expectvalue /Class
doit
McpToolset subclass: 'McpSessionToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpSessionToolset comment: 
'The transaction tools: abort, commit, refresh and status.

commit is the only tool in the server that commits, and abort and refresh are, with it, the only
tools that move the view. Each tells the server that the view moved, so the blind-write ledger
is re-validated and the client learns which of its reads went stale. A commit that conflicts
is reported as a failure with kind commitConflict, never as success, and then nothing moves.
refresh keeps uncommitted work (System continueTransaction); abort discards it.

status only reads. No other toolset may commit, abort or refresh, and this one never does any
of it except when the client calls the tool that says so.'
%
expectvalue /Class
doit
McpSessionToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpSessionToolset
removeallmethods McpSessionToolset
removeallclassmethods McpSessionToolset
! ------------------- Class methods for McpSessionToolset
! ------------------- Instance methods for McpSessionToolset
category: 'tools'
method: McpSessionToolset
abort: args
  System abortTransaction.
  self server viewMovedWithNothingPending.
  ^'Aborted: uncommitted changes were discarded and the view now shows the latest commits.'
%
category: 'tools'
method: McpSessionToolset
commit: args
  | outcome |
  outcome := self attemptCommit.
  outcome == true ifFalse: [
    self server noteCommitFailed.
    ^self signalCommitConflict].
  self server viewMovedWithNothingPending.
  ^'Committed: the changes of this session are now visible to every session.'
%
category: 'commit'
method: McpSessionToolset
attemptCommit
  "true, false on conflict; a commit the stone refuses outright is signalled as kind refused."
  | problem outcome |
  problem := nil.
  outcome := [System commitTransaction] on: Error do: [:ex | problem := ex. ex return: nil].
  problem isNil ifFalse: [
    ^McpError
      signalKind: 'refused'
      message: 'commit refused: ' , (McpServer describeException: problem)].
  ^outcome
%
category: 'commit'
method: McpSessionToolset
conflictSummary
  "One phrase per conflict category System transactionConflicts reports, e.g. Write-Write: 3."
  | parts |
  parts := OrderedCollection new.
  [System transactionConflicts keysAndValuesDo: [:key :value |
    (#('commitResult' 'RcReadSet') includes: key asString) ifFalse: [
      parts add: key asString , ': ' , (self countOf: value) printString]]]
    on: Error do: [:ex | ex return: nil].
  parts isEmpty ifTrue: [^'no conflict detail available'].
  ^self joined: parts with: ', '
%
category: 'commit'
method: McpSessionToolset
countOf: aValue
  (aValue isKindOf: Collection) ifTrue: [^aValue size].
  ^1
%
category: 'status'
method: McpSessionToolset
failedCommitPending
  ^[(System transactionConflicts at: #commitResult ifAbsent: [nil]) == #retryFailure]
    on: Error do: [:ex | ex return: false]
%
category: 'tools'
method: McpSessionToolset
refresh: args
  | outcome problem |
  problem := nil.
  outcome := [System continueTransaction] on: Error do: [:ex | problem := ex. ex return: nil].
  problem isNil ifFalse: [^self signalRefreshRefused: problem].
  self server viewMovedByRefresh: outcome == true.
  outcome == true ifFalse: [^self signalRefreshConflict].
  ^'Refreshed: the view now shows the latest commits and your uncommitted changes are kept. Re-read anything you are about to change.'
%
category: 'registration'
method: McpSessionToolset
registerOn: aRegistry
  aRegistry add: ((McpTool
    name: 'abort'
    description: 'Discard every uncommitted change of this session and move the view to the latest commit. Destructive.'
    schema: self noArguments
    handler: [:args | self abort: args])
      title: 'Abort the transaction';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'commit'
    description: 'Commit the changes of this session. The only tool that commits; a conflict with another session is reported as an error and nothing is written.'
    schema: self noArguments
    handler: [:args | self commit: args])
      title: 'Commit the transaction';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'refresh'
    description: 'Move the view to the latest commit, keeping uncommitted changes. Re-read what you are about to change afterwards.'
    schema: self noArguments
    handler: [:args | self refresh: args])
      title: 'Refresh the view';
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'status'
    description: 'The session: user, session id, stone, whether it holds uncommitted changes, how far its view is behind.'
    schema: self noArguments
    handler: [:args | self status: args])
      title: 'Session status';
      readOnly;
      yourself)
%
category: 'commit'
method: McpSessionToolset
signalCommitConflict
  ^McpError
    signalKind: 'commitConflict'
    message: 'commit failed: these changes conflict with commits of other sessions ('
      , self conflictSummary
      , '). Nothing was written. Call abort to discard them, then redo the work on the new view.'
%
category: 'refresh'
method: McpSessionToolset
signalRefreshConflict
  ^McpError
    signalKind: 'commitConflict'
    message: 'the view moved, but the uncommitted changes of this session now conflict with commits of other sessions and can no longer be committed. Call abort to discard them.'
%
category: 'refresh'
method: McpSessionToolset
signalRefreshRefused: anException
  ^McpError
    signalKind: 'refused'
    message: 'refresh refused: ' , (McpServer describeException: anException)
      , '. After a failed commit only abort moves the view.'
%
category: 'tools'
method: McpSessionToolset
status: args
  | lines |
  lines := OrderedCollection new.
  lines add: 'user: ' , System myUserProfile userId asString.
  lines add: 'session: ' , System session printString.
  lines add: 'stone: ' , (System stoneName asString subStrings: $!) last.
  lines add: 'uncommitted changes: ' , System needsCommit printString.
  self failedCommitPending ifTrue: [lines add: 'a commit failed: abort before anything can be committed'].
  lines add: 'commits behind: ' , self server commitsBehind printString.
  lines add: 'server: ' , self server serverName , ' ' , self server serverVersion.
  lines add: 'worker class: ' , self server class name asString.
  lines add: 'tools: ' , self server toolCount printString.
  self frontEndLine isNil ifFalse: [lines add: self frontEndLine].
  ^self linesFrom: lines
%
category: 'status'
method: McpSessionToolset
frontEndLine
  "The router that opened this session, as the prepare config named it, or nil."
  | frontEnd |
  frontEnd := self server frontEnd.
  (frontEnd isKindOf: Dictionary) ifFalse: [^nil].
  ^'front end: ' , (frontEnd at: 'name' ifAbsent: ['?']) asString , ' '
    , (frontEnd at: 'version' ifAbsent: ['?']) asString
%
category: 'registration'
method: McpSessionToolset
noArguments
  "The schema of the four tools, which take no arguments."
  ^self schemaProperties: #() required: #()
%
