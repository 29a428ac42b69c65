set compile_env: 0
! ------------------- Class definition for GrailDoubleTestGem
expectvalue /Class
doit
Object subclass: 'GrailDoubleTestGem'
  instVarNames: #( result memoryReadings dieOn loggedOut expressions)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleTestGem comment: 
'TEST DOUBLE of the GsTsExternalSession that run_python_tests logs in as its test gem: the model
cannot fork a gem. It answers the calls McpGrailToolset makes (nbExecute:, isCallInProgress,
waitForResultForSeconds:otherwise:, lastResult, logout) by evaluating each expression in the
calling session, except two things the model has no way to produce: the gem''s temporary object
memory, which it answers from the readings a test gives it, one per class; and a gem that dies,
which it signals, with text that names a fake NRS, when asked to run the class a test names.'
%
expectvalue /Class
doit
GrailDoubleTestGem category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleTestGem
removeallmethods GrailDoubleTestGem
removeallclassmethods GrailDoubleTestGem
! ------------------- Instance methods for GrailDoubleTestGem
category: 'configuring'
method: GrailDoubleTestGem
dieOn: aClassName
  dieOn := aClassName
%
category: 'configuring'
method: GrailDoubleTestGem
memoryReadings: aCollection
  "Strings 'used max percent', one answered per memory question, the last repeated."
  memoryReadings := aCollection asOrderedCollection
%
category: 'inspecting'
method: GrailDoubleTestGem
expressions
  expressions isNil ifTrue: [expressions := OrderedCollection new].
  ^expressions
%
category: 'inspecting'
method: GrailDoubleTestGem
loggedOut
  ^loggedOut == true
%
category: 'kernel API'
method: GrailDoubleTestGem
isCallInProgress
  ^false
%
category: 'kernel API'
method: GrailDoubleTestGem
lastResult
  ^result
%
category: 'kernel API'
method: GrailDoubleTestGem
logout
  loggedOut := true
%
category: 'kernel API'
method: GrailDoubleTestGem
nbExecute: aString
  self expressions add: aString.
  (aString findString: 'testGemMemoryFigures' startingAt: 1) > 0 ifTrue: [
    ^result := self nextReading].
  (dieOn notNil and: [(aString findString: dieOn printString startingAt: 1) > 0]) ifTrue: [
    ^Error signal: 'the gem is gone: !tcp@stonehost#netldi:ldi#task!gemnetobject -C secret'].
  result := aString evaluate
%
category: 'kernel API'
method: GrailDoubleTestGem
waitForResultForSeconds: aNumber otherwise: aBlock
  ^aBlock value
%
category: 'private'
method: GrailDoubleTestGem
nextReading
  memoryReadings isNil ifTrue: [^'10485760 104857600 10'].
  ^memoryReadings size > 1 ifTrue: [memoryReadings removeFirst] ifFalse: [memoryReadings first]
%
