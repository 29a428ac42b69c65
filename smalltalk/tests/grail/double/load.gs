! Files in the TEST DOUBLE of Grail's API (smalltalk/tests/grail/double) for the model only:
! bin/gsmodel -test files it in through smalltalk/model.gs, and the model-backed e2e tests file it
! in beside smalltalk/grail/load.gs. Never load it into a real stone: it binds ModuleAst,
! importlib, BaseException, PythonTestCase, GrailTestResult and module, Grail's names, to the
! double's classes, in a dictionary GrailDouble it puts in the symbol list, and puts a dictionary
! Python holding the double's native module sys there too. Run from the repository root.
set compile_env: 0
!
! ------------------- Create GrailDouble and pre-declare its classes (bound to nil only where absent)
run
| up double |
up := System myUserProfile.
(up objectNamed: #GrailDouble) isNil ifTrue: [
  up insertDictionary: (SymbolDictionary new name: #GrailDouble; yourself) at: up symbolList size + 1].
double := up objectNamed: #GrailDouble.
#( #GrailDoubleBaseException #GrailDoubleSymbolList #GrailDoublePyObject #GrailDoubleStack #GrailDoubleList
   #GrailDoublePython #GrailDoubleModuleAst #GrailDoubleImportlib #GrailDoublePythonTestCase
   #GrailDoubleTestGem #GrailDoubleTestResult #GrailDoubleSourceText #GrailDoubleMethod
   #GrailDoubleModule #GrailDoubleSysModule )
  do: [:each | (double includesKey: each) ifFalse: [double at: each put: nil]].
true
%
!
input smalltalk/tests/grail/double/GrailDoubleBaseException.gs
input smalltalk/tests/grail/double/GrailDoubleSymbolList.gs
input smalltalk/tests/grail/double/GrailDoublePyObject.gs
input smalltalk/tests/grail/double/GrailDoubleMethod.gs
input smalltalk/tests/grail/double/GrailDoubleStack.gs
input smalltalk/tests/grail/double/GrailDoubleList.gs
input smalltalk/tests/grail/double/GrailDoublePython.gs
input smalltalk/tests/grail/double/GrailDoubleModuleAst.gs
input smalltalk/tests/grail/double/GrailDoubleImportlib.gs
input smalltalk/tests/grail/double/GrailDoublePythonTestCase.gs
input smalltalk/tests/grail/double/GrailDoubleTestGem.gs
input smalltalk/tests/grail/double/GrailDoubleTestResult.gs
input smalltalk/tests/grail/double/GrailDoubleModule.gs
input smalltalk/tests/grail/double/GrailDoubleSysModule.gs
input smalltalk/tests/grail/double/GrailDoubleSourceText.gs
!
! ------------------- Grail's names, bound to the double
run
| double |
double := System myUserProfile objectNamed: #GrailDouble.
double at: #ModuleAst put: GrailDoubleModuleAst.
double at: #importlib put: GrailDoubleImportlib.
double at: #BaseException put: GrailDoubleBaseException.
double at: #PythonTestCase put: GrailDoublePythonTestCase.
double at: #GrailTestResult put: GrailDoubleTestResult.
double at: #module put: GrailDoubleModule.
true
%
!
! ------------------- Grail's dictionary Python, holding its native modules (here sys alone)
run
| up python |
up := System myUserProfile.
(up objectNamed: #Python) isNil ifTrue: [
  up insertDictionary: (SymbolDictionary new name: #Python; yourself) at: up symbolList size + 1].
python := up objectNamed: #Python.
python at: #sys put: GrailDoubleSysModule.
true
%
