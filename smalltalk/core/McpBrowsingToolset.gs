set compile_env: 0
! ------------------- Class definition for McpBrowsingToolset
expectvalue /Class
doit
McpToolset subclass: 'McpBrowsingToolset'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpBrowsingToolset comment: 
'The class-browsing tools: describe a class, export it as a topaz file-in, read its definition,
walk its hierarchy, read one method, list its selectors by category.

These are the reads the blind-write guardrail counts. A tool that shows a subject''s current
contents notes a read of it (get_method_source: that method; get_class_definition and
describe_class: the class; export_class_source: the class and every method it showed). A tool that
shows only names (get_class_hierarchy, list_methods) notes nothing, because a name is not the
content a later write would replace.

Must never change the image or the transaction: every handler only reads.'
%
expectvalue /Class
doit
McpBrowsingToolset category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpBrowsingToolset
removeallmethods McpBrowsingToolset
removeallclassmethods McpBrowsingToolset
! ------------------- Class methods for McpBrowsingToolset
! ------------------- Instance methods for McpBrowsingToolset
category: 'private'
method: McpBrowsingToolset
categoryReportFor: aBehavior label: aLabel on: aStream
  "aBehavior's selectors grouped by category, categories and selectors sorted."
  | byCategory |
  byCategory := Dictionary new.
  aBehavior selectors do: [:sel | | cat |
    cat := (aBehavior categoryOfSelector: sel) ifNil: ['(uncategorized)'].
    (byCategory at: cat asString ifAbsentPut: [OrderedCollection new]) add: sel asString].
  aStream nextPutAll: aLabel; nextPutAll: ' ('; nextPutAll: (self count: aBehavior selectors size of: 'methods'); nextPutAll: ')'; lf.
  byCategory keys asSortedCollection do: [:cat |
    aStream nextPutAll: '  '; nextPutAll: cat; lf.
    (byCategory at: cat) asSortedCollection do: [:sel |
      aStream nextPutAll: '    '; nextPutAll: sel; lf]]
%
category: 'tools'
method: McpBrowsingToolset
describeClass: args
  "One line a part; a category or comment the class does not have is left out, and an inherited
   instance variable is named with the superclass that declares it."
  | cls s |
  cls := self resolveClass: (args at: 'className').
  s := WriteStream on: String new.
  s nextPutAll: 'class: '; nextPutAll: cls name asString; lf.
  s nextPutAll: 'superclass: '; nextPutAll: (self nameOrNil: cls superclass); lf.
  (cls category ifNil: ['']) asString isEmpty ifFalse: [
    s nextPutAll: 'category: '; nextPutAll: cls category asString; lf].
  s nextPutAll: 'instance variables: '; nextPutAll: (self joined: cls instVarNames); lf.
  cls superclass isNil ifFalse: [
    cls superclass allInstVarNames isEmpty ifFalse: [
      s nextPutAll: 'inherited instance variables: '; nextPutAll: (self inheritedInstVarsOf: cls); lf]].
  s nextPutAll: 'class variables: '; nextPutAll: (self joined: cls classVarNames asSortedCollection); lf.
  s nextPutAll: 'class-side instance variables: '; nextPutAll: (self joined: cls class instVarNames); lf.
  s nextPutAll: 'instance selectors: '; nextPutAll: (self joined: cls selectors asSortedCollection); lf.
  s nextPutAll: 'class selectors: '; nextPutAll: (self joined: cls class selectors asSortedCollection).
  (cls comment ifNil: ['']) asString isEmpty
    ifTrue: [s lf; nextPutAll: 'comment: (none)']
    ifFalse: [s lf; nextPutAll: 'comment:'; lf; nextPutAll: cls comment asString].
  self noteRead: (self classKey: cls).
  ^self capResult: s contents
%
category: 'private'
method: McpBrowsingToolset
inheritedInstVarsOf: aClass
  "The instance variables aClass inherits, root first, each as name (Declarer)."
  | chain each parts |
  chain := OrderedCollection new.
  each := aClass superclass.
  [each isNil] whileFalse: [chain addFirst: each. each := each superclass].
  parts := OrderedCollection new.
  chain do: [:each |
    each instVarNames do: [:name | parts add: name asString , ' (' , each name asString , ')']].
  ^self joined: parts
%
category: 'tools'
method: McpBrowsingToolset
exportClassSource: args
  "A file-out shows the definition, the comment and every method, so it licenses a write to any of
   them -- but only if the client saw all of it, so a capped answer notes the class alone."
  | cls source answer |
  cls := self resolveClass: (args at: 'className').
  source := cls fileOutClass asString.
  answer := self capResult: source.
  self noteRead: (self classKey: cls).
  answer size = source size ifTrue: [self noteReadsOfMethodsOf: cls].
  ^answer
%
category: 'tools'
method: McpBrowsingToolset
getClassDefinition: args
  "get_class_definition; the read licenses compile_class_definition."
  | cls |
  cls := self resolveClass: (args at: 'className').
  self noteRead: (self classKey: cls).
  ^cls definition asString
%
category: 'tools'
method: McpBrowsingToolset
getClassHierarchy: args
  "Root first, each superclass indented one step further, then the direct subclasses."
  | cls chain each s subs |
  cls := self resolveClass: (args at: 'className').
  chain := OrderedCollection new.
  each := cls.
  [each notNil] whileTrue: [chain addFirst: each. each := each superclass].
  s := WriteStream on: String new.
  1 to: chain size do: [:i |
    (i - 1) * 2 timesRepeat: [s space].
    s nextPutAll: (chain at: i) name asString; lf].
  subs := (cls subclasses collect: [:c | c name asString]) asSortedCollection.
  s nextPutAll: 'direct subclasses ('; print: subs size; nextPutAll: '):'.
  subs do: [:n | s lf; nextPutAll: '  '; nextPutAll: n].
  ^s contents
%
category: 'tools'
method: McpBrowsingToolset
getMethodSource: args
  "get_method_source; the read licenses compile_method and delete_method for that method."
  | meta target sel |
  meta := self booleanArgument: 'meta' in: args default: false.
  target := self resolveClass: (args at: 'className') meta: meta.
  sel := self selectorFrom: (args at: 'selector').
  (target includesSelector: sel) ifFalse: [^self signalMissingSelector: sel in: target].
  self noteRead: (self methodKey: target selector: sel).
  ^self capResult: (target sourceCodeAt: sel) asString
%
category: 'private'
method: McpBrowsingToolset
joined: aCollection
  "The names separated by single spaces; (none) when empty."
  aCollection isEmpty ifTrue: [^'(none)'].
  ^self joined: aCollection with: ' '
%
category: 'tools'
method: McpBrowsingToolset
listMethods: args
  "list_methods: both sides, grouped by category; reads nothing into the ledger."
  | cls s |
  cls := self resolveClass: (args at: 'className').
  s := WriteStream on: String new.
  self categoryReportFor: cls label: cls name asString , ' (instance side)' on: s.
  self categoryReportFor: cls class label: cls name asString , ' class (class side)' on: s.
  ^self capResult: s contents
%
category: 'private'
method: McpBrowsingToolset
nameOrNil: aClassOrNil
  "A class name for the hierarchy text; nil for the superclass of a root."
  ^aClassOrNil isNil ifTrue: ['nil'] ifFalse: [aClassOrNil name asString]
%
category: 'private'
method: McpBrowsingToolset
noteReadsOfMethodsOf: aClass
  "An export read every method of both sides: each is licensed."
  {aClass. aClass class} do: [:behavior |
    behavior selectors do: [:sel |
      self noteRead: (self methodKey: behavior selector: sel)]]
%
category: 'registration'
method: McpBrowsingToolset
classNameProperty
  "The className argument of every tool here."
  ^self stringProperty: 'className' description: 'Name of a class, resolved through the session''s symbol list'
%
category: 'registration'
method: McpBrowsingToolset
classOnlySchema
  "The schema of a tool whose one argument is the class."
  ^self schemaProperties: {self classNameProperty} required: #('className')
%
category: 'registration'
method: McpBrowsingToolset
registerOn: aRegistry
  "Declare the tools of this toolset on aRegistry, one declaration method each."
  self declareDescribeClassOn: aRegistry.
  self declareExportClassSourceOn: aRegistry.
  self declareGetClassDefinitionOn: aRegistry.
  self declareGetClassHierarchyOn: aRegistry.
  self declareGetMethodSourceOn: aRegistry.
  self declareListMethodsOn: aRegistry
%
category: 'declarations'
method: McpBrowsingToolset
declareDescribeClassOn: aRegistry
  aRegistry add: ((McpTool
    name: 'describe_class'
    description: 'A class at a glance: superclass, category, instance variables (both sides), instance and class selectors, and the class comment. Licenses set_class_comment and compile_class_definition.'
    schema: self classOnlySchema
    handler: [:args | self describeClass: args])
      title: 'Describe a class';
      readOnly;
      yourself)
%
category: 'declarations'
method: McpBrowsingToolset
declareExportClassSourceOn: aRegistry
  aRegistry add: ((McpTool
    name: 'export_class_source'
    description: 'The class as a topaz file-in: definition, comment, category and every method on both sides. Licenses any write to the class, including delete_class.'
    schema: self classOnlySchema
    handler: [:args | self exportClassSource: args])
      title: 'Export the source of a class';
      readOnly;
      yourself)
%
category: 'declarations'
method: McpBrowsingToolset
declareGetClassDefinitionOn: aRegistry
  aRegistry add: ((McpTool
    name: 'get_class_definition'
    description: 'The class-definition message (superclass subclass: ... inDictionary: ... options: ...) as source. Licenses compile_class_definition.'
    schema: self classOnlySchema
    handler: [:args | self getClassDefinition: args])
      title: 'Get a class definition';
      readOnly;
      yourself)
%
category: 'declarations'
method: McpBrowsingToolset
declareGetClassHierarchyOn: aRegistry
  aRegistry add: ((McpTool
    name: 'get_class_hierarchy'
    description: 'The superclass chain from the root down to the class, then its direct subclasses, sorted.'
    schema: self classOnlySchema
    handler: [:args | self getClassHierarchy: args])
      title: 'Get a class hierarchy';
      readOnly;
      yourself)
%
category: 'declarations'
method: McpBrowsingToolset
declareGetMethodSourceOn: aRegistry
  aRegistry add: ((McpTool
    name: 'get_method_source'
    description: 'The source of one method the class itself defines (meta: true for the class side). Licenses compile_method and delete_method for that method.'
    schema: (self schemaProperties: {
        self classNameProperty.
        self stringProperty: 'selector' description: 'The selector, e.g. printOn: or +'.
        self booleanProperty: 'meta' description: 'true for the class-side method (default false)' }
      required: #('className' 'selector'))
    handler: [:args | self getMethodSource: args])
      title: 'Get the source of a method';
      readOnly;
      yourself)
%
category: 'declarations'
method: McpBrowsingToolset
declareListMethodsOn: aRegistry
  aRegistry add: ((McpTool
    name: 'list_methods'
    description: 'The selectors the class defines on the instance side and on the class side, grouped by category, sorted.'
    schema: self classOnlySchema
    handler: [:args | self listMethods: args])
      title: 'List the methods of a class';
      readOnly;
      yourself)
%
