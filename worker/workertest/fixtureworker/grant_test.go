package fixtureworker

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

const grantSurface = `"toolsets":["McpFixtureToolset","McpFixtureWriteToolset","McpFixtureExecToolset"]`

func grantConfigWith(grant string) string {
	cfg := strings.TrimSuffix(testConfig, "}") + "," + grantSurface
	if grant != "" {
		cfg += `,"grant":{"toolsets":` + grant + `}`
	}
	return cfg + "}"
}

func listedNames(t *testing.T, w *Worker) []string {
	t.Helper()
	r := handle(t, w, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var res struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestTheGrantToolsetsAreOutsideTheDefaultSurface(t *testing.T) {
	w := newWorker(t, testConfig)
	names := listedNames(t, w)
	if slices.Contains(names, "note") || slices.Contains(names, "notes") {
		t.Fatalf("the default surface lists %v", names)
	}
	r := handle(t, w, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"note","arguments":{"text":"x"}}}`)
	wantCode(t, r, CodeInvalidParams) // not in the surface: an unknown tool, not a grant matter
}

func TestAGrantOfOneToolset(t *testing.T) {
	w := newWorker(t, grantConfigWith(`["McpFixtureWriteToolset"]`))
	t.Run("lists only its tools", func(t *testing.T) {
		if names := listedNames(t, w); !slices.Equal(names, []string{"note"}) {
			t.Fatalf("granted write only, listed %v", names)
		}
	})
	t.Run("refuses another toolset's tool by kind", func(t *testing.T) {
		r := handle(t, w, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
		wantCode(t, r, CodeNotGranted)
		if r.Error == nil || r.Error.Data["kind"] != NotGrantedKind || r.Error.Data["toolset"] != ToolsetName || r.Error.Data["tool"] != "echo" {
			t.Fatalf("not granted: %+v", r.Error)
		}
	})
	t.Run("is echoed in the prepare answer", func(t *testing.T) {
		var a struct {
			Tools int          `json:"tools"`
			Grant *grantConfig `json:"grant"`
		}
		_ = json.Unmarshal(w.PrepareAnswer(3), &a)
		if a.Grant == nil || !slices.Equal(a.Grant.Toolsets, []string{WriteToolsetName}) || a.Tools != len(toolsOf(ToolsetName))+2 {
			t.Fatalf("prepare answer: %+v", a)
		}
	})
}

// Grant on one worker; each subtest is one step, in order.
func TestGrantChangesTheSurface(t *testing.T) {
	w := newWorker(t, grantConfigWith(`["McpFixtureWriteToolset"]`))
	handle(t, w, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"note","arguments":{"text":"kept"}}}`)
	t.Run("grows it", func(t *testing.T) {
		if got := string(w.Grant([]byte(`{"toolsets":["McpFixtureWriteToolset","McpFixtureExecToolset"]}`))); got != `{"grant":{"toolsets":["McpFixtureWriteToolset","McpFixtureExecToolset"]},"ok":true}` {
			t.Fatalf("grow: %s", got)
		}
	})
	t.Run("keeps the session's state", func(t *testing.T) {
		r := handle(t, w, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"notes","arguments":{}}}`)
		if r.Error != nil || !strings.Contains(string(r.Result), "kept") {
			t.Fatalf("notes after the grant grew: %s %+v", r.Result, r.Error)
		}
	})
	t.Run("shrinks it", func(t *testing.T) {
		w.Grant([]byte(`{"toolsets":[]}`))
		if names := listedNames(t, w); len(names) != 0 {
			t.Fatalf("an empty grant lists %v", names)
		}
		wantCode(t, handle(t, w, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"notes","arguments":{}}}`), CodeNotGranted)
	})
}

func TestAGrantOutsideTheSurfaceIsRefused(t *testing.T) {
	if _, err := New([]byte(grantConfigWith(`["McpElsewhereToolset"]`))); err == nil || err.(*PrepareError).Kind != errkind.BadConfig {
		t.Fatalf("prepare with a foreign grant: %v", err)
	}
	w := newWorker(t, grantConfigWith(`["McpFixtureToolset"]`))
	for _, bad := range []string{`{"toolsets":["McpElsewhereToolset"]}`, `{"toolsets":null}`, `[]`} {
		if got := string(w.Grant([]byte(bad))); !strings.Contains(got, `"kind":"badGrant"`) || !strings.Contains(got, `"ok":false`) {
			t.Errorf("grant %s: %s", bad, got)
		}
	}
	if names := listedNames(t, w); len(names) != len(toolsOf(ToolsetName)) {
		t.Fatalf("a refused grant changed the surface: %v", names)
	}
}
