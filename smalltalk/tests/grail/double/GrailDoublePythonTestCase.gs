set compile_env: 0
! ------------------- Class definition for GrailDoublePythonTestCase
expectvalue /Class
doit
TestCase subclass: 'GrailDoublePythonTestCase'
  instVarNames: #( )
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoublePythonTestCase comment: 
'TEST DOUBLE of Grail''s PythonTestCase (GemTalk/Grail smalltalk/PythonTestCase.gs), bound as
PythonTestCase in the model only: an abstract TestCase, as Grail''s is (isAbstract is true for
itself alone). The suites define small concrete subclasses of it while they run.'
%
expectvalue /Class
doit
GrailDoublePythonTestCase category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoublePythonTestCase
removeallmethods GrailDoublePythonTestCase
removeallclassmethods GrailDoublePythonTestCase
! ------------------- Class methods for GrailDoublePythonTestCase
category: 'testing'
classmethod: GrailDoublePythonTestCase
isAbstract
  ^self == GrailDoublePythonTestCase
%
