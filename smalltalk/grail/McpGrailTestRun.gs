set compile_env: 0
! ------------------- Class definition for McpGrailTestRun
expectvalue /Class
doit
Object subclass: 'McpGrailTestRun'
  instVarNames: #( reports config peak lastPercent notStarted diedIn diedNumber)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpGrailTestRun comment: 
'What one run_python_tests call has gathered from its test gem, kept in the worker because the
worker is the only place that outlives the test gem: the report of each class that finished (its
counts, and each defect with the message and stack Grail''s GrailTestResult kept), the
highest memory reading (used, max, percent) taken at a class boundary, the classes not started
when the run stopped at the memory ceiling, and the class the gem died on with its GCI error number
(never the error text, which carries the gem''s NRS). reportLinesOn: writes the answer.'
%
expectvalue /Class
doit
McpGrailTestRun category: 'Mcp-Grail'
%
! ------------------- Remove existing behavior from McpGrailTestRun
removeallmethods McpGrailTestRun
removeallclassmethods McpGrailTestRun
! ------------------- Class methods for McpGrailTestRun
category: 'reporting'
classmethod: McpGrailTestRun
memoryNoteFor: used of: max percent: percent
  "The peak memory line, in megabytes."
  ^'peak memory: ' , (used // 1048576) printString , 'MB of ' , (max // 1048576) printString
    , 'MB (' , percent printString , '%)'
%
! ------------------- Instance methods for McpGrailTestRun
category: 'recording'
method: McpGrailTestRun
add: aReport memory: figures
  "aReport is one class's report; figures the gem's used, max and percent as Strings."
  | reading |
  self reports add: aReport.
  reading := figures collect: [:each | each asNumber].
  lastPercent := reading at: 3.
  (peak isNil or: [(reading at: 3) > (peak at: 3)]) ifTrue: [peak := reading]
%
category: 'recording'
method: McpGrailTestRun
config: aString
  "The configuration the test gem was forked with, named when it dies."
  config := aString
%
category: 'recording'
method: McpGrailTestRun
diedIn: aClassName number: aNumberOrNil
  "The test gem died running aClassName, with this GCI error number (never its text)."
  diedIn := aClassName.
  diedNumber := aNumberOrNil
%
category: 'recording'
method: McpGrailTestRun
stopBefore: classNames
  "The run stopped at the memory ceiling with these classes not started."
  notStarted := classNames
%
category: 'accessing'
method: McpGrailTestRun
died
  "Whether the test gem died during the run."
  ^diedIn notNil
%
category: 'accessing'
method: McpGrailTestRun
lastPercent
  ^lastPercent
%
category: 'accessing'
method: McpGrailTestRun
reports
  reports isNil ifTrue: [reports := OrderedCollection new].
  ^reports
%
category: 'accessing'
method: McpGrailTestRun
stopped
  "Whether the run stopped at the memory ceiling."
  ^notStarted notNil
%
category: 'reporting'
method: McpGrailTestRun
reportLinesOn: lines
  "The answer of run_python_tests: each class, the totals, the peak memory, and why the run ended
   early."
  self reports do: [:each | self classLinesOf: each on: lines].
  self reports isEmpty ifFalse: [lines add: self totalsLine].
  peak isNil ifFalse: [lines add: (self class memoryNoteFor: (peak at: 1) of: (peak at: 2) percent: (peak at: 3))].
  self stopped ifTrue: [lines add: self stopLine].
  self died ifTrue: [lines add: self deathLine]
%
category: 'reporting'
method: McpGrailTestRun
classLinesOf: aReport on: lines
  "One class: NOT FOUND, or its counts and each defect."
  (aReport at: 'found') == true ifFalse: [
    ^lines add: (aReport at: 'class') , ': NOT FOUND in the test gem'].
  lines add: (aReport at: 'class') , ': ' , (self countsOf: aReport).
  (aReport at: 'defects') do: [:each | self defectLinesOf: each on: lines]
%
category: 'reporting'
method: McpGrailTestRun
defectLinesOf: aDefect on: lines
  "The test, then Grail's message for it and, for an error, the stack Grail kept, each line
   indented under it."
  | stack |
  lines add: '  ' , (aDefect at: 'kind') , ' ' , (aDefect at: 'test').
  (self linesOf: (aDefect at: 'message')) do: [:each | lines add: '    ' , each].
  stack := aDefect at: 'stack' ifAbsent: [nil].
  stack isNil ifTrue: [^self].
  lines add: '    stack:'.
  (self linesOf: stack) do: [:each | lines add: '      ' , each]
%
category: 'reporting'
method: McpGrailTestRun
linesOf: aString
  ^aString subStrings: (String with: Character lf)
%
category: 'reporting'
method: McpGrailTestRun
countsOf: aReport
  "N run, N passed, N failed, N errors."
  ^(aReport at: 'run') printString , ' run, ' , (aReport at: 'passed') printString , ' passed, '
    , (aReport at: 'failures') printString , ' failed, ' , (aReport at: 'errors') printString , ' errors'
%
category: 'reporting'
method: McpGrailTestRun
totalsLine
  "The counts summed over the classes that finished."
  | totals |
  totals := Dictionary new.
  #('run' 'passed' 'failures' 'errors') do: [:key |
    totals at: key put: (self reports inject: 0 into: [:sum :each | sum + (each at: key ifAbsent: [0])])].
  ^'total: ' , (self countsOf: totals) , ' in ' , self reports size printString , ' classes'
%
category: 'reporting'
method: McpGrailTestRun
stopLine
  "Where to resume a run the memory ceiling stopped."
  ^'stopped at the memory ceiling: ' , notStarted size printString
    , ' classes not started; resume from ' , notStarted first
    , ' (classNames: the ones not started, or raise testGemMemoryCeilingPercent)'
%
category: 'reporting'
method: McpGrailTestRun
deathLine
  "Which class the test gem died on and how it was forked; the error text stays in the gem log."
  ^'the test gem died while running ' , diedIn
    , (diedNumber isNil ifTrue: [''] ifFalse: [' (GCI error ' , diedNumber printString , ')'])
    , '; the classes above had finished. It was forked with ' , config
    , '; the full failure is in the test gem''s log'
%
category: 'reporting'
method: McpGrailTestRun
warningIfOverCeiling: aCeiling
  "A line for a run whose last class ended over the ceiling, or nil."
  (aCeiling > 0 and: [lastPercent notNil and: [lastPercent >= aCeiling and: [self stopped not]]])
    ifFalse: [^nil].
  ^'warning: the gem ended over the ' , aCeiling printString
    , '% ceiling; the counts are complete, but reproduce any defect in a smaller call first'
%
