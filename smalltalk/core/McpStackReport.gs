set compile_env: 0
! ------------------- Class definition for McpStackReport
expectvalue /Class
doit
Object subclass: 'McpStackReport'
  instVarNames: #( run process frames levels omitted lastSelf lastSelector numbered)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpStackReport comment: 
'Where and why a stopped McpProcessRun stopped: its frames from the one that signalled up to the
code the report is about (the test method, or the evaluated code), innermost first. Each frame is
a Dictionary (method, line, source, receiver, args, temps) for structuredContent, and a few lines
of text: Class>>selector ("[] in" for a block), the line number and the source line, the
receiver and the arguments and temporaries as capped printStrings.

The frames are read with GsProcess>>_frameContentsAt: (method, ipOffset, self, names, receiver,
values; GemTalk/Jasper debugQueries.ts) and GsNMethod>>_lineNumberForIp:. The frames above the
signalling one belong to the exception machinery and to the run''s own handler: their self is the
exception, its class, the process or the run, and they are skipped. The report ends at the frame
of lastSelf running lastSelector (a test method), or just before a frame of one of the run''s
bounds (the tool that started it), whichever comes first.

Reading a frame never raises: a printString that fails is shown as such.'
%
expectvalue /Class
doit
McpStackReport category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpStackReport
removeallmethods McpStackReport
removeallclassmethods McpStackReport
! ------------------- Class methods for McpStackReport
category: 'instance creation'
classmethod: McpStackReport
of: aStoppedRun
  "The report of the frames from the signal to the bounds of the run."
  ^self of: aStoppedRun endingAt: nil selector: nil
%
category: 'instance creation'
classmethod: McpStackReport
of: aStoppedRun endingAt: anObjectOrNil selector: aSelectorOrNil
  "The report of aStoppedRun, ending at the frame where anObjectOrNil runs aSelectorOrNil."
  ^self new setRun: aStoppedRun lastSelf: anObjectOrNil selector: aSelectorOrNil
%
category: 'limits'
classmethod: McpStackReport
maxFrames
  "Frames kept; past it the innermost ones and the last are kept, and the count of the others."
  ^12
%
category: 'limits'
classmethod: McpStackReport
maxPrintSize
  "Characters of one printString."
  ^160
%
! ------------------- Instance methods for McpStackReport
category: 'initialization'
method: McpStackReport
setRun: aRun lastSelf: anObject selector: aSelector
  "A report of aRun ending at the frame whose receiver is anObject running aSelector (both nil
   for the whole run)."
  run := aRun.
  process := aRun process.
  lastSelf := anObject.
  lastSelector := aSelector.
  omitted := 0.
  self collectFrames
%
category: 'accessing'
method: McpStackReport
frames
  "One Dictionary per frame, innermost first."
  ^frames
%
category: 'text'
method: McpStackReport
beNumbered
  "Number the frames in the text, [1] innermost, as the debugging tools address them."
  numbered := true
%
category: 'accessing'
method: McpStackReport
levelOf: aFrameNumber
  "The process level of the report's frame aFrameNumber (1 is the innermost reported), or nil."
  ^(aFrameNumber between: 1 and: levels size) ifTrue: [levels at: aFrameNumber] ifFalse: [nil]
%
category: 'accessing'
method: McpStackReport
omitted
  "How many frames were left out of the middle of a deep stack."
  ^omitted
%
category: 'reading frames'
method: McpStackReport
collectFrames
  "Read the frames from the one that signalled outwards (signalLevelBelow: skips the machinery)
   until the run's bounds or the report's last frame, then cap them."
  | depth level found |
  depth := process localStackDepth.
  level := self signalLevelBelow: depth.
  found := OrderedCollection new.
  levels := OrderedCollection new.
  [level <= depth and: [(self isBound: (process _frameContentsAt: level)) not]] whileTrue: [ | contents |
    contents := process _frameContentsAt: level.
    found add: (self describe: contents).
    levels add: level.
    level := (self isLast: contents) ifTrue: [depth + 1] ifFalse: [level + 1]].
  levels := self capped: levels.
  omitted := 0.
  frames := self capped: found
%
category: 'reading frames'
method: McpStackReport
capped: aCollection
  "At most maxFrames frames: the innermost ones and the last, counting those left out."
  | max |
  max := self class maxFrames.
  aCollection size <= max ifTrue: [^aCollection asArray].
  omitted := aCollection size - max.
  ^(aCollection copyFrom: 1 to: max - 1) asArray , (Array with: aCollection last)
%
category: 'reading frames'
method: McpStackReport
signalLevelBelow: aDepth
  "The level of the frame that signalled: the first one, from the top, that belongs neither to
   the exception machinery nor to the run's handler."
  | level |
  level := 1.
  [level <= aDepth and: [self isMachinery: (process _frameContentsAt: level)]]
    whileTrue: [level := level + 1].
  ^level
%
category: 'reading frames'
method: McpStackReport
isMachinery: aFrame
  "Whether aFrame belongs to signalling and catching the exception rather than to the code the
   report is about."
  | frameSelf ex |
  frameSelf := self selfOf: aFrame.
  ex := run exception.
  ^frameSelf == ex or: [frameSelf == ex class or: [frameSelf == process or: [frameSelf == run]]]
%
category: 'reading frames'
method: McpStackReport
isBound: aFrame
  "A frame of the code that started the run, below what the report is about."
  | frameSelf |
  frameSelf := self selfOf: aFrame.
  ^(run bounds detect: [:each | each == frameSelf or: [each == (aFrame at: 10)]] ifNone: [nil]) notNil
%
category: 'reading frames'
method: McpStackReport
isLast: aFrame
  "The test method's own frame, where a report on a test ends."
  | method |
  lastSelf isNil ifTrue: [^false].
  method := aFrame at: 1.
  ^(self selfOf: aFrame) == lastSelf
    and: [method isMethodForBlock not and: [method selector == lastSelector]]
%
category: 'reading frames'
method: McpStackReport
selfOf: aFrame
  "The frame's self (slot 8) to tell whose frame it is; in a block that never mentions self
   GemStone leaves it nil (GemTalk/Jasper debugQueries.ts), and the receiver (slot 10, the block
   itself) has to do."
  ^(aFrame at: 8) ifNil: [aFrame at: 10]
%
category: 'describing'
method: McpStackReport
describe: aFrame
  "One frame as the report holds it: method, line, source line, self, arguments and temporaries,
   printed."
  | method line entry |
  method := aFrame at: 1.
  line := method _lineNumberForIp: (aFrame at: 2).
  entry := Dictionary new.
  entry at: 'method' put: (self labelOf: method).
  entry at: 'line' put: line.
  entry at: 'source' put: (self line: line of: method sourceString).
  entry at: 'receiver' put: (self printed: (aFrame at: 8)).
  self addVariablesOf: aFrame to: entry.
  ^entry
%
category: 'describing'
method: McpStackReport
addVariablesOf: aFrame to: anEntry
  "Arguments then temporaries, by name; the unnamed evaluation temporaries (.t1 ...) are left out."
  | names args temps argCount |
  names := aFrame at: 9.
  argCount := self argumentCountOf: aFrame.
  args := Dictionary new.
  temps := Dictionary new.
  1 to: names size do: [:i | | name |
    name := (names at: i) asString.
    (name isEmpty or: [name first == $.]) ifFalse: [
      (i <= argCount ifTrue: [args] ifFalse: [temps])
        at: name put: (self printed: (aFrame at: 10 + i))]].
  anEntry at: 'args' put: args.
  anEntry at: 'temps' put: temps
%
category: 'describing'
method: McpStackReport
argumentCountOf: aFrame
  "A block's arguments are its numArgs (the receiver of a block frame is the block); a method's
   are the colons of its keyword selector, or one for a binary selector."
  | method selector |
  method := aFrame at: 1.
  method isMethodForBlock ifTrue: [^(aFrame at: 10) numArgs].
  method selector isNil ifTrue: [^0].
  selector := method selector asString.
  (selector first isLetter or: [selector first == $_])
    ifFalse: [^1].
  ^(selector select: [:each | each == $:]) size
%
category: 'describing'
method: McpStackReport
labelOf: aMethod
  "Class>>selector of the home method, with [] in for a block; a doit is executed code."
  | home label |
  home := aMethod homeMethod.
  label := home selector isNil
    ifTrue: ['executed code']
    ifFalse: [(self classLabelOf: home inClass) , '>>' , home selector asString].
  ^aMethod isMethodForBlock ifTrue: ['[] in ' , label] ifFalse: [label]
%
category: 'describing'
method: McpStackReport
classLabelOf: aBehavior
  "Foo or Foo class."
  aBehavior isNil ifTrue: [^'nil'].
  ^aBehavior isMeta
    ifTrue: [aBehavior theNonMetaClass name asString , ' class']
    ifFalse: [aBehavior name asString]
%
category: 'describing'
method: McpStackReport
line: aNumber of: aString
  "The aNumber-th line of aString without its indentation, or an empty String."
  | current stream |
  current := 1.
  stream := WriteStream on: String new.
  aString do: [:each |
    each == Character lf
      ifTrue: [current := current + 1]
      ifFalse: [current = aNumber ifTrue: [stream nextPut: each]]].
  ^stream contents trimSeparators
%
category: 'describing'
method: McpStackReport
printed: anObject
  "A printString capped at maxPrintSize; one that raises says so."
  | text max |
  text := [anObject printString]
    on: Error
    do: [:ex | ex return: '<printString failed: ' , ex class name asString , '>'].
  max := self class maxPrintSize.
  text size > max ifTrue: [text := (text copyFrom: 1 to: max) , '...'].
  ^text
%
category: 'text'
method: McpStackReport
lines
  "A few lines per frame, innermost first."
  | out |
  out := OrderedCollection new.
  1 to: frames size do: [:i | | each |
    each := frames at: i.
    (omitted > 0 and: [i = frames size]) ifTrue: [
      out add: '  ... ' , omitted printString , ' frames not shown'].
    out add: '  ' , (numbered == true ifTrue: ['[' , i printString , '] '] ifFalse: ['']) , (each at: 'method') , ' (line ' , (each at: 'line') printString , '): '
      , (each at: 'source').
    out add: '      ' , (self variablesLineOf: each)].
  ^out asArray
%
category: 'text'
method: McpStackReport
variablesLineOf: aFrameEntry
  "self, then the arguments and temporaries of a frame by name, on one line."
  | stream |
  stream := WriteStream on: String new.
  stream nextPutAll: 'self = '; nextPutAll: (aFrameEntry at: 'receiver').
  #('args' 'temps') do: [:group |
    ((aFrameEntry at: group) keys asSortedCollection: [:a :b | a <= b]) do: [:name |
      stream nextPutAll: '; '; nextPutAll: name; nextPutAll: ' = ';
        nextPutAll: ((aFrameEntry at: group) at: name)]].
  ^stream contents
%
category: 'exceptions'
classmethod: McpStackReport
fieldsOf: anException
  "The exception's class, number (when it has one) and description, JSON-safe."
  | fields number |
  fields := Dictionary new.
  fields at: 'class' put: anException class name asString.
  number := [anException number] on: Error do: [:ex | ex return: nil].
  (number isKindOf: Integer) ifTrue: [fields at: 'number' put: number].
  fields at: 'description' put: (self descriptionOf: anException).
  ^fields
%
category: 'exceptions'
classmethod: McpStackReport
descriptionOf: anException
  "The description, which unlike messageText is never nil."
  ^[anException description asString]
    on: Error
    do: [:ex | ex return: (anException messageText ifNil: [anException class name asString]) asString]
%
category: 'exceptions'
classmethod: McpStackReport
headlineOf: anException
  "ClassName (number): description."
  | fields |
  fields := self fieldsOf: anException.
  ^(fields at: 'class')
    , ((fields includesKey: 'number') ifTrue: [' (' , (fields at: 'number') printString , ')'] ifFalse: [''])
    , ': ' , (fields at: 'description')
%
category: 'schema'
classmethod: McpStackReport
framesSchema
  "The JSON schema of the frames of a report."
  | frame strings |
  strings := Dictionary new
    at: 'type' put: 'object';
    at: 'additionalProperties' put: (Dictionary new at: 'type' put: 'string'; yourself);
    yourself.
  frame := Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: (Dictionary new
      at: 'method' put: (Dictionary new at: 'type' put: 'string'; at: 'description' put: 'Class>>selector, [] in for a block, executed code for evaluated code'; yourself);
      at: 'line' put: (Dictionary new at: 'type' put: 'integer'; at: 'description' put: 'the line of the method source the frame is running'; yourself);
      at: 'source' put: (Dictionary new at: 'type' put: 'string'; at: 'description' put: 'that line of source'; yourself);
      at: 'receiver' put: (Dictionary new at: 'type' put: 'string'; at: 'description' put: 'printString of self, capped'; yourself);
      at: 'args' put: strings;
      at: 'temps' put: strings;
      yourself);
    yourself.
  ^Dictionary new
    at: 'type' put: 'array';
    at: 'description' put: 'innermost first, from the frame that signalled to the test method or the evaluated code';
    at: 'items' put: frame;
    yourself
%
category: 'schema'
classmethod: McpStackReport
exceptionSchema
  "The output schema of the exception a report is about: class, number and description."
  ^Dictionary new
    at: 'type' put: 'object';
    at: 'properties' put: (Dictionary new
      at: 'class' put: (Dictionary new at: 'type' put: 'string'; yourself);
      at: 'number' put: (Dictionary new at: 'type' put: 'integer'; yourself);
      at: 'description' put: (Dictionary new at: 'type' put: 'string'; yourself);
      yourself);
    yourself
%
category: 'text'
method: McpStackReport
linesUnder: aHeadline
  "The headline, then where: the frames, innermost first."
  ^(Array with: aHeadline with: 'Where (innermost first):') , self lines
%
