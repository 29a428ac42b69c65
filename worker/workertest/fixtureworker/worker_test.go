package fixtureworker

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

const testConfig = `{"contract":1,"workerClass":"McpServer","protocolVersions":["2025-11-25","2025-06-18","2025-03-26"],
"cacheName":"McpServer:r1:abcdefgh","resultCap":0,"frontEnd":{"name":"test","version":"0","routerId":"r1"}}`

func newWorker(t *testing.T, cfg string) *Worker {
	t.Helper()
	w, err := New([]byte(cfg))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return w
}

// reply is a decoded JSON-RPC response.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code int            `json:"code"`
		Data map[string]any `json:"data"`
	} `json:"error"`
}

func handle(t *testing.T, w *Worker, msg string) reply {
	t.Helper()
	out, err := w.Handle(context.Background(), []byte(msg))
	if err != nil {
		t.Fatalf("Handle(%s): %v", msg, err)
	}
	var r reply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("reply %q is not JSON: %v", out, err)
	}
	return r
}

func wantCode(t *testing.T, r reply, code int) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code {
		t.Fatalf("want error %d, got %+v result %s", code, r.Error, r.Result)
	}
}

type toolResult = mcptest.ToolResult

func callTool(t *testing.T, w *Worker, name, args string) toolResult {
	t.Helper()
	r := handle(t, w, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`)
	if r.Error != nil {
		t.Fatalf("tools/call %s: JSON-RPC error %d", name, r.Error.Code)
	}
	var tr toolResult
	if err := json.Unmarshal(r.Result, &tr); err != nil {
		t.Fatalf("tool result %s: %v", r.Result, err)
	}
	return tr
}

func TestPrepareRefusesWhatTheContractSaysItMust(t *testing.T) {
	cases := map[string]string{
		`{"contract":2,"workerClass":"McpServer","protocolVersions":["x"]}`:                                                   "contractVersion",
		`{"workerClass":"McpServer","protocolVersions":["x"]}`:                                                                "contractVersion",
		`{"contract":1,"protocolVersions":["x"]}`:                                                                             "badConfig",
		`{"contract":1,"workerClass":"McpServer","protocolVersions":[]}`:                                                      "badConfig",
		`{"contract":1,"workerClass":"McpServer","protocolVersions":["x"],"toolsets":["AcmeToolset"]}`:                        "toolsetNotFound",
		`{"contract":1,"workerClass":"McpServer","protocolVersions":["x"],"toolsetOptions":{"Acme":{}}}`:                      "toolsetNotFound",
		`{"contract":1,"workerClass":"McpServer","protocolVersions":["x"],"toolsetOptions":{"McpFixtureToolset":{"nope":1}}}`: "badOption",
		`[1,2]`: "badConfig",
	}
	for cfg, kind := range cases {
		_, err := New([]byte(cfg))
		var pe *PrepareError
		if !errors.As(err, &pe) || pe.Kind != kind {
			t.Errorf("config %s: want kind %s, got %v", cfg, kind, err)
			continue
		}
		var answer struct {
			OK    bool                  `json:"ok"`
			Error struct{ Kind string } `json:"error"`
		}
		if err := json.Unmarshal(PrepareFailure(err), &answer); err != nil || answer.OK || answer.Error.Kind != kind {
			t.Errorf("config %s: failure answer %s", cfg, PrepareFailure(err))
		}
	}
}

// The prepare answer names the gem's session, the worker class, the server and the tool count.
func TestThePrepareAnswer(t *testing.T) {
	w := newWorker(t, testConfig)
	var a map[string]any
	if err := json.Unmarshal(w.PrepareAnswer(12), &a); err != nil {
		t.Fatal(err)
	}
	if a["ok"] != true || a["gemSession"] != 12.0 || a["workerClass"] != "McpServer" ||
		a["serverName"] != DefaultServerName || a["tools"] != float64(len(toolsOf(ToolsetName))) {
		t.Fatalf("prepare answer %v", a)
	}
}

func TestInitializeEchoesAListedVersionElseOffersTheFirst(t *testing.T) {
	w := newWorker(t, testConfig)
	for client, want := range map[string]string{"2025-06-18": "2025-06-18", "1999-01-01": "2025-11-25"} {
		r := handle(t, w, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+client+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		var res struct {
			ProtocolVersion string                    `json:"protocolVersion"`
			Capabilities    map[string]map[string]any `json:"capabilities"`
			ServerInfo      struct{ Name string }     `json:"serverInfo"`
			Instructions    string                    `json:"instructions"`
		}
		if err := json.Unmarshal(r.Result, &res); err != nil {
			t.Fatal(err)
		}
		if res.ProtocolVersion != want || res.Capabilities["tools"] == nil || res.ServerInfo.Name != DefaultServerName ||
			!strings.Contains(res.Instructions, "STAND-IN") {
			t.Errorf("client %s: %s", client, r.Result)
		}
	}
	wantCode(t, handle(t, w, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`), CodeInvalidParams)
}

func TestTheConfigsServerIdentity(t *testing.T) {
	cfg := strings.Replace(testConfig, `"resultCap":0`, `"resultCap":0,"serverName":"n","serverTitle":"T","serverVersion":"9","instructions":""`, 1)
	w := newWorker(t, cfg)
	r := handle(t, w, `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-03-26"}}`)
	if string(r.ID) != `"a"` {
		t.Fatalf("id %s", r.ID)
	}
	var res map[string]any
	_ = json.Unmarshal(r.Result, &res)
	t.Run("overrides serverInfo", func(t *testing.T) {
		info, _ := res["serverInfo"].(map[string]any)
		if info["name"] != "n" || info["title"] != "T" || info["version"] != "9" {
			t.Fatalf("serverInfo %v", info)
		}
	})
	t.Run("with empty instructions means none", func(t *testing.T) {
		if _, has := res["instructions"]; has {
			t.Fatalf("instructions \"\" must mean none: %v", res)
		}
	})
}

func TestProtocolErrorsCarryTheirJSONRPCCodes(t *testing.T) {
	w := newWorker(t, testConfig)
	cases := map[string]int{
		`{"jsonrpc":"2.0","id":1,"method":"nope"}`:                                               CodeMethodNotFound,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}`:                 CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}`: CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`:               CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`:                            CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,`:                   CodeParseError,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`: CodeInvalidRequest,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`:   CodeInvalidRequest,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`:  CodeInvalidRequest,
		`{"jsonrpc":"2.0","id":1,"method":3}`:        CodeInvalidRequest,
	}
	for msg, code := range cases {
		wantCode(t, handle(t, w, msg), code)
	}
}

func TestInvalidUTF8IsAParseErrorNamingTheOffset(t *testing.T) {
	w := newWorker(t, testConfig)
	r := handle(t, w, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}")
	wantCode(t, r, CodeParseError)
	if r.Error.Data["offset"] != 34.0 {
		t.Fatalf("offset: %v", r.Error.Data)
	}
}

func TestAMessageWithoutAnIDGetsNoReply(t *testing.T) {
	w := newWorker(t, testConfig)
	for name, msg := range map[string]string{
		"a notification":          `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"an unknown notification": `{"jsonrpc":"2.0","method":"no/such/method"}`,
		"a response":              `{"jsonrpc":"2.0","id":5,"result":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			out, err := w.Handle(context.Background(), []byte(msg))
			if err != nil || out != nil {
				t.Fatalf("%s: want no reply, got %q %v", msg, out, err)
			}
		})
	}
}

func TestPingAnswersAnEmptyResult(t *testing.T) {
	r := handle(t, newWorker(t, testConfig), `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if string(r.Result) != "{}" {
		t.Fatalf("ping result %s", r.Result)
	}
}

func TestToolsListOffersEveryFixtureWithAClosedSchema(t *testing.T) {
	r := handle(t, newWorker(t, testConfig), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var res struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(toolsOf(ToolsetName)) || res.NextCursor != nil {
		t.Fatalf("tools/list: %s", r.Result)
	}
	for _, tl := range res.Tools {
		if tl.InputSchema["type"] != "object" || tl.InputSchema["additionalProperties"] != false {
			t.Errorf("%s schema is not closed: %v", tl.Name, tl.InputSchema)
		}
	}
}

func TestBadArgumentsAreAnInvalidParamsToolError(t *testing.T) {
	w := newWorker(t, testConfig)
	for _, args := range []string{`{}`, `{"text":1}`, `{"text":"a","extra":true}`, `[1]`, `"x"`} {
		tr := callTool(t, w, "echo", args)
		if !tr.IsError || tr.Kind() != errkind.InvalidParams {
			t.Errorf("echo %s: %+v", args, tr)
		}
	}
	if tr := callTool(t, w, "sleep", `{"ms":-1}`); tr.Kind() != errkind.InvalidParams {
		t.Errorf("sleep -1: %+v", tr)
	}
}

func TestEachFixtureToolAnswersItsFixture(t *testing.T) {
	w := newWorker(t, testConfig)
	n := 10<<20 + 3
	for _, c := range []struct {
		tool, args string
		ok         func(toolResult) bool
	}{
		{"echo", `{"text":"h\u00e9llo <&>"}`, func(tr toolResult) bool { return !tr.IsError && tr.Content[0].Text == "héllo <&>" }},
		{"fail", `{"kind":"notFound"}`, func(tr toolResult) bool { return tr.IsError && tr.Kind() == "notFound" }},
		{"big", `{"n":` + itoa(n) + `}`, func(tr toolResult) bool {
			return len(tr.Content[0].Text) == n && strings.HasPrefix(tr.Content[0].Text, "abc")
		}},
		{"unicode", `{"text":"\ud83d\ude00 x"}`, func(tr toolResult) bool {
			return len(tr.Content) == 2 && tr.Content[0].Text == "\U0001F600 x" && tr.Content[1].Text == AstralText
		}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			if tr := callTool(t, w, c.tool, c.args); !c.ok(tr) {
				if len(tr.Content) > 0 && len(tr.Content[0].Text) > 200 {
					tr.Content[0].Text = tr.Content[0].Text[:200] + "..."
				}
				t.Errorf("%s: %+v", c.tool, tr)
			}
		})
	}
}

func TestResultCapCutsLongTextWithTheMarker(t *testing.T) {
	w := newWorker(t, strings.Replace(testConfig, `"resultCap":0`, `"resultCap":5`, 1))
	if tr := callTool(t, w, "echo", `{"text":"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"}`); tr.Content[0].Text != "ééééé"+CutMarker {
		t.Fatalf("cut: %q", tr.Content[0].Text)
	}
	if tr := callTool(t, w, "echo", `{"text":"12345"}`); tr.Content[0].Text != "12345" {
		t.Fatalf("not cut: %q", tr.Content[0].Text)
	}
}

func TestDieAsksTheHostToEndTheGem(t *testing.T) {
	_, err := newWorker(t, testConfig).Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"die"}}`))
	if !errors.Is(err, ErrDied) {
		t.Fatalf("die: %v", err)
	}
}

// runSleep starts tool on w and answers the error it ends with once the breaks are sent.
func runSleep(t *testing.T, w *Worker, ctx context.Context, tool string, ms int, send ...Break) (time.Duration, error) {
	t.Helper()
	breaks := make(chan Break)
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := w.HandleWithBreaks(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":{"ms":`+itoa(ms)+`}}}`), breaks)
		done <- err
	}()
	for _, b := range send {
		time.Sleep(20 * time.Millisecond)
		select {
		case breaks <- b:
		case err := <-done:
			return time.Since(start), err
		}
	}
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not end", tool)
		return 0, nil
	}
}

func TestBreaksEndTheSleepsThatHonourThem(t *testing.T) {
	w := newWorker(t, testConfig)
	ctx := context.Background()
	var be *BreakError
	if d, err := runSleep(t, w, ctx, "sleep", 5000, SoftBreak); !errors.As(err, &be) || be.Break != SoftBreak || d > 2*time.Second {
		t.Errorf("sleep + soft: %v after %v", err, d)
	}
	if d, err := runSleep(t, w, ctx, "sleep_soft_immune", 5000, SoftBreak, HardBreak); !errors.As(err, &be) || be.Break != HardBreak || d > 2*time.Second {
		t.Errorf("sleep_soft_immune + soft + hard: %v after %v", err, d)
	}
	if d, err := runSleep(t, w, ctx, "sleep_immune", 300, SoftBreak, HardBreak); err != nil || d < 300*time.Millisecond {
		t.Errorf("sleep_immune must ignore both breaks: %v after %v", err, d)
	}
	stopCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if d, err := runSleep(t, w, stopCtx, "sleep_immune", 5000, SoftBreak, HardBreak); !errors.Is(err, ErrStopped) || d > 2*time.Second {
		t.Errorf("sleep_immune + stop: %v after %v", err, d)
	}
	if (&BreakError{HardBreak}).Break.ErrorNumber() != 6004 || SoftBreak.ErrorNumber() != 6003 {
		t.Error("break numbers")
	}
}

func TestASecondConcurrentCallIsRefused(t *testing.T) {
	w := newWorker(t, testConfig)
	started := make(chan struct{})
	breaks := make(chan Break, 1)
	go func() {
		close(started)
		_, _ = w.HandleWithBreaks(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":2000}}}`), breaks)
	}()
	<-started
	deadline := time.Now().Add(2 * time.Second)
	for {
		_, err := w.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
		if errors.Is(err, ErrCallInProgress) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a concurrent call was not refused")
		}
		time.Sleep(5 * time.Millisecond)
	}
	breaks <- SoftBreak
}

// The view status the fixture reports and what a refresh does to it; each subtest is one step
// on the same worker, in order.
func TestTheFixturesView(t *testing.T) {
	w := newWorker(t, strings.Replace(testConfig, `"resultCap":0`, `"resultCap":0,"toolsetOptions":{"McpFixtureToolset":{"commitsBehind":4}}`, 1))
	t.Run("starts as configured", func(t *testing.T) {
		if s := string(w.ViewStatus()); s != `{"commitsBehind":4,"uncommitted":false,"movable":true}` {
			t.Fatalf("initial status %s", s)
		}
	})
	t.Run("follows set_view_status", func(t *testing.T) {
		callTool(t, w, "set_view_status", `{"commitsBehind":9,"uncommitted":true}`)
		if s := string(w.ViewStatus()); s != `{"commitsBehind":9,"uncommitted":true,"movable":true}` {
			t.Fatalf("after knob %s", s)
		}
	})
	t.Run("is current after a refresh", func(t *testing.T) {
		if s := string(w.RefreshView()); s != `{"refreshed":true,"conflicts":false}` {
			t.Fatalf("refresh %s", s)
		}
		if s := string(w.ViewStatus()); s != `{"commitsBehind":0,"uncommitted":true,"movable":true}` {
			t.Fatalf("after refresh %s", s)
		}
	})
	t.Run("refuses a refresh when unmovable, saying why", func(t *testing.T) {
		callTool(t, w, "set_view_status", `{"movable":false}`)
		var r map[string]any
		_ = json.Unmarshal(w.RefreshView(), &r)
		if r["refreshed"] != false || r["reason"] == "" {
			t.Fatalf("unmovable refresh %v", r)
		}
	})
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
