! The helpers every script's Smalltalk uses; gs-env.sh (gs_env_topaz) sends this right after each
! login, with @@MARK@@ replaced by GS_ENV_MARK. A script binds them with
!   emit := SessionTemps current at: #McpEmit.     one marked line on stdout
!   split := SessionTemps current at: #McpSplit.   a text cut at a separator, empty pieces dropped
! #McpMarkLine makes the line emit writes. It is bytes: a character outside ASCII is written as ?,
! so that a wide text (an error's description may be a Unicode16) never widens the line, which
! GsFile would then write as UTF-16, losing the marker the shell looks for.
run
| mark markLine |
mark := '@@MARK@@'.
markLine := [:line | | out |
  out := WriteStream on: String new.
  out nextPutAll: mark; nextPut: Character space.
  line asString do: [:ch | out nextPut: (ch codePoint < 128 ifTrue: [ch] ifFalse: [$?])].
  out nextPut: Character lf.
  out contents].
SessionTemps current at: #McpMarkLine put: markLine.
SessionTemps current at: #McpEmit put: [:line |
  GsFile stdout nextPutAll: (markLine value: line); flush].
SessionTemps current at: #McpSplit put: [:text :separator | | pieces in |
  pieces := OrderedCollection new.
  in := ReadStream on: text.
  [in atEnd] whileFalse: [| piece |
    piece := in upTo: separator.
    piece isEmpty ifFalse: [pieces add: piece]].
  pieces].
true
%
