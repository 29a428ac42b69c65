set compile_env: 0
! ------------------- Class definition for GrailDoubleSysModule
expectvalue /Class
doit
GrailDoubleModule subclass: 'GrailDoubleSysModule'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleSysModule comment: 
'TEST DOUBLE of Grail''s native module sys, bound as sys in the double''s dictionary Python: a
module class written in Smalltalk, whose one environment-1 method exit: raises SystemExit. Its
source is Smalltalk, so a Python-name search over it finds the implementation, not a call site,
and it publishes no positions.'
%
expectvalue /Class
doit
GrailDoubleSysModule category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleSysModule
removeallmethods GrailDoubleSysModule
removeallclassmethods GrailDoubleSysModule
! ------------------- Class methods for GrailDoubleSysModule
category: 'kernel API, environment 1'
classmethod: GrailDoubleSysModule
selectorsForEnvironment: anEnvironmentId
  anEnvironmentId = 1 ifFalse: [^#()].
  ^#( #exit: )
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleSysModule
sourceCodeAt: aSelector environmentId: anEnvironmentId
  ^'exit: aCode
  ^self ___raise___: (SystemExit new code: aCode)'
%
category: 'kernel API, environment 1'
classmethod: GrailDoubleSysModule
compiledMethodAt: aSelector environmentId: anEnvironmentId
  "No method the double can hand out: a Smalltalk method of a native module sends nothing Grail
   decodes to a Python call, and publishes no positions."
  ^nil
%
