set compile_env: 0
! ------------------- Class definition for McpResourceCatalog
expectvalue /Class
doit
Object subclass: 'McpResourceCatalog'
  instVarNames: #( server subscriptions)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpResourceCatalog comment: 
'Class and method source as MCP resources, read in this session''s view, and the subscriptions
that say when another session commits a change to them.

A class bound under its own name in a symbol dictionary of the user is
gemstone://<dictionary>/<Class> (the class as a topaz file-in, what export_class_source
answers), .../<Class>/definition (its definition message) and .../<Class>/<side>/<selector>
(side instance or class: one method). A character outside letters, digits and -._~:@!$&''()*+,;=
is percent-encoded. resources/list pages the classes (200 a page, the cursor an offset);
resources/templates/list names the three forms. A read licenses a later write as the browsing
tools'' reads do (the ledger of the server).

A subscription puts what the resource lives in into the session''s notify set (System
addAllToNotifySet:): the class, its metaclass, the method dictionary of each side where the
kernel answers one (persistentMethodDictForEnv: 0; a stone reports a compile there), and the
dictionary that binds it. resourceUpdates answers the subscribed URIs whose objects a commit
changed since it was last asked (System signaledObjects); the router asks between calls and
turns each into notifications/resources/updated. A session holds at most maxSubscriptions; they
end with it. It never moves the view.'
%
expectvalue /Class
doit
McpResourceCatalog category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpResourceCatalog
removeallmethods McpResourceCatalog
removeallclassmethods McpResourceCatalog
! ------------------- Class methods for McpResourceCatalog
category: 'instance creation'
classmethod: McpResourceCatalog
on: anMcpServer
  "The catalog of anMcpServer's session, with no subscriptions yet."
  ^self new setServer: anMcpServer
%
category: 'limits'
classmethod: McpResourceCatalog
maxSubscriptions
  "The most resources one session may subscribe to; one more is refused."
  ^32
%
category: 'limits'
classmethod: McpResourceCatalog
pageSize
  "The classes one resources/list page holds."
  ^200
%
category: 'uris'
classmethod: McpResourceCatalog
scheme
  "The scheme every resource URI starts with."
  ^'gemstone://'
%
category: 'uris'
classmethod: McpResourceCatalog
plainCharacters
  "The characters a URI path segment carries as they are; any other is percent-encoded."
  ^'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:@!$&''()*+,;='
%
category: 'uris'
classmethod: McpResourceCatalog
encode: aString
  "aString with every character outside plainCharacters percent-encoded (ASCII only: a name or
   selector of the image is ASCII)."
  | out hex |
  hex := '0123456789ABCDEF'.
  out := WriteStream on: String new.
  aString do: [:each |
    (self plainCharacters includes: each)
      ifTrue: [out nextPut: each]
      ifFalse: [
        out nextPut: $%;
          nextPut: (hex at: each codePoint // 16 + 1);
          nextPut: (hex at: each codePoint \\ 16 + 1)]].
  ^out contents
%
category: 'uris'
classmethod: McpResourceCatalog
decode: aString
  "aString with each %XX replaced by its character; nil when an escape is malformed."
  | out index digits |
  digits := '0123456789ABCDEF'.
  out := WriteStream on: String new.
  index := 1.
  [index <= aString size] whileTrue: [| each high low |
    each := aString at: index.
    each = $%
      ifTrue: [
        index + 2 > aString size ifTrue: [^nil].
        high := digits indexOf: (aString at: index + 1) asUppercase.
        low := digits indexOf: (aString at: index + 2) asUppercase.
        (high = 0 or: [low = 0]) ifTrue: [^nil].
        out nextPut: (Character codePoint: high - 1 * 16 + low - 1).
        index := index + 3]
      ifFalse: [
        out nextPut: each.
        index := index + 1]].
  ^out contents
%
category: 'uris'
classmethod: McpResourceCatalog
uriOfClass: aClass in: aDictionaryName
  "The URI of a class's source resource."
  ^self scheme , (self encode: aDictionaryName asString) , '/' , (self encode: aClass name asString)
%
! ------------------- Instance methods for McpResourceCatalog
category: 'initialization'
method: McpResourceCatalog
setServer: anMcpServer
  server := anMcpServer.
  subscriptions := Dictionary new
%
category: 'listing'
method: McpResourceCatalog
classBindings
  "Each class bound under its own name, as (dictionary name -> class), in symbol-list order and
   by class name within a dictionary."
  | out |
  out := OrderedCollection new.
  System myUserProfile symbolList do: [:dict | | names |
    dict name isNil ifFalse: [
      names := OrderedCollection new.
      dict keysAndValuesDo: [:key :value |
        (value isBehavior and: [value name asString = key asString]) ifTrue: [names add: key asString]].
      (names asSortedCollection: [:a :b | a <= b]) do: [:each |
        out add: dict name asString -> (dict at: each asSymbol)]]].
  ^out
%
category: 'listing'
method: McpResourceCatalog
list: params
  "The resources/list result for the page the cursor names; a bad cursor signals invalidParams."
  | bindings offset stop items result |
  bindings := self classBindings.
  offset := self offsetFromCursor: (params at: 'cursor' ifAbsent: [nil]).
  stop := (offset + self class pageSize) min: bindings size.
  items := OrderedCollection new.
  offset + 1 to: stop do: [:index | | binding |
    binding := bindings at: index.
    items add: (self resourceOf: binding value in: binding key)].
  result := Dictionary new at: 'resources' put: items asArray; yourself.
  stop < bindings size ifTrue: [result at: 'nextCursor' put: stop printString].
  ^result
%
category: 'listing'
method: McpResourceCatalog
offsetFromCursor: aCursorOrNil
  "Where the page a cursor names starts; a cursor this server did not give is invalidParams."
  | offset |
  aCursorOrNil isNil ifTrue: [^0].
  (aCursorOrNil isKindOf: CharacterCollection) ifFalse: [^self refuse: 'the cursor must be a string from nextCursor'].
  (aCursorOrNil notEmpty and: [(aCursorOrNil detect: [:each | each isDigit not] ifNone: [nil]) isNil]) ifFalse: [
    ^self refuse: 'the cursor ' , aCursorOrNil printString , ' was not given by this server'].
  offset := aCursorOrNil asNumber.
  ^offset
%
category: 'listing'
method: McpResourceCatalog
resourceOf: aClass in: aDictionaryName
  "The resources/list entry of one class."
  ^Dictionary new
    at: 'uri' put: (self class uriOfClass: aClass in: aDictionaryName);
    at: 'name' put: aClass name asString;
    at: 'title' put: aClass name asString , ' (' , aDictionaryName , ')';
    at: 'description' put: 'The class as a topaz file-in: definition, comment and every method.';
    at: 'mimeType' put: 'text/plain';
    yourself
%
category: 'listing'
method: McpResourceCatalog
templates
  "The resources/templates/list result: class source, class definition and method source."
  ^Dictionary new
    at: 'resourceTemplates' put: (Array
      with: (self template: '{dictionary}/{class}' name: 'class-source'
        description: 'A class as a topaz file-in: definition, comment and every method, in this session''s view.')
      with: (self template: '{dictionary}/{class}/definition' name: 'class-definition'
        description: 'The class-definition message of a class.')
      with: (self template: '{dictionary}/{class}/{side}/{selector}' name: 'method-source'
        description: 'The source of one method; side is instance or class, and a character outside -._~:@!$&''()*+,;= and letters and digits is percent-encoded.'));
    yourself
%
category: 'listing'
method: McpResourceCatalog
template: aPath name: aName description: aDescription
  "One resource template under this server's scheme."
  ^Dictionary new
    at: 'uriTemplate' put: self class scheme , aPath;
    at: 'name' put: aName;
    at: 'description' put: aDescription;
    at: 'mimeType' put: 'text/plain';
    yourself
%
category: 'reading'
method: McpResourceCatalog
read: params
  "The resources/read result: the text of the resource as this session's view has it."
  | uri target text |
  uri := self uriIn: params.
  target := self resolve: uri.
  text := self textOf: target.
  ^Dictionary new
    at: 'contents' put: (Array with: (Dictionary new
      at: 'uri' put: uri;
      at: 'mimeType' put: 'text/plain';
      at: 'text' put: text;
      yourself));
    yourself
%
category: 'reading'
method: McpResourceCatalog
textOf: aTarget
  "The text of a resolved resource; the read licenses a later write, as the browsing tools' do."
  | cls selector behavior |
  cls := aTarget at: 'class'.
  (aTarget at: 'form') = 'definition' ifTrue: [
    server ledger noteRead: (McpReadLedger classKeyFor: cls).
    ^cls definition asString].
  (aTarget at: 'form') = 'class' ifTrue: [
    server ledger noteRead: (McpReadLedger classKeyFor: cls).
    {cls. cls class} do: [:each |
      each selectors do: [:sel | server ledger noteRead: (McpReadLedger methodKeyFor: each selector: sel)]].
    ^cls fileOutClass asString].
  behavior := aTarget at: 'behavior'.
  selector := aTarget at: 'selector'.
  server ledger noteRead: (McpReadLedger methodKeyFor: behavior selector: selector).
  ^(behavior sourceCodeAt: selector) asString
%
category: 'reading'
method: McpResourceCatalog
uriIn: params
  "The uri of a resources request, which must be a string."
  | uri |
  uri := params at: 'uri' ifAbsent: [nil].
  (uri isKindOf: CharacterCollection) ifFalse: [^self refuse: 'params.uri must be a string'].
  ^uri
%
category: 'reading'
method: McpResourceCatalog
resolve: aUri
  "What aUri names: a Dictionary with form (class, definition or method), class, dictionary and,
   for a method, behavior and selector. A URI of another form, or naming nothing in this view,
   signals McpError kind resourceNotFound."
  | parts dict cls |
  (aUri size > self class scheme size
    and: [(aUri copyFrom: 1 to: self class scheme size) = self class scheme])
      ifFalse: [^self notFound: aUri because: 'not a ' , self class scheme , ' URI'].
  parts := (aUri copyFrom: self class scheme size + 1 to: aUri size) subStrings: '/'.
  parts := parts collect: [:each | (self class decode: each) ifNil: [^self notFound: aUri because: 'a malformed percent escape']].
  parts size < 2 ifTrue: [^self notFound: aUri because: 'a class URI is gemstone://<dictionary>/<Class>'].
  dict := System myUserProfile symbolList
    detect: [:each | each name notNil and: [each name asString = (parts at: 1)]] ifNone: [nil].
  dict isNil ifTrue: [^self notFound: aUri because: 'no dictionary ' , (parts at: 1) , ' in the symbol list'].
  cls := dict at: (parts at: 2) asSymbol ifAbsent: [nil].
  (cls notNil and: [cls isBehavior]) ifFalse: [
    ^self notFound: aUri because: 'no class ' , (parts at: 2) , ' in ' , (parts at: 1)].
  parts size = 2 ifTrue: [^self target: 'class' class: cls in: dict].
  (parts size = 3 and: [(parts at: 3) = 'definition']) ifTrue: [^self target: 'definition' class: cls in: dict].
  ^self resolveMethodOf: cls in: dict parts: parts uri: aUri
%
category: 'reading'
method: McpResourceCatalog
resolveMethodOf: aClass in: aDictionary parts: parts uri: aUri
  "The method a URI names after its class (instance or class, then the selector), or
   resourceNotFound saying what was wrong."
  | behavior selector |
  (parts size >= 4 and: [#('instance' 'class') includes: (parts at: 3)]) ifFalse: [
    ^self notFound: aUri because: 'after the class comes definition, or instance or class and a selector'].
  behavior := (parts at: 3) = 'class' ifTrue: [aClass class] ifFalse: [aClass].
  selector := (self joinedFrom: 4 of: parts) asSymbol.
  (behavior includesSelector: selector) ifFalse: [
    ^self notFound: aUri because: (McpReadLedger methodKeyFor: behavior selector: selector) , ' is not defined by the class'].
  ^(self target: 'method' class: aClass in: aDictionary)
    at: 'behavior' put: behavior;
    at: 'selector' put: selector;
    yourself
%
category: 'reading'
method: McpResourceCatalog
joinedFrom: anIndex of: parts
  "A selector such as / or // splits into empty parts; join them back."
  | out |
  out := WriteStream on: String new.
  anIndex to: parts size do: [:index |
    index > anIndex ifTrue: [out nextPut: $/].
    out nextPutAll: (parts at: index)].
  ^out contents
%
category: 'reading'
method: McpResourceCatalog
target: aForm class: aClass in: aDictionary
  "What a URI resolved to: its form (source, definition or method), the class and its dictionary."
  ^Dictionary new
    at: 'form' put: aForm;
    at: 'class' put: aClass;
    at: 'dictionary' put: aDictionary;
    yourself
%
category: 'errors'
method: McpResourceCatalog
notFound: aUri because: aReason
  "Signal resourceNotFound, answered -32002 with the uri in data."
  ^McpError
    signalKind: 'resourceNotFound'
    message: 'Resource not found: ' , aUri , ' (' , aReason , ')'
    details: (Dictionary new at: 'uri' put: aUri; yourself)
%
category: 'errors'
method: McpResourceCatalog
refuse: aMessage
  "Signal invalidParams, answered -32602."
  ^McpError signalKind: 'invalidParams' message: aMessage
%
category: 'subscriptions'
method: McpResourceCatalog
subscribe: params
  "Watch what the resource lives in; a URI already subscribed is subscribed once."
  | uri target watched |
  uri := self uriIn: params.
  target := self resolve: uri.
  ((subscriptions includesKey: uri) not and: [subscriptions size >= self class maxSubscriptions]) ifTrue: [
    ^self refuse: 'this session already holds ' , self class maxSubscriptions printString
      , ' resource subscriptions, the most it may; unsubscribe from one first'].
  watched := self watchedObjectsOf: target.
  System addAllToNotifySet: watched.
  subscriptions at: uri put: watched.
  ^Dictionary new
%
category: 'subscriptions'
method: McpResourceCatalog
unsubscribe: params
  "Forget the URI; its objects may stay in the notify set, and a change to them is then ignored."
  subscriptions removeKey: (self uriIn: params) ifAbsent: [nil].
  ^Dictionary new
%
category: 'subscriptions'
method: McpResourceCatalog
watchedObjectsOf: aTarget
  "The class, its metaclass, the method dictionary of each side where the kernel answers one, and
   the dictionary that binds the class."
  | cls out |
  cls := aTarget at: 'class'.
  out := OrderedCollection new.
  out add: cls; add: cls class; add: (aTarget at: 'dictionary').
  {cls. cls class} do: [:each | | methods |
    methods := [each persistentMethodDictForEnv: 0] on: Error do: [:ex | ex return: nil].
    methods isNil ifFalse: [out add: methods]].
  ^out asArray
%
category: 'subscriptions'
method: McpResourceCatalog
subscriptionCount
  ^subscriptions size
%
category: 'subscriptions'
method: McpResourceCatalog
resourceUpdates
  "The subscribed URIs whose watched objects a commit changed since the last time this was asked."
  | signaled updated |
  signaled := System signaledObjects.
  updated := OrderedCollection new.
  signaled isEmpty ifTrue: [^Dictionary new at: 'updated' put: #(); yourself].
  subscriptions keysAndValuesDo: [:uri :watched |
    (watched detect: [:each | (signaled detect: [:changed | changed == each] ifNone: [nil]) notNil] ifNone: [nil]) isNil
      ifFalse: [updated add: uri]].
  ^Dictionary new at: 'updated' put: updated asArray; yourself
%
