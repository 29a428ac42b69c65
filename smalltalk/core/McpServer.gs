set compile_env: 0
! ------------------- Class definition for McpServer
expectvalue /Class
doit
Object subclass: 'McpServer'
  instVarNames: #( registry dispatcher protocolVersions resultCap
                    configuredName configuredVersion configuredTitle configuredInstructions
                    toolsetNames toolsetOptions frontEnd
                    ledger viewNote failedCommit toolsetOfTool grantedToolsets
                    lifetime untracked announced resources)
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
so the router can ask the client for a token with more scope). A subclass inherits them all, so a deployment can name its own worker class and override the
class-side identity defaults (defaultServerName, defaultServerVersion, defaultServerTitle,
defaultServerInstructions) or defaultToolsetNames.

An instance holds the state of one session: the tool registry its toolsets filled, the
dispatcher, the identity and limits of the prepare config, the options of each toolset, and the
blind-write ledger (McpReadLedger: what the client read and wrote in the current view), which
it tells when the view moves. The prepared instance lives in SessionTemps; the prepare also installs
the worker-to-router channel the config offers (McpChannel), or none.

It never opens a socket and never commits. It moves the view only in mcpRefreshView (System
continueTransaction, which keeps uncommitted work, and the client is told once) and when the
commit, abort or refresh tool tells it the view moved. No entry ever raises to the caller:
every failure is an answer.'
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
  ^50000
%
category: 'defaults'
classmethod: McpServer
defaultToolsetNames
  ^#('McpBrowsingToolset' 'McpExecutionToolset' 'McpListingToolset' 'McpMutationToolset'
     'McpSearchToolset' 'McpSessionToolset' 'McpTestingToolset')
%
category: 'defaults'
classmethod: McpServer
contractVersion
  ^1
%
category: 'defaults'
classmethod: McpServer
maxCacheNameSize
  ^31
%
category: 'defaults'
classmethod: McpServer
maxInstructionsSize
  ^32768
%
category: 'defaults'
classmethod: McpServer
prepareFailureKinds
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
        at: 'movable' put: (server isNil or: [server isViewMovable]);
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
    server nameGem: (config at: 'cacheName' ifAbsent: [nil]).
    self install: server.
    self installChannelFrom: config.
    server prepareAnswer]
      on: AbstractException
      do: [:ex | McpDispatcher settle: ex with: [:caught | self prepareFailureFor: caught]]
%
category: 'contract'
classmethod: McpServer
prepareFailureFor: anException
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
  ^self new configureFrom: aConfig; yourself
%
category: 'instance creation'
classmethod: McpServer
new
  ^self basicNew initialize
%
category: 'instance creation'
classmethod: McpServer
withToolsetNames: anArrayOfNames
  "A server with these toolsets and the default identity, as the unit tests build one."
  ^self new installToolsets: anArrayOfNames options: Dictionary new; yourself
%
category: 'gem name'
classmethod: McpServer
cacheNameFrom: aString
  "aString cut to the 31 characters the shared cache accepts, keeping the last two colon
   fields (the router id and the session head) whole and cutting the class name; nil when
   there is nothing to apply."
  | max tail |
  (aString isNil or: [aString isEmpty]) ifTrue: [^nil].
  max := self maxCacheNameSize.
  aString size <= max ifTrue: [^aString].
  tail := self lastTwoFieldsOf: aString.
  tail size >= max ifTrue: [^aString copyFrom: aString size - max + 1 to: aString size].
  ^(aString copyFrom: 1 to: max - tail size) , tail
%
category: 'gem name'
classmethod: McpServer
lastTwoFieldsOf: aString
  "The text from the second-last colon to the end, or empty when there are fewer than two."
  | colons |
  colons := 0.
  aString size to: 1 by: -1 do: [:index |
    (aString at: index) = $: ifTrue: [
      colons := colons + 1.
      colons = 2 ifTrue: [^aString copyFrom: index to: aString size]]].
  ^String new
%
category: 'output'
classmethod: McpServer
truncationMarkerShowing: aShown of: aTotal
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
  ^[System needsCommit == true] on: Error do: [:ex | ex return: false]
%
! ------------------- Instance methods for McpServer
category: 'configuring'
method: McpServer
configureFrom: aConfig
  "Validate and apply a parsed prepare config; signals McpError with a prepare kind."
  (aConfig isKindOf: Dictionary) ifFalse: [^self refuse: 'badConfig' because: 'the prepare config is not a JSON object'].
  self checkContractIn: aConfig.
  self checkWorkerClassIn: aConfig.
  protocolVersions := self protocolVersionsIn: aConfig.
  self applyIdentityIn: aConfig.
  resultCap := self resultCapIn: aConfig.
  frontEnd := aConfig at: 'frontEnd' ifAbsent: [nil].
  lifetime := aConfig at: 'lifetime' ifAbsent: [nil].
  self installToolsets: (self toolsetNamesIn: aConfig) options: (self toolsetOptionsIn: aConfig).
  (aConfig at: 'grant' ifAbsent: [nil]) isNil ifFalse: [
    grantedToolsets := self grantedToolsetsIn: (aConfig at: 'grant') kind: 'badConfig']
%
category: 'configuring'
method: McpServer
applyIdentityIn: aConfig
  configuredName := self optionalString: 'serverName' in: aConfig.
  configuredVersion := self optionalString: 'serverVersion' in: aConfig.
  configuredTitle := self optionalString: 'serverTitle' in: aConfig.
  configuredInstructions := self optionalString: 'instructions' in: aConfig.
  (configuredName notNil and: [configuredName isEmpty]) ifTrue: [
    ^self refuse: 'badConfig' because: 'serverName must not be empty'].
  (configuredInstructions notNil and: [configuredInstructions size > self class maxInstructionsSize])
    ifTrue: [^self refuse: 'badConfig' because: 'instructions exceed '
      , self class maxInstructionsSize printString , ' characters']
%
category: 'configuring'
method: McpServer
checkContractIn: aConfig
  | version |
  version := aConfig at: 'contract' ifAbsent: [nil].
  version isNil ifTrue: [^self refuse: 'contractVersion' because: 'the prepare config has no contract version'].
  version = self class contractVersion ifFalse: [
    ^self refuse: 'contractVersion' because: 'this worker speaks contract version '
      , self class contractVersion printString , ', not ' , version printString]
%
category: 'configuring'
method: McpServer
checkWorkerClassIn: aConfig
  | named |
  named := aConfig at: 'workerClass' ifAbsent: [nil].
  ((named isKindOf: CharacterCollection) and: [named isEmpty not]) ifFalse: [
    ^self refuse: 'badConfig' because: 'workerClass is missing'].
  named asString = self class name asString ifFalse: [
    ^self refuse: 'workerClassNotFound'
      because: 'workerClass ' , named , ' is not the class being prepared (' , self class name , ')']
%
category: 'configuring'
method: McpServer
checkOptions: anOptionsOrNil for: aToolsetClass named: aName
  "Each option must be one aToolsetClass declares."
  | declared |
  anOptionsOrNil isNil ifTrue: [^self].
  (anOptionsOrNil isKindOf: Dictionary) ifFalse: [
    ^self refuse: 'badOption' because: 'the options of ' , aName , ' must be a JSON object'].
  declared := aToolsetClass declaredOptionNames.
  anOptionsOrNil keysAndValuesDo: [:key :value |
    (declared includes: key) ifFalse: [
      ^self refuse: 'badOption' because: aName , ' has no option ' , key , ' ('
        , (self declaredPhrase: declared) , ')']]
%
category: 'configuring'
method: McpServer
declaredPhrase: aCollectionOfNames
  | out first |
  aCollectionOfNames isEmpty ifTrue: [^'it declares none'].
  out := WriteStream on: String new.
  out nextPutAll: 'it declares: '.
  first := true.
  aCollectionOfNames do: [:each |
    first ifFalse: [out nextPutAll: ', '].
    first := false.
    out nextPutAll: each].
  ^out contents
%
category: 'configuring'
method: McpServer
installToolsets: anArrayOfNames options: anOptionsDictionary
  "Resolve each toolset by name, check its options, and let it register its tools."
  | classes |
  anOptionsDictionary keysAndValuesDo: [:name :value |
    (anArrayOfNames includes: name) ifFalse: [
      ^self refuse: 'toolsetNotFound' because: 'options given for ' , name , ', which is not in the tool surface']].
  classes := anArrayOfNames collect: [:each | self toolsetClassNamed: each].
  toolsetNames := anArrayOfNames.
  toolsetOptions := anOptionsDictionary.
  1 to: classes size do: [:index | | name |
    name := anArrayOfNames at: index.
    self checkOptions: (anOptionsDictionary at: name ifAbsent: [nil]) for: (classes at: index) named: name.
    ((classes at: index) server: self options: (anOptionsDictionary at: name ifAbsent: [nil]))
      registerOn: registry.
    self recordToolset: name]
%
category: 'configuring'
method: McpServer
recordToolset: aName
  "Every registered tool that has no toolset yet came from aName, the toolset just registered."
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
    ((each isKindOf: CharacterCollection) and: [toolsetNames includes: each]) ifFalse: [
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
category: 'configuring'
method: McpServer
optionalString: aKey in: aConfig
  "The string at aKey, or nil when absent; anything but a string is refused."
  | value |
  value := aConfig at: aKey ifAbsent: [^nil].
  value isNil ifTrue: [^nil].
  (value isKindOf: CharacterCollection) ifFalse: [
    ^self refuse: 'badConfig' because: aKey , ' must be a string'].
  ^value
%
category: 'configuring'
method: McpServer
protocolVersionsIn: aConfig
  | versions |
  versions := aConfig at: 'protocolVersions' ifAbsent: [nil].
  ((McpJson isArray: versions) and: [versions isEmpty not]) ifFalse: [
    ^self refuse: 'badConfig' because: 'protocolVersions is missing or empty'].
  versions do: [:each |
    ((each isKindOf: CharacterCollection) and: [each isEmpty not]) ifFalse: [
      ^self refuse: 'badConfig' because: 'protocolVersions holds an empty or non-string version']].
  ^versions asArray
%
category: 'configuring'
method: McpServer
refuse: aKind because: aMessage
  ^McpError signalKind: aKind message: aMessage
%
category: 'configuring'
method: McpServer
resultCapIn: aConfig
  "0 means no cap, as in the stand-in worker; absent means the default."
  | cap |
  cap := aConfig at: 'resultCap' ifAbsent: [nil].
  cap isNil ifTrue: [^self class defaultResultCap].
  ((cap isKindOf: Integer) and: [cap >= 0]) ifFalse: [
    ^self refuse: 'badConfig' because: 'resultCap must be a non-negative integer'].
  ^cap
%
category: 'configuring'
method: McpServer
toolsetClassNamed: aName
  "The McpToolset subclass called aName in the symbol list of this user, or toolsetNotFound."
  | found |
  found := ((aName isKindOf: CharacterCollection) and: [aName isEmpty not])
    ifTrue: [System myUserProfile symbolList objectNamed: aName asSymbol]
    ifFalse: [nil].
  (found notNil and: [found isBehavior and: [found inheritsFrom: McpToolset]]) ifTrue: [^found].
  ^self refuse: 'toolsetNotFound'
    because: 'no toolset named ' , ((aName isKindOf: CharacterCollection) ifTrue: [aName] ifFalse: [aName printString])
      , ' in the symbol list of user ' , System myUserProfile userId asString
%
category: 'configuring'
method: McpServer
toolsetNamesIn: aConfig
  | names |
  names := aConfig at: 'toolsets' ifAbsent: [nil].
  names isNil ifTrue: [^self class defaultToolsetNames].
  (McpJson isArray: names) ifFalse: [^self refuse: 'badConfig' because: 'toolsets must be an array of class names'].
  ^names asArray
%
category: 'configuring'
method: McpServer
toolsetOptionsIn: aConfig
  | options |
  options := aConfig at: 'toolsetOptions' ifAbsent: [nil].
  options isNil ifTrue: [^Dictionary new].
  (options isKindOf: Dictionary) ifFalse: [
    ^self refuse: 'badConfig' because: 'toolsetOptions must be an object keyed by toolset name'].
  ^options
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
nameGem: aCacheNameOrNil
  "Name this gem in the shared cache; a name the cache refuses never fails the prepare."
  | name |
  name := self class cacheNameFrom: aCacheNameOrNil.
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
    at: 'serverName' put: self serverName;
    at: 'tools' put: self toolCount;
    yourself.
  grantedToolsets isNil ifFalse: [answer at: 'grant' put: self grantAnswer].
  ^answer
%
category: 'contract'
method: McpServer
workerErrorFor: anException
  ^dispatcher
    errorId: dispatcher currentId
    code: McpJsonRpcCodes internalError
    message: 'internal error in the worker: ' , (self class describeException: anException)
    data: (Dictionary new at: 'kind' put: 'workerError'; yourself)
%
category: 'accessing'
method: McpServer
dispatcher
  ^dispatcher
%
category: 'accessing'
method: McpServer
frontEnd
  "The name, version and routerId of the router, as the prepare config gave them, or nil."
  ^frontEnd
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
optionsFor: aToolsetName
  "The options configured for one toolset, or nil."
  ^toolsetOptions at: aToolsetName ifAbsent: [nil]
%
category: 'accessing'
method: McpServer
protocolVersions
  ^protocolVersions
%
category: 'accessing'
method: McpServer
registry
  ^registry
%
category: 'accessing'
method: McpServer
resultCap
  "The most characters a single-value result may carry; 0 means no cap."
  ^resultCap
%
category: 'accessing'
method: McpServer
toolCount
  ^registry size
%
category: 'accessing'
method: McpServer
toolsetNames
  ^toolsetNames
%
category: 'identity'
method: McpServer
serverInstructions
  "The instructions text, or nil to send none: the config wins over the class default, and an
   empty configured text means none."
  configuredInstructions isNil ifTrue: [^self class defaultServerInstructions].
  configuredInstructions isEmpty ifTrue: [^nil].
  ^configuredInstructions
%
category: 'identity'
method: McpServer
serverName
  configuredName isNil ifTrue: [^self class defaultServerName].
  ^configuredName
%
category: 'identity'
method: McpServer
serverTitle
  "nil when there is no title, so that serverInfo leaves the key out."
  configuredTitle isNil ifTrue: [^self class defaultServerTitle].
  configuredTitle isEmpty ifTrue: [^nil].
  ^configuredTitle
%
category: 'identity'
method: McpServer
serverVersion
  configuredVersion isNil ifTrue: [^self class defaultServerVersion].
  ^configuredVersion
%
category: 'initialization'
method: McpServer
initialize
  registry := McpToolRegistry new.
  dispatcher := McpDispatcher on: self.
  protocolVersions := self class defaultProtocolVersions.
  resultCap := self class defaultResultCap.
  toolsetNames := #().
  toolsetOptions := Dictionary new.
  ledger := McpReadLedger new.
  failedCommit := false.
  untracked := false.
  announced := false.
  toolsetOfTool := Dictionary new.
  grantedToolsets := nil
%
category: 'view'
method: McpServer
commitsBehind
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
  ^self class sessionNeedsCommit
%
category: 'view'
method: McpServer
isViewMovable
  "false after a failed commit, until an abort: GemStone will not move that view."
  failedCommit ifTrue: [^false].
  ^self class kernelReportsFailedCommit not
%
category: 'view'
method: McpServer
noteCommitFailed
  "A commit conflicted: the view did not move and nothing in the ledger changes."
  failedCommit := true
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
  self viewMovedByRefresh: outcome == true.
  viewNote := self hygieneNoteConflicting: outcome ~~ true.
  ^Dictionary new at: 'refreshed' put: true; at: 'conflicts' put: outcome ~~ true; yourself
%
category: 'view'
method: McpServer
hygieneNoteConflicting: aBoolean
  aBoolean ifTrue: [
    ^'[session] Between calls the server moved this view to the latest commit, keeping your uncommitted changes, but they now conflict with commits of other sessions and cannot be committed: call abort.'].
  ^'[session] Between calls the server moved this view to the latest commit to release old commit records; your uncommitted changes were kept.'
%
category: 'view'
method: McpServer
viewMovedWithNothingPending
  "An abort or a commit moved the view and left nothing uncommitted: the writes are forgotten and
   a failed commit no longer holds the view."
  failedCommit := false.
  untracked := false.
  announced := false.
  ledger viewMovedKeepingWrites: false
%
category: 'view'
method: McpServer
hasUntrackedChanges
  "Whether code the ledger does not follow (execute_code, a test) left changes in this transaction."
  ^untracked == true
%
category: 'view'
method: McpServer
watchTransactionDuring: aBlock toolNamed: aName
  "The value of aBlock, a tool call. A tool outside the transaction tools may itself commit,
   abort or refresh (execute_code, a test): what it did to the transaction is found by comparing
   the session before and after, so the view notes tell the truth and the ledger follows."
  | wasPending wasBehind changes |
  (self toolsetOfToolNamed: aName) = 'McpSessionToolset' ifTrue: [^aBlock value].
  wasPending := self hasUncommittedChanges.
  wasBehind := self commitsBehind.
  changes := ledger pendingChanges.
  ^aBlock ensure: [
    [self noticeTransactionOf: aName wasPending: wasPending wasBehind: wasBehind changes: changes]
      on: Error do: [:ex | ex return: nil]]
%
category: 'view'
method: McpServer
noticeTransactionOf: aName wasPending: wasPending wasBehind: wasBehind changes: aCollectionOfChanges
  | pending |
  pending := self hasUncommittedChanges.
  (wasPending and: [pending not]) ifTrue: [
    ^self noticeEndOfTransactionBy: aName changes: aCollectionOfChanges].
  (wasBehind > 0 and: [self commitsBehind = 0]) ifTrue: [
    ^self noticeViewMovedBy: aName keeping: pending].
  (pending and: [(self isToolReadOnly: aName) not and: [(self toolsetOfToolNamed: aName) ~= 'McpMutationToolset']])
    ifTrue: [untracked := true]
%
category: 'view'
method: McpServer
isToolReadOnly: aName
  | tool hints |
  tool := registry toolNamed: aName ifAbsent: [nil].
  tool isNil ifTrue: [^false].
  hints := tool annotations.
  hints isNil ifTrue: [^false].
  ^(hints at: 'readOnlyHint' ifAbsent: [false]) == true
%
category: 'view'
method: McpServer
noticeEndOfTransactionBy: aName changes: aCollectionOfChanges
  "The call left no uncommitted changes where there were some: it committed or aborted. Whether
   what the tools wrote is still there tells which."
  | survived |
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
category: 'view'
method: McpServer
noticeViewMovedBy: aName keeping: aBoolean
  aBoolean ifTrue: [
    ledger viewMovedKeepingWrites: true.
    ^viewNote := '[session] ' , aName , ' moved the view to the latest commit (a refresh) and kept your uncommitted changes.'].
  self viewMovedWithNothingPending.
  ^viewNote := '[session] ' , aName , ' moved the view to the latest commit (it aborted or committed the transaction).'
%
category: 'view'
method: McpServer
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
category: 'view'
method: McpServer
viewMovedByRefresh: keptChanges
  "A refresh that answered false moved the view too, and nothing pending can commit now."
  ledger viewMovedKeepingWrites: keptChanges
%
category: 'notes'
method: McpServer
sessionNotes
  "The [session] lines for the result being built: the one-shot notes, then the state, said only
   when it changed or needs attention: a failed commit on every result until abort, uncommitted
   changes once, when the session first holds them."
  | notes note |
  notes := OrderedCollection new.
  note := self viewMoved.
  note isNil ifFalse: [notes add: note].
  note := ledger staleReadNote.
  note isNil ifFalse: [notes add: note].
  self isViewMovable ifFalse: [
    notes add: self failedCommitNote.
    ^notes].
  self hasUncommittedChanges
    ifTrue: [
      announced == true ifFalse: [
        notes add: self uncommittedNote.
        announced := true]]
    ifFalse: [announced := false].
  ^notes
%
category: 'notes'
method: McpServer
failedCommitNote
  ^'[session] The last commit failed on a conflict: nothing can be committed until abort, which discards every uncommitted change (pending_changes lists them).'
%
category: 'notes'
method: McpServer
uncommittedNote
  "Said once, when the session first holds uncommitted changes: what keeps and what loses them."
  ^'[session] This session now holds uncommitted changes (pending_changes lists them): commit keeps them, abort discards them. They are lost if the session ends first: '
    , self deadlinePhrase , '.'
%
category: 'notes'
method: McpServer
deadlinePhrase
  "The deadlines the prepare config's lifetime names, or the general case."
  | idle streamless out |
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
method: McpServer
durationPhrase: aNumberOfSeconds
  (aNumberOfSeconds >= 120 and: [aNumberOfSeconds \\ 60 = 0]) ifTrue: [
    ^(aNumberOfSeconds // 60) printString , ' minutes'].
  aNumberOfSeconds = 1 ifTrue: [^'1 second'].
  ^aNumberOfSeconds printString , ' seconds'
%
category: 'notes'
method: McpServer
viewMoved
  "The one-shot note of a view-hygiene refresh, consumed by asking; nil when there is none."
  | note |
  note := viewNote.
  viewNote := nil.
  ^note
%
