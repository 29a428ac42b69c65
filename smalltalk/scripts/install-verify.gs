! install.sh step 3, after the users: every class the files define is in Mcp, and every method the
! files hold is in the image. @@MANIFEST@@: one line per definition, Class, or Class selector, or
! Class class selector. A file-in reports compile errors and carries on, so the image's answer,
! not topaz's status, decides.
run
"mcp-install:verify v1"
| emit split up mcp exp expected classes methods missing |
emit := SessionTemps current at: #McpEmit.
split := SessionTemps current at: #McpSplit.
up := System myUserProfile.
mcp := up objectNamed: #Mcp.
mcp isNil ifTrue: [emit value: 'no-dictionary Mcp'. mcp := SymbolDictionary new].
exp := split value: '
@@MANIFEST@@
' value: Character lf.
expected := Dictionary new.
classes := 0. methods := 0. missing := 0.
exp do: [:line | | parts cls beh key sel |
  parts := split value: line value: Character space.
  cls := mcp at: (parts at: 1) asSymbol ifAbsent: [nil].
  parts size = 1
    ifTrue: [
      classes := classes + 1.
      (cls isKindOf: Behavior)
        ifFalse: [missing := missing + 1. emit value: 'missing-class ' , line]]
    ifFalse: [
      methods := methods + 1.
      cls isNil ifTrue: [cls := up objectNamed: (parts at: 1) asSymbol].
      key := parts size = 3 ifTrue: [(parts at: 1) , ' class'] ifFalse: [parts at: 1].
      sel := parts last asSymbol.
      (expected at: key ifAbsent: [expected at: key put: IdentitySet new]) add: sel.
      beh := (cls isKindOf: Behavior)
        ifTrue: [parts size = 3 ifTrue: [cls class] ifFalse: [cls]]
        ifFalse: [nil].
      (beh notNil and: [beh includesSelector: sel])
        ifFalse: [missing := missing + 1. emit value: 'missing-method ' , key , '>>' , parts last]]].
expected keysAndValuesDo: [:key :sels | | parts cls beh |
  parts := split value: key value: Character space.
  cls := mcp at: (parts at: 1) asSymbol ifAbsent: [nil].
  (cls isKindOf: Behavior) ifTrue: [
    beh := parts size = 2 ifTrue: [cls class] ifFalse: [cls].
    beh selectors do: [:s | (sels includes: s) ifFalse: [emit value: 'extra-method ' , key , '>>' , s]]]].
emit value: 'verified ' , classes printString , ' classes ' , methods printString , ' methods ' , missing printString , ' missing'.
emit value: 'done verify'.
%
