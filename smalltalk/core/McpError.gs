set compile_env: 0
! ------------------- Class definition for McpError
expectvalue /Class
doit
Error subclass: 'McpError'
  instVarNames: #( mcpKind mcpFields mcpText)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpError comment: 
'An error a tool handler signals on purpose. It carries a kind, a short machine-readable
classifier (standardKinds: invalidParams, notFound, refused, compileError, commitConflict,
sessionRequired, other; a toolset may add its own),
and optional details, a Dictionary of extra JSON-safe fields. McpDispatcher turns it into an
isError tool result whose structuredContent.error carries the kind, the message and the details.
McpServer also uses it for the failure kinds of mcpPrepare and McpJson for a body it refuses.
It must never carry text that is unsafe to show a client: no host, no user, no path.

Its own data lives under its own names (mcpKind, mcpFields, mcpText, read through kind,
extraFields and safeText): the kernel''s exception already has details accessors, and on some
extents messageText reads through them, so an override would change what the kernel reports.'
%
expectvalue /Class
doit
McpError category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpError
removeallmethods McpError
removeallclassmethods McpError
! ------------------- Class methods for McpError
category: 'kinds'
classmethod: McpError
standardKinds
  "The kinds of a failed tool call, as docs/tools.md documents them (test/toolsdoc holds the two
   and every kind the core signals together); a toolset outside the core may signal others."
  ^#('invalidParams' 'notFound' 'refused' 'compileError' 'commitConflict' 'sessionRequired' 'other')
%
category: 'signalling'
classmethod: McpError
signalKind: aKind message: aString
  "Signal an McpError of aKind without details."
  ^self signalKind: aKind message: aString details: nil
%
category: 'signalling'
classmethod: McpError
signalKind: aKind message: aString details: aDictionaryOrNil
  "Signal an McpError of aKind; the details are extra JSON-safe fields of
   structuredContent.error."
  ^(self new setKind: aKind fields: aDictionaryOrNil text: aString) signal: aString
%
! ------------------- Instance methods for McpError
category: 'accessing'
method: McpError
extraFields
  "A Dictionary of extra JSON-safe fields, or nil."
  ^mcpFields
%
category: 'accessing'
method: McpError
kind
  "The machine-readable kind of the failure, what clients branch on."
  ^mcpKind
%
category: 'accessing'
method: McpError
safeText
  "The message as a String, never nil: the text it was signalled with, else what the exception
   machinery answers, else the kind."
  | text |
  mcpText isNil ifFalse: [^mcpText asString].
  text := [self messageText] on: Error do: [:ex | ex return: nil].
  text isNil ifTrue: [^mcpKind].
  ^text asString
%
category: 'initialization'
method: McpError
setKind: aKind fields: aDictionaryOrNil text: aString
  "Kept under names of its own, not the kernel's details (see the class comment)."
  mcpKind := aKind.
  mcpFields := aDictionaryOrNil.
  mcpText := aString
%
