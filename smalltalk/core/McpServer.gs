set compile_env: 0
! ------------------- Class definition for McpServer
expectvalue /Class
doit
Object subclass: 'McpServer'
  instVarNames: #( config registry dispatcher ledger viewNotes toolsetOfTool grantedToolsets resources)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpServer comment: 
'The worker: the single-client MCP server that runs inside one worker gem. The Go front end
drives it through class-side entries (docs/worker-contract.md): mcpPrepare: once after login,
mcpHandle: once per client message, and between calls mcpViewStatus, mcpRefreshView and
mcpGrant: (the toolsets of the surface the client may see, which its token''s scopes chose; a
tool outside them is not listed and a call to it is answered toolNotGranted, naming its toolset,
so the router can ask the client for a token with more scope). A subclass inherits them all, so
a deployment can name its own worker class and override the class-side identity defaults
(defaultServerName, defaultServerVersion, defaultServerTitle, defaultServerInstructions) or
defaultToolsetNames.

An instance is the state of one session: the checked prepare config (McpPrepareConfig: identity,
limits, surface, options), the tool registry its toolsets filled and which toolset registered
each tool, the grant in force, the dispatcher, the blind-write ledger (McpReadLedger: what the
client read and wrote in the current view) and the [session] notes with the view state behind
them (McpViewNotes). The prepared instance lives in SessionTemps; the prepare also installs the
worker-to-router channel the config offers (McpChannel), or none.

It never commits. It moves the view only in mcpRefreshView (System continueTransaction, which
keeps uncommitted work, and the client is told once) and at the start of a request the router
runs on a pooled gem (an abort). No entry ever raises to the caller: every failure is an answer.'
%
expectvalue /Class
doit
McpServer category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpServer
removeallmethods McpServer
removeallclassmethods McpServer
! ------------------- Class methods for McpServer
category: 'identity'
classmethod: McpServer
defaultServerInstructions
  "The stock instructions: the transaction model and the [session] note."
  ^'This server gives you GemStone/S sessions. A GemStone session is one long-lived transaction with one consistent view of the repository, so what one call changes is there for the next call in the same session: compile, run the tests against what you compiled, then commit.

Which session a call runs in: on an MCP connection of revision 2026-07-28, call open_session before you change anything; it answers a session. Pass that session as the session argument of every later call of the same work, commit, abort and refresh included, and call close_session with it when you are done. A call without session only reads the latest commit, and a tool that changes anything is refused there. On an MCP session of revision 2025-11-25 or earlier, your connection already has a GemStone session of its own and calls without session run in it; open_session gives you a second, separate one (to compare two views, or to give a subagent a transaction of its own).

Nothing is committed for you. Only the commit tool commits; abort discards every uncommitted change; refresh moves the view to the latest commit and keeps your changes. pending_changes lists what this session has changed and not committed. A [session] line at the end of a result says when the session state changed or needs attention: when it first holds uncommitted changes (they are lost if the session ends before a commit, and the line says when that happens), when the view moved (also when code you ran committed, aborted or refreshed) and which of your earlier reads went stale (re-read those before changing them), and after a failed commit. A change to something you have not read in the current view is refused.

A commit that conflicts with another session is reported as an error that names the conflicting classes and methods and writes nothing; call abort (it answers what it discarded), re-read what conflicted, then redo the work on the new view.

Class and method source is also offered as resources (gemstone://<dictionary>/<Class>, .../<Class>/<side>/<selector>); subscribe to one you are working on, and a notification tells you when another session commits a change to it.

In a production repository, do not look for objects by enumerating every instance of a class (allInstances and similar scans read the whole repository and can run for hours): navigate from a known root object or use an index.'
%
category: 'identity'
classmethod: McpServer
defaultServerName
  "The serverInfo name when the prepare config sets none; a subclass names its own."
  ^'gemstone-mcp'
%
category: 'identity'
classmethod: McpServer
defaultServerTitle
  "No title by default: a title means a human labelled this instance."
  ^nil
%
category: 'identity'
classmethod: McpServer
defaultServerVersion
  "The serverInfo version when the prepare config sets none."
  ^'0.1.0'
%
category: 'defaults'
classmethod: McpServer
defaultProtocolVersions
  "Used only by a server built without a prepare config, as in the unit tests."
  ^#('2025-11-25' '2025-06-18')
%
category: 'defaults'
classmethod: McpServer
defaultResultCap
  "The result cap when the prepare config sets none."
  ^50000
%
category: 'defaults'
classmethod: McpServer
defaultToolsetNames
  "The tool surface when the prepare config names no toolsets."
  ^#('McpBrowsingToolset' 'McpExecutionToolset' 'McpListingToolset' 'McpMutationToolset'
     'McpSearchToolset' 'McpSessionToolset' 'McpTestingToolset')
%
category: 'defaults'
classmethod: McpServer
prepareFailureKinds
  "The error kinds of a failed prepare the contract defines; any other failure is badConfig."
  ^#('contractVersion' 'workerClassNotFound' 'toolsetNotFound' 'badOption' 'badConfig')
%
category: 'contract'
classmethod: McpServer
mcpHandle: requestJson
  "Entry 2: the UTF-8 bytes of the response to one message, empty for a notification."
  ^self guarded: [| server |
      server := self current.
      server isNil
        ifTrue: [McpJson write: (self workerError: 'the worker was not prepared (mcpPrepare: has not succeeded in this session)')]
        ifFalse: [server handle: requestJson]]
    otherwise: [:ex | McpJson write: (self workerError: 'internal error in the worker: ' , (self describeException: ex))]
%
category: 'contract'
classmethod: McpServer
mcpPrepare: configJson
  "Entry 1: configure this session from the prepare config and answer the JSON verdict."
  ^self guarded: [McpJson write: (self prepareAnswerFor: configJson)]
    otherwise: [:ex | '{"ok":false,"error":{"kind":"badConfig","message":"the worker failed while answering the prepare"}}']
%
category: 'contract'
classmethod: McpServer
mcpGrant: grantJson
  "Entry 5: the toolsets of the surface offered from now on; nothing else of the session changes."
  ^self guarded: [McpJson write: (self grantAnswerFor: grantJson)]
    otherwise: [:ex | McpJson write: (self grantFailure: 'the worker failed while applying the grant')]
%
category: 'contract'
classmethod: McpServer
grantAnswerFor: grantJson
  "The success or failure Dictionary of mcpGrant:."
  ^[| server |
    server := self current.
    server isNil
      ifTrue: [self grantFailure: 'the worker was not prepared (mcpPrepare: has not succeeded in this session)']
      ifFalse: [server applyGrant: (McpJson parse: grantJson)]]
      on: AbstractException
      do: [:ex |
        (McpDispatcher mustPass: ex) ifTrue: [ex pass].
        ex return: (self grantFailure: ((ex isKindOf: McpError)
          ifTrue: [ex safeText]
          ifFalse: ['the grant could not be applied: ' , (self describeException: ex)]))]
%
category: 'contract'
classmethod: McpServer
grantFailure: aMessage
  "The failure answer of mcpGrant:, of kind badGrant."
  ^Dictionary new
    at: 'ok' put: false;
    at: 'error' put: (Dictionary new at: 'kind' put: 'badGrant'; at: 'message' put: aMessage; yourself);
    yourself
%
category: 'contract'
classmethod: McpServer
mcpRefreshView
  "Entry 4: move the view keeping uncommitted work, and tell the client on its next result."
  ^self guarded: [| server |
      server := self current.
      McpJson write: (server isNil
        ifTrue: [Dictionary new at: 'refreshed' put: false; at: 'reason' put: 'the worker is not prepared'; yourself]
        ifFalse: [server refreshViewForHygiene])]
    otherwise: [:ex | McpJson write: (Dictionary new
      at: 'refreshed' put: false; at: 'reason' put: (self describeException: ex); yourself)]
%
category: 'contract'
classmethod: McpServer
mcpViewStatus
  "Entry 3: how far behind the view is, whether it holds changes, whether it can move."
  ^self guarded: [| server |
      server := self current.
      McpJson write: (Dictionary new
        at: 'commitsBehind' put: self commitsBehind;
        at: 'uncommitted' put: self sessionNeedsCommit;
        at: 'movable' put: (server isNil or: [server viewNotes isViewMovable]);
        yourself)]
    otherwise: [:ex | '{"commitsBehind":-1,"uncommitted":false,"movable":true}']
%
category: 'contract'
classmethod: McpServer
guarded: aBlock otherwise: aFallbackBlock
  "The value of aBlock; whatever it raises, except a break or a Notification (passed on) and a
   compiler warning (resumed), answers the value of aFallbackBlock with the exception instead,
   so no entry ever raises to the router."
  ^aBlock
    on: AbstractException
    do: [:ex | McpDispatcher settle: ex with: aFallbackBlock]
%
category: 'contract'
classmethod: McpServer
workerError: aMessage
  "A -32603 response of kind workerError, for an answer the dispatcher could not give."
  ^Dictionary new
    at: 'jsonrpc' put: '2.0';
    at: 'id' put: nil;
    at: 'error' put: (Dictionary new
      at: 'code' put: McpJsonRpcCodes internalError;
      at: 'message' put: aMessage;
      at: 'data' put: (Dictionary new at: 'kind' put: 'workerError'; yourself);
      yourself);
    yourself
%
category: 'contract'
classmethod: McpServer
prepareAnswerFor: configJson
  "The success or failure Dictionary of mcpPrepare:."
  ^[| config server |
    config := McpJson parse: configJson.
    server := self fromConfig: config.
    server nameGem.
    self install: server.
    self installChannelFrom: config.
    server prepareAnswer]
      on: AbstractException
      do: [:ex | McpDispatcher settle: ex with: [:caught | self prepareFailureFor: caught]]
%
category: 'contract'
classmethod: McpServer
prepareFailureFor: anException
  "The failure answer of mcpPrepare: for anException: its kind when it is one of the
   contract's, else badConfig."
  | kind message |
  kind := 'badConfig'.
  message := 'the worker could not be prepared: ' , (self describeException: anException).
  (anException isKindOf: McpError) ifTrue: [
    message := anException safeText.
    (self prepareFailureKinds includes: anException kind) ifTrue: [kind := anException kind]].
  ^Dictionary new
    at: 'ok' put: false;
    at: 'error' put: (Dictionary new at: 'kind' put: kind; at: 'message' put: message; yourself);
    yourself
%
category: 'session state'
classmethod: McpServer
current
  "The server mcpPrepare: installed in this session, or nil."
  ^SessionTemps current at: self sessionKey otherwise: nil
%
category: 'session state'
classmethod: McpServer
install: anMcpServer
  "Keep anMcpServer as the worker of this session, for the entries that follow."
  SessionTemps current at: self sessionKey put: anMcpServer
%
category: 'session state'
classmethod: McpServer
installChannelFrom: aConfig
  "The worker-to-router channel the prepare config offers, or none; it never fails the prepare."
  ^[McpChannel installFrom: (aConfig at: 'channel' ifAbsent: [nil])]
    on: Error
    do: [:ex | ex return: (McpChannel installFrom: nil)]
%
category: 'session state'
classmethod: McpServer
sessionKey
  "One worker per gem: every worker class shares the key."
  ^#McpWorkerServer
%
category: 'instance creation'
classmethod: McpServer
fromConfig: aConfig
  "A server configured from a parsed prepare config; signals McpError with a prepare kind."
  ^self new configure: (McpPrepareConfig from: aConfig for: self); yourself
%
category: 'instance creation'
classmethod: McpServer
new
  "A server with the defaults of this class and no toolsets."
  ^self basicNew initialize
%
category: 'instance creation'
classmethod: McpServer
withToolsetNames: anArrayOfNames
  "A server with these toolsets and the default identity, as the unit tests build one."
  ^self new configure: (McpPrepareConfig defaultFor: self toolsetNames: anArrayOfNames); yourself
%
category: 'output'
classmethod: McpServer
truncationMarkerShowing: aShown of: aTotal
  "The line that ends a single-value result cut at the cap."
  ^'...[truncated: showing ' , aShown printString , ' of ' , aTotal printString , ' characters]'
%
category: 'exceptions'
classmethod: McpServer
describeException: anException
  "The text of anException, never nil and never raising: description first, because
   messageText is nil for some kernel errors."
  | text |
  text := [anException description] on: Error do: [:ex | ex return: nil].
  text isNil ifTrue: [text := [anException messageText] on: Error do: [:ex | ex return: nil]].
  text isNil ifTrue: [^anException class name asString].
  ^text asString
%
category: 'view'
classmethod: McpServer
commitsBehind
  "How many commits the view of this session is behind, or -1 when it cannot tell."
  | behind |
  behind := [(System descriptionOfSession: System session) at: 16]
    on: Error do: [:ex | ex return: -1].
  (behind isKindOf: Integer) ifFalse: [^-1].
  ^behind
%
category: 'view'
classmethod: McpServer
kernelReportsFailedCommit
  "Whether a failed commit still holds this session; only meaningful while changes are pending."
  ^[self sessionNeedsCommit
      and: [(System transactionConflicts at: #commitResult ifAbsent: [nil]) == #retryFailure]]
    on: Error do: [:ex | ex return: false]
%
category: 'view'
classmethod: McpServer
sessionNeedsCommit
  "Whether this session holds uncommitted changes; false when the kernel cannot tell."
  ^[System needsCommit == true] on: Error do: [:ex | ex return: false]
%
! ------------------- Instance methods for McpServer
category: 'initialization'
method: McpServer
initialize
  "The defaults of the class and no toolsets, until configure: is sent."
  registry := McpToolRegistry new.
  dispatcher := McpDispatcher on: self.
  ledger := McpReadLedger new.
  viewNotes := McpViewNotes on: self.
  toolsetOfTool := Dictionary new.
  grantedToolsets := nil.
  config := McpPrepareConfig defaultFor: self class toolsetNames: #()
%
category: 'initialization'
method: McpServer
configure: anMcpPrepareConfig
  "Serve what anMcpPrepareConfig names: register its toolsets, then apply its grant; signals
   McpError with a prepare kind."
  config := anMcpPrepareConfig.
  config toolsetNames do: [:each | self registerToolset: each].
  config grant isNil ifFalse: [
    grantedToolsets := self grantedToolsetsIn: config grant kind: 'badConfig']
%
category: 'initialization'
method: McpServer
registerToolset: aName
  "Check the options of the toolset aName, let it register its tools, and note which are its."
  | options |
  config checkOptionsOf: aName.
  options := config optionsFor: aName.
  ((config toolsetClassOf: aName) server: self options: options) registerOn: registry.
  registry toolNames do: [:each |
    (toolsetOfTool includesKey: each) ifFalse: [toolsetOfTool at: each put: aName]]
%
category: 'grant'
method: McpServer
applyGrant: aGrant
  "mcpGrant: for this session: the grant is checked whole before it replaces the one in force."
  grantedToolsets := self grantedToolsetsIn: aGrant kind: 'badGrant'.
  ^Dictionary new at: 'ok' put: true; at: 'grant' put: self grantAnswer; yourself
%
category: 'grant'
method: McpServer
grantAnswer
  "The grant in force as the answers of mcpPrepare: and mcpGrant: echo it."
  ^Dictionary new at: 'toolsets' put: grantedToolsets asArray; yourself
%
category: 'grant'
method: McpServer
grantedToolsetsIn: aGrant kind: aKind
  "The toolset names of a grant {toolsets: [...]}, each in the surface; signals McpError of aKind."
  | names |
  (aGrant isKindOf: Dictionary) ifFalse: [
    ^self refuse: aKind because: 'the grant must be an object {"toolsets": [...]}'].
  names := aGrant at: 'toolsets' ifAbsent: [nil].
  (names isKindOf: Array) ifFalse: [
    ^self refuse: aKind because: 'grant.toolsets must be an array of toolset names'].
  names do: [:each |
    ((each isKindOf: CharacterCollection) and: [config toolsetNames includes: each]) ifFalse: [
      ^self refuse: aKind because: 'the grant names ' , each printString , ', which is not in the tool surface']].
  ^names
%
category: 'grant'
method: McpServer
grantedToolsets
  "The toolsets offered to the client, or nil when the whole surface is."
  ^grantedToolsets
%
category: 'grant'
method: McpServer
isToolGranted: aName
  "Whether the grant in force offers the tool aName; true for every tool without a grant."
  grantedToolsets isNil ifTrue: [^true].
  ^grantedToolsets includes: (self toolsetOfToolNamed: aName)
%
category: 'grant'
method: McpServer
offeredDescriptors
  "The tools/list entries of the granted tools, in name order."
  ^((registry toolNames select: [:each | self isToolGranted: each])
    collect: [:each | (registry toolNamed: each ifAbsent: [nil]) descriptor]) asArray
%
category: 'grant'
method: McpServer
toolsetOfToolNamed: aName
  "The name of the toolset that registered the tool, or an empty String for one added by hand."
  ^toolsetOfTool at: aName ifAbsent: [String new]
%
category: 'view'
method: McpServer
isToolReadOnly: aName
  "Whether the tool aName declares readOnlyHint true; false for an unknown tool."
  | tool hints |
  tool := registry toolNamed: aName ifAbsent: [nil].
  tool isNil ifTrue: [^false].
  hints := tool annotations.
  hints isNil ifTrue: [^false].
  ^(hints at: 'readOnlyHint' ifAbsent: [false]) == true
%
category: 'contract'
method: McpServer
handle: aByteObject
  "The response bytes to one message. Never raises: a failure of the worker itself is a
   -32603 answer of kind workerError."
  ^[dispatcher handle: aByteObject]
    on: AbstractException
    do: [:ex | McpDispatcher settle: ex with: [:caught | McpJson write: (self workerErrorFor: caught)]]
%
category: 'contract'
method: McpServer
nameGem
  "Name this gem in the shared cache as the config says; a name the cache refuses never fails
   the prepare."
  | name |
  name := config gemName.
  name isNil ifTrue: [^nil].
  ^[System cacheName: name asString] on: Error do: [:ex | ex return: nil]
%
category: 'contract'
method: McpServer
prepareAnswer
  "The success answer; it echoes the grant, which tells the router the grant was applied."
  | answer |
  answer := Dictionary new
    at: 'ok' put: true;
    at: 'gemSession' put: System session;
    at: 'workerClass' put: self class name asString;
    at: 'serverName' put: config serverName;
    at: 'tools' put: self toolCount;
    yourself.
  grantedToolsets isNil ifFalse: [answer at: 'grant' put: self grantAnswer].
  ^answer
%
category: 'contract'
method: McpServer
workerErrorFor: anException
  "The -32603 answer of kind workerError to the request being handled, for a failure of the
   worker itself."
  ^dispatcher
    errorId: dispatcher currentId
    code: McpJsonRpcCodes internalError
    message: 'internal error in the worker: ' , (self class describeException: anException)
    data: (Dictionary new at: 'kind' put: 'workerError'; yourself)
%
category: 'accessing'
method: McpServer
dispatcher
  "The JSON-RPC dispatcher of this session."
  ^dispatcher
%
category: 'accessing'
method: McpServer
resources
  "The class and method source of the image as MCP resources, with this session's subscriptions."
  resources isNil ifTrue: [resources := McpResourceCatalog on: self].
  ^resources
%
category: 'accessing'
method: McpServer
ledger
  "The blind-write ledger of this session."
  ^ledger
%
category: 'accessing'
method: McpServer
registry
  "Every tool of the surface, granted or not."
  ^registry
%
category: 'accessing'
method: McpServer
resultCap
  "The most characters a single-value result may carry; 0 means no cap."
  ^config resultCap
%
category: 'accessing'
method: McpServer
toolCount
  "How many tools the surface holds, granted or not."
  ^registry size
%
category: 'view'
method: McpServer
commitsBehind
  "How many commits the view of this session is behind, or -1."
  ^self class commitsBehind
%
category: 'view'
method: McpServer
abortForStatelessRequest
  "The worker contract's abort at the start of a request the router runs on a pooled gem: the
   request sees the repository as of its start, and nothing an earlier client's request left
   here survives into it."
  System abortTransaction
%
category: 'view'
method: McpServer
hasUncommittedChanges
  "Whether this session holds uncommitted changes (a test server answers without a transaction)."
  ^self class sessionNeedsCommit
%
category: 'view'
method: McpServer
refreshViewForHygiene
  "The view-hygiene refresh of the contract: continueTransaction keeps uncommitted work; the
   client is told on its next result."
  | outcome problem |
  problem := nil.
  outcome := [System continueTransaction] on: Error do: [:ex | problem := ex. ex return: nil].
  problem isNil ifFalse: [
    ^Dictionary new
      at: 'refreshed' put: false;
      at: 'reason' put: (self class describeException: problem);
      yourself].
  viewNotes viewMovedByRefresh: outcome == true.
  viewNotes hygieneRefreshConflicting: outcome ~~ true.
  ^Dictionary new at: 'refreshed' put: true; at: 'conflicts' put: outcome ~~ true; yourself
%
category: 'accessing'
method: McpServer
config
  "The checked prepare config this server runs with: identity, limits, surface, options."
  ^config
%
category: 'accessing'
method: McpServer
viewNotes
  "The [session] notes of this session and the view state they report."
  ^viewNotes
%
