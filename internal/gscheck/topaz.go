package gscheck

import (
	"regexp"
	"strings"
)

// The topaz layer: a .gs file is a sequence of topaz command lines; some commands (doit, run,
// printit, method:, classmethod:) open a body of Smalltalk source that runs to a line starting
// with '%'. This file splits a file into those bodies and checks the command lines themselves.

type bodyKind int

const (
	bodyDoit bodyKind = iota
	bodyMethod
)

// body is one block of Smalltalk source from a .gs file.
type body struct {
	Kind     bodyKind
	Command  string // the topaz line that opened it, e.g. "method: Foo"
	CmdLine  int    // line of that command
	Class    string // for methods: the class name given to method:/classmethod: (or current class)
	Meta     bool   // classmethod:
	Category string
	Line     int    // line of the first source line
	Src      string // the source, newline-terminated lines
}

// gsFile is a parsed .gs file.
type gsFile struct {
	Path   string
	Bodies []*body
	Inputs []inputLine
}

// inputLine is a topaz `input path` command, checked against the file system later.
type inputLine struct {
	Line int
	Path string
}

// topazCommands are the commands a file-in may contain outside a body (Topaz 3.7 command list,
// as summarised in gemstone-smalltalk.md s1 and a public topaz command completion list). Each is
// matched by its full spelling; the few abbreviations seen in the wild are listed explicitly.
var topazCommands = map[string]bool{
	"abort": true, "allstacks": true, "begin": true, "break": true, "category:": true,
	"classmethod": true, "classmethod:": true, "commit": true, "continue": true, "define": true,
	"disassem": true, "display": true, "doit": true, "down": true, "edit": true,
	"errorcount": true, "exec": true, "exit": true, "exitifnoerror": true, "expecterror": true,
	"expectbug": true, "expectvalue": true, "fileformat": true, "fileout": true, "frame": true,
	"gcitrace": true, "help": true, "hierarchy": true, "history": true, "iferr": true,
	"iferr_clear": true, "iferr_list": true, "iferror": true, "implementors": true, "input": true,
	"inspect": true, "interp": true, "level": true, "limit": true, "list": true, "literals": true,
	"login": true, "logout": true, "logoutifloggedin": true, "lookup": true, "method": true,
	"method:": true, "nbresult": true, "nbrun": true, "nbstep": true, "obj1": true, "obj2": true,
	"obj1z": true, "obj2z": true, "object": true, "omit": true, "output": true,
	"pausefordebug": true, "pkglookup": true, "print": true, "printit": true,
	"protectmethods": true, "quit": true, "releaseall": true, "remark": true,
	"removeallclassmethods": true, "removeallmethods": true, "run": true, "send": true,
	"senders": true, "set": true, "shell": true, "spawn": true, "stack": true, "status": true,
	"step": true, "stk": true, "strings": true, "stringsic": true, "subclasses": true,
	"temporary": true, "thread": true, "threads": true, "time": true, "unprotectmethods": true,
	"up": true, "where": true, "debugrun": true,
}

var codeCommands = map[string]bool{"doit": true, "run": true, "printit": true, "print": true,
	"nbrun": true, "debugrun": true}

// commandWord answers the lower-cased first word of a topaz line, keeping a trailing ':' that is
// glued to it (method: / category:), and the rest of the line.
func commandWord(line string) (string, string) {
	line = strings.TrimSpace(line)
	end := strings.IndexAny(line, " \t")
	if end < 0 {
		end = len(line)
	}
	word := line[:end]
	if i := strings.IndexByte(word, ':'); i >= 0 && i < len(word)-1 {
		end = i + 1 // "method:Foo"
		word = line[:end]
	}
	return strings.ToLower(word), strings.TrimSpace(line[end:])
}

// lostPercent matches a line inside a body that can only be a topaz command: the mark of a '%'
// lost in an edit or merge, after which topaz swallows the following command as Smalltalk.
var lostPercent = regexp.MustCompile(`^(?:` +
	`(?:method|classmethod)(?::.*)?|` +
	`(?:doit|run|printit|commit|abort|errorcount|errorCount|logout|login)\s*|` +
	`category:.*|expectvalue\b.*|removeallmethods\b.*|removeallclassmethods\b.*|` +
	`set\s+(?:compile_env|class|category|sourcestringclass)\b.*|input\s+\S+\s*|` +
	`iferr\b.*|output\s+(?:push|pop|append|pushnew)\b.*|fileformat\b.*|!.*)$`)

// parseTopaz splits a file into bodies, reporting topaz-level findings through report.
func parseTopaz(path string, src string, report func(line int, msg string)) *gsFile {
	f := &gsFile{Path: path}
	lines := strings.SplitAfter(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var (
		cur          *body
		srcLines     []string
		sawSource    bool // the open body has a non-blank line
		category     string
		currentClass string
	)
	closeBody := func() {
		cur.Src = strings.Join(srcLines, "")
		f.Bodies = append(f.Bodies, cur)
		cur, srcLines, sawSource = nil, nil, false
	}
	for i := 0; i < len(lines); i++ {
		n := i + 1
		raw := strings.TrimRight(lines[i], "\r\n")
		if cur != nil {
			if strings.HasPrefix(raw, "%") {
				closeBody()
				continue
			}
			// A method's first source line is its pattern, which may well be `run` or `commit`.
			isPattern := cur.Kind == bodyMethod && !sawSource
			if !isPattern && lostPercent.MatchString(raw) {
				report(n, "topaz command "+quoteLine(raw)+" inside the body opened by "+
					quoteLine(cur.Command)+" at line "+itoa(cur.CmdLine)+" (a lost %?)")
				closeBody()
				i-- // read this line again as the command it is
				continue
			}
			srcLines = append(srcLines, lines[i])
			sawSource = sawSource || strings.TrimSpace(raw) != ""
			continue
		}
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "#(") || strings.HasPrefix(trimmed, "#[") {
			// topaz would take it for a # comment line and skip it without a word
			report(n, "Smalltalk outside a body: "+quoteLine(raw)+" is read by topaz as a # comment (a lost doit?)")
			continue
		}
		if trimmed == "" || trimmed[0] == '!' || trimmed[0] == '#' {
			continue
		}
		if trimmed[0] >= 'A' && trimmed[0] <= 'Z' && strings.ToUpper(trimmed) != trimmed {
			report(n, "Smalltalk outside a body: "+quoteLine(raw)+" is no topaz command (a lost doit or method: line?)")
			continue
		}
		word, rest := commandWord(raw)
		switch {
		case word == "%":
			report(n, "a % with no open body")
		case codeCommands[word]:
			cur = &body{Kind: bodyDoit, Command: trimmed, CmdLine: n, Line: n + 1}
		case word == "method:" || word == "classmethod:" || word == "method" || word == "classmethod":
			cls := strings.TrimSpace(rest)
			if cls == "" {
				cls = currentClass
			}
			if cls == "" {
				report(n, quoteLine(trimmed)+" names no class and no class is current")
			}
			if strings.ContainsAny(cls, " \t") {
				report(n, quoteLine(trimmed)+" has more than a class name after it")
			}
			currentClass = cls
			cur = &body{Kind: bodyMethod, Command: trimmed, CmdLine: n, Line: n + 1, Class: cls,
				Meta: strings.HasPrefix(word, "classmethod"), Category: category}
		case word == "category:":
			category = strings.Trim(rest, "'")
		case word == "set":
			sw, sr := commandWord(rest)
			switch sw {
			case "class", "class:":
				currentClass = sr
			case "category:", "category":
				category = strings.Trim(sr, "'")
			}
		case word == "input":
			if rest != "" && rest != "pop" {
				f.Inputs = append(f.Inputs, inputLine{n, rest})
			}
		case word == "removeallmethods" || word == "removeallclassmethods":
			if rest != "" {
				currentClass = rest
			}
		case topazCommands[word]:
		default:
			report(n, "unknown topaz command "+quoteLine(trimmed))
		}
	}
	if cur != nil {
		report(cur.CmdLine, quoteLine(cur.Command)+" opens a body that no % line closes")
		closeBody()
	}
	return f
}

func quoteLine(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + s + "`"
}
