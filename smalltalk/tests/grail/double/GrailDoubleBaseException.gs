set compile_env: 0
! ------------------- Class definition for GrailDoubleBaseException
expectvalue /Class
doit
Exception subclass: 'GrailDoubleBaseException'
  instVarNames: #( pythonText framesBuilt)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleBaseException comment: 
'TEST DOUBLE of Grail''s BaseException (GemTalk/Grail smalltalk/BaseException.gs), bound as
BaseException in the model only. Like Grail''s, it is outside the Smalltalk Error hierarchy, so
an on: Error handler does not see it; its description begins with the Python class name
(NameError: name ''x'' is not defined), as Grail''s does. Caught by a Smalltalk handler it has no
__traceback__ until ___buildFramesFromCapturedStack___:pos: builds one from the captured stack
(GemTalk/Grail src/smalltalk/Python/BaseException.gs: __traceback__ answers None while no
traceback is attached), so the double''s traceback module formats it as its last line alone until
then, and with a frame after.'
%
expectvalue /Class
doit
GrailDoubleBaseException category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleBaseException
removeallmethods GrailDoubleBaseException
removeallclassmethods GrailDoubleBaseException
! ------------------- Class methods for GrailDoubleBaseException
category: 'Grail API'
classmethod: GrailDoubleBaseException
pythonPositionKindForMethod: aMethod
  "#irSource for the double's methods compiled to IR; nil for a method that is not Python, such as
   one written in Smalltalk (GemTalk/Grail PythonCallSitePositionsTestCase)."
  ^(aMethod isKindOf: GrailDoubleMethod) ifTrue: [aMethod positionKind] ifFalse: [nil]
%
category: 'Grail API'
classmethod: GrailDoubleBaseException
pythonPositionsForMethod: aMethod
  "Grail's public position reader (GemTalk/Grail PythonCallSitePositionsTestCase): what the
   double's method publishes, and nothing for any other method."
  ^(aMethod isKindOf: GrailDoubleMethod) ifTrue: [aMethod positions] ifFalse: [#()]
%
category: 'signalling'
classmethod: GrailDoubleBaseException
signalPython: aText
  ^self new setPythonText: aText; signal: aText
%
! ------------------- Instance methods for GrailDoubleBaseException
category: 'accessing'
method: GrailDoubleBaseException
description
  ^pythonText
%
category: 'accessing'
method: GrailDoubleBaseException
traceback
  framesBuilt == true ifFalse: [^pythonText , '
'].
  ^'Traceback (most recent call last):
  File "<grail>", line 1, in <module>
' , pythonText , '
'
%
category: 'accessing'
method: GrailDoubleBaseException
hasTraceback
  ^framesBuilt == true
%
category: 'Grail API'
method: GrailDoubleBaseException
___buildFramesFromCapturedStack___: aCode pos: aPosition
  framesBuilt := true.
  ^true
%
category: 'initialization'
method: GrailDoubleBaseException
setPythonText: aText
  pythonText := aText
%
