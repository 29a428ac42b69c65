package e2e_model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// pendingPage is the structuredContent of pending_changes, abort and commit.
type pendingPage struct {
	Items []struct {
		Change    string `json:"change"`
		Key       string `json:"key"`
		ClassName string `json:"className"`
		Selector  string `json:"selector"`
		Side      string `json:"side"`
		Category  string `json:"category"`
	} `json:"items"`
	Total    int  `json:"total"`
	Complete bool `json:"complete"`
}

// structured calls a tool that must succeed and decodes its structuredContent into v.
func (ss *session) structured(tool string, args map[string]any, v any) string {
	ss.t.Helper()
	raw := ss.request("tools/call", map[string]any{"name": tool, "arguments": args})
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.IsError || len(r.Content) == 0 {
		ss.t.Fatalf("%s: %v: %s", tool, err, raw)
	}
	if err := json.Unmarshal(r.StructuredContent, v); err != nil {
		ss.t.Fatalf("%s: structuredContent %s: %v", tool, r.StructuredContent, err)
	}
	return r.Content[0].Text
}

// A session's uncommitted changes, from none to abort; the subtests are the steps, in order.
func TestTheSessionsPendingChanges(t *testing.T) {
	s := start(t)
	a := s.open(t)
	var page pendingPage
	t.Run("are none in a fresh session", func(t *testing.T) {
		if text := a.in(t).structured("pending_changes", map[string]any{}, &page); page.Total != 0 || !strings.Contains(text, "(0 changes)") {
			t.Fatalf("pending_changes of a fresh session: %q %+v", text, page)
		}
	})
	t.Run("are announced by the first change", func(t *testing.T) {
		a := a.in(t)
		a.must("get_method_source", addInterest())
		first := a.must("compile_method", compileArgs(fixedSource))
		if !strings.Contains(first, "[session] This session now holds uncommitted changes") || !strings.Contains(first, "without a request") {
			t.Errorf("the first change does not say the session now holds changes and what deadline ends it: %q", first)
		}
	})
	t.Run("are not announced again by a second change", func(t *testing.T) {
		a := a.in(t)
		a.must("compile_class_definition", map[string]any{"className": "TxnProbe"})
		second := a.must("compile_method", map[string]any{"className": "TxnProbe", "source": "answer\n  ^42", "category": "probing"})
		if strings.Contains(second, "[session]") {
			t.Errorf("a second change repeats the [session] footer though nothing about the session changed: %q", second)
		}
	})
	t.Run("are listed exactly as the tools made them", func(t *testing.T) { pendingChangesListed(t, a.in(t), &page) })
	t.Run("are named by abort as discarded", func(t *testing.T) {
		a := a.in(t)
		var discarded pendingPage
		text := a.structured("abort", map[string]any{}, &discarded)
		if discarded.Total != 3 || !strings.Contains(text, "3 changes discarded") || !strings.Contains(text, "class created: TxnProbe") {
			t.Errorf("abort: %q %+v, want the 3 changes named as discarded", text, discarded)
		}
		if text := a.structured("pending_changes", map[string]any{}, &page); page.Total != 0 {
			t.Errorf("pending_changes after abort: %q", text)
		}
	})
}

func pendingChangesListed(t *testing.T, a *session, page *pendingPage) {
	text := a.structured("pending_changes", map[string]any{}, page)
	want := []string{
		"method changed: SampleSavingsAccount>>addInterest",
		"class created: TxnProbe in UserGlobals",
		"method added: TxnProbe>>answer (category probing)",
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("pending_changes does not list %q: %q", w, text)
		}
	}
	if page.Total != 3 || len(page.Items) != 3 || !page.Complete {
		t.Fatalf("pending_changes structuredContent: %+v, want exactly the 3 changes, complete", page)
	}
	if it := page.Items[2]; it.Change != "methodAdded" || it.ClassName != "TxnProbe" || it.Selector != "answer" || it.Side != "instance" || it.Category != "probing" {
		t.Errorf("the method entry: %+v", it)
	}
}

// A commit refused for a conflict; the subtests are the steps, in order.
func TestARefusedCommit(t *testing.T) {
	_, b, r := conflictingCommits(t, start(t))
	t.Run("names the conflicting method, its class and the next step", func(t *testing.T) {
		for _, w := range []string{"Write-Write on the method dictionary of SampleSavingsAccount; your changes there: method changed: SampleSavingsAccount>>addInterest", "Next: call abort", "re-read SampleSavingsAccount"} {
			if !strings.Contains(r.Text(), w) {
				t.Errorf("the refusal does not say %q: %s", w, r.Text())
			}
		}
	})
	t.Run("reports the method dictionary as one conflict naming the selector", func(t *testing.T) {
		// The method dictionary and selector set the model reports are one entry, naming the
		// selector this session changed there.
		if cs := r.Conflicts(); len(cs) != 1 || cs[0]["object"] != "method dictionary" ||
			cs[0]["className"] != sampleClass || fmt.Sprint(cs[0]["selectors"]) != "[addInterest]" {
			t.Errorf("structuredContent.error.conflicts: %v, want the one method dictionary entry naming addInterest", cs)
		}
	})
	t.Run("is recalled by every later result, which asks for no commit", func(t *testing.T) {
		next := b.in(t).call("status", map[string]any{})
		if !strings.Contains(next.Text(), "nothing can be committed until abort") || strings.Contains(next.Text(), "commit keeps them") {
			t.Errorf("the [session] line after a failed commit: %q", next.Text())
		}
	})
	t.Run("leaves abort to name what it discards", func(t *testing.T) {
		var discarded pendingPage
		if text := b.in(t).structured("abort", map[string]any{}, &discarded); discarded.Total != 1 || !strings.Contains(text, "SampleSavingsAccount>>addInterest") {
			t.Errorf("abort after the conflict: %q", text)
		}
	})
}

// Two sessions that change different methods of one class conflict all the same, on the class's
// method dictionary (GemStone's per-class grain, which the model follows): the refusal names
// that dictionary, the class and the method this session added, and a commit into another
// class goes through.
func TestDifferentMethodsOfOneClassConflictOnItsMethodDictionary(t *testing.T) {
	s := start(t)
	a, b := s.open(t), s.open(t)
	a.must("get_method_source", addInterest())
	a.must("compile_method", compileArgs(fixedSource))
	b.must("compile_method", compileArgs("rivalProbe\n  ^1"))
	a.must("commit", map[string]any{})
	r := b.call("commit", map[string]any{})
	if !r.IsError || r.Kind() != "commitConflict" ||
		!strings.Contains(r.Text(), "Write-Write on the method dictionary of SampleSavingsAccount; your changes there: method added: SampleSavingsAccount>>rivalProbe") {
		t.Fatalf("the commit of another method of the class: kind %q: %s", r.Kind(), r.Text())
	}
	if cs := r.Conflicts(); len(cs) != 1 || fmt.Sprint(cs[0]["selectors"]) != "[rivalProbe]" {
		t.Errorf("structuredContent.error.conflicts: %v, want one entry naming rivalProbe", cs)
	}
	b.must("abort", map[string]any{})
	b.must("compile_method", map[string]any{"className": "SampleAccount", "source": "rivalProbe\n  ^1"})
	a.must("compile_method", compileArgs("ownProbe\n  ^2"))
	b.must("commit", map[string]any{})
	if got := a.call("commit", map[string]any{}); got.IsError {
		t.Errorf("a commit into another class than the other session's was refused: %s", got.Text())
	}
}

func TestExecuteCodeThatCommitsOrAbortsSaysSo(t *testing.T) {
	s := start(t)
	a, other := s.open(t), s.open(t)
	a.must("get_method_source", addInterest())
	a.must("compile_method", compileArgs(fixedSource))
	got := a.must("execute_code", map[string]any{"code": "System commitTransaction. 1"})
	if !strings.Contains(got, "[session] execute_code committed the transaction: 1 change (SampleSavingsAccount>>addInterest) was now visible") {
		t.Errorf("execute_code that commits: %q", got)
	}
	if src := other.must("abort", map[string]any{}); !strings.Contains(src, "Aborted") {
		t.Fatalf("abort: %q", src)
	}
	if src := other.must("get_method_source", addInterest()); !strings.Contains(src, "+ 99") {
		t.Errorf("another session does not see what execute_code committed: %q", src)
	}
	a.must("compile_method", map[string]any{"className": sampleClass, "source": "txnProbe\n  ^1"})
	got = a.must("execute_code", map[string]any{"code": "System abortTransaction. 1"})
	if !strings.Contains(got, "[session] execute_code aborted the transaction: 1 change (SampleSavingsAccount>>txnProbe) was discarded") {
		t.Errorf("execute_code that aborts: %q", got)
	}
}

func TestAnOwnCommitReportsNoneOfItsOwnWritesAsStale(t *testing.T) {
	s := start(t)
	a := s.open(t)
	a.must("list_dictionary_entries", map[string]any{"dictionaryName": "UserGlobals"})
	a.must("describe_class", map[string]any{"className": sampleClass})
	a.must("get_method_source", addInterest())
	a.must("compile_class_definition", map[string]any{"className": "TxnOwn"})
	a.must("compile_method", compileArgs(fixedSource))
	got := a.must("commit", map[string]any{})
	next := a.must("status", map[string]any{})
	if strings.Contains(got, "stale") || strings.Contains(next, "stale") {
		t.Errorf("an own commit reported its own writes as stale: %q / %q", got, next)
	}
	if !strings.Contains(got, "2 changes published") {
		t.Errorf("commit does not name what it published: %q", got)
	}
}
