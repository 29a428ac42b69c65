set compile_env: 0
! ------------------- Class definition for FxTool
expectvalue /Class
doit
Object subclass: 'FxTool'
  instVarNames: #( name description schema handler)
  classVars: #( Registry)
  classInstVars: #( count)
  poolDictionaries: #()
  inDictionary: Fx
  options: #()

%
expectvalue /Class
doit
FxTool comment: 
'A named tool of the checker''s clean fixture: a name, a description, a closed schema and the
block that handles a call. It never commits. Quotes in a class comment are doubled: ''like this'',
and a "double quote" needs nothing.'
%
expectvalue /Class
doit
FxTool category: 'Fx-Core'
%
! ------------------- Remove existing behavior from FxTool
removeallmethods FxTool
removeallclassmethods FxTool
! ------------------- Class methods for FxTool
category: 'instance creation'
classmethod: FxTool
name: aName description: aDescription schema: aSchema handler: aBlock
  "A tool; counts how many were made, in a class-instance variable."
  count := (count ifNil: [0]) + 1.
  ^self new setName: aName description: aDescription schema: aSchema handler: aBlock
%
category: 'registry'
classmethod: FxTool
registry
  ^Registry ifNil: [Registry := Dictionary new]
%
! ------------------- Instance methods for FxTool
category: 'calling'
method: FxTool
callWith: args
  "Run the handler on args; a handler error answers its description."
  ^[handler value: args]
    on: Error
    do: [:ex | ex return: 'error: ' , ex description]
%
category: 'accessing'
method: FxTool
name
  ^name
%
category: 'printing'
method: FxTool
printOn: aStream
  aStream nextPutAll: 'FxTool('; nextPutAll: name; nextPut: $); yourself
%
category: 'private'
method: FxTool
setName: aName description: aDescription schema: aSchema handler: aBlock
  name := aName.
  description := aDescription.
  schema := aSchema.
  handler := aBlock.
  ^self
%
category: 'literals'
method: FxTool
literals
  "Every literal form the parser reads, in one place."
  | bytes nested brace |
  bytes := #[1 2 255].
  nested := #(1 #(2) (3 4) foo: $a 'x' #sym true nil #at:put: + -5 16r1F 1.5s2 2e10).
  brace := {$'. $ . 1.0e-3. -7. 36rZZ. thisContext. #'with space'. 3 -> 4}.
  ^(Array with: bytes with: nested with: brace) , (Array with: (3 @ 4) with: (1 ~= 2) with: (2 >= 1))
%
