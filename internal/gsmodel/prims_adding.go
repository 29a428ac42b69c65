package gsmodel

// GemStone's Array and String grow: public code that ran on stones builds both with add:
// (GemTalk/Rowan's copy of Class>>_subclass:...options: fills ivNames := {} with add:, and
// _rwOptionsForDefinition adds a String, a Character and a Symbol to a String), and Array>>add:
// is in category Adding on 3.7.5 (GemTalk/mcp_server McpToolTest.gs, testFindImplementors).

func (img *Image) addingPrims(s *Session) {
	img.prim(s, "Array", "add:", func(s *Session, a Value, x []Value) Value {
		st := s.wr(a.(*Object))
		st.ix = append(st.ix, x[0])
		return x[0]
	})
	img.prim(s, "String", "add:", func(s *Session, a Value, x []Value) Value {
		o := a.(*Object)
		if s.inheritsOrIs(o.cls, s.img.k.Symbol) {
			return s.refuse("Symbol>>add: (a stone's Symbols are invariant; the error it raises is not attested)")
		}
		var more []rune
		switch c := x[0].(type) {
		case Char:
			more = []rune{rune(c)}
		default:
			more = []rune(s.argString(x[0]))
		}
		st := s.wr(o)
		st.by = append(st.by, more...)
		return x[0]
	})
}

// definitionWithoutOptionsPrims: the class-definition message without options:, which the
// GemTalk/Jasper integration tests send on 3.6.2 and 3.7.5 stones
// (client/src/queries/__tests__/methodSearch.integration.test.ts).
func (img *Image) definitionWithoutOptionsPrims(s *Session) {
	img.prim(s, "Class", "subclass:instVarNames:classVars:classInstVars:poolDictionaries:inDictionary:",
		func(s *Session, a Value, x []Value) Value {
			return s.defineClass(a, x[0], x[1], x[2], x[3], x[4], x[5], nil, fmtPointers)
		})
}
