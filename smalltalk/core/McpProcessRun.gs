set compile_env: 0
! ------------------- Class definition for McpProcessRun
expectvalue /Class
doit
Object subclass: 'McpProcessRun'
  instVarNames: #( block process semaphore state result exception bounds
                    stopsAtBreakpoints restarted stepping)
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
started the run, the run itself) are below the code the report is about.

The process runs with breakpointLevel: 1, as gt4gemstone forks its evaluations, so that a method
breakpoint or a step stops it with a Breakpoint its own handler catches. A run for a stack report
goes on past a breakpoint (resumes it); a debugging run (stopAtBreakpoints) stops there, and
resumed goes on from it. A stopped run can be stepped (step:atLevel:) when it stopped at a
Breakpoint or a frame was restarted since: stepped from an error, it would end with the error.'
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
  ^Error , TestFailure , Breakpoint
%
! ------------------- Instance methods for McpProcessRun
category: 'initialization'
method: McpProcessRun
setBlock: aBlock bounds: aCollection
  "A run of aBlock not started yet; its report ends before the frames of the objects in
   aCollection and of the run itself."
  block := aBlock.
  bounds := aCollection asArray , (Array with: self).
  stopsAtBreakpoints := false.
  restarted := false.
  state := #new
%
category: 'initialization'
method: McpProcessRun
stopAtBreakpoints
  "Stop at a method breakpoint, as a debugging run does, instead of going on past it."
  stopsAtBreakpoints := true
%
category: 'running'
method: McpProcessRun
start
  "Run the block in its own process until it ends or stops; answer the receiver."
  semaphore := Semaphore new.
  state := #running.
  process := [self runBlock] newProcess.
  process breakpointLevel: 1.
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
    do: [:ex | (stopsAtBreakpoints not and: [ex isKindOf: Breakpoint])
      ifTrue: [ex resume: nil]
      ifFalse: [self stopAt: ex]].
  semaphore signal
%
category: 'running'
method: McpProcessRun
stopAt: anException
  "Stop here, on top of the signalling frames: hand the session back to the caller and suspend
   this process. A resumed run goes on as the exception would have without the debugger: past a
   Breakpoint, from where it stopped; past an error, it ends with the error as its outcome."
  exception := anException.
  restarted := false.
  state := #stopped.
  semaphore signal.
  process suspend.
  (anException isKindOf: Breakpoint) ifTrue: [^anException resume: nil].
  state := #failed.
  ^anException return: nil
%
category: 'debugging'
method: McpProcessRun
resumeRun
  "Let a stopped run go on until it stops again or ends. A run stopped at an error and not
   restarted ends with that error (state #failed): only a restarted frame gets past it."
  self resumeRunStepping: nil
%
category: 'debugging'
method: McpProcessRun
resumeRunStepping: aKindOrNil
  "Resume a stopped run and wait until it stops again or ends; aKindOrNil is the step it makes,
   nil for a plain resume."
  state == #stopped ifFalse: [^self].
  stepping := aKindOrNil.
  state := #running.
  process resume.
  semaphore wait
%
category: 'debugging'
method: McpProcessRun
canStep
  "Whether a step goes on from here: from a Breakpoint, or from a restarted frame."
  ^state == #stopped and: [restarted or: [exception isKindOf: Breakpoint]]
%
category: 'debugging'
method: McpProcessRun
step: aKind atLevel: aLevel
  "Run on to the next step point: over, of the frame at aLevel (or, once that frame has returned,
   wherever the run goes on); through, also in the blocks that frame's method runs; into, the very
   next, in whatever method is sent. The step breaks at that level (gt4gemstone
   stepOverFrameLevel: and its siblings) and the run is resumed."
  aKind = 'over' ifTrue: [process setStepOverBreaksAtLevel: aLevel].
  aKind = 'through' ifTrue: [process setStepThroughBreaksAtLevel: aLevel].
  aKind = 'into' ifTrue: [process setStepIntoBreaksAtLevel: aLevel].
  self resumeRunStepping: aKind
%
category: 'accessing'
method: McpProcessRun
stepping
  "The kind of the step the run last made (over, into, through), or nil after a plain resume."
  ^stepping
%
category: 'debugging'
method: McpProcessRun
restartAtLevel: aLevel
  "Leave the frame at aLevel on top of the stopped process, to run again from its start when the
   run is resumed (GsProcess>>_trimStackToLevel:)."
  process _trimStackToLevel: aLevel.
  restarted := true
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
  "The objects whose frames end a report of this run."
  ^bounds
%
category: 'accessing'
method: McpProcessRun
exception
  "The exception the run stopped at or ended with, or nil."
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
  "The value of the block when the run finished."
  ^result
%
category: 'accessing'
method: McpProcessRun
state
  "new, running, stopped, finished or failed."
  ^state
%
