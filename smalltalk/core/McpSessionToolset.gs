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
'The transaction tools: abort, commit, refresh and status, and the declarations of open_session
and close_session, which the front end serves (it logs a gem in for open_session and ends it for
close_session; a worker cannot) and this worker only lists, so that a model learns them from
tools/list. Their handlers refuse, naming the front end, should a call ever reach a worker.

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
  "abort: discards every uncommitted change and moves the view; the answer names what was
   discarded."
  | discarded |
  discarded := self server ledger pendingChanges.
  System abortTransaction.
  self server viewNotes viewMovedWithNothingPending.
  self noteChanges: discarded args: Dictionary new.
  ^'Aborted: the view now shows the latest commits. '
    , (self changesPhrase: discarded verb: 'discarded') , (self untrackedPhraseFor: discarded)
%
category: 'tools'
method: McpSessionToolset
commit: args
  "commit: on a conflict nothing is written and the answer names what conflicted; on success the
   answer names what was published."
  | outcome published |
  published := self server ledger pendingChanges.
  self server ledger restampReads.
  outcome := self attemptCommit.
  outcome == true ifFalse: [
    self server viewNotes noteCommitFailed.
    ^self signalCommitConflict].
  self server viewNotes viewMovedWithNothingPending.
  self noteChanges: published args: Dictionary new.
  ^'Committed: the changes of this session are now visible to every session. '
    , (self changesPhrase: published verb: 'published')
%
category: 'tools'
method: McpSessionToolset
pendingChanges: args
  "What this session changed through the tools and has not committed, paged."
  | changes header |
  changes := self server ledger pendingChanges.
  header := self page: (changes collect: [:each | self server ledger lineFor: each]) args: args
    defaultLimit: nil noun: 'changes'.
  self noteChanges: changes args: args.
  ^header , (self untrackedPhraseFor: changes)
%
category: 'changes'
method: McpSessionToolset
changesPhrase: aCollectionOfChanges verb: aVerb
  "The changes as lines under a count, or that there were none."
  | ledger lines |
  aCollectionOfChanges isEmpty ifTrue: [^'No change made through the tools was ' , aVerb , '.'].
  ledger := self server ledger.
  lines := OrderedCollection new.
  lines add: (self count: aCollectionOfChanges size of: 'change' plural: 'changes') , ' ' , aVerb , ':'.
  aCollectionOfChanges do: [:each | lines add: '  ' , (ledger lineFor: each)].
  ^self linesFrom: lines
%
category: 'changes'
method: McpSessionToolset
count: anInteger of: aSingular plural: aPlural
  "1 method, 3 methods."
  anInteger = 1 ifTrue: [^'1 ' , aSingular].
  ^anInteger printString , ' ' , aPlural
%
category: 'changes'
method: McpSessionToolset
untrackedPhraseFor: aCollectionOfChanges
  "The ledger lists what the tools changed; execute_code and tests may have changed more."
  self server viewNotes hasUntrackedChanges ifFalse: [^''].
  ^(String with: Character lf)
    , 'execute_code or a test also ran in this transaction: what it changed is not listed here.'
%
category: 'changes'
method: McpSessionToolset
noteChanges: aCollectionOfChanges args: args
  "The changes as structured content: the same page the text shows, each change with its fields."
  | limit offset stop window page |
  limit := self pagingArgument: 'limit' in: args default: nil.
  offset := self pagingArgument: 'offset' in: args default: 0.
  stop := limit isNil
    ifTrue: [aCollectionOfChanges size]
    ifFalse: [(offset + limit) min: aCollectionOfChanges size].
  window := (offset + 1 to: stop) collect: [:index | aCollectionOfChanges at: index].
  page := Dictionary new
    at: 'items' put: window asArray;
    at: 'offset' put: offset;
    at: 'total' put: aCollectionOfChanges size;
    at: 'complete' put: self server viewNotes hasUntrackedChanges not;
    yourself.
  (window notEmpty and: [offset + window size < aCollectionOfChanges size])
    ifTrue: [page at: 'nextOffset' put: offset + window size].
  self noteStructured: page
%
category: 'changes'
method: McpSessionToolset
changesSchema
  "The outputSchema of pending_changes, abort and commit: a page of changes, each an object."
  | change page |
  change := Dictionary new
    at: 'type' put: 'object';
    at: 'required' put: #('change' 'key');
    at: 'properties' put: (Dictionary new
      at: 'change' put: ((self schemaOfType: 'string' description: 'what was done')
        at: 'enum' put: McpReadLedger new changeKinds; yourself);
      at: 'key' put: (self schemaOfType: 'string' description: 'what was changed: Foo, Foo>>bar, Foo class>>bar, #Dictionary');
      at: 'className' put: (self schemaOfType: 'string' description: 'the class');
      at: 'selector' put: (self schemaOfType: 'string' description: 'the selector of a method');
      at: 'side' put: (self schemaOfType: 'string' description: 'instance or class');
      at: 'category' put: (self schemaOfType: 'string' description: 'the category of a compiled method');
      at: 'dictionary' put: (self schemaOfType: 'string' description: 'the symbol dictionary');
      at: 'shapeChanged' put: (self schemaOfType: 'boolean' description: 'a redefinition made a new class version');
      at: 'version' put: (self schemaOfType: 'integer' description: 'the class version a redefinition made');
      yourself);
    yourself.
  page := Dictionary new
    at: 'items' put: (Dictionary new at: 'type' put: 'array'; at: 'items' put: change; yourself);
    at: 'offset' put: (self schemaOfType: 'integer' description: 'how many changes came before this page');
    at: 'total' put: (self schemaOfType: 'integer' description: 'how many changes the tools made');
    at: 'complete' put: (self schemaOfType: 'boolean' description: 'false when execute_code or a test ran in the transaction and may have changed more than is listed');
    at: 'nextOffset' put: (self schemaOfType: 'integer' description: 'the offset of the next page; absent on the last');
    at: 'error' put: (self schemaOfType: 'object' description: 'present instead of the page when the call failed');
    yourself.
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: page;
    at: 'anyOf' put: (Array
      with: (Dictionary new at: 'required' put: #('items' 'offset' 'total' 'complete'); yourself)
      with: (Dictionary new at: 'required' put: #('error'); yourself));
    yourself
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
category: 'conflicts'
method: McpSessionToolset
conflictEntries
  "The conflicts of the commit that just failed, one entry per object; none when the kernel
   cannot say."
  | conflicts |
  conflicts := [System transactionConflicts] on: Error do: [:ex | ex return: nil].
  conflicts isNil ifTrue: [^OrderedCollection new].
  ^self conflictEntriesFrom: conflicts
%
category: 'conflicts'
method: McpSessionToolset
conflictEntriesFrom: aConflictDictionary
  "One entry per object aConflictDictionary (System transactionConflicts) names in a conflict
   category, described as what a developer knows it by (describeConflictObject:). An object that
   cannot be named is shown as what it is, never dropped."
  | entries |
  entries := OrderedCollection new.
  [aConflictDictionary keysAndValuesDo: [:key :value |
    (#('commitResult' 'RcReadSet') includes: key asString) ifFalse: [
      (self objectsIn: value) do: [:each |
        entries add: ((self describeConflictObject: each) at: 'conflict' put: key asString; yourself)]]]]
    on: Error do: [:ex | ex return: nil].
  ^self withSelectorSetsFolded: entries
%
category: 'conflicts'
method: McpSessionToolset
withSelectorSetsFolded: anEntries
  "A method compiled in two sessions conflicts on two objects of one side, its method dictionary
   and its selector set (GemTalk/mcp_server docs/blind-write-guardrail.md, measurement E): one
   entry names both, the method dictionary's, which lists the selectors this session changed
   there. A selector set whose method dictionary did not conflict keeps its own entry."
  ^anEntries reject: [:each |
    (each at: 'object') = 'selector set'
      and: [(anEntries detect: [:other | (other at: 'object') = 'method dictionary'
        and: [(self entry: other namesTheSideOf: each)]] ifNone: [nil]) notNil]]
%
category: 'conflicts'
method: McpSessionToolset
entry: anEntry namesTheSideOf: anotherEntry
  "Whether two conflict entries are about the same side of the same class in the same conflict
   category."
  ^(#('className' 'side' 'conflict') detect: [:key |
    (anEntry at: key ifAbsent: [nil]) ~= (anotherEntry at: key ifAbsent: [nil])] ifNone: [nil]) isNil
%
category: 'conflicts'
method: McpSessionToolset
objectsIn: aValue
  "A conflict category's value as a collection: the kernel may give one object or several."
  (aValue isKindOf: Collection) ifTrue: [^aValue].
  ^Array with: aValue
%
category: 'conflicts'
method: McpSessionToolset
describeConflictObject: anObject
  "A class; the method dictionary of a class this session changed (GemStone reports a method
   compiled in two sessions as a conflict on the class's GsMethodDictionary and a per-class
   SymbolSet: GemTalk/mcp_server docs/blind-write-guardrail.md, measurement E on 3.7.5, and
   docs/GemStone_Notes.md, 'Compiling a method conflicts at CLASS granularity'; matched there, as
   here, by identity with persistentMethodDictForEnv: 0), with the selectors this session changed
   on that side; its selector set; a symbol dictionary; else its class."
  | owner |
  anObject isBehavior ifTrue: [^self conflictOn: 'class' of: anObject].
  owner := self changedBehaviorWhoseMethodsAre: anObject.
  owner isNil ifFalse: [
    ^(self conflictOn: 'method dictionary' of: owner)
      at: 'selectors' put: (self changedSelectorsOf: owner);
      yourself].
  owner := self changedBehaviorWhoseSelectorSetIs: anObject.
  owner isNil ifFalse: [^self conflictOn: 'selector set' of: owner].
  (System myUserProfile symbolList includes: anObject) ifTrue: [
    ^Dictionary new at: 'object' put: 'symbol dictionary'; at: 'dictionary' put: anObject name asString; yourself].
  ^Dictionary new at: 'object' put: 'an instance of ' , anObject class name asString; yourself
%
category: 'conflicts'
method: McpSessionToolset
conflictOn: aWhat of: aBehavior
  "A conflict entry for a part of a class (aWhat), naming the class and its side."
  ^Dictionary new
    at: 'object' put: aWhat;
    at: 'className' put: aBehavior theNonMetaClass name asString;
    at: 'side' put: (aBehavior isMeta ifTrue: ['class'] ifFalse: ['instance']);
    yourself
%
category: 'conflicts'
method: McpSessionToolset
changedSelectorsOf: aBehavior
  "The selectors this session compiled or removed on that side of the class, from the ledger."
  | side |
  side := aBehavior isMeta ifTrue: ['class'] ifFalse: ['instance'].
  ^((self server ledger changesOfClassNamed: aBehavior theNonMetaClass name asString)
    select: [:each | (each at: 'selector' ifAbsent: [nil]) notNil and: [(each at: 'side' ifAbsent: [nil]) = side]])
    collect: [:each | each at: 'selector']
%
category: 'conflicts'
method: McpSessionToolset
changedBehaviors
  "Each side of every class this session changed through the tools."
  | behaviors |
  behaviors := OrderedCollection new.
  self server ledger pendingChanges do: [:each | | cls |
    cls := self classOrNilNamed: (each at: 'className' ifAbsent: [nil]).
    (cls notNil and: [(behaviors includes: cls) not]) ifTrue: [behaviors add: cls; add: cls class]].
  ^behaviors
%
category: 'conflicts'
method: McpSessionToolset
classOrNilNamed: aNameOrNil
  "The class called aNameOrNil in the symbol list of this user, or nil."
  | found |
  aNameOrNil isNil ifTrue: [^nil].
  found := System myUserProfile symbolList objectNamed: aNameOrNil asSymbol.
  (found notNil and: [found isBehavior]) ifFalse: [^nil].
  ^found
%
category: 'conflicts'
method: McpSessionToolset
changedBehaviorWhoseMethodsAre: anObject
  "The class or metaclass this session changed whose method dictionary is anObject, or nil."
  ^self changedBehaviors
    detect: [:each | [(each persistentMethodDictForEnv: 0) == anObject] on: Error do: [:ex | ex return: false]]
    ifNone: [nil]
%
category: 'conflicts'
method: McpSessionToolset
changedBehaviorWhoseSelectorSetIs: anObject
  "A set of selectors all of which one changed class defines: the per-class SymbolSet of the notes."
  (anObject isKindOf: Collection) ifFalse: [^nil].
  anObject isEmpty ifTrue: [^nil].
  (anObject detect: [:each | (each isKindOf: Symbol) not] ifNone: [nil]) isNil ifFalse: [^nil].
  ^self changedBehaviors
    detect: [:each | (anObject detect: [:sel | (each includesSelector: sel) not] ifNone: [nil]) isNil]
    ifNone: [nil]
%
category: 'conflicts'
method: McpSessionToolset
conflictReport
  "The text of a refused commit: each conflict named, the changes of this session it touches, and
   the next step."
  | entries lines ledger |
  entries := self conflictEntries.
  ledger := self server ledger.
  lines := OrderedCollection new.
  lines add: 'commit failed: these changes conflict with commits of other sessions, and nothing was written.'.
  entries isEmpty ifTrue: [lines add: '  (the stone named no conflicting object)'].
  entries do: [:each | lines add: '  ' , (self lineForConflict: each)].
  lines add: 'Next: call abort (it discards every uncommitted change of this session: '
    , (self count: ledger pendingChanges size of: 'change' plural: 'changes')
    , ', listed by pending_changes), re-read '
    , (self rereadPhraseFor: entries)
    , ' to see what the other session committed, then redo your changes on it. Nothing can be committed until abort.'.
  ^self linesFrom: lines
%
category: 'conflicts'
method: McpSessionToolset
lineForConflict: anEntry
  "One conflict as a line of the report, with this session's own changes to that class; it also
   records them in anEntry as yourChanges."
  | out className mine |
  out := WriteStream on: String new.
  out nextPutAll: (anEntry at: 'conflict'); nextPutAll: ' on '.
  className := anEntry at: 'className' ifAbsent: [nil].
  className isNil ifTrue: [
    out nextPutAll: (anEntry at: 'object').
    (anEntry at: 'dictionary' ifAbsent: [nil]) isNil ifFalse: [out nextPutAll: ' '; nextPutAll: (anEntry at: 'dictionary')].
    ^out contents].
  (anEntry at: 'object') = 'class'
    ifTrue: [out nextPutAll: 'class '; nextPutAll: className]
    ifFalse: [out nextPutAll: 'the '; nextPutAll: (anEntry at: 'object'); nextPutAll: ' of '; nextPutAll: className].
  (anEntry at: 'side') = 'class' ifTrue: [out nextPutAll: ' class'].
  mine := self server ledger changesOfClassNamed: className.
  anEntry at: 'yourChanges' put: (mine collect: [:each | each at: 'key']).
  mine isEmpty ifFalse: [
    out nextPutAll: '; your changes there: '.
    out nextPutAll: (self joined: (mine collect: [:each | self server ledger lineFor: each]) with: '; ')].
  ^out contents
%
category: 'conflicts'
method: McpSessionToolset
rereadPhraseFor: aCollectionOfEntries
  "The classes to re-read after an abort, and the tools that read them."
  | names |
  names := OrderedCollection new.
  aCollectionOfEntries do: [:each | | name |
    name := each at: 'className' ifAbsent: [nil].
    (name notNil and: [(names includes: name) not]) ifTrue: [names add: name]].
  names isEmpty ifTrue: [^'what you changed'].
  ^(self joined: names with: ', ') , ' (export_class_source or get_method_source)'
%
category: 'status'
method: McpSessionToolset
failedCommitPending
  "Whether the kernel still reports the last commit as failed."
  ^[(System transactionConflicts at: #commitResult ifAbsent: [nil]) == #retryFailure]
    on: Error do: [:ex | ex return: false]
%
category: 'tools'
method: McpSessionToolset
refresh: args
  "refresh: moves the view and keeps uncommitted changes; refused after a failed commit, a
   conflict when the kept changes now conflict."
  | outcome problem |
  problem := nil.
  outcome := [System continueTransaction] on: Error do: [:ex | problem := ex. ex return: nil].
  problem isNil ifFalse: [^self signalRefreshRefused: problem].
  self server viewNotes viewMovedByRefresh: outcome == true.
  outcome == true ifFalse: [^self signalRefreshConflict].
  ^'Refreshed: the view now shows the latest commits and your uncommitted changes are kept. Re-read anything you are about to change.'
%
category: 'registration'
method: McpSessionToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each; open_session and
   close_session first: the front end serves them, their descriptions say when to use them."
  self declareOpenSessionOn: aRegistry.
  self declareCloseSessionOn: aRegistry.
  self declareAbortOn: aRegistry.
  self declareCommitOn: aRegistry.
  self declarePendingChangesOn: aRegistry.
  self declareRefreshOn: aRegistry.
  self declareStatusOn: aRegistry
%
category: 'declarations'
method: McpSessionToolset
declareOpenSessionOn: aRegistry
  aRegistry add: ((McpTool
    name: 'open_session'
    description: 'Open a GemStone session of your own: one transaction with its own view of the repository, for work that changes code. Answers its session; pass it as the session argument of every call of that work, commit, abort and refresh included. Nobody else sees its changes until you call commit with it. Call close_session with it when you are done; a session with no call for the server''s idle timeout (30 minutes by default) is ended and its uncommitted changes are discarded. On an MCP 2026-07-28 connection every change needs one; on an older MCP session your connection already has a GemStone session, and this opens a second, separate one.'
    schema: self noArguments
    handler: [:args | self openSession: args])
      title: 'Open a GemStone session';
      hintsReadOnly: false destructive: false idempotent: false openWorld: false;
      outputSchema: self sessionSchema from: self;
      yourself)
%
category: 'declarations'
method: McpSessionToolset
declareCloseSessionOn: aRegistry
  aRegistry add: ((McpTool
    name: 'close_session'
    description: 'End a GemStone session that open_session opened. Its uncommitted changes are discarded: call commit with it first to keep them.'
    schema: (self
      schemaProperties: {self stringProperty: McpTool sessionArgument description: 'The session to close: the value open_session answered.'}
      required: {McpTool sessionArgument})
    handler: [:args | self closeSession: args])
      title: 'Close a GemStone session';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpSessionToolset
declareAbortOn: aRegistry
  aRegistry add: ((McpTool
    name: 'abort'
    description: 'Discard every uncommitted change of this session and move the view to the latest commit. Destructive.'
    schema: self noArguments
    handler: [:args | self abort: args])
      title: 'Abort the transaction';
      outputSchema: self changesSchema from: self;
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpSessionToolset
declareCommitOn: aRegistry
  aRegistry add: ((McpTool
    name: 'commit'
    description: 'Commit the changes of this session. The only tool that commits; a conflict with another session is reported as an error and nothing is written.'
    schema: self noArguments
    handler: [:args | self commit: args])
      title: 'Commit the transaction';
      outputSchema: self changesSchema from: self;
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpSessionToolset
declarePendingChangesOn: aRegistry
  aRegistry add: ((McpTool
    name: 'pending_changes'
    description: 'What this session has changed through the tools and not committed: classes created, redefined or removed, methods added, changed or removed, comments, dictionaries; abort would discard exactly these, commit would publish them.'
    schema: (self schemaProperties: {
        self integerProperty: 'limit' description: 'How many changes to show; 0 answers the count alone.'.
        self integerProperty: 'offset' description: 'How many changes to skip.' }
      required: #())
    handler: [:args | self pendingChanges: args])
      title: 'List the uncommitted changes';
      outputSchema: self changesSchema from: self;
      readOnly;
      yourself)
%
category: 'declarations'
method: McpSessionToolset
declareRefreshOn: aRegistry
  aRegistry add: ((McpTool
    name: 'refresh'
    description: 'Move the view to the latest commit, keeping uncommitted changes. Re-read what you are about to change afterwards.'
    schema: self noArguments
    handler: [:args | self refresh: args])
      title: 'Refresh the view';
      hintsReadOnly: false destructive: false idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpSessionToolset
declareStatusOn: aRegistry
  aRegistry add: ((McpTool
    name: 'status'
    description: 'The session: user, session id, stone, whether it holds uncommitted changes, how far its view is behind.'
    schema: self noArguments
    handler: [:args | self status: args])
      title: 'Session status';
      readOnly;
      yourself)
%
category: 'registration'
method: McpSessionToolset
sessionSchema
  "The structured content of open_session: the session to pass to later calls."
  ^self
    schemaProperties: {self stringProperty: McpTool sessionArgument description: 'The new session, for the session argument of later calls.'}
    required: {McpTool sessionArgument}
%
category: 'tools'
method: McpSessionToolset
openSession: args
  "Never reached through the worker: the router serves open_session itself."
  ^self signalServedByTheFrontEnd: 'open_session'
%
category: 'tools'
method: McpSessionToolset
closeSession: args
  "Never reached through the worker: the router serves close_session itself."
  ^self signalServedByTheFrontEnd: 'close_session'
%
category: 'session tools'
method: McpSessionToolset
signalServedByTheFrontEnd: aToolName
  "A call of a tool the router serves reached this worker: the front end in use does not serve it."
  ^McpError
    signalKind: 'frontEndTool'
    message: aToolName , ' is served by the server''s front end, which logs a gem in or out for it; this worker cannot. Connect through mcp-gemstone''s router.'
%
category: 'commit'
method: McpSessionToolset
signalCommitConflict
  "Signal commitConflict: the report as text, and in the details each conflict (with yourChanges,
   which lineForConflict: adds), the next step and how much an abort discards."
  | text entries |
  text := self conflictReport.
  entries := self conflictEntries.
  entries do: [:each | self lineForConflict: each].
  ^McpError
    signalKind: 'commitConflict'
    message: text
    details: (Dictionary new
      at: 'conflicts' put: entries asArray;
      at: 'nextStep' put: 'abort';
      at: 'discardedByAbort' put: self server ledger pendingChanges size;
      yourself)
%
category: 'refresh'
method: McpSessionToolset
signalRefreshConflict
  "The view moved, but what is kept cannot be committed now."
  ^McpError
    signalKind: 'commitConflict'
    message: 'the view moved, but the uncommitted changes of this session now conflict with commits of other sessions and can no longer be committed. Call abort to discard them.'
%
category: 'refresh'
method: McpSessionToolset
signalRefreshRefused: anException
  "The kernel would not move the view (after a failed commit only abort does)."
  ^McpError
    signalKind: 'refused'
    message: 'refresh refused: ' , (McpServer describeException: anException)
      , '. After a failed commit only abort moves the view.'
%
category: 'tools'
method: McpSessionToolset
status: args
  "status: the user, session, stone, transaction state, view, server and router of this session."
  | lines |
  lines := OrderedCollection new.
  lines add: 'user: ' , System myUserProfile userId asString.
  lines add: 'session: ' , System session printString.
  lines add: 'stone: ' , (System stoneName asString subStrings: $!) last.
  lines add: 'uncommitted changes: ' , System needsCommit printString.
  self failedCommitPending ifTrue: [lines add: 'a commit failed: abort before anything can be committed'].
  lines add: 'commits behind: ' , self server commitsBehind printString.
  lines add: 'server: ' , self server config serverName , ' ' , self server config serverVersion.
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
  frontEnd := self server config frontEnd.
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
