package gsmodel

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Topaz runs topaz input against a session: the file-in commands (run, doit, printit, method:,
// classmethod:, category:, removeallmethods, input, commit, abort, expectvalue, set ...) and
// prints results and errors the way topaz does. Commands a file-in never needs (the debugger,
// display settings) are accepted where harmless and refused by name otherwise.
type Topaz struct {
	s        *Session
	out      io.Writer
	Dir      string // what relative input paths resolve against; "" is the working directory
	Errors   int
	kernel   bool // filing in the model's own kernel: its methods are kernel methods
	category string
	class    string
	expect   string
	depth    int
}

// NewTopaz answers a topaz reader for a session that writes to out.
func NewTopaz(s *Session, out io.Writer) *Topaz {
	s.out = func(text string) { _, _ = io.WriteString(out, text) }
	return &Topaz{s: s, out: out}
}

func (t *Topaz) printf(format string, args ...any) { fmt.Fprintf(t.out, format, args...) }

// RunFile reads topaz input from a file.
func (t *Topaz) RunFile(path string) error {
	full := path
	if !filepath.IsAbs(full) && t.Dir != "" {
		full = filepath.Join(t.Dir, path)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return err
	}
	t.Run(path, string(data))
	return nil
}

// Run executes topaz input; name labels its errors.
func (t *Topaz) Run(name, text string) {
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], "\r\n")
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || trimmed[0] == '!' || trimmed[0] == '#' {
			continue
		}
		word, rest := commandWordOf(trimmed)
		switch word {
		case "run", "doit", "printit", "print", "method:", "method", "classmethod:", "classmethod":
			var body []string
			j := i + 1
			for ; j < len(lines) && !strings.HasPrefix(lines[j], "%"); j++ {
				body = append(body, lines[j])
			}
			src := strings.Join(body, "")
			line := i + 2
			i = j
			t.body(name, line, word, rest, src)
		default:
			if !t.command(name, i+1, word, rest) {
				return
			}
		}
	}
}

func commandWordOf(line string) (string, string) {
	end := strings.IndexAny(line, " \t")
	if end < 0 {
		end = len(line)
	}
	word := line[:end]
	if i := strings.IndexByte(word, ':'); i >= 0 && i < len(word)-1 {
		end = i + 1
		word = line[:end]
	}
	return strings.ToLower(word), strings.TrimSpace(line[end:])
}

// command runs one non-body command; false ends the input (exit).
func (t *Topaz) command(name string, line int, word, rest string) bool {
	switch word {
	case "category:":
		t.category = strings.Trim(rest, "'")
	case "set":
		w, r := commandWordOf(rest)
		switch w {
		case "class", "class:":
			t.class = r
		case "category", "category:":
			t.category = strings.Trim(r, "'")
		case "compile_env:", "compile_env", "sourcestringclass", "user", "username", "password",
			"gemstone", "u", "p", "gems", "cachename", "solologin":
		default:
			t.fail(name, line, 0, "set "+w+" is not modelled")
		}
	case "expectvalue":
		t.expect = rest
	case "removeallmethods", "removeallclassmethods":
		cls := rest
		if cls == "" {
			cls = t.class
		}
		t.class = cls
		src := cls
		if word == "removeallclassmethods" {
			src += " class"
		}
		t.exec(name, line, src+" removeAllMethods", false)
	case "input":
		if rest == "pop" {
			return true
		}
		if t.depth > 32 {
			t.fail(name, line, 0, "input nests too deep")
			return true
		}
		t.depth++
		if err := t.RunFile(rest); err != nil {
			t.fail(name, line, 0, "input: "+err.Error())
		}
		t.depth--
	case "commit":
		if t.s.commit() {
			t.printf("Successful commit\n")
		} else {
			t.fail(name, line, 0, "commit failed (a conflict; abort to go on)")
		}
	case "abort":
		t.s.abort()
	case "errorcount":
		t.printf("%d\n", t.Errors)
	case "exit", "quit":
		return false
	case "login", "logout", "logoutifloggedin", "output", "fileformat", "display", "level", "omit",
		"iferr", "iferr_clear", "time", "status", "limit", "remark", "begin":
	default:
		t.fail(name, line, 0, "the topaz command "+word+" is not modelled")
	}
	return true
}

func (t *Topaz) fail(name string, line, number int, text string) {
	t.Errors++
	if number != 0 {
		t.printf("ERROR %d , %s (%s:%d)\n", number, text, name, line)
		return
	}
	t.printf("ERROR %s (%s:%d)\n", text, name, line)
}

func (t *Topaz) body(name string, line int, word, rest, src string) {
	switch word {
	case "run", "doit":
		t.exec(name, line, src, false)
	case "printit", "print":
		t.exec(name, line, src, true)
	default:
		cls := rest
		if cls == "" {
			cls = t.class
		}
		t.class = cls
		t.compile(name, line, cls, strings.HasPrefix(word, "classmethod"), src)
	}
}

// exec runs a doit. It answers the result, or reports the unhandled error.
func (t *Topaz) exec(name string, line int, src string, print bool) {
	expect := t.expect
	t.expect = ""
	v, errText, errNum, ok := t.s.Execute(src)
	if !ok {
		t.fail(name, line, errNum, errText)
		return
	}
	if print {
		t.printf("%s\n", t.s.safePrint(v))
	}
	if expect != "" && !t.matches(v, expect) {
		t.fail(name, line, 0, "expectvalue "+expect+" but the result was "+t.s.safePrint(v))
	}
}

func (t *Topaz) matches(v Value, expect string) bool {
	s := t.s
	if strings.HasPrefix(expect, "/") {
		cls, ok := s.img.byName[expect[1:]]
		if !ok {
			if expect[1:] == "Metaclass3" {
				cls = s.img.k.Metaclass
			} else {
				return false
			}
		}
		return s.isKindOf(v, cls)
	}
	return s.safePrint(v) == expect
}

func (t *Topaz) compile(name string, line int, className string, meta bool, src string) {
	s := t.s
	v, ok := s.globalNamed(className)
	cls, isCls := v.(*Object)
	if !ok || !isCls || s.rd(cls).class == nil {
		t.fail(name, line, 2101, "method: names "+className+", which is no class")
		return
	}
	if meta {
		cls = s.rd(cls).class.thisClass
	}
	var errs []compileErr
	func() {
		defer func() {
			if r := recover(); r != nil {
				if u, ok := r.(*unhandledError); ok {
					_, text := s.describeError(u.ex)
					errs = []compileErr{{number: 1001, text: text}}
					return
				}
				panic(r)
			}
		}()
		var m *Method
		m, errs, _ = s.compileInto(cls, src, toValues(s.symbolListDicts()), t.category, true)
		if m != nil && t.kernel {
			m.kernel = true
		}
	}()
	for _, e := range errs {
		t.fail(name, line+lineOfOffset(src, e.offset), e.number, "compiling "+s.className(cls)+": "+e.text)
	}
}

func toValues(l []*Object) []Value {
	out := make([]Value, len(l))
	for i, o := range l {
		out[i] = o
	}
	return out
}

func lineOfOffset(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return strings.Count(src[:off], "\n")
}

// Execute runs doit source in the session. It answers the value, or the unhandled error's text
// and number.
func (s *Session) Execute(src string) (v Value, errText string, errNum int, ok bool) {
	m, errs, _ := s.compileDoit(src, nil, s.symbolListDicts())
	if errs != nil {
		return nil, "a CompileError occurred (error 1001), " + s.compileErrorText(errs), 1001, false
	}
	return s.guarded(func() Value { return s.invoke(m, nil, nil) })
}

// guarded runs fn as one GCI call: an unhandled error, a break or a return from a dead
// method ends it with GemStone's number and text; the session stays usable.
func (s *Session) guarded(fn func() Value) (v Value, errText string, errNum int, ok bool) {
	saved := s.handlers
	defer func() {
		s.handlers = saved
		s.depth = 0
		if r := recover(); r != nil {
			switch x := r.(type) {
			case *unhandledError:
				errNum, errText = s.describeError(x.ex)
				v, ok = nil, false
			case hardBreak:
				v, errText, errNum, ok = nil, "the call was ended by a hard break", errHardBreak, false
			case *nonLocalReturn:
				v, errText, errNum, ok = nil, "a block returned from a method that had already returned (cannotReturn:)", 2006, false
			case *unwind, *resumption:
				v, errText, errNum, ok = nil, "an exception handler ended outside its on:do:", 2717, false
			case runtime.Error:
				v, errText, errNum, ok = nil, "gsmodel internal error: "+x.Error(), 1, false
			default:
				// a defect of the model: it ends this execution, never the process
				v, errText, errNum, ok = nil, fmt.Sprintf("gsmodel internal error: %v", r), 1, false
			}
		}
	}()
	return fn(), "", 0, true
}

func (s *Session) safePrint(v Value) (text string) {
	defer func() {
		if r := recover(); r != nil {
			text = "(printString failed)"
		}
	}()
	return s.printString(v)
}

// globalNamed resolves a name through the session's symbol list.
func (s *Session) globalNamed(name string) (Value, bool) {
	sym := s.symbol(name)
	for _, d := range s.symbolListDicts() {
		if a := s.dictAssoc(d, sym); a != nil {
			return s.assocValue(a), true
		}
	}
	return nil, false
}
