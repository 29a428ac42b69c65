set compile_env: 0
! ------------------- Class definition for McpPrepareConfig
expectvalue /Class
doit
Object subclass: 'McpPrepareConfig'
  instVarNames: #( workerClass protocolVersions resultCap
                    configuredName configuredVersion configuredTitle configuredInstructions
                    frontEnd lifetime toolsetNames toolsetClasses toolsetOptions grant cacheName)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpPrepareConfig comment: 
'The prepare config of one session, checked: what mcpPrepare: was given (docs/worker-contract.md),
refused with one of the contract''s prepare kinds (an McpError of kind contractVersion,
workerClassNotFound, toolsetNotFound, badOption or badConfig) when anything in it is wrong, else
kept as the values the worker runs with: the protocol versions, the result cap, the identity
(each configured value over the worker class''s default), the front end and lifetime it reports, the
toolsets of the surface resolved to their classes with their options, the grant as given, and the
name for the gem.

It reads the config and nothing else: McpServer registers the toolsets and applies the grant. A
server built without a config (the unit tests) gets the defaults of its worker class.'
%
expectvalue /Class
doit
McpPrepareConfig category: 'Mcp-Core'
%
! ------------------- Remove existing behavior from McpPrepareConfig
removeallmethods McpPrepareConfig
removeallclassmethods McpPrepareConfig
! ------------------- Class methods for McpPrepareConfig
category: 'instance creation'
classmethod: McpPrepareConfig
from: aConfig for: aWorkerClass
  "The checked form of a parsed prepare config for aWorkerClass; signals McpError with a prepare
   kind."
  ^self basicNew setWorkerClass: aWorkerClass; readFrom: aConfig; yourself
%
category: 'instance creation'
classmethod: McpPrepareConfig
defaultFor: aWorkerClass toolsetNames: anArrayOfNames
  "The defaults of aWorkerClass serving these toolsets with no options, as a server built without
   a prepare config has; signals toolsetNotFound for a name that is no toolset."
  ^self basicNew setWorkerClass: aWorkerClass; useToolsets: anArrayOfNames options: Dictionary new; yourself
%
category: 'limits'
classmethod: McpPrepareConfig
contractVersion
  "The version of the worker contract this worker speaks."
  ^1
%
category: 'limits'
classmethod: McpPrepareConfig
maxInstructionsSize
  "The longest instructions text a prepare accepts, in characters."
  ^32768
%
category: 'limits'
classmethod: McpPrepareConfig
maxCacheNameSize
  "The longest gem name the shared cache accepts."
  ^31
%
category: 'gem name'
classmethod: McpPrepareConfig
cacheNameFrom: aString
  "aString cut to the 31 characters the shared cache accepts, keeping the last two colon
   fields (the router id and the session head) whole and cutting the class name; nil when
   there is nothing to apply."
  | max tail |
  (aString isNil or: [aString isEmpty]) ifTrue: [^nil].
  max := self maxCacheNameSize.
  aString size <= max ifTrue: [^aString].
  tail := self lastTwoFieldsOf: aString.
  tail size >= max ifTrue: [^aString copyFrom: aString size - max + 1 to: aString size].
  ^(aString copyFrom: 1 to: max - tail size) , tail
%
category: 'gem name'
classmethod: McpPrepareConfig
lastTwoFieldsOf: aString
  "The text from the second-last colon to the end, or empty when there are fewer than two."
  | colons |
  colons := 0.
  aString size to: 1 by: -1 do: [:index |
    (aString at: index) = $: ifTrue: [
      colons := colons + 1.
      colons = 2 ifTrue: [^aString copyFrom: index to: aString size]]].
  ^String new
%
! ------------------- Instance methods for McpPrepareConfig
category: 'initialization'
method: McpPrepareConfig
setWorkerClass: aWorkerClass
  "Start from the defaults of aWorkerClass: its protocol versions and result cap, no toolsets."
  workerClass := aWorkerClass.
  protocolVersions := aWorkerClass defaultProtocolVersions.
  resultCap := aWorkerClass defaultResultCap.
  toolsetNames := #().
  toolsetClasses := #().
  toolsetOptions := Dictionary new
%
category: 'reading'
method: McpPrepareConfig
readFrom: aConfig
  "Check aConfig member by member, in the order the contract's failures are decided, and keep
   what it sets; the first wrong member signals McpError with its prepare kind."
  (aConfig isKindOf: Dictionary) ifFalse: [^self refuse: 'badConfig' because: 'the prepare config is not a JSON object'].
  self checkContractIn: aConfig.
  self checkWorkerClassIn: aConfig.
  protocolVersions := self protocolVersionsIn: aConfig.
  self readIdentityIn: aConfig.
  resultCap := self resultCapIn: aConfig.
  frontEnd := aConfig at: 'frontEnd' ifAbsent: [nil].
  lifetime := aConfig at: 'lifetime' ifAbsent: [nil].
  self useToolsets: (self toolsetNamesIn: aConfig) options: (self toolsetOptionsIn: aConfig).
  grant := aConfig at: 'grant' ifAbsent: [nil].
  cacheName := aConfig at: 'cacheName' ifAbsent: [nil]
%
category: 'reading'
method: McpPrepareConfig
readIdentityIn: aConfig
  "The configured identity; a member left out keeps the worker class's default."
  configuredName := self optionalString: 'serverName' in: aConfig.
  configuredVersion := self optionalString: 'serverVersion' in: aConfig.
  configuredTitle := self optionalString: 'serverTitle' in: aConfig.
  configuredInstructions := self optionalString: 'instructions' in: aConfig.
  (configuredName notNil and: [configuredName isEmpty]) ifTrue: [
    ^self refuse: 'badConfig' because: 'serverName must not be empty'].
  (configuredInstructions notNil and: [configuredInstructions size > self class maxInstructionsSize])
    ifTrue: [^self refuse: 'badConfig' because: 'instructions exceed '
      , self class maxInstructionsSize printString , ' characters']
%
category: 'reading'
method: McpPrepareConfig
checkContractIn: aConfig
  "The config must name the one contract version this worker speaks."
  | version |
  version := aConfig at: 'contract' ifAbsent: [nil].
  version isNil ifTrue: [^self refuse: 'contractVersion' because: 'the prepare config has no contract version'].
  version = self class contractVersion ifFalse: [
    ^self refuse: 'contractVersion' because: 'this worker speaks contract version '
      , self class contractVersion printString , ', not ' , version printString]
%
category: 'reading'
method: McpPrepareConfig
checkWorkerClassIn: aConfig
  "The config must name the class being prepared: the router and the worker agree on it."
  | named |
  named := aConfig at: 'workerClass' ifAbsent: [nil].
  ((named isKindOf: CharacterCollection) and: [named isEmpty not]) ifFalse: [
    ^self refuse: 'badConfig' because: 'workerClass is missing'].
  named asString = workerClass name asString ifFalse: [
    ^self refuse: 'workerClassNotFound'
      because: 'workerClass ' , named , ' is not the class being prepared (' , workerClass name , ')']
%
category: 'reading'
method: McpPrepareConfig
optionalString: aKey in: aConfig
  "The string at aKey, or nil when absent; anything but a string is refused."
  | value |
  value := aConfig at: aKey ifAbsent: [^nil].
  value isNil ifTrue: [^nil].
  (value isKindOf: CharacterCollection) ifFalse: [
    ^self refuse: 'badConfig' because: aKey , ' must be a string'].
  ^value
%
category: 'reading'
method: McpPrepareConfig
protocolVersionsIn: aConfig
  "The protocol versions the router serves, newest first; at least one, each a non-empty string."
  | versions |
  versions := aConfig at: 'protocolVersions' ifAbsent: [nil].
  ((McpJson isArray: versions) and: [versions isEmpty not]) ifFalse: [
    ^self refuse: 'badConfig' because: 'protocolVersions is missing or empty'].
  versions do: [:each |
    ((each isKindOf: CharacterCollection) and: [each isEmpty not]) ifFalse: [
      ^self refuse: 'badConfig' because: 'protocolVersions holds an empty or non-string version']].
  ^versions asArray
%
category: 'reading'
method: McpPrepareConfig
resultCapIn: aConfig
  "0 means no cap, as in the stand-in worker; absent means the default."
  | cap |
  cap := aConfig at: 'resultCap' ifAbsent: [nil].
  cap isNil ifTrue: [^workerClass defaultResultCap].
  ((cap isKindOf: Integer) and: [cap >= 0]) ifFalse: [
    ^self refuse: 'badConfig' because: 'resultCap must be a non-negative integer'].
  ^cap
%
category: 'reading'
method: McpPrepareConfig
toolsetNamesIn: aConfig
  "The toolsets of the surface as named; absent means the worker class's default surface."
  | names |
  names := aConfig at: 'toolsets' ifAbsent: [nil].
  names isNil ifTrue: [^workerClass defaultToolsetNames].
  (McpJson isArray: names) ifFalse: [^self refuse: 'badConfig' because: 'toolsets must be an array of class names'].
  ^names asArray
%
category: 'reading'
method: McpPrepareConfig
toolsetOptionsIn: aConfig
  "The options of each toolset, keyed by toolset name; absent means none."
  | options |
  options := aConfig at: 'toolsetOptions' ifAbsent: [nil].
  options isNil ifTrue: [^Dictionary new].
  (options isKindOf: Dictionary) ifFalse: [
    ^self refuse: 'badConfig' because: 'toolsetOptions must be an object keyed by toolset name'].
  ^options
%
category: 'reading'
method: McpPrepareConfig
useToolsets: anArrayOfNames options: anOptionsDictionary
  "Options only for toolsets of the surface, and each name resolved to its class."
  anOptionsDictionary keysAndValuesDo: [:name :value |
    (anArrayOfNames includes: name) ifFalse: [
      ^self refuse: 'toolsetNotFound' because: 'options given for ' , name , ', which is not in the tool surface']].
  toolsetClasses := anArrayOfNames collect: [:each | self toolsetClassNamed: each].
  toolsetNames := anArrayOfNames.
  toolsetOptions := anOptionsDictionary
%
category: 'reading'
method: McpPrepareConfig
toolsetClassNamed: aName
  "The McpToolset subclass called aName in the symbol list of this user, or toolsetNotFound."
  | found |
  found := ((aName isKindOf: CharacterCollection) and: [aName isEmpty not])
    ifTrue: [System myUserProfile symbolList objectNamed: aName asSymbol]
    ifFalse: [nil].
  (found notNil and: [found isBehavior and: [found inheritsFrom: McpToolset]]) ifTrue: [^found].
  ^self refuse: 'toolsetNotFound'
    because: 'no toolset named ' , ((aName isKindOf: CharacterCollection) ifTrue: [aName] ifFalse: [aName printString])
      , ' in the symbol list of user ' , System myUserProfile userId asString
%
category: 'reading'
method: McpPrepareConfig
checkOptionsOf: aToolsetName
  "Each option given for the toolset must be one its class declares. Checked toolset by toolset
   as the server registers them, so a toolset that refuses an option value is heard first."
  | options declared |
  options := self optionsFor: aToolsetName.
  options isNil ifTrue: [^self].
  (options isKindOf: Dictionary) ifFalse: [
    ^self refuse: 'badOption' because: 'the options of ' , aToolsetName , ' must be a JSON object'].
  declared := (self toolsetClassOf: aToolsetName) declaredOptionNames.
  options keysAndValuesDo: [:key :value |
    (declared includes: key) ifFalse: [
      ^self refuse: 'badOption' because: aToolsetName , ' has no option ' , key , ' ('
        , (self declaredPhrase: declared) , ')']]
%
category: 'reading'
method: McpPrepareConfig
declaredPhrase: aCollectionOfNames
  "it declares: a, b; or it declares none"
  | out first |
  aCollectionOfNames isEmpty ifTrue: [^'it declares none'].
  out := WriteStream on: String new.
  out nextPutAll: 'it declares: '.
  first := true.
  aCollectionOfNames do: [:each |
    first ifFalse: [out nextPutAll: ', '].
    first := false.
    out nextPutAll: each].
  ^out contents
%
category: 'reading'
method: McpPrepareConfig
refuse: aKind because: aMessage
  "Signal the prepare failure aKind (one of McpServer class>>prepareFailureKinds)."
  ^McpError signalKind: aKind message: aMessage
%
category: 'accessing'
method: McpPrepareConfig
frontEnd
  "The name, version and routerId of the router, as the prepare config gave them, or nil."
  ^frontEnd
%
category: 'accessing'
method: McpPrepareConfig
gemName
  "The name for this gem in the shared cache, cut to fit, or nil for none."
  ^self class cacheNameFrom: cacheName
%
category: 'accessing'
method: McpPrepareConfig
grant
  "The grant member as given (McpServer checks it once the toolsets are registered), or nil."
  ^grant
%
category: 'accessing'
method: McpPrepareConfig
lifetime
  "The session deadlines the router enforces, as given, or nil."
  ^lifetime
%
category: 'accessing'
method: McpPrepareConfig
optionsFor: aToolsetName
  "The options configured for one toolset, or nil."
  ^toolsetOptions at: aToolsetName ifAbsent: [nil]
%
category: 'accessing'
method: McpPrepareConfig
protocolVersions
  "The protocol versions initialize may agree on, newest first."
  ^protocolVersions
%
category: 'accessing'
method: McpPrepareConfig
resultCap
  "The most characters a single-value result may carry; 0 means no cap."
  ^resultCap
%
category: 'accessing'
method: McpPrepareConfig
toolsetClassOf: aToolsetName
  "The class resolved for a toolset of the surface."
  ^toolsetClasses at: (toolsetNames indexOf: aToolsetName)
%
category: 'accessing'
method: McpPrepareConfig
toolsetNames
  "The toolsets of the surface, in the order they register."
  ^toolsetNames
%
category: 'identity'
method: McpPrepareConfig
serverInstructions
  "The instructions text, or nil to send none: the config wins over the class default, and an
   empty configured text means none."
  configuredInstructions isNil ifTrue: [^workerClass defaultServerInstructions].
  configuredInstructions isEmpty ifTrue: [^nil].
  ^configuredInstructions
%
category: 'identity'
method: McpPrepareConfig
serverName
  "The serverInfo name: the configured one, else the worker class default."
  configuredName isNil ifTrue: [^workerClass defaultServerName].
  ^configuredName
%
category: 'identity'
method: McpPrepareConfig
serverTitle
  "nil when there is no title, so that serverInfo leaves the key out."
  configuredTitle isNil ifTrue: [^workerClass defaultServerTitle].
  configuredTitle isEmpty ifTrue: [^nil].
  ^configuredTitle
%
category: 'identity'
method: McpPrepareConfig
serverVersion
  "The serverInfo version: the configured one, else the worker class default."
  configuredVersion isNil ifTrue: [^workerClass defaultServerVersion].
  ^configuredVersion
%
