! run-unit-tests.sh: run the named SUnit suites in order and report each in marked lines.
! @@SUITES@@: the suite names, one a line (McpKernelFactsTest first when it is among them);
! @@NETLDI@@: true when a netldi runs; @@NETLDI_NAME@@: the netldi the suites that build a gem NRS
! name (SessionTemps #McpTestNetldi). A suite answering true to a class-side needsNetldi is not run
! without one (an optional hook, hence perform:). The session logs out without committing, so what the tests leave is discarded.
run
"mcp-tests:run v2"
| emit split mcp suites netldi label |
emit := SessionTemps current at: #McpEmit.
split := SessionTemps current at: #McpSplit.
netldi := '@@NETLDI@@' = 'true'.
SessionTemps current at: #McpTestNetldi put: '@@NETLDI_NAME@@'.
suites := split value: '
@@SUITES@@
' value: Character lf.
mcp := System myUserProfile objectNamed: #Mcp.
label := [:t | [t class name , '>>' , t selector] on: Error do: [:e | e return: t asString]].
suites do: [:name | | cls r |
  cls := mcp isNil ifTrue: [nil] ifFalse: [mcp at: name asSymbol ifAbsent: [nil]].
  cls isNil
    ifTrue: [emit value: 'absent ' , name]
    ifFalse: [
      (((cls isKindOf: Behavior) and: [cls inheritsFrom: TestCase])
          and: [([cls isAbstract] on: Error do: [:e | e return: false]) not])
        ifTrue: [
          (netldi not and: [(cls respondsTo: #needsNetldi) and: [(cls perform: #needsNetldi) == true]])
            ifTrue: [emit value: 'needs-netldi ' , name]
            ifFalse: [
              r := cls suite run.
              emit value: 'suite ' , name , ' ' , r runCount printString , ' ' , r passedCount printString ,
                ' ' , r failureCount printString , ' ' , r errorCount printString.
              r failures do: [:t | emit value: 'failed ' , (label value: t)].
              r errors do: [:t | emit value: 'errored ' , (label value: t)]]]]].
emit value: 'done tests'.
%
