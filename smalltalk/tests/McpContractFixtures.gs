set compile_env: 0
! ------------------- Class definition for McpContractFixtures
expectvalue /Class
doit
Object subclass: 'McpContractFixtures'
  instVarNames: #()
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: Mcp
  options: #()

%
expectvalue /Class
doit
McpContractFixtures comment: 
'Replays the contract fixtures of test/contract (the same files the Go tests check the stand-in
worker against) through the byte entry of a real McpServer, in the image, and matches each
answer with the rule of test/contract/README.md: literals equal, $string and the other type
patterns, $absent members, $each with $minItems, $exact. reportOn:cases:placeholders: reads
prepare.json and the named cases with GsFile and answers one PASS or FAIL line per case and a
count. It builds its own server from prepare.json and never installs it, never names the gem,
and never commits.'
%
expectvalue /Class
doit
McpContractFixtures category: 'Mcp-Tests'
%
! ------------------- Remove existing behavior from McpContractFixtures
removeallmethods McpContractFixtures
removeallclassmethods McpContractFixtures
! ------------------- Class methods for McpContractFixtures
category: 'running'
classmethod: McpContractFixtures
reportOn: aContractDirectory cases: anArrayOfCaseNames placeholders: aDictionary
  "One line per case, PASS or FAIL with the first difference, then the counts."
  | server lines failed |
  server := self serverFrom: (self readFile: aContractDirectory , '/prepare.json') placeholders: aDictionary.
  lines := WriteStream on: String new.
  failed := 0.
  anArrayOfCaseNames do: [:caseName | | problem |
    problem := self checkCase: (self readFile: aContractDirectory , '/cases/' , caseName , '.json')
      server: server placeholders: aDictionary.
    problem isNil
      ifTrue: [lines nextPutAll: 'PASS ' , caseName]
      ifFalse: [failed := failed + 1. lines nextPutAll: 'FAIL ' , caseName , ': ' , problem].
    lines nextPut: Character lf].
  lines nextPutAll: 'contract: ' , (anArrayOfCaseNames size - failed) printString , ' passed, '
    , failed printString , ' failed'.
  ^lines contents
%
category: 'running'
classmethod: McpContractFixtures
serverFrom: aPrepareText placeholders: aDictionary
  "A server of the worker class WORKER_CLASS names, configured from prepare.json; not installed."
  | config workerClass |
  config := McpJson parse: (self fill: aPrepareText with: aDictionary).
  workerClass := System myUserProfile objectNamed: (config at: 'workerClass') asSymbol.
  ^workerClass fromConfig: config
%
category: 'running'
classmethod: McpContractFixtures
readFile: aPath
  | file text |
  file := GsFile openReadOnServer: aPath.
  file isNil ifTrue: [^McpError signalKind: 'notFound' message: 'cannot read ' , aPath].
  text := file contents.
  file close.
  ^text
%
category: 'checking'
classmethod: McpContractFixtures
checkCase: aCaseText server: anMcpServer placeholders: aDictionary
  "nil when the server answers the case as it expects, else the first difference."
  | case answer actual |
  case := McpJson parse: (self fill: aCaseText with: aDictionary).
  answer := anMcpServer handle: (self requestBytesOf: case).
  (case at: 'noResponse' ifAbsent: [false]) == true ifTrue: [
    answer trimSeparators isEmpty ifTrue: [^nil].
    ^'want no response, got ' , answer].
  answer trimSeparators isEmpty ifTrue: [^'want a response, got none'].
  actual := [McpJson parse: answer] on: McpError do: [:ex | ex return: ex].
  (actual isKindOf: McpError) ifTrue: [^'the response is not JSON: ' , answer].
  ^self match: (case at: 'response') against: actual path: '$'
%
category: 'checking'
classmethod: McpContractFixtures
requestBytesOf: aCase
  "The request as the router would send it: UTF-8 bytes."
  (aCase includesKey: 'request') ifTrue: [^McpJson write: (aCase at: 'request')].
  (aCase includesKey: 'requestText') ifTrue: [^self utf8Of: (aCase at: 'requestText')].
  ^self base64Decode: (aCase at: 'requestBase64')
%
category: 'matching'
classmethod: McpContractFixtures
match: aPattern against: anActual path: aPath
  "nil when anActual matches aPattern, else what differs at which JSON path."
  (aPattern isKindOf: CharacterCollection) ifTrue: [^self matchString: aPattern against: anActual path: aPath].
  (aPattern isKindOf: Dictionary) ifTrue: [^self matchObject: aPattern against: anActual path: aPath].
  (aPattern isKindOf: Array) ifTrue: [^self matchArray: aPattern against: anActual path: aPath].
  (self same: aPattern as: anActual) ifTrue: [^nil].
  ^aPath , ': want ' , (McpJson write: aPattern) , ', got ' , (McpJson write: anActual)
%
category: 'matching'
classmethod: McpContractFixtures
matchArray: aPattern against: anActual path: aPath
  ((anActual isKindOf: Array) and: [anActual size = aPattern size]) ifFalse: [
    ^aPath , ': want an array of ' , aPattern size printString , ', got ' , (McpJson write: anActual)].
  1 to: aPattern size do: [:index | | problem |
    problem := self match: (aPattern at: index) against: (anActual at: index)
      path: aPath , '[' , (index - 1) printString , ']'.
    problem isNil ifFalse: [^problem]].
  ^nil
%
category: 'matching'
classmethod: McpContractFixtures
matchEach: aPattern against: anActual path: aPath
  | minimum |
  (anActual isKindOf: Array) ifFalse: [^aPath , ': want an array, got ' , (McpJson write: anActual)].
  minimum := aPattern at: '$minItems' ifAbsent: [0].
  anActual size < minimum ifTrue: [
    ^aPath , ': want at least ' , minimum printString , ' items, got ' , anActual size printString].
  1 to: anActual size do: [:index | | problem |
    problem := self match: (aPattern at: '$each') against: (anActual at: index)
      path: aPath , '[' , (index - 1) printString , ']'.
    problem isNil ifFalse: [^problem]].
  ^nil
%
category: 'matching'
classmethod: McpContractFixtures
matchObject: aPattern against: anActual path: aPath
  (aPattern includesKey: '$exact') ifTrue: [
    (self same: (aPattern at: '$exact') as: anActual) ifTrue: [^nil].
    ^aPath , ': want exactly ' , (McpJson write: (aPattern at: '$exact')) , ', got ' , (McpJson write: anActual)].
  (aPattern includesKey: '$each') ifTrue: [^self matchEach: aPattern against: anActual path: aPath].
  (anActual isKindOf: Dictionary) ifFalse: [^aPath , ': want an object, got ' , (McpJson write: anActual)].
  (McpJson sortedKeysOf: aPattern) do: [:key | | problem |
    problem := self matchMember: key of: aPattern against: anActual path: aPath.
    problem isNil ifFalse: [^problem]].
  ^nil
%
category: 'matching'
classmethod: McpContractFixtures
matchMember: aKey of: aPattern against: anActual path: aPath
  | memberPattern |
  memberPattern := aPattern at: aKey.
  memberPattern = '$absent' ifTrue: [
    (anActual includesKey: aKey) ifFalse: [^nil].
    ^aPath , '.' , aKey , ': want no such member, got ' , (McpJson write: (anActual at: aKey))].
  (anActual includesKey: aKey) ifFalse: [^aPath , '.' , aKey , ': missing'].
  ^self match: memberPattern against: (anActual at: aKey) path: aPath , '.' , aKey
%
category: 'matching'
classmethod: McpContractFixtures
matchString: aPattern against: anActual path: aPath
  ((aPattern size > 1) and: [aPattern first = $$]) ifTrue: [
    ^self matchType: aPattern against: anActual path: aPath].
  ((anActual isKindOf: CharacterCollection) and: [anActual = aPattern]) ifTrue: [^nil].
  ^aPath , ': want ' , (McpJson write: aPattern) , ', got ' , (McpJson write: anActual)
%
category: 'matching'
classmethod: McpContractFixtures
matchType: aType against: anActual path: aPath
  | ok |
  ok := self value: anActual isOfType: aType.
  ok isNil ifTrue: [^aPath , ': unknown pattern ' , aType].
  ok ifTrue: [^nil].
  ^aPath , ': want ' , (aType copyFrom: 2 to: aType size) , ', got ' , (McpJson write: anActual)
%
category: 'matching'
classmethod: McpContractFixtures
same: aValue as: anotherValue
  "Deep equality of two JSON values; numbers compare by value."
  ((aValue isKindOf: Number) and: [anotherValue isKindOf: Number]) ifTrue: [^aValue = anotherValue].
  ((aValue isKindOf: CharacterCollection) and: [anotherValue isKindOf: CharacterCollection]) ifTrue: [^aValue = anotherValue].
  ((aValue isKindOf: Array) and: [anotherValue isKindOf: Array]) ifTrue: [
    aValue size = anotherValue size ifFalse: [^false].
    1 to: aValue size do: [:index |
      (self same: (aValue at: index) as: (anotherValue at: index)) ifFalse: [^false]].
    ^true].
  ((aValue isKindOf: Dictionary) and: [anotherValue isKindOf: Dictionary]) ifTrue: [
    aValue size = anotherValue size ifFalse: [^false].
    aValue keysAndValuesDo: [:key :value |
      (anotherValue includesKey: key) ifFalse: [^false].
      (self same: value as: (anotherValue at: key)) ifFalse: [^false]].
    ^true].
  ^aValue == anotherValue
%
category: 'matching'
classmethod: McpContractFixtures
value: anActual isOfType: aType
  "true or false, or nil for a pattern this rule does not know."
  aType = '$any' ifTrue: [^true].
  aType = '$string' ifTrue: [^anActual isKindOf: CharacterCollection].
  aType = '$nonEmptyString' ifTrue: [^(anActual isKindOf: CharacterCollection) and: [anActual isEmpty not]].
  aType = '$number' ifTrue: [^anActual isKindOf: Number].
  aType = '$integer' ifTrue: [^anActual isKindOf: Integer].
  aType = '$boolean' ifTrue: [^anActual == true or: [anActual == false]].
  aType = '$object' ifTrue: [^anActual isKindOf: Dictionary].
  aType = '$array' ifTrue: [^anActual isKindOf: Array].
  ^nil
%
category: 'text'
classmethod: McpContractFixtures
base64Decode: aString
  "The bytes aString encodes in standard base64, as a byte String."
  | alphabet out buffer bits |
  alphabet := 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.
  out := WriteStream on: String new.
  buffer := 0.
  bits := 0.
  aString do: [:ch | | value |
    value := alphabet indexOf: ch.
    value > 0 ifTrue: [
      buffer := (buffer * 64) + (value - 1).
      bits := bits + 6.
      bits >= 8 ifTrue: [
        bits := bits - 8.
        out nextPut: (Character codePoint: buffer // (2 raisedTo: bits)).
        buffer := buffer \\ (2 raisedTo: bits)]]].
  ^out contents
%
category: 'text'
classmethod: McpContractFixtures
fill: aText with: aDictionary
  "aText with every ${NAME} of aDictionary replaced by its value."
  | text |
  text := aText.
  aDictionary keysAndValuesDo: [:placeholder :value |
    text := self replaceAll: '${' , placeholder , '}' in: text with: value].
  ^text
%
category: 'text'
classmethod: McpContractFixtures
replaceAll: aPart in: aText with: aReplacement
  | out start found |
  out := WriteStream on: String new.
  start := 1.
  [found := aText findString: aPart startingAt: start.
   found > 0] whileTrue: [
    out nextPutAll: (aText copyFrom: start to: found - 1); nextPutAll: aReplacement.
    start := found + aPart size].
  out nextPutAll: (aText copyFrom: start to: aText size).
  ^out contents
%
category: 'text'
classmethod: McpContractFixtures
utf8Of: aString
  "The UTF-8 bytes of aString, as a byte String."
  | out |
  out := WriteStream on: String new.
  aString do: [:ch | McpJson writeUtf8CodePoint: ch codePoint on: out].
  ^out contents
%
