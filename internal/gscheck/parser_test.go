package gscheck

import (
	"strings"
	"testing"
)

// literalOf parses `^<src>` as a doit and answers the returned literal.
func literalOf(t *testing.T, src string) *LiteralNode {
	t.Helper()
	seq, _, err := parseDoit("^" + src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	ret, ok := seq.Stmts[0].(*ReturnNode)
	if !ok {
		t.Fatalf("parse %q: statement is %T, want a return", src, seq.Stmts[0])
	}
	lit, ok := ret.Value.(*LiteralNode)
	if !ok {
		t.Fatalf("parse %q: value is %T, want a literal", src, ret.Value)
	}
	return lit
}

func TestParserReadsEveryNumberForm(t *testing.T) {
	for _, src := range []string{"42", "16r1F", "2r1010", "36rZZ", "16r-1F", "1.5", "2e10", "1.0e-3",
		"1.5s2", "3s", "1.0d0", "-7", "-1.5e-2", "-16r1F"} {
		lit := literalOf(t, src)
		if lit.Kind != LitNumber || lit.Value != src {
			t.Errorf("%q read as kind %d value %q", src, lit.Kind, lit.Value)
		}
	}
}

// Radix numbers are read as public GemStone code writes them, upper-case digits after r
// (GemTalk/Grail writes bitAnd: 16rFFFFFFFF in a topaz file-in); the spellings no evidence shows
// a stone reading are refused by name rather than read some other way.
func TestParserRefusesUnattestedRadixSpellings(t *testing.T) {
	for src, want := range map[string]string{
		"^16#11":    "written with #",
		"^16#FF":    "written with #",
		"^16rff":    "lower-case digits",
		"^16r1f":    "lower-case digits",
		"^2r10 + 1": "",
	} {
		_, _, err := parseDoit(src)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", src, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: got %v, want an error naming %q", src, err, want)
		}
	}
}

func TestParserReadsCharacterLiterals(t *testing.T) {
	for src, want := range map[string]string{"$a": "a", "$'": "'", "$ ": " ", `$"`: `"`, "$$": "$"} {
		t.Run(src, func(t *testing.T) {
			lit := literalOf(t, src)
			if lit.Kind != LitChar || lit.Value != want {
				t.Errorf("%q read as kind %d value %q, want char %q", src, lit.Kind, lit.Value, want)
			}
		})
	}
}

// A character literal is one code point, however many bytes its UTF-8 takes: the model prints
// 'é' first as $é, so $é must read back.
func TestParserReadsANonASCIICharacterAsOneCharacter(t *testing.T) {
	for src, want := range map[string]string{"$é": "é", "$€": "€", "$😀": "😀"} {
		lit := literalOf(t, src)
		if lit.Kind != LitChar || lit.Value != want {
			t.Errorf("%q read as kind %d value %q, want char %q", src, lit.Kind, lit.Value, want)
		}
	}
	seq, _, err := parseDoit("^{$é. $€}")
	if err != nil {
		t.Fatalf("a brace of $é and $€: %v", err)
	}
	if brace, ok := seq.Stmts[0].(*ReturnNode).Value.(*BraceNode); !ok || len(brace.Elems) != 2 {
		t.Errorf("{$é. $€} parsed as %#v, want a brace of two characters", seq.Stmts[0])
	}
}

func TestParserReadsQuotedLiterals(t *testing.T) {
	cases := []struct {
		src  string
		kind LiteralKind
		want string
	}{
		{"'it''s'", LitString, "it's"},
		{"''", LitString, ""},
		{"'say \"hi\"'", LitString, `say "hi"`},
		{"#foo", LitSymbol, "foo"},
		{"#at:put:", LitSymbol, "at:put:"},
		{"#Foo", LitSymbol, "Foo"},
		{"#'hello world'", LitSymbol, "hello world"},
		{"#+", LitSymbol, "+"},
		{"#->", LitSymbol, "->"},
		{"#==>", LitSymbol, "==>"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			lit := literalOf(t, c.src)
			if lit.Kind != c.kind || lit.Value != c.want {
				t.Errorf("%q read as kind %d value %q, want kind %d %q", c.src, lit.Kind, lit.Value, c.kind, c.want)
			}
		})
	}
}

func TestParserReadsNestedLiteralArrays(t *testing.T) {
	lit := literalOf(t, "#(1 #(2) (3 4) foo: $a 'x' #sym true nil false foo bar:baz: -5 #[1 2] + #+ 16r1F 1.5s2)")
	if lit.Kind != LitArray {
		t.Fatalf("kind %d, want literal array", lit.Kind)
	}
	var got []string
	for _, el := range lit.Elems {
		switch el.Kind {
		case LitArray:
			got = append(got, "array"+itoa(len(el.Elems)))
		case LitByteArray:
			got = append(got, "bytes"+itoa(len(el.Elems)))
		default:
			got = append(got, el.Value)
		}
	}
	want := "1 array1 array2 foo: a x sym true nil false foo bar:baz: -5 bytes2 + + 16r1F 1.5s2"
	if strings.Join(got, " ") != want {
		t.Errorf("elements %q, want %q", strings.Join(got, " "), want)
	}
	if lit.Elems[7].Kind != LitTrue || lit.Elems[8].Kind != LitNil || lit.Elems[6].Kind != LitSymbol {
		t.Errorf("true/nil/#sym kinds wrong: %d %d %d", lit.Elems[7].Kind, lit.Elems[8].Kind, lit.Elems[6].Kind)
	}
}

func TestParserReadsByteArrays(t *testing.T) {
	lit := literalOf(t, "#[1 2 255 0 16rFF 2r101]")
	if lit.Kind != LitByteArray || len(lit.Elems) != 6 {
		t.Fatalf("got kind %d with %d elements", lit.Kind, len(lit.Elems))
	}
	for _, bad := range []string{"^#[1 256]", "^#[16r100]", "^#[1.5]", "^#[-1]"} {
		if _, _, err := parseDoit(bad); err == nil {
			t.Errorf("%s parsed, want a byte-array complaint", bad)
		}
	}
}

// A doit with brace arrays, cascades and binary selectors is read whole.
func TestParserReadsADoitsEverySend(t *testing.T) {
	src := "| a b | a := {1. 2 + 3. b}. b := a -> 3. a ~= b. a ==> b. a , b. (a == b) | (a = b).\n" +
		"Transcript show: 'x'; cr; show: 'y' , 'z'; yourself. ^a - -2"
	seq, _, err := parseDoit(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	t.Run("sends in order", func(t *testing.T) {
		var sels []string
		walkSequence(seq, func(e Expr) {
			if s, ok := e.(*SendNode); ok {
				sels = append(sels, s.Selector)
			}
		})
		want := "+ -> ~= ==> , | == = show: cr show: , yourself -"
		if strings.Join(sels, " ") != want {
			t.Errorf("selectors %q, want %q", strings.Join(sels, " "), want)
		}
	})
	t.Run("temps", func(t *testing.T) {
		if len(seq.Temps) != 2 {
			t.Errorf("temps %v, want a and b", seq.Temps)
		}
	})
}

// Method patterns of every form, with pragmas and blocks in their bodies.
func TestParserReadsEachMethodsSelector(t *testing.T) {
	cases := map[string]string{
		"size\n  <primitive: 62>\n  ^self _primitiveFailed: #size":                                      "size",
		"at: i put: v\n  | t |\n  t := [:x :y | | z | z := x. thisContext. y] value: i value: v.\n  ^t": "at:put:",
		"+ other\n  ^self add: other": "+",
		"-> other\n  ^other":          "->",
		"foo\n  <protected>\n  | a |\n  <bar: 1 baz: 'x'>\n  ^[:x] value: a": "foo",
		"bar\n  ^[:a || t | t := a. t] value: 1":                             "bar",
		"baz\n  ^[] value":                                                   "baz",
	}
	for src, want := range cases {
		t.Run(want, func(t *testing.T) {
			m, _, err := parseMethod(src)
			if err != nil {
				t.Fatalf("parse %q: %v", src, err)
			}
			if m.Selector != want {
				t.Errorf("parse %q: selector %q, want %q", src, m.Selector, want)
			}
		})
	}
}

func TestParserRejectsMalformedSource(t *testing.T) {
	cases := map[string]string{
		"foo\n  ^1 +":           "expected an expression",
		"foo\n  ^(1 + 2":        "expected ')'",
		"foo\n  x := 3 y := 4":  "expected '.'",
		"foo\n  ^'unterminated": "never closed",
		"foo\n  ^#(1 2":         "never closed",
		"foo\n  \"unterminated": "never closed before %",
		"foo\n  ^[:a a]":        "expected '|'",
		"foo: \n  ^1":           "expected an argument name",
		"foo\n  ^#":             "starts no literal",
	}
	for src, want := range cases {
		_, _, err := parseMethod(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parse %q: error %v, want one containing %q", src, err, want)
		}
	}
}

func TestCommentSplitByAStrayQuoteIsCaughtWithSpacesAroundTheWords(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": definitionDoit("Object", "Foo", "", "", "") +
			"method: Foo\nname\n  \"Answer the \" name \" of it.\"\n  ^'x'\n%\n" +
			"method: Foo\nfine\n  \"One comment.\" \"Another.\"\n  ^self name \"trailing\"\n%\n",
	})
	assertSame(t, got, `Foo.gs:12: a " inside a comment ends it early; the text after it is compiled as code (silent file-in trap)`)
}

func TestParserReadsIdiomsOfRealGemStoneCode(t *testing.T) {
	src := "handle: req\n" +
		"  | id |\n" +
		"  id := req at: 'id' ifAbsent: [nil].\n" +
		"  id isNil ifTrue: [^self errorFor: nil code: -32700 message: 'Parse error'].\n" +
		"  ^[ | parsed | parsed := self parse: req. parsed ifNotNil: [:p | p] ]\n" +
		"    on: Error , ZeroDivide\n" +
		"    do: [:ex | ex return: '''' , ex description , ''' failed']\n"
	m, _, err := parseMethod(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var sels []string
	walkSequence(m.Body, func(e Expr) {
		if s, ok := e.(*SendNode); ok {
			sels = append(sels, s.Selector)
		}
	})
	want := "at:ifAbsent: ifTrue: isNil errorFor:code:message: on:do: parse: ifNotNil: , return: , , description"
	if strings.Join(sels, " ") != want {
		t.Errorf("selectors %q, want %q", strings.Join(sels, " "), want)
	}
}

func TestParserBoundsNestingWithAFinding(t *testing.T) {
	for _, src := range []string{
		"foo\n  ^" + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300),
		"foo\n  ^" + strings.Repeat("[", 300),
		"foo\n  ^#" + strings.Repeat("(", 300),
		"foo\n  ^" + strings.Repeat("{", 300),
	} {
		if _, _, err := parseMethod(src); err == nil || !strings.Contains(err.Error(), "nesting deeper than 256") {
			t.Errorf("%.20q...: error %v, want the nesting bound", src, err)
		}
	}
	// 200 levels is deep but legal
	if _, _, err := parseMethod("foo\n  ^" + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200)); err != nil {
		t.Errorf("200 nested parentheses: %v", err)
	}
}
