set compile_env: 0
! ------------------- Class definition for McpTranscriptSink
expectvalue /Class
doit
Object subclass: 'McpTranscriptSink'
  instVarNames: #( buffer)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpTranscriptSink comment: 
'What Transcript received while one execute_code call ran. On 3.x Transcript is a
TranscriptStreamPortable that writes to the stream it finds in SessionTemps at
#TranscriptStream_SessionStream; McpExecutionToolset puts a sink there for the call and puts the
previous stream back after it (GemTalk/Jasper client/src/transcriptSink.ts installs its sink the
same way).

The portable transcript sends its stream nextPutAll:, nextPut:, contents and reset. The sink keeps
what was written in its own buffer and answers an empty contents, so that a Transcript flush in
the client''s code neither echoes the text to the gem log nor resets it away. An instance lives
only for one call and is referenced only from SessionTemps: it is never committed.'
%
expectvalue /Class
doit
McpTranscriptSink category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpTranscriptSink
removeallmethods McpTranscriptSink
removeallclassmethods McpTranscriptSink
! ------------------- Class methods for McpTranscriptSink
category: 'instance creation'
classmethod: McpTranscriptSink
new
  ^self basicNew initialize
%
category: 'session'
classmethod: McpTranscriptSink
sessionKey
  "Where the portable transcript finds its stream."
  ^#TranscriptStream_SessionStream
%
category: 'session'
classmethod: McpTranscriptSink
capturing: aBlock
  "Evaluates aBlock with a fresh sink as the session's transcript stream and answers
   {value of aBlock. what Transcript received}; the previous stream is put back however aBlock
   ends."
  | temps previous sink value |
  temps := SessionTemps current.
  previous := temps at: self sessionKey otherwise: nil.
  sink := self new.
  temps at: self sessionKey put: sink.
  value := [aBlock value] ensure: [
    previous isNil
      ifTrue: [temps removeKey: self sessionKey ifAbsent: [nil]]
      ifFalse: [temps at: self sessionKey put: previous]].
  ^{value. sink captured}
%
! ------------------- Instance methods for McpTranscriptSink
category: 'initialization'
method: McpTranscriptSink
initialize
  buffer := WriteStream on: String new
%
category: 'accessing'
method: McpTranscriptSink
captured
  "Everything written since the sink was made."
  ^buffer contents
%
category: 'stream'
method: McpTranscriptSink
contents
  "Empty, so that a flush of the transcript has nothing to echo or reset; see captured."
  ^String new
%
category: 'stream'
method: McpTranscriptSink
nextPut: aCharacter
  "What Transcript sends for one character."
  buffer nextPut: aCharacter.
  ^aCharacter
%
category: 'stream'
method: McpTranscriptSink
nextPutAll: aCollection
  "A String as it is; anything else as its printString, as a transcript shows it."
  buffer nextPutAll: ((aCollection isKindOf: CharacterCollection)
    ifTrue: [aCollection]
    ifFalse: [aCollection printString]).
  ^aCollection
%
category: 'stream'
method: McpTranscriptSink
reset
  "Transcript may reset its stream; what the call printed is kept."
  ^self
%
