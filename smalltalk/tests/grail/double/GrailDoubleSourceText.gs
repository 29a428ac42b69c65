set compile_env: 0
! ------------------- Class definition for GrailDoubleSourceText
expectvalue /Class
doit
Object subclass: 'GrailDoubleSourceText'
  instVarNames: #( text)
  classVars: #()
  classInstVars: #()
  poolDictionaries: #()
  inDictionary: GrailDouble
  options: #()

%
expectvalue /Class
doit
GrailDoubleSourceText comment: 
'TEST DOUBLE of the decoded source text Grail''s importlib ___sourceStringForPath___: answers for
a .py (GemTalk/Grail src/smalltalk/Python/importlib.gs), which loadModuleFromPath: hashes with
sha1Sum and records in GrailCanonicalModuleHashes. The model has no SHA-1, so sha1Sum answers the
text itself: a stand-in digest that is equal exactly when the texts are, which is all the toolset
does with the digest (compare it with the recorded one).'
%
expectvalue /Class
doit
GrailDoubleSourceText category: 'Mcp-Tests-GrailDouble'
%
! ------------------- Remove existing behavior from GrailDoubleSourceText
removeallmethods GrailDoubleSourceText
removeallclassmethods GrailDoubleSourceText
! ------------------- Class methods for GrailDoubleSourceText
category: 'instance creation'
classmethod: GrailDoubleSourceText
on: aString
  ^self new setText: aString
%
! ------------------- Instance methods for GrailDoubleSourceText
category: 'kernel API'
method: GrailDoubleSourceText
sha1Sum
  ^text
%
category: 'initialization'
method: GrailDoubleSourceText
setText: aString
  text := aString
%
