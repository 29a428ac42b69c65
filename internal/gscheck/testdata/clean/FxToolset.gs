set compile_env: 0
! ------------------- Class definition for FxToolset
expectvalue /Class
doit
Object subclass: 'FxToolset'
  instVarNames: #( server)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Fx
  options: #()

%
expectvalue /Class
doit
FxToolset comment: 
'Two tools for the checker''s clean fixture. registerOn: declares each once, and sum: handles the
second. It never commits.'
%
expectvalue /Class
doit
FxToolset category: 'Fx-Core'
%
! ------------------- Remove existing behavior from FxToolset
removeallmethods FxToolset
removeallclassmethods FxToolset
! ------------------- Class methods for FxToolset
! ------------------- Instance methods for FxToolset
category: 'registration'
method: FxToolset
registerOn: aRegistry
  aRegistry
    at: 'echo' put: (FxTool
      name: 'echo'
      description: 'Answers its text argument.'
      schema: #()
      handler: [:args | args at: 'text' ifAbsent: ['']]);
    at: 'sum' put: (FxTool
      name: 'sum'
      description: 'Adds the numbers.'
      schema: #()
      handler: [:args | self sum: (args at: 'numbers' ifAbsent: [#()])]).
  ^aRegistry
%
category: 'tools'
method: FxToolset
sum: numbers
  | total stream |
  total := numbers inject: 0 into: [:acc :each | acc + each].
  stream := WriteStream on: String new.
  stream print: total; lf.
  numbers do: [:each | stream print: each] separatedBy: [stream nextPutAll: ', '].
  ^stream contents
%
