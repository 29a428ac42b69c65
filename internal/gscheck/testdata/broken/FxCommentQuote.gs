set compile_env: 0
! ------------------- Class definition for FxCommentQuote
expectvalue /Class
doit
Object subclass: 'FxCommentQuote'
  instVarNames: #( a)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: UserGlobals
  options: #()

%
expectvalue /Class
doit
FxCommentQuote comment: 
'A broken fixture: double quotes inside method comments.'
%
expectvalue /Class
doit
FxCommentQuote category: 'Fx-Broken'
%
removeallmethods FxCommentQuote
removeallclassmethods FxCommentQuote
category: 'broken'
method: FxCommentQuote
quotedWord
  "Answer the "name" of it: the comment ends early and name is compiled as code."
  ^a
%
category: 'broken'
method: FxCommentQuote
unclosed
  "The margin is 5" wide, so the last quote opens a comment that swallows the rest."
  ^a
%
