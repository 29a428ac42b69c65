set compile_env: 0
! ------------------- Class definition for McpMutationToolset
expectvalue /Class
doit
McpToolset subclass: 'McpMutationToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpMutationToolset comment: 
'The tools that change the image: add or remove a symbol dictionary, define or redefine a class,
compile or delete a method, delete a class, set a class comment.

None of them commits, aborts or refreshes. A change lives in this session''s transaction until the
client calls commit, and abort undoes every one of them -- a method, a class binding, a
shape-changing redefinition with its recompiled methods, a dictionary added to or removed from the
symbol list -- because each is an ordinary write to persistent objects.

Every handler passes the blind-write guardrail: requireRead: before replacing or destroying
something that exists (the client must have read it in this view, and nobody may have committed a
change to it since), noteWrite: after the write succeeded. Creating something that does not exist
yet needs no read. A refused call changes nothing.

compile_class_definition builds the definition message from named parts and never evaluates
source, so it cannot run arbitrary code. No class is off limits here: what a session may change is
decided by the stone for its GemStone user.'
%
expectvalue /Class
doit
McpMutationToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpMutationToolset
removeallmethods McpMutationToolset
removeallclassmethods McpMutationToolset
! ------------------- Class methods for McpMutationToolset
category: 'accessing'
classmethod: McpMutationToolset
classOptions
  "The class options GemStone's subclass creation takes (GemTalk/Rowan, the 3.6x kernel-extension
   copy of Class>>_subclass:...options:; logCreation: feenkcom/gt4gemstone)."
  ^#(#noInheritOptions #subclassesDisallowed #disallowGciStore #modifiable #traverseByCallback
    #dbTransient #instancesNonPersistent #instancesInvariant #logCreation)
%
category: 'accessing'
classmethod: McpMutationToolset
defaultMethodCategory
  ^'mcp'
%
category: 'accessing'
classmethod: McpMutationToolset
pseudoVariables
  "Names the compiler reserves; a variable so named could never be read."
  ^#('self' 'super' 'true' 'false' 'nil' 'thisContext')
%
! ------------------- Instance methods for McpMutationToolset
category: 'tools'
method: McpMutationToolset
addDictionary: args
  | name up dict |
  name := self nonEmpty: 'dictionaryName' in: args.
  (self dictionaryOrNilNamed: name) isNil ifFalse: [
    ^McpError signalKind: 'refused' message: 'a dictionary named ' , name , ' is already in the symbol list'].
  up := System myUserProfile.
  dict := SymbolDictionary new name: name asSymbol; yourself.
  up insertDictionary: dict at: up symbolList size + 1.
  self noteWrite: (self dictionaryKey: name) change: (self change: 'dictionaryAdded' ofDictionary: name).
  ^'Added dictionary ' , name , ' at the end of the symbol list (position '
    , up symbolList size printString , '). Not committed.'
%
category: 'class definition'
method: McpMutationToolset
bindingsOf: aClass
  "The dictionaries of the symbol list that bind aClass under its own name."
  | key |
  key := aClass name asSymbol.
  ^System myUserProfile symbolList asArray select: [:dict |
    (dict at: key ifAbsent: [nil]) == aClass]
%
category: 'class definition'
method: McpMutationToolset
checkHomeOf: aClass is: aDictionary
  "A redefinition happens where the class lives; defining the name in another dictionary would
   make a second class that shadows or is shadowed by the first."
  ((self bindingsOf: aClass) detect: [:each | each == aDictionary] ifNone: [nil]) isNil ifTrue: [
    ^McpError signalKind: 'refused'
      message: aClass name asString , ' already lives in '
        , (self joined: ((self bindingsOf: aClass) collect: [:d | d name asString]))
        , '; redefine it there, or delete it before defining the name in ' , aDictionary name asString].
  ^aClass
%
category: 'class definition'
method: McpMutationToolset
checkNamesOf: aName superclass: aSuperclass instVarNames: anInstVarArray in: args
  "Refuses, before anything is written, a definition a stone refuses: a class name or variable
   name that is no identifier, a name declared twice, an instance variable the superclass already
   has (on both sides: GemStone's rtErrAddDupInstvar), a pseudo-variable as a variable, an
   unknown class option."
  (self isIdentifier: aName) ifFalse: [
    ^McpError signalKind: 'invalidParams'
      message: aName printString , ' is not a valid class name: a class name is a letter or _ followed by letters, digits or _'].
  self checkVariables: anInstVarArray kind: 'instVarNames' inherited: aSuperclass allInstVarNames.
  self checkVariables: (self symbolsArgument: 'classVars' in: args) kind: 'classVars' inherited: #().
  self checkVariables: (self symbolsArgument: 'classInstVars' in: args)
    kind: 'classInstVars' inherited: aSuperclass class allInstVarNames.
  self checkOptions: (self symbolsArgument: 'options' in: args)
%
category: 'class definition'
method: McpMutationToolset
checkOptions: aSymbolArray
  "The options a stone's subclass creation documents; at most one of the storage options, and
   noInheritOptions only first (GemTalk/Rowan, the kernel's Class subclass-creation comments)."
  | storage |
  aSymbolArray do: [:each |
    (self class classOptions includes: each) ifFalse: [
      ^McpError signalKind: 'invalidParams'
        message: 'options: ' , each asString printString , ' is not a class option; the options are '
          , (self joined: (self class classOptions collect: [:o | o asString]) with: ', ')]].
  storage := aSymbolArray select: [:each | #(#dbTransient #instancesNonPersistent #instancesInvariant) includes: each].
  storage size > 1 ifTrue: [
    ^McpError signalKind: 'invalidParams'
      message: 'options: at most one of dbTransient, instancesNonPersistent and instancesInvariant'].
  ((aSymbolArray indexOf: #noInheritOptions) > 1) ifTrue: [
    ^McpError signalKind: 'invalidParams' message: 'options: noInheritOptions must come first'].
  ^aSymbolArray
%
category: 'class definition'
method: McpMutationToolset
checkVariables: aSymbolArray kind: aKind inherited: anInheritedArray
  "Each name an identifier other than a pseudo-variable, none declared twice, none the superclass
   already has."
  | seen |
  seen := Set new.
  aSymbolArray do: [:each |
    ((self isIdentifier: each) and: [(self class pseudoVariables includes: each asString) not]) ifFalse: [
      ^McpError signalKind: 'invalidParams' message: aKind , ': ' , each asString printString , ' is not a valid variable name'].
    (seen includes: each asString) ifTrue: [
      ^McpError signalKind: 'invalidParams' message: aKind , ': ' , each asString printString , ' is declared twice'].
    seen add: each asString.
    ((anInheritedArray collect: [:n | n asString]) includes: each asString) ifTrue: [
      ^McpError signalKind: 'invalidParams'
        message: aKind , ': ' , each asString printString , ' is already declared by a superclass']].
  ^aSymbolArray
%
category: 'class definition'
method: McpMutationToolset
checkRedefinitionOf: aClass superclass: aSuperclass instVarNames: aNameArray recompile: aBoolean
  "Refuses, before anything is written, a redefinition the client has not licensed, and a shape
   change of a class with subclasses (they would keep the old version as their superclass)."
  self requireRead: (self classKey: aClass).
  aBoolean ifFalse: [self requireReadsOfMethodsOf: aClass].
  (aClass subclasses isEmpty not
    and: [aSuperclass ~~ aClass superclass
      or: [(self names: aNameArray equal: aClass instVarNames) not]]) ifTrue: [
    ^McpError signalKind: 'refused'
      message: aClass name asString , ' has subclasses ('
        , (self joined: (aClass subclasses collect: [:c | c name asString]) asSortedCollection)
        , '); changing its shape would leave them on the old version. Redefine the subclasses separately or keep the shape.'].
  ^aClass
%
category: 'compiling'
method: McpMutationToolset
compileErrorReportFrom: aCompileError source: aString
  "A Dictionary: the line of the first error, the compiler's description, and one entry per error
   (number, offset, line, text). Reading the descriptors never raises: a part that cannot be read
   is left out."
  | report errors |
  errors := OrderedCollection new.
  ([aCompileError errorDetails] on: Error do: [:e | e return: #()]) do: [:each |
    errors add: (self describeCompileErrorDescriptor: each source: aString)].
  report := Dictionary new.
  report at: 'errors' put: errors asArray.
  report at: 'line' put: (errors isEmpty ifTrue: [nil] ifFalse: [errors first at: 'line' ifAbsent: [nil]]).
  report at: 'compiler' put: (self describe: aCompileError).
  ^report
%
category: 'tools'
method: McpMutationToolset
compileClassDefinition: args
  | name existing superclass dict instVars pools recompile before newClass failure |
  name := self nonEmpty: 'className' in: args.
  existing := self existingClassNamed: name.
  recompile := self booleanArgument: 'recompileMethods' in: args default: true.
  superclass := self superclassFor: args existing: existing.
  dict := self targetDictionaryFor: args existing: existing.
  instVars := self symbolsArgument: 'instVarNames' in: args.
  pools := self poolDictionariesFrom: args.
  self checkNamesOf: name superclass: superclass instVarNames: instVars in: args.
  existing isNil ifFalse: [
    self checkHomeOf: existing is: dict.
    self checkRedefinitionOf: existing superclass: superclass instVarNames: instVars recompile: recompile].
  before := existing isNil ifTrue: [nil] ifFalse: [existing definition asString].
  newClass := [superclass
      subclass: name
      instVarNames: instVars
      classVars: (self symbolsArgument: 'classVars' in: args)
      classInstVars: (self symbolsArgument: 'classInstVars' in: args)
      poolDictionaries: pools
      inDictionary: dict
      options: (self symbolsArgument: 'options' in: args)]
    on: Error do: [:ex | failure := self describe: ex. ex return: nil].
  failure isNil ifFalse: [
    ^McpError signalKind: 'other' message: 'the class definition of ' , name , ' was refused: ' , failure].
  ^self reportDefinitionOf: newClass replacing: existing before: before recompile: recompile in: dict
%
category: 'tools'
method: McpMutationToolset
compileMethod: args
  | meta target source sel existed key category warnings |
  meta := self booleanArgument: 'meta' in: args default: false.
  target := self resolveClass: (args at: 'className') meta: meta.
  source := self nonEmpty: 'source' in: args.
  sel := self selectorOfSource: source in: target.
  existed := target includesSelector: sel.
  key := self methodKey: target selector: sel.
  existed ifTrue: [self requireRead: key].
  category := self argument: 'category' in: args ifAbsent: [self categoryFor: sel in: target].
  warnings := self install: source in: target category: category.
  self noteWrite: key change: ((self change: (existed ifTrue: ['methodChanged'] ifFalse: ['methodAdded']) ofMethod: sel in: target)
    at: 'category' put: category asString; yourself).
  ^(existed ifTrue: ['Recompiled '] ifFalse: ['Compiled new method ']) , (self label: target selector: sel)
    , ' in category ' , category asString , '. Not committed.'
    , (warnings isEmpty ifTrue: [''] ifFalse: [' Warnings: ' , (self joined: warnings)])
%
category: 'compiling'
method: McpMutationToolset
categoryFor: aSelector in: aBehavior
  "An existing method keeps its category; a new one goes in the default category."
  (aBehavior includesSelector: aSelector) ifFalse: [^self class defaultMethodCategory].
  ^((aBehavior categoryOfSelector: aSelector) ifNil: [self class defaultMethodCategory]) asString
%
category: 'tools'
method: McpMutationToolset
deleteClass: args
  "Destroys the class and every method it has, so the client must have read all of them."
  | cls dicts |
  cls := self resolveClass: (args at: 'className').
  dicts := self bindingsOf: cls.
  dicts isEmpty ifTrue: [
    ^McpError signalKind: 'refused'
      message: cls name asString , ' is not bound under its own name in any dictionary of the symbol list'].
  self requireRead: (self classKey: cls).
  self requireReadsOfMethodsOf: cls.
  dicts do: [:dict | dict removeKey: cls name asSymbol].
  self noteWrite: (self classKey: cls) change: ((self change: 'classRemoved' ofClass: cls)
    at: 'dictionary' put: (self joined: (dicts collect: [:d | d name asString])); yourself).
  ^'Deleted class ' , cls name asString , ' from ' , (self joined: (dicts collect: [:d | d name asString]))
    , (cls subclasses isEmpty
      ifTrue: ['']
      ifFalse: ['; its subclasses remain: ' , (self joined: (cls subclasses collect: [:c | c name asString]))])
    , '. Not committed.'
%
category: 'tools'
method: McpMutationToolset
deleteMethod: args
  | meta target sel key |
  meta := self booleanArgument: 'meta' in: args default: false.
  target := self resolveClass: (args at: 'className') meta: meta.
  sel := (self nonEmpty: 'selector' in: args) asSymbol.
  (target includesSelector: sel) ifFalse: [
    ^McpError signalKind: 'notFound' message: (self label: target selector: sel) , ' is not defined by the class'].
  key := self methodKey: target selector: sel.
  self requireRead: key.
  target removeSelector: sel.
  self noteWrite: key change: (self change: 'methodRemoved' ofMethod: sel in: target).
  ^'Deleted ' , (self label: target selector: sel) , '. Not committed.'
%
category: 'compiling'
method: McpMutationToolset
describe: anException
  "The exception's own description, which unlike messageText is never nil."
  ^[anException description asString]
    on: Error do: [:e | e return: (anException messageText ifNil: [anException class name asString]) asString]
%
category: 'compiling'
method: McpMutationToolset
describeCompileErrorDescriptor: aDescriptor source: aString
  "One kernel error descriptor (error number first, source offset second) as JSON-safe fields."
  | entry number offset text |
  entry := Dictionary new.
  number := self element: 1 of: aDescriptor.
  offset := self element: 2 of: aDescriptor.
  text := self element: 3 of: aDescriptor.
  (number isKindOf: Integer) ifTrue: [entry at: 'number' put: number].
  (offset isKindOf: Integer) ifTrue: [
    entry at: 'offset' put: offset.
    entry at: 'line' put: (self lineOf: offset in: aString)].
  (text isKindOf: CharacterCollection) ifTrue: [entry at: 'text' put: text asString].
  ^entry
%
category: 'compiling'
method: McpMutationToolset
element: anIndex of: aDescriptor
  "The element at anIndex of an error descriptor, or nil when it has none there."
  ^[((aDescriptor isKindOf: SequenceableCollection) and: [aDescriptor size >= anIndex])
      ifTrue: [aDescriptor at: anIndex]
      ifFalse: [nil]]
    on: Error do: [:e | e return: nil]
%
category: 'lookup'
method: McpMutationToolset
dictionaryOrNilNamed: aName
  ^[self dictionaryNamed: aName] on: McpError do: [:e | e return: nil]
%
category: 'lookup'
method: McpMutationToolset
existingClassNamed: aName
  "The class aName resolves to in the symbol list, or nil when nothing, or no class, is bound."
  | found |
  found := System myUserProfile objectNamed: aName asSymbol.
  ^(found isKindOf: Behavior) ifTrue: [found] ifFalse: [nil]
%
category: 'compiling'
method: McpMutationToolset
install: aSource in: aBehavior category: aCategory
  "Compiles aSource into aBehavior. Answers the warnings; a compile error is signalled as kind
   compileError and installs nothing."
  | warnings report |
  warnings := OrderedCollection new.
  [[aBehavior
      compileMethod: aSource
      dictionaries: System myUserProfile symbolList
      category: aCategory
      environmentId: 0]
    on: CompileWarning do: [:w | warnings add: (self describe: w). w resume]]
    on: CompileError do: [:ex | report := self compileErrorReportFrom: ex source: aSource. ex return: nil].
  report isNil ifFalse: [self signalCompileError: report].
  ^warnings asArray
%
category: 'private'
method: McpMutationToolset
joined: aCollection
  "The names separated by commas; (none) when empty."
  aCollection isEmpty ifTrue: [^'(none)'].
  ^self joined: aCollection with: ', '
%
category: 'private'
method: McpMutationToolset
label: aBehavior selector: aSelector
  ^(aBehavior isMeta
      ifTrue: [aBehavior theNonMetaClass name asString , ' class']
      ifFalse: [aBehavior name asString])
    , '>>' , aSelector asString
%
category: 'compiling'
method: McpMutationToolset
lineOf: anOffset in: aString
  "The 1-based line of aString holding the character at anOffset."
  | line |
  line := 1.
  1 to: ((anOffset - 1) min: aString size) do: [:i |
    (aString at: i) == Character lf ifTrue: [line := line + 1]].
  ^line
%
category: 'class definition'
method: McpMutationToolset
isIdentifier: aString
  "A letter or _ followed by letters, digits or _."
  | s |
  s := aString asString.
  s isEmpty ifTrue: [^false].
  (s first isLetter or: [s first = $_]) ifFalse: [^false].
  ^(s detect: [:c | (c isAlphaNumeric or: [c = $_]) not] ifNone: [nil]) isNil
%
category: 'class definition'
method: McpMutationToolset
names: aNameArray equal: anotherArray
  aNameArray size = anotherArray size ifFalse: [^false].
  1 to: aNameArray size do: [:i |
    (aNameArray at: i) asString = (anotherArray at: i) asString ifFalse: [^false]].
  ^true
%
category: 'private'
method: McpMutationToolset
nonEmpty: aName in: args
  | value |
  value := args at: aName.
  value isEmpty ifTrue: [^McpError signalKind: 'invalidParams' message: aName , ' must not be empty'].
  ^value
%
category: 'class definition'
method: McpMutationToolset
poolDictionariesFrom: args
  "The named pool dictionaries; one that does not resolve is notFound, never silently dropped."
  ^(self argument: 'poolDictionaries' in: args ifAbsent: [#()]) asArray
    collect: [:each | self dictionaryNamed: each]
%
category: 'class definition'
method: McpMutationToolset
recompileMethodsFrom: anOldClass into: aNewClass
  "Carries every method of the previous version, as the current view has it, onto the new version
   with its category and environment. Answers the failures as label -> compiler text."
  | failures |
  failures := OrderedCollection new.
  {anOldClass -> aNewClass. anOldClass class -> aNewClass class} do: [:pair |
    pair key selectors asSortedCollection do: [:sel | | problem |
      problem := nil.
      [[pair value
          compileMethod: (pair key sourceCodeAt: sel)
          dictionaries: System myUserProfile symbolList
          category: ((pair key categoryOfSelector: sel) ifNil: [self class defaultMethodCategory])
          environmentId: (pair key compiledMethodAt: sel) environmentId]
        on: CompileWarning do: [:w | w resume]]
        on: CompileError do: [:ex | problem := self describe: ex. ex return: nil].
      problem isNil ifFalse: [failures add: (self label: pair value selector: sel) -> problem]]].
  ^failures
%
category: 'tools'
method: McpMutationToolset
removeDictionary: args
  | name dict up |
  name := self nonEmpty: 'dictionaryName' in: args.
  dict := self dictionaryNamed: name.
  self requireRead: (self dictionaryKey: dict name asString).
  up := System myUserProfile.
  up removeDictionaryAt: (up symbolList indexOf: dict).
  self noteWrite: (self dictionaryKey: dict name asString) change: (self change: 'dictionaryRemoved' ofDictionary: name).
  ^'Removed dictionary ' , name , ' (' , dict size printString , ' entries) from the symbol list. Not committed.'
%
category: 'class definition'
method: McpMutationToolset
reportDefinitionOf: aClass replacing: anExistingOrNil before: aDefinitionOrNil recompile: aBoolean in: aDictionary
  | failures s |
  anExistingOrNil isNil ifTrue: [
    self noteWrite: (self classKey: aClass) change: ((self change: 'classCreated' ofClass: aClass)
      at: 'dictionary' put: aDictionary name asString; yourself).
    ^'Created class ' , aClass name asString , ' (subclass of ' , aClass superclass name asString
      , ') in ' , aDictionary name asString , '. Not committed.'].
  (aClass == anExistingOrNil and: [aClass definition asString = aDefinitionOrNil]) ifTrue: [
    ^'The definition of ' , aClass name asString , ' is unchanged; nothing was written.'].
  self noteWrite: (self classKey: aClass) change: ((self change: 'classRedefined' ofClass: aClass)
    at: 'shapeChanged' put: aClass ~~ anExistingOrNil;
    at: 'version' put: aClass classHistory size;
    yourself).
  aClass == anExistingOrNil ifTrue: [
    ^'Modified ' , aClass name asString , ' in place (same class, no new version). Not committed.'].
  self carryCommentAndCategoryFrom: anExistingOrNil to: aClass.
  aBoolean ifFalse: [
    ^'Redefined ' , aClass name asString , ' as version ' , aClass classHistory size printString
      , ' of its class history, without its methods (recompileMethods: false). Not committed.'].
  failures := self recompileMethodsFrom: anExistingOrNil into: aClass.
  s := WriteStream on: String new.
  s nextPutAll: 'Redefined '; nextPutAll: aClass name asString; nextPutAll: ' as version ';
    print: aClass classHistory size; nextPutAll: ' of its class history; recompiled ';
    print: (self methodCountOf: anExistingOrNil) - failures size; nextPutAll: ' of ';
    print: (self methodCountOf: anExistingOrNil); nextPutAll: ' methods'.
  failures isEmpty ifTrue: [s nextPutAll: '. Not committed.'. ^s contents].
  s nextPutAll: '; '; print: failures size; nextPutAll: ' failed to compile against the new shape and are missing from it:'.
  failures do: [:each | s lf; nextPutAll: '  '; nextPutAll: each key; nextPutAll: ': '; nextPutAll: each value].
  s lf; nextPutAll: 'Not committed: fix them with compile_method, or abort to get the previous version back.'.
  ^s contents
%
category: 'class definition'
method: McpMutationToolset
carryCommentAndCategoryFrom: anOldClass to: aNewClass
  "A new version the kernel made without the comment or category of the previous one gets them."
  ((aNewClass comment ifNil: ['']) isEmpty and: [(anOldClass comment ifNil: ['']) isEmpty not])
    ifTrue: [aNewClass comment: anOldClass comment].
  ((aNewClass category ifNil: ['']) isEmpty and: [(anOldClass category ifNil: ['']) isEmpty not])
    ifTrue: [aNewClass category: anOldClass category]
%
category: 'class definition'
method: McpMutationToolset
methodCountOf: aClass
  ^aClass selectors size + aClass class selectors size
%
category: 'guardrail'
method: McpMutationToolset
requireReadsOfMethodsOf: aClass
  {aClass. aClass class} do: [:behavior |
    behavior selectors do: [:sel | self requireRead: (self methodKey: behavior selector: sel)]]
%
category: 'compiling'
method: McpMutationToolset
selectorOfSource: aSource in: aBehavior
  "The selector aSource defines, found by compiling it into a throwaway method dictionary: the
   class is untouched and nothing is written. A compile error is signalled as kind compileError."
  | method report |
  [[method := aBehavior
      compileMethod: aSource
      dictionaries: System myUserProfile symbolList
      category: #mcpProbe
      intoMethodDict: GsMethodDictionary new
      intoCategories: nil
      environmentId: 0]
    on: CompileWarning do: [:w | w resume]]
    on: CompileError do: [:ex | report := self compileErrorReportFrom: ex source: aSource. ex return: nil].
  report isNil ifFalse: [self signalCompileError: report].
  ^method selector
%
category: 'tools'
method: McpMutationToolset
setClassComment: args
  "A class with no comment yet has nothing to overwrite, so it needs no prior read."
  | cls key |
  cls := self resolveClass: (args at: 'className').
  key := self classKey: cls.
  (cls comment ifNil: ['']) isEmpty ifFalse: [self requireRead: key].
  cls comment: (args at: 'comment').
  self noteWrite: key change: (self change: 'commentSet' ofClass: cls).
  ^'Set the comment of ' , cls name asString , ' (' , (args at: 'comment') size printString
    , ' characters). Not committed.'
%
category: 'compiling'
method: McpMutationToolset
signalCompileError: aReport
  | line |
  line := aReport at: 'line' ifAbsent: [nil].
  ^McpError
    signalKind: 'compileError'
    message: 'compile error' , (line isNil ifTrue: [''] ifFalse: [' at line ' , line printString])
      , ': ' , (aReport at: 'compiler')
    details: aReport
%
category: 'class definition'
method: McpMutationToolset
superclassFor: args existing: anExistingOrNil
  "The named superclass; absent, a redefinition keeps its superclass and a new class gets Object."
  | name |
  name := self argument: 'superclassName' in: args ifAbsent: [nil].
  name isNil ifFalse: [^self resolveClass: name].
  ^anExistingOrNil isNil ifTrue: [Object] ifFalse: [anExistingOrNil superclass]
%
category: 'class definition'
method: McpMutationToolset
symbolsArgument: aName in: args
  "An optional array-of-strings argument as an Array of Symbols, empty when absent."
  ^(self argument: aName in: args ifAbsent: [#()]) asArray collect: [:each | each asString asSymbol]
%
category: 'class definition'
method: McpMutationToolset
targetDictionaryFor: args existing: anExistingOrNil
  "The named dictionary; absent, where the class already lives, else UserGlobals."
  | name dicts |
  name := self argument: 'dictionary' in: args ifAbsent: [nil].
  name isNil ifFalse: [^self dictionaryNamed: name].
  anExistingOrNil isNil ifFalse: [
    dicts := self bindingsOf: anExistingOrNil.
    dicts isEmpty ifFalse: [^dicts first]].
  ^self dictionaryNamed: 'UserGlobals'
%
category: 'registration'
method: McpMutationToolset
classNameProperty
  ^self stringProperty: 'className' description: 'Name of a class, resolved through the session''s symbol list'
%
category: 'registration'
method: McpMutationToolset
dictionaryNameProperty
  ^self stringProperty: 'dictionaryName' description: 'Name of a symbol dictionary'
%
category: 'registration'
method: McpMutationToolset
registerOn: aRegistry
  aRegistry add: ((McpTool
    name: 'add_dictionary'
    description: 'Create a symbol dictionary and append it to the end of the session user''s symbol list. Not committed: abort removes it again.'
    schema: (self schemaProperties: {self dictionaryNameProperty} required: #('dictionaryName'))
    handler: [:args | self addDictionary: args])
      title: 'Add a symbol dictionary';
      hintsReadOnly: false destructive: false idempotent: false openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'remove_dictionary'
    description: 'Remove a symbol dictionary from the session user''s symbol list, with every binding in it. Destructive; needs a prior list_dictionary_entries. Not committed: abort puts it back.'
    schema: (self schemaProperties: {self dictionaryNameProperty} required: #('dictionaryName'))
    handler: [:args | self removeDictionary: args])
      title: 'Remove a symbol dictionary';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'compile_class_definition'
    description: 'Define a class, or redefine one, from named parts; the server builds the definition itself and evaluates nothing (use execute_code to run code). Parts left out are empty, except the superclass and dictionary, which a redefinition keeps. On a shape change the class''s methods are recompiled onto the new version by default and any that fail are reported; a shape change of a class with subclasses is refused. Redefining needs a prior get_class_definition, describe_class or export_class_source (export_class_source when recompileMethods is false, which drops every method). Not committed.'
    schema: (self schemaProperties: {
        self stringProperty: 'className' description: 'Name of the class to define or redefine'.
        self stringProperty: 'superclassName' description: 'Superclass (default: the current one, or Object for a new class)'.
        self stringArrayProperty: 'instVarNames' description: 'Instance variable names'.
        self stringArrayProperty: 'classVars' description: 'Class variable names'.
        self stringArrayProperty: 'classInstVars' description: 'Class-side instance variable names'.
        self stringArrayProperty: 'poolDictionaries' description: 'Names of pool dictionaries in the symbol list'.
        self stringProperty: 'dictionary' description: 'Dictionary to bind the class in (default: where it lives now, else UserGlobals)'.
        self stringArrayProperty: 'options' description: 'Class options, e.g. subclassesDisallowed'.
        self booleanProperty: 'recompileMethods' description: 'After a shape change, recompile the methods onto the new version (default true); false drops them' }
      required: #('className'))
    handler: [:args | self compileClassDefinition: args])
      title: 'Define or redefine a class';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'delete_class'
    description: 'Remove a class from the dictionaries that bind it, with all its methods. Destructive; needs a prior export_class_source. Not committed: abort brings it back.'
    schema: (self schemaProperties: {self classNameProperty} required: #('className'))
    handler: [:args | self deleteClass: args])
      title: 'Delete a class';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'set_class_comment'
    description: 'Replace the class comment. Replacing a non-empty comment needs a prior describe_class or export_class_source. Not committed.'
    schema: (self schemaProperties: {
        self classNameProperty.
        self stringProperty: 'comment' description: 'The new comment text' }
      required: #('className' 'comment'))
    handler: [:args | self setClassComment: args])
      title: 'Set a class comment';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'compile_method'
    description: 'Compile a method (add it, or replace it) from its full source, selector line first. Replacing an existing method needs a prior get_method_source or export_class_source. A compile error installs nothing and comes back as kind compileError with the line and the compiler''s text. Usable at once in this session; not committed.'
    schema: (self schemaProperties: {
        self classNameProperty.
        self stringProperty: 'source' description: 'The whole method source, starting with the selector pattern'.
        self stringProperty: 'category' description: 'Method category (default: the existing method''s, else mcp)'.
        self booleanProperty: 'meta' description: 'true to compile on the class side (default false)' }
      required: #('className' 'source'))
    handler: [:args | self compileMethod: args])
      title: 'Compile a method';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  aRegistry add: ((McpTool
    name: 'delete_method'
    description: 'Remove a method the class defines (meta: true for the class side). Destructive; needs a prior get_method_source. Not committed.'
    schema: (self schemaProperties: {
        self classNameProperty.
        self stringProperty: 'selector' description: 'Selector of the method to remove'.
        self booleanProperty: 'meta' description: 'true for the class-side method (default false)' }
      required: #('className' 'selector'))
    handler: [:args | self deleteMethod: args])
      title: 'Delete a method';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself).
  ^self
%
