set compile_env: 0
! ------------------- Class definition for McpProcessRun
expectvalue /Class
doit
Object subclass: 'McpProcessRun'
  instVarNames: #( block process semaphore state result exception bounds)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpProcessRun comment: 
'One run of a block in a GsProcess of its own, in this session, which stops at the first Error or
TestFailure that the block itself does not handle: the process suspends there with its frames
intact, so that McpStackReport can read them (GemStone answers frames only for a process that is
not running). The caller waits on a Semaphore while the process runs, as the debuggers that run
on real stones do (feenkcom/gt4gemstone GtGemStoneEvaluationContext).

state is #finished (result holds the value), #stopped (exception holds what stopped it; the
process is suspended) or #terminated. A stopped run must be terminated or resumed: a suspended
process holds its frames, and what they reference, until then.

bounds are the objects whose frames end a stack report: the caller''s own frames (the tool that
started the run, the run itself) are below the code the report is about.'
%
expectvalue /Class
doit
McpProcessRun category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpProcessRun
removeallmethods McpProcessRun
removeallclassmethods McpProcessRun
! ------------------- Class methods for McpProcessRun
category: 'instance creation'
classmethod: McpProcessRun
on: aBlock boundedBy: aCollection
  "A run of aBlock, not started. Frames whose self is one of aCollection end its stack report."
  ^self new setBlock: aBlock bounds: aCollection
%
category: 'exceptions'
classmethod: McpProcessRun
stoppingExceptions
  "What stops a run: an error, or a failed assertion (TestFailure is no Error)."
  ^Error , TestFailure
%
! ------------------- Instance methods for McpProcessRun
category: 'initialization'
method: McpProcessRun
setBlock: aBlock bounds: aCollection
  block := aBlock.
  bounds := aCollection asArray , (Array with: self).
  state := #new
%
category: 'running'
method: McpProcessRun
start
  "Run the block in its own process until it ends or stops; answer the receiver."
  semaphore := Semaphore new.
  state := #running.
  process := [self runBlock] newProcess.
  process resume.
  semaphore wait
%
category: 'running'
method: McpProcessRun
runBlock
  "The body of the process: the block, with the handler that stops the process at an exception
   the block does not handle. The semaphore is signalled when the block ends; stopAt: signals it
   when the process stops."
  [result := block value.
   state := #finished]
    on: self class stoppingExceptions
    do: [:ex | self stopAt: ex].
  semaphore signal
%
category: 'running'
method: McpProcessRun
stopAt: anException
  "Stop here, on top of the signalling frames: hand the session back to the caller and suspend
   this process. A resumed run goes on as the exception would have without the debugger: it
   ends with the exception as its outcome."
  exception := anException.
  state := #stopped.
  semaphore signal.
  process suspend.
  state := #failed.
  ^anException return: nil
%
category: 'debugging'
method: McpProcessRun
resumeRun
  "Let a stopped run go on until it stops again or ends. A run stopped at an error and not
   restarted ends with that error (state #failed): only a restarted frame gets past it."
  state == #stopped ifFalse: [^self].
  state := #running.
  process resume.
  semaphore wait
%
category: 'debugging'
method: McpProcessRun
restartAtLevel: aLevel
  "Leave the frame at aLevel on top of the stopped process, to run again from its start when the
   run is resumed (GsProcess>>_trimStackToLevel:)."
  process _trimStackToLevel: aLevel
%
category: 'running'
method: McpProcessRun
terminate
  "End a stopped run's process; its ensure: blocks run."
  state == #stopped ifTrue: [
    state := #terminated.
    process terminate]
%
category: 'accessing'
method: McpProcessRun
bounds
  ^bounds
%
category: 'accessing'
method: McpProcessRun
exception
  ^exception
%
category: 'accessing'
method: McpProcessRun
isStopped
  ^state == #stopped
%
category: 'accessing'
method: McpProcessRun
process
  ^process
%
category: 'accessing'
method: McpProcessRun
result
  ^result
%
category: 'accessing'
method: McpProcessRun
state
  ^state
%
