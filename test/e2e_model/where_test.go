package e2e_model

import (
	"encoding/json"
	"strings"
	"testing"
)

// frame is one entry of structuredContent frames (McpStackReport).
type frame struct {
	Method   string            `json:"method"`
	Line     int               `json:"line"`
	Source   string            `json:"source"`
	Receiver string            `json:"receiver"`
	Args     map[string]string `json:"args"`
	Temps    map[string]string `json:"temps"`
}

// whereResult is a tool result with the structured content of a failure: describe_test_failure's
// own, a run's problems, or an execute_code error.
type whereResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	Structured struct {
		Frames    []frame `json:"frames"`
		Exception struct {
			Class       string `json:"class"`
			Description string `json:"description"`
		} `json:"exception"`
		Problems []struct {
			Test   string  `json:"test"`
			Frames []frame `json:"frames"`
		} `json:"problems"`
		Error struct {
			Kind      string  `json:"kind"`
			Exception string  `json:"exception"`
			Frames    []frame `json:"frames"`
			Line      int     `json:"line"`
			Column    int     `json:"column"`
		} `json:"error"`
	} `json:"structuredContent"`
}

func (ss *session) where(tool string, args map[string]any) whereResult {
	ss.t.Helper()
	raw := ss.request("tools/call", map[string]any{"name": tool, "arguments": args})
	var r whereResult
	if err := json.Unmarshal(raw, &r); err != nil {
		ss.t.Fatalf("%s: %v: %s", tool, err, raw)
	}
	return r
}

func (r whereResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func frameNamed(frames []frame, method string) *frame {
	for i := range frames {
		if frames[i].Method == method {
			return &frames[i]
		}
	}
	return nil
}

// The three failures of issue 27's scenario, each answered with the method, line and values that
// explain it: a failed assert:, an error raised two sends deep, and execute_code that raises.
func TestEachFailureExplainsItself(t *testing.T) {
	s := start(t)
	a := s.open(t)
	t.Run("a failed assert: shows the test method's frame", func(t *testing.T) { failedAssertSaysWhere(t, a.in(t)) })
	t.Run("an error two sends deep shows both frames", func(t *testing.T) { deepErrorSaysWhere(t, a.in(t)) })
	t.Run("execute_code that raises shows the frames up to the code", func(t *testing.T) { raisingCodeSaysWhere(t, a.in(t)) })
	t.Run("a compile error in execute_code names its line and column", func(t *testing.T) { compileErrorSaysWhere(t, a.in(t)) })
}

// failedAssertSaysWhere: a failed assert: shows the test method's frame, its line and source,
// and its temporaries.
func failedAssertSaysWhere(t *testing.T, a *session) {
	r := a.where("describe_test_failure", map[string]any{"className": sampleTests, "selector": failingTest})
	last := r.Structured.Frames[len(r.Structured.Frames)-1]
	if last.Method != sampleTests+">>"+failingTest || last.Line != 5 || last.Source != "self assert: savings balance = 159" {
		t.Fatalf("describe_test_failure: the test method's frame is %+v\n%s", last, r.text())
	}
	if !strings.Contains(last.Temps["savings"], "SampleSavingsAccount") || r.Structured.Exception.Class != "TestFailure" {
		t.Errorf("describe_test_failure: temps %v, exception %+v", last.Temps, r.Structured.Exception)
	}
	if !strings.Contains(r.text(), sampleTests+">>"+failingTest+" (line 5): self assert: savings balance = 159") {
		t.Errorf("describe_test_failure text does not show the failing line:\n%s", r.text())
	}

}

// deepErrorSaysWhere: an error two sends deep (transfer:to: calls withdraw:, which refuses)
// shows both frames.
func deepErrorSaysWhere(t *testing.T, a *session) {
	a.must("compile_method", map[string]any{"className": "SampleAccount",
		"source": "transfer: cents to: anAccount\n  self withdraw: cents.\n  anAccount deposit: cents"})
	a.must("compile_method", map[string]any{"className": sampleTests,
		"source": "testTransferMoreThanTheBalance\n  account deposit: 100.\n  account transfer: 500 to: (SampleAccount owner: 'bob')"})
	r := a.where("run_test_class", testClassArgs())
	var deep []frame
	for _, p := range r.Structured.Problems {
		if p.Test == sampleTests+">>testTransferMoreThanTheBalance" {
			deep = p.Frames
		}
	}
	withdraw, transfer := frameNamed(deep, "SampleAccount>>withdraw:"), frameNamed(deep, "SampleAccount>>transfer:to:")
	if withdraw == nil || transfer == nil {
		t.Fatalf("run_test_class: the error's frames do not name withdraw: and transfer:to: %+v\n%s", deep, r.text())
	}
	if withdraw.Line != 2 || withdraw.Args["cents"] != "500" || transfer.Line != 2 {
		t.Errorf("run_test_class: withdraw: %+v, transfer:to: %+v", *withdraw, *transfer)
	}
	if !strings.Contains(r.text(), "SampleAccount>>withdraw: (line 2): cents > balance ifTrue: [^self error: 'insufficient funds'].") {
		t.Errorf("run_test_class text does not show where the error was raised:\n%s", r.text())
	}

}

// raisingCodeSaysWhere: execute_code that raises shows the frames from withdraw: up to the
// evaluated code.
func raisingCodeSaysWhere(t *testing.T, a *session) {
	r := a.where("execute_code", map[string]any{"code": "| poor |\npoor := SampleAccount owner: 'eve'.\npoor withdraw: 5"})
	if !r.IsError || r.Structured.Error.Kind != "other" || r.Structured.Error.Exception == "" {
		t.Fatalf("execute_code that raises: %+v\n%s", r.Structured.Error, r.text())
	}
	frames := r.Structured.Error.Frames
	code := frameNamed(frames, "executed code")
	if frameNamed(frames, "SampleAccount>>withdraw:") == nil || code == nil || code.Line != 3 || !strings.Contains(code.Temps["poor"], "SampleAccount") {
		t.Fatalf("execute_code frames: %+v\n%s", frames, r.text())
	}

}

// compileErrorSaysWhere: a compile error in execute_code carries its line and column.
func compileErrorSaysWhere(t *testing.T, a *session) {
	r := a.where("execute_code", map[string]any{"code": "| x |\nx := 3 +"})
	if r.Structured.Error.Kind != "compileError" || r.Structured.Error.Line != 2 || r.Structured.Error.Column == 0 {
		t.Errorf("execute_code compile error: %+v\n%s", r.Structured.Error, r.text())
	}
}
