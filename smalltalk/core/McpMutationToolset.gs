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
  "Where a new method goes when nothing says better (categoryFor:in:)."
  ^'as yet unclassified'
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
  "add_dictionary: appended to the end of the symbol list, which licenses writes to it."
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
  self requireRead: (self classKey: aClass)
    readWith: #('get_class_definition' 'describe_class' 'export_class_source') about: aClass.
  aBoolean ifFalse: [self requireReadsOfMethodsOf: aClass by: 'compile_class_definition with recompileMethods: false' withClass: false].
  (aClass subclasses isEmpty not
    and: [aSuperclass ~~ aClass superclass
      or: [(self names: aNameArray equal: aClass instVarNames) not]]) ifTrue: [
    ^McpError signalKind: 'refused'
      message: aClass name asString , ' has subclasses ('
        , (self joined: (aClass subclasses collect: [:c | c name asString]) asSortedCollection)
        , '); changing its shape would leave them on the old version. Redefine the subclasses separately or keep the shape.'].
  ^aClass
%
category: 'tools'
method: McpMutationToolset
compileClassDefinition: args
  "compile_class_definition: a class defined or redefined from its named parts, refused without a
   prior read of an existing class, previewed when dryRun is true."
  | name existing superclass dict instVars pools recompile before newClass failure |
  name := self nonEmpty: 'className' in: args.
  existing := self existingClassNamed: name.
  recompile := self booleanArgument: 'recompileMethods' in: args default: true.
  superclass := self superclassFor: args existing: existing.
  dict := self targetDictionaryFor: args existing: existing.
  instVars := self symbolsArgument: 'instVarNames' in: args.
  pools := self poolDictionariesFrom: args.
  self checkNamesOf: name superclass: superclass instVarNames: instVars in: args.
  (self booleanArgument: 'dryRun' in: args default: false) ifTrue: [
    ^self dryRunOf: name existing: existing superclass: superclass instVarNames: instVars in: dict args: args].
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
    category: (self argument: 'category' in: args ifAbsent: [nil])
%
category: 'tools'
method: McpMutationToolset
compileMethod: args
  "compile_method: replacing a method needs a prior read of it; a compile error installs nothing
   and is signalled with its line."
  | meta target source sel existed key category warnings |
  meta := self booleanArgument: 'meta' in: args default: false.
  target := self resolveClass: (args at: 'className') meta: meta.
  source := self nonEmpty: 'source' in: args.
  sel := self selectorOfSource: source in: target.
  existed := target includesSelector: sel.
  key := self methodKey: target selector: sel.
  existed ifTrue: [self requireRead: key readWith: #('get_method_source' 'export_class_source') about: target].
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
  "An existing method keeps its category. A new one goes where its kind usually goes: a test of a
   TestCase subclass in tests, an initialize... method in initialization, printOn: in printing,
   the reader or writer of an instance variable in accessing, new... on the class side in instance
   creation; anything else in the default category."
  | name |
  (aBehavior includesSelector: aSelector)
    ifTrue: [^((aBehavior categoryOfSelector: aSelector) ifNil: [self class defaultMethodCategory]) asString].
  name := aSelector asString.
  ((self is: 'test' aPrefixOf: name) and: [(name includes: $:) not and: [self isTestCase: aBehavior]])
    ifTrue: [^'tests'].
  (name = 'initialize' or: [self is: 'initialize' aPrefixOf: name]) ifTrue: [^'initialization'].
  (name = 'printOn:' or: [name = 'displayString']) ifTrue: [^'printing'].
  (((aBehavior isMeta ifTrue: [aBehavior instVarNames] ifFalse: [aBehavior allInstVarNames])
      collect: [:each | each asString]) includes: (name copyWithout: $:))
    ifTrue: [^'accessing'].
  (aBehavior isMeta and: [name size >= 3 and: [(name copyFrom: 1 to: 3) = 'new']])
    ifTrue: [^'instance creation'].
  ^self class defaultMethodCategory
%
category: 'compiling'
method: McpMutationToolset
isTestCase: aBehavior
  "Whether aBehavior is a TestCase subclass; an image without SUnit has none."
  | testCase |
  testCase := System myUserProfile objectNamed: #TestCase.
  ^(testCase isKindOf: Behavior) and: [aBehavior inheritsFrom: testCase]
%
category: 'tools'
method: McpMutationToolset
deleteClass: args
  "Destroys the class and every method it has, so the client must have read all of them."
  | cls dicts referrers |
  cls := self resolveClass: (args at: 'className').
  dicts := self bindingsOf: cls.
  dicts isEmpty ifTrue: [
    ^McpError signalKind: 'refused'
      message: cls name asString , ' is not bound under its own name in any dictionary of the symbol list'].
  self requireRead: (self classKey: cls) readWith: #('export_class_source') about: cls.
  self requireReadsOfMethodsOf: cls by: 'delete_class' withClass: true.
  referrers := self referrersTo: cls.
  dicts do: [:dict | dict removeKey: cls name asSymbol].
  self noteWrite: (self classKey: cls) change: ((self change: 'classRemoved' ofClass: cls)
    at: 'dictionary' put: (self joined: (dicts collect: [:d | d name asString])); yourself).
  ^'Deleted class ' , cls name asString , ' from ' , (self joined: (dicts collect: [:d | d name asString]))
    , (cls subclasses isEmpty
      ifTrue: ['']
      ifFalse: ['; its subclasses remain: ' , (self joined: (cls subclasses collect: [:c | c name asString]))])
    , '. Not committed.'
    , (referrers isEmpty
      ifTrue: ['']
      ifFalse: [' ' , (self count: referrers size of: 'methods') , ' elsewhere still '
        , (referrers size = 1 ifTrue: ['refers'] ifFalse: ['refer']) , ' to it and will fail when run: '
        , (self listOf: referrers upTo: 10)])
%
category: 'class definition'
method: McpMutationToolset
referrersTo: aClass
  "Class>>selector of each method outside aClass that refers to it, sorted."
  | labels |
  labels := OrderedCollection new.
  (ClassOrganizer new referencesToObject: aClass) do: [:method |
    method inClass theNonMetaClass == aClass
      ifFalse: [labels add: (self label: method inClass selector: method selector)]].
  ^labels asSortedCollection asArray
%
category: 'tools'
method: McpMutationToolset
deleteMethod: args
  "delete_method: needs a prior read of the method."
  | meta target sel key |
  meta := self booleanArgument: 'meta' in: args default: false.
  target := self resolveClass: (args at: 'className') meta: meta.
  sel := (self nonEmpty: 'selector' in: args) asSymbol.
  (target includesSelector: sel) ifFalse: [
    ^McpError signalKind: 'notFound' message: (self label: target selector: sel) , ' is not defined by the class'].
  key := self methodKey: target selector: sel.
  self requireRead: key readWith: #('get_method_source' 'export_class_source') about: target.
  target removeSelector: sel.
  self noteWrite: key change: (self change: 'methodRemoved' ofMethod: sel in: target).
  ^'Deleted ' , (self label: target selector: sel) , '. Not committed.'
%
category: 'lookup'
method: McpMutationToolset
dictionaryOrNilNamed: aName
  "The dictionary of the symbol list called aName, or nil."
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
  "Foo>>bar or Foo class>>bar."
  ^(aBehavior isMeta
      ifTrue: [aBehavior theNonMetaClass name asString , ' class']
      ifFalse: [aBehavior name asString])
    , '>>' , aSelector asString
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
  "Whether two lists of names are the same names in the same order, Symbols and Strings alike."
  aNameArray size = anotherArray size ifFalse: [^false].
  1 to: aNameArray size do: [:i |
    (aNameArray at: i) asString = (anotherArray at: i) asString ifFalse: [^false]].
  ^true
%
category: 'private'
method: McpMutationToolset
nonEmpty: aName in: args
  "A required string argument that must not be empty (the schema checked that it is a string)."
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
   with its category and environment. Answers the failures, each {label. problem. source}."
  | failures |
  failures := OrderedCollection new.
  {anOldClass -> aNewClass. anOldClass class -> aNewClass class} do: [:pair |
    pair key selectors asSortedCollection do: [:sel | | source problem |
      source := pair key sourceCodeAt: sel.
      problem := nil.
      [[pair value
          compileMethod: source
          dictionaries: System myUserProfile symbolList
          category: ((pair key categoryOfSelector: sel) ifNil: [self class defaultMethodCategory])
          environmentId: (pair key compiledMethodAt: sel) environmentId]
        on: CompileWarning do: [:w | w resume]]
        on: CompileError do: [:ex |
          problem := self compileErrorSummaryOf: (self compileErrorReportFrom: ex source: source).
          ex return: nil].
      problem isNil ifFalse: [failures add: {self label: pair value selector: sel. problem. source asString}]]].
  ^failures
%
category: 'tools'
method: McpMutationToolset
removeDictionary: args
  "remove_dictionary: needs a prior list_dictionary_entries of it."
  | name dict up |
  name := self nonEmpty: 'dictionaryName' in: args.
  dict := self dictionaryNamed: name.
  self requireRead: (self dictionaryKey: dict name asString) readWith: #('list_dictionary_entries') about: nil.
  up := System myUserProfile.
  up removeDictionaryAt: (up symbolList indexOf: dict).
  self noteWrite: (self dictionaryKey: dict name asString) change: (self change: 'dictionaryRemoved' ofDictionary: name).
  ^'Removed dictionary ' , name , ' (' , dict size printString , ' entries) from the symbol list. Not committed.'
%
category: 'class definition'
method: McpMutationToolset
reportDefinitionOf: aClass replacing: anExistingOrNil before: aDefinitionOrNil recompile: aBoolean in: aDictionary category: aCategoryOrNil
  "The answer of compile_class_definition after the write, and its ledger entry: a new class, an
   unchanged one, a redefinition in place, or a new version with its methods recompiled or
   dropped."
  | unchanged recategorized |
  anExistingOrNil isNil ifTrue: [^self reportCreationOf: aClass in: aDictionary category: aCategoryOrNil].
  unchanged := aClass == anExistingOrNil and: [aClass definition asString = aDefinitionOrNil].
  aClass == anExistingOrNil ifFalse: [self carryCommentAndCategoryFrom: anExistingOrNil to: aClass].
  recategorized := self setCategory: aCategoryOrNil of: aClass.
  (unchanged and: [recategorized not]) ifTrue: [
    ^'The definition of ' , aClass name asString , ' is unchanged; nothing was written.'].
  self noteWrite: (self classKey: aClass) change: ((self change: 'classRedefined' ofClass: aClass)
    at: 'shapeChanged' put: aClass ~~ anExistingOrNil;
    at: 'version' put: aClass classHistory size;
    yourself).
  unchanged ifTrue: [
    ^'Set the category of ' , aClass name asString , ' to ' , aClass category asString
      , '; the definition is otherwise unchanged. Not committed.'].
  aClass == anExistingOrNil ifTrue: [
    ^'Modified ' , aClass name asString , ' in place (same class, no new version). Not committed.'].
  aBoolean ifFalse: [
    ^'Redefined ' , aClass name asString , ' as version ' , aClass classHistory size printString
      , ' of its class history, without its methods (recompileMethods: false). Not committed.'].
  ^self reportRecompilationFrom: anExistingOrNil into: aClass
%
category: 'class definition'
method: McpMutationToolset
reportCreationOf: aClass in: aDictionary category: aCategoryOrNil
  "A new class gets the category asked for, else the name of its dictionary, so that no class the
   tools make is left uncategorised."
  aClass category: (aCategoryOrNil ifNil: [aDictionary name asString]).
  self noteWrite: (self classKey: aClass) change: ((self change: 'classCreated' ofClass: aClass)
    at: 'dictionary' put: aDictionary name asString; yourself).
  ^'Created class ' , aClass name asString , ' (subclass of ' , aClass superclass name asString
    , ') in ' , aDictionary name asString , ', category ' , aClass category asString , '. Not committed.'
%
category: 'class definition'
method: McpMutationToolset
setCategory: aCategoryOrNil of: aClass
  "Whether aClass was given a category it did not have."
  aCategoryOrNil isNil ifTrue: [^false].
  (aClass category ifNil: ['']) asString = aCategoryOrNil asString ifTrue: [^false].
  aClass category: aCategoryOrNil.
  ^true
%
category: 'class definition'
method: McpMutationToolset
reportRecompilationFrom: anOldClass into: aNewClass
  "The new version, how many methods came over, and each one that did not, with why and its
   source, so that the client can fix it without another read."
  | failures total s |
  failures := self recompileMethodsFrom: anOldClass into: aNewClass.
  total := self methodCountOf: anOldClass.
  s := WriteStream on: String new.
  s nextPutAll: 'Redefined '; nextPutAll: aNewClass name asString; nextPutAll: ' as version ';
    print: aNewClass classHistory size; nextPutAll: ' of its class history; recompiled ';
    print: total - failures size; nextPutAll: ' of '; nextPutAll: (self count: total of: 'methods').
  failures isEmpty ifTrue: [s nextPutAll: '. Not committed.'. ^s contents].
  s nextPutAll: '; '; print: failures size; nextPutAll: ' failed to compile against the new shape and '
    , (failures size = 1 ifTrue: ['is'] ifFalse: ['are']) , ' missing from it:'.
  failures do: [:each |
    s lf; nextPutAll: '  '; nextPutAll: (each at: 1); nextPutAll: ' -- '; nextPutAll: (each at: 2); nextPutAll: '; its source was:'.
    self indent: (each at: 3) by: 4 on: s].
  s lf; nextPutAll: 'Not committed: fix them with compile_method, or abort to get the previous version back.'.
  ^self capResult: s contents
%
category: 'private'
method: McpMutationToolset
indent: aSource by: aCount on: aStream
  "Each line of aSource on a line of its own, indented."
  (aSource subStrings: (String with: Character lf)) do: [:line |
    aStream lf.
    aCount timesRepeat: [aStream space].
    aStream nextPutAll: line]
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
  "The methods of both sides."
  ^aClass selectors size + aClass class selectors size
%
category: 'guardrail'
method: McpMutationToolset
requireRead: aKey readWith: aToolNameArray about: aBehaviorOrNil
  "The guardrail, its refusal naming the reads that would license the write (also as
   details.readWith)."
  | refused |
  refused := false.
  [self requireRead: aKey] on: McpError do: [:ex |
    ex kind = 'refused' ifFalse: [ex pass].
    refused := true.
    ex return: nil].
  refused ifFalse: [^aKey].
  ^McpError
    signalKind: 'refused'
    message: 'refused: ' , aKey , ' has not been read in the current view of this session, or it changed since. Read it with '
      , (self readsNamed: aToolNameArray about: aBehaviorOrNil) , ', then retry.'
    details: (Dictionary new at: 'key' put: aKey; at: 'readWith' put: aToolNameArray; yourself)
%
category: 'guardrail'
method: McpMutationToolset
readsNamed: aToolNameArray about: aBehaviorOrNil
  "get_method_source or export_class_source (className: Foo)"
  ^(self joined: aToolNameArray with: ' or ')
    , (aBehaviorOrNil isNil
      ifTrue: ['']
      ifFalse: [' (className: ' , aBehaviorOrNil theNonMetaClass name asString , ')'])
%
category: 'guardrail'
method: McpMutationToolset
requireReadsOfMethodsOf: aClass by: aWrite withClass: aBoolean
  "A write that destroys every method needs a read of each; the refusal counts the unread ones
   and names the one read that licenses them all."
  | unread total |
  unread := OrderedCollection new.
  total := 0.
  {aClass. aClass class} do: [:behavior |
    behavior selectors asSortedCollection do: [:sel | | key |
      key := self methodKey: behavior selector: sel.
      total := total + 1.
      (self server ledger isReadLicensed: key) ifFalse: [unread add: key]]].
  unread isEmpty ifTrue: [^aClass].
  ^McpError
    signalKind: 'refused'
    message: 'refused: ' , aWrite , ' destroys ' , (aBoolean
        ifTrue: [aClass name asString , ' and its ' , (self count: total of: 'methods')]
        ifFalse: ['the ' , (self count: total of: 'methods') , ' of ' , aClass name asString])
      , ', and ' , unread size printString , ' of them ('
      , (self listOf: unread upTo: 6) , ') have not been read in the current view of this session, or changed since. export_class_source (className: '
      , aClass name asString , ') reads the class and every method; then retry.'
    details: (Dictionary new
      at: 'key' put: unread first;
      at: 'unread' put: unread asArray;
      at: 'readWith' put: #('export_class_source');
      yourself)
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
  (cls comment ifNil: ['']) isEmpty ifFalse: [
    self requireRead: key readWith: #('describe_class' 'export_class_source') about: cls].
  cls comment: (args at: 'comment').
  self noteWrite: key change: (self change: 'commentSet' ofClass: cls).
  ^'Set the comment of ' , cls name asString , ' (' , (args at: 'comment') size printString
    , ' characters). Not committed.'
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
category: 'dry run'
method: McpMutationToolset
dryRunOf: aName existing: anExistingOrNil superclass: aSuperclass instVarNames: anArray in: aDictionary args: args
  "What compile_class_definition would do, found without writing anything: the refusal it would
   meet, the class it would create, or whether a redefinition changes the shape and which methods
   would then fail to compile, predicted from the names each method uses."
  | refusal classInstVars |
  anExistingOrNil isNil ifTrue: [
    ^'Dry run: would create class ' , aName , ' (subclass of ' , aSuperclass name asString , ') in '
      , aDictionary name asString , ', category '
      , (self argument: 'category' in: args ifAbsent: [aDictionary name asString]) , '. Nothing was written.'].
  refusal := [self checkHomeOf: anExistingOrNil is: aDictionary.
    self checkRedefinitionOf: anExistingOrNil superclass: aSuperclass instVarNames: anArray
      recompile: (self booleanArgument: 'recompileMethods' in: args default: true).
    nil]
    on: McpError do: [:ex | ex kind = 'refused' ifFalse: [ex pass]. ex return: ex safeText].
  refusal isNil ifFalse: [^'Dry run: compile_class_definition would be refused: ' , refusal , ' Nothing was written.'].
  classInstVars := self symbolsArgument: 'classInstVars' in: args.
  ((aSuperclass == anExistingOrNil superclass)
    and: [(self names: anArray equal: anExistingOrNil instVarNames)
      and: [self names: classInstVars equal: anExistingOrNil class instVarNames]])
    ifTrue: [^'Dry run: the shape of ' , aName , ' (superclass, instance and class-side instance variables) would not change: no new version, no method recompiled or dropped. Nothing was written.'].
  ^self dryRunShapeChangeOf: anExistingOrNil
    allInstVarNames: (aSuperclass allInstVarNames , anArray) classInstVars: classInstVars args: args
%
category: 'dry run'
method: McpMutationToolset
dryRunShapeChangeOf: aClass allInstVarNames: anArray classInstVars: aClassInstVarArray args: args
  "What a shape change would do, writing nothing: the new version and which methods would come
   over, and which would be missing with their source."
  | fates doomed s |
  fates := OrderedCollection new.
  (self booleanArgument: 'recompileMethods' in: args default: true)
    ifTrue: [fates addAll: (self predictedFailuresOf: aClass allInstVarNames: anArray
      classVars: (self symbolsArgument: 'classVars' in: args) classInstVars: aClassInstVarArray)]
    ifFalse: [{aClass. aClass class} do: [:behavior | behavior selectors asSortedCollection do: [:sel |
      fates add: {self label: behavior selector: sel. 'recompileMethods: false drops every method'. (behavior sourceCodeAt: sel) asString}]]].
  doomed := fates size.
  s := WriteStream on: String new.
  s nextPutAll: 'Dry run: redefining '; nextPutAll: aClass name asString;
    nextPutAll: ' changes its shape and would make version '; print: aClass classHistory size + 1;
    nextPutAll: ' of its class history; '; print: (self methodCountOf: aClass) - doomed; nextPutAll: ' of ';
    nextPutAll: (self count: (self methodCountOf: aClass) of: 'methods'); nextPutAll: ' would come over'.
  doomed = 0 ifTrue: [s nextPutAll: '. Nothing was written.'. ^s contents].
  s nextPutAll: '; '; print: doomed; nextPutAll: ' would be missing from it (predicted from the names each uses):'.
  fates do: [:each |
    s lf; nextPutAll: '  '; nextPutAll: (each at: 1); nextPutAll: ' -- '; nextPutAll: (each at: 2); nextPutAll: '; its source:'.
    self indent: (each at: 3) by: 4 on: s].
  s lf; nextPutAll: 'Nothing was written.'.
  ^self capResult: s contents
%
category: 'dry run'
method: McpMutationToolset
predictedFailuresOf: aClass allInstVarNames: anArray classVars: aClassVarArray classInstVars: aClassInstVarArray
  "{label. reason. source} for each method that names a variable the new shape drops (read from
   the method's instVarsRead and instVarsWritten, and for a class variable from its source), or a
   name the new shape adds as a variable (a temporary so named would clash)."
  | fates |
  fates := OrderedCollection new.
  {aClass -> {aClass allInstVarNames. anArray}. aClass class -> {aClass class instVarNames. aClassInstVarArray}}
    do: [:pair | | before after dropped added |
    before := (pair value at: 1) collect: [:each | each asString].
    after := (pair value at: 2) collect: [:each | each asString].
    dropped := (before reject: [:each | after includes: each])
      , ((aClass classVarNames collect: [:each | each asString])
        reject: [:each | (aClassVarArray collect: [:n | n asString]) includes: each]).
    added := after reject: [:each | before includes: each].
    pair key selectors asSortedCollection do: [:sel | | source reason |
      source := (pair key sourceCodeAt: sel) asString.
      reason := self reasonWhy: (pair key compiledMethodAt: sel) source: source fails: dropped clashes: added.
      reason isNil ifFalse: [fates add: {self label: pair key selector: sel. reason. source}]]].
  ^fates
%
category: 'dry run'
method: McpMutationToolset
reasonWhy: aMethod source: aSource fails: aDroppedArray clashes: anAddedArray
  "Why aMethod would not compile against the new shape, or nil when nothing it names changes."
  | used words |
  used := ((aMethod instVarsRead , aMethod instVarsWritten) collect: [:each | each asString]) asSet.
  words := self identifiersIn: aSource.
  aDroppedArray do: [:each |
    ((used includes: each) or: [words includes: each]) ifTrue: [^'it uses ' , each , ', which the new shape drops']].
  anAddedArray do: [:each |
    (words includes: each) ifTrue: [^'it names ' , each , ', which the new shape adds as a variable']].
  ^nil
%
category: 'dry run'
method: McpMutationToolset
identifiersIn: aSource
  "Every run of letters, digits and underscores in aSource that starts with a letter or _."
  | words current |
  words := Set new.
  current := WriteStream on: String new.
  aSource do: [:each |
    (each isLetter or: [each = $_ or: [each isDigit and: [current contents notEmpty]]])
      ifTrue: [current nextPut: each]
      ifFalse: [
        current contents isEmpty ifFalse: [words add: current contents].
        current := WriteStream on: String new]].
  current contents isEmpty ifFalse: [words add: current contents].
  ^words
%
category: 'registration'
method: McpMutationToolset
classNameProperty
  "The className argument of the tools on a class."
  ^self stringProperty: 'className' description: 'Name of a class, resolved through the session''s symbol list'
%
category: 'registration'
method: McpMutationToolset
dictionaryNameProperty
  "The dictionaryName argument of the tools on a dictionary."
  ^self stringProperty: 'dictionaryName' description: 'Name of a symbol dictionary'
%
category: 'registration'
method: McpMutationToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each."
  self declareAddDictionaryOn: aRegistry.
  self declareRemoveDictionaryOn: aRegistry.
  self declareCompileClassDefinitionOn: aRegistry.
  self declareDeleteClassOn: aRegistry.
  self declareSetClassCommentOn: aRegistry.
  self declareCompileMethodOn: aRegistry.
  self declareDeleteMethodOn: aRegistry
%
category: 'declarations'
method: McpMutationToolset
declareAddDictionaryOn: aRegistry
  aRegistry add: ((McpTool
    name: 'add_dictionary'
    description: 'Create a symbol dictionary and append it to the end of the session user''s symbol list. Not committed: abort removes it again.'
    schema: (self schemaProperties: {self dictionaryNameProperty} required: #('dictionaryName'))
    handler: [:args | self addDictionary: args])
      title: 'Add a symbol dictionary';
      hintsReadOnly: false destructive: false idempotent: false openWorld: false;
      yourself)
%
category: 'declarations'
method: McpMutationToolset
declareRemoveDictionaryOn: aRegistry
  aRegistry add: ((McpTool
    name: 'remove_dictionary'
    description: 'Remove a symbol dictionary from the session user''s symbol list, with every binding in it. Destructive; needs a prior list_dictionary_entries. Not committed: abort puts it back.'
    schema: (self schemaProperties: {self dictionaryNameProperty} required: #('dictionaryName'))
    handler: [:args | self removeDictionary: args])
      title: 'Remove a symbol dictionary';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpMutationToolset
declareCompileClassDefinitionOn: aRegistry
  aRegistry add: ((McpTool
    name: 'compile_class_definition'
    description: 'Define a class, or redefine one, from named parts; the server builds the definition itself and evaluates nothing (use execute_code to run code). Parts left out are empty, except the superclass and dictionary, which a redefinition keeps. On a shape change the class''s methods are recompiled onto the new version by default and any that fail are reported with their source; a shape change of a class with subclasses is refused. dryRun: true previews all of this without writing. Redefining needs a prior get_class_definition, describe_class or export_class_source (export_class_source when recompileMethods is false, which drops every method). Not committed.'
    schema: (self schemaProperties: {
        self stringProperty: 'className' description: 'Name of the class to define or redefine'.
        self stringProperty: 'superclassName' description: 'Superclass (default: the current one, or Object for a new class)'.
        self stringArrayProperty: 'instVarNames' description: 'Instance variable names'.
        self stringArrayProperty: 'classVars' description: 'Class variable names'.
        self stringArrayProperty: 'classInstVars' description: 'Class-side instance variable names'.
        self stringArrayProperty: 'poolDictionaries' description: 'Names of pool dictionaries in the symbol list'.
        self stringProperty: 'dictionary' description: 'Dictionary to bind the class in (default: where it lives now, else UserGlobals)'.
        self stringArrayProperty: 'options' description: 'Class options, e.g. subclassesDisallowed'.
        self booleanProperty: 'recompileMethods' description: 'After a shape change, recompile the methods onto the new version (default true); false drops them'.
        self stringProperty: 'category' description: 'Class category (default: the current one, or the dictionary''s name for a new class)'.
        self booleanProperty: 'dryRun' description: 'true to write nothing and answer what the call would do: the refusal it would meet, or for a shape change which methods would come over and which would be dropped, with their source' }
      required: #('className'))
    handler: [:args | self compileClassDefinition: args])
      title: 'Define or redefine a class';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpMutationToolset
declareDeleteClassOn: aRegistry
  aRegistry add: ((McpTool
    name: 'delete_class'
    description: 'Remove a class from the dictionaries that bind it, with all its methods; the answer names the methods elsewhere that still refer to it. Destructive; needs a prior export_class_source. Not committed: abort brings it back.'
    schema: (self schemaProperties: {self classNameProperty} required: #('className'))
    handler: [:args | self deleteClass: args])
      title: 'Delete a class';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpMutationToolset
declareSetClassCommentOn: aRegistry
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
      yourself)
%
category: 'declarations'
method: McpMutationToolset
declareCompileMethodOn: aRegistry
  aRegistry add: ((McpTool
    name: 'compile_method'
    description: 'Compile a method (add it, or replace it) from its full source, selector line first. Replacing an existing method needs a prior get_method_source or export_class_source. A compile error installs nothing and comes back as kind compileError with the line and the compiler''s text. Usable at once in this session; not committed.'
    schema: (self schemaProperties: {
        self classNameProperty.
        self stringProperty: 'source' description: 'The whole method source, starting with the selector pattern'.
        self stringProperty: 'category' description: 'Method category (default: the existing method''s; for a new one tests, initialization, printing, accessing or instance creation by its kind, else as yet unclassified)'.
        self booleanProperty: 'meta' description: 'true to compile on the class side (default false)' }
      required: #('className' 'source'))
    handler: [:args | self compileMethod: args])
      title: 'Compile a method';
      hintsReadOnly: false destructive: true idempotent: true openWorld: false;
      yourself)
%
category: 'declarations'
method: McpMutationToolset
declareDeleteMethodOn: aRegistry
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
      yourself)
%
