package e2e_model

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// toolError is a failed call's structuredContent.error with the fields the answers add.
type toolError struct {
	Kind          string   `json:"kind"`
	Message       string   `json:"message"`
	Suggestions   []string `json:"suggestions"`
	InheritedFrom string   `json:"inheritedFrom"`
	ReadWith      []string `json:"readWith"`
}

// failure calls a tool that must fail and decodes its structuredContent.error.
func (ss *session) failure(tool string, args map[string]any) toolError {
	ss.t.Helper()
	raw := ss.request("tools/call", map[string]any{"name": tool, "arguments": args})
	var r struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Error toolError `json:"error"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || !r.IsError {
		ss.t.Fatalf("%s %v: want a tool error, got %s (%v)", tool, args, raw, err)
	}
	return r.StructuredContent.Error
}

// A name an agent got slightly wrong is answered with what it most likely meant, so the next call
// is the right one rather than a listing.
func TestAMisspelledOrMisplacedNameIsAnsweredWithWhatWasMeant(t *testing.T) {
	s := start(t)
	a := s.open(t)
	if e := a.failure("describe_class", map[string]any{"className": "SampleAcount"}); e.Kind != "notFound" || !slices.Equal(e.Suggestions, []string{"SampleAccount"}) {
		t.Errorf("describe_class SampleAcount: %+v, want notFound suggesting SampleAccount", e)
	}
	if e := a.failure("get_method_source", map[string]any{"className": "SampleAccount", "selector": "withdraw"}); !slices.Contains(e.Suggestions, "withdraw:") {
		t.Errorf("get_method_source withdraw: %+v, want withdraw: suggested", e)
	}
	if e := a.failure("get_method_source", map[string]any{"className": sampleClass, "selector": "withdraw:"}); e.InheritedFrom != "SampleAccount" {
		t.Errorf("get_method_source %s>>withdraw:: %+v, want inheritedFrom SampleAccount", sampleClass, e)
	}
	if got := a.must("get_method_source", map[string]any{"className": "SampleAccount", "selector": "#deposit:"}); !strings.HasPrefix(got, "deposit: cents") {
		t.Errorf("get_method_source #deposit:: %q, want the source of deposit:", got)
	}
	if e := a.failure("run_test_method", map[string]any{"className": sampleTests, "selector": "setUp"}); e.Kind != "notFound" || !strings.Contains(e.Message, "is not a test") {
		t.Errorf("run_test_method setUp: %+v, want notFound saying it is not a test", e)
	}
	if got := a.must("find_implementors", map[string]any{"selector": "withdraw"}); !strings.Contains(got, "did you mean withdraw:?") {
		t.Errorf("find_implementors withdraw: %q, want a did you mean withdraw:", got)
	}
}

func TestExecuteCodeAnswersTheTranscriptAheadOfTheValueCappedAtMaxChars(t *testing.T) {
	s := start(t)
	a := s.open(t)
	got := a.must("execute_code", map[string]any{"code": "Transcript show: 'step 1'; show: ' done'. 3 + 4"})
	if !strings.HasPrefix(got, "Transcript (11 characters):\nstep 1 done\nValue: 7") {
		t.Errorf("execute_code with Transcript output: %q", got)
	}
	got = a.must("execute_code", map[string]any{"code": "(1 to: 1000) asArray", "maxChars": 10})
	if !strings.HasPrefix(got, "anArray( 1...[truncated: showing 10 of ") {
		t.Errorf("execute_code maxChars 10: %q", got)
	}
}

// A shape change is previewed without writing, then made; both name the method it drops and show
// its source, and the guardrail's refusal names the read that licenses the write.
func TestAShapeChange(t *testing.T) {
	s := start(t)
	a := s.open(t)
	a.must("compile_class_definition", map[string]any{"className": "AnswersProbe", "instVarNames": []string{"balance"}, "category": "Probes"})
	a.must("compile_method", map[string]any{"className": "AnswersProbe", "source": "balance\n  ^balance"})
	a.must("compile_method", map[string]any{"className": "AnswersProbe", "source": "label\n  ^'probe'"})
	redefine := map[string]any{"className": "AnswersProbe", "instVarNames": []string{"cents"}, "dryRun": true}
	t.Run("the guardrail's refusal names the read that licenses a write", func(t *testing.T) {
		if e := a.in(t).failure("delete_method", map[string]any{"className": "SampleAccount", "selector": "owner"}); e.Kind != "refused" || !slices.Contains(e.ReadWith, "get_method_source") {
			t.Errorf("delete_method of an unread method: %+v, want refused naming get_method_source", e)
		}
	})
	t.Run("is previewed without writing, naming what it drops", func(t *testing.T) {
		a := a.in(t)
		a.must("describe_class", map[string]any{"className": "AnswersProbe"})
		preview := a.must("compile_class_definition", redefine)
		for _, want := range []string{"1 of 2 methods would come over", "AnswersProbe>>balance -- it uses balance", "\n      ^balance", "Nothing was written."} {
			if !strings.Contains(preview, want) {
				t.Errorf("the dry run does not say %q: %q", want, preview)
			}
		}
		if got := a.must("get_method_source", map[string]any{"className": "AnswersProbe", "selector": "balance"}); !strings.Contains(got, "^balance") {
			t.Errorf("after the dry run balance is %q, want it untouched", got)
		}
	})
	t.Run("made, shows the dropped method's source", func(t *testing.T) {
		delete(redefine, "dryRun")
		made := a.in(t).must("compile_class_definition", redefine)
		if !strings.Contains(made, "recompiled 1 of 2 methods") || !strings.Contains(made, "\n      ^balance") {
			t.Errorf("the shape change does not show the dropped method's source: %q", made)
		}
	})
	t.Run("leaves the other methods for search_method_source to show", func(t *testing.T) {
		found := a.in(t).must("search_method_source", map[string]any{"pattern": "'probe'", "dictionaryName": "UserGlobals"})
		if !strings.Contains(found, "AnswersProbe>>label\n    2: ^'probe'") {
			t.Errorf("search_method_source does not show the matching line: %q", found)
		}
	})
}
