//go:build realstone

// Package realstone_test drives a running mcp-gemstone, started by test/realstone/run.sh against
// a real stone, as an MCP client over Streamable HTTP: every listed tool, the contract fixtures of
// test/contract (protocol cases and one tool scenario per toolset), a compile/commit round trip
// seen from a second session, a conflicting commit, a refresh that keeps uncommitted work, and
// DELETE. It runs only under run.sh (build tag realstone, MCP_URL set); `make test` never
// compiles it on a machine without GemStone.
package realstone_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/contract"
)

const protocolVersion = "2025-11-25"

type session struct {
	t      *testing.T
	url    string
	id     string
	nextID int
	http   *http.Client
}

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

type toolResult = mcptest.ToolResult

func mcpURL(t *testing.T) string {
	u := os.Getenv("MCP_URL")
	if u == "" {
		t.Fatal("MCP_URL is not set: run this through test/realstone/run.sh")
	}
	return u
}

func open(t *testing.T) *session {
	t.Helper()
	s := &session{t: t, url: mcpURL(t), http: &http.Client{Timeout: 120 * time.Second}}
	resp, header := s.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+protocolVersion+
		`","capabilities":{},"clientInfo":{"name":"realstone","version":"1"}}}`, true)
	if resp.Error != nil {
		t.Fatalf("initialize: %d %s", resp.Error.Code, resp.Error.Message)
	}
	s.id = header.Get("Mcp-Session-Id")
	if s.id == "" {
		t.Fatal("initialize answered no Mcp-Session-Id")
	}
	s.notify(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	t.Cleanup(func() { s.delete() })
	return s
}

func (s *session) request(method string, params any) rpcResponse {
	s.t.Helper()
	s.nextID++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.nextID, "method": method, "params": params})
	if err != nil {
		s.t.Fatal(err)
	}
	resp, _ := s.post(string(body), true)
	return resp
}

func (s *session) notify(body string) {
	s.t.Helper()
	s.post(body, false)
}

// post sends one message; with wantAnswer it reads a JSON or SSE response and returns the
// JSON-RPC response in it.
func (s *session) post(body string, wantAnswer bool) (rpcResponse, http.Header) {
	s.t.Helper()
	res := s.postRaw([]byte(body))
	defer res.Body.Close()
	if !wantAnswer {
		if res.StatusCode != http.StatusAccepted {
			s.t.Fatalf("notification answered %d, want 202", res.StatusCode)
		}
		return rpcResponse{}, res.Header
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		s.t.Fatalf("POST answered %d: %s", res.StatusCode, b)
	}
	var payload []byte
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		payload = lastSSEResponse(s.t, res.Body)
	} else {
		payload, _ = io.ReadAll(res.Body)
	}
	var out rpcResponse
	if err := json.Unmarshal(payload, &out); err != nil {
		s.t.Fatalf("not a JSON-RPC response: %v: %s", err, payload)
	}
	return out, res.Header
}

// postRaw POSTs body as an MCP client does, on the session when it has one; the caller closes
// the response body.
func (s *session) postRaw(body []byte) *http.Response {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("MCP-Protocol-Version", protocolVersion)
	}
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatalf("POST %s: %v", s.url, err)
	}
	return res
}

// lastSSEResponse reads an SSE stream until a data payload that is a response (has an id).
func lastSSEResponse(t *testing.T, r io.Reader) []byte {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case line == "" && data.Len() > 0:
			var probe struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(data.Bytes(), &probe) == nil && len(probe.ID) > 0 && string(probe.ID) != "null" {
				return data.Bytes()
			}
			data.Reset()
		}
	}
	t.Fatal("the event stream ended without a response")
	return nil
}

func (s *session) call(tool string, args map[string]any) toolResult {
	s.t.Helper()
	resp := s.request("tools/call", map[string]any{"name": tool, "arguments": args})
	if resp.Error != nil {
		s.t.Fatalf("%s: JSON-RPC error %d %s %s", tool, resp.Error.Code, resp.Error.Message, resp.Error.Data)
	}
	var r toolResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		s.t.Fatalf("%s: result is not a tool result: %v: %s", tool, err, resp.Result)
	}
	return r
}

func (s *session) mustCall(tool string, args map[string]any) string {
	s.t.Helper()
	r := s.call(tool, args)
	if r.IsError {
		s.t.Fatalf("%s %v: isError: %s", tool, args, r.Text())
	}
	return r.Text()
}

func (s *session) eval(code string) string {
	s.t.Helper()
	return s.mustCall("execute_code", map[string]any{"code": code})
}

func (s *session) delete() {
	if s.id == "" {
		return
	}
	req, _ := http.NewRequest(http.MethodDelete, s.url, nil)
	req.Header.Set("Mcp-Session-Id", s.id)
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	if res, err := s.http.Do(req); err == nil {
		res.Body.Close()
	}
	s.id = ""
}

const probeClass = "McpRealstoneProbe"

func defineProbe(s *session) {
	s.eval("Object subclass: '" + probeClass + "' instVarNames: #() classVars: #() classInstVars: #() " +
		"poolDictionaries: #() inDictionary: UserGlobals options: #(). true")
}

func cleanUp(t *testing.T) {
	s := open(t)
	s.eval("UserGlobals removeKey: #" + probeClass + " ifAbsent: [nil]. UserGlobals removeKey: #McpRealstoneMark ifAbsent: [nil]. true")
	s.mustCall("commit", map[string]any{})
}

// knownKinds are the kinds a failed tool call may carry: McpError's standardKinds, read from the
// worker's source so the two cannot drift, and the two the front end answers for the session
// tools it serves itself (a probe handle is unknown; the cap may be reached).
func knownKinds(t *testing.T) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "smalltalk", "core", "McpError.gs"))
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)classmethod: McpError\nstandardKinds\n.*?\^#\((.*?)\)\n%`).FindSubmatch(src)
	if body == nil {
		t.Fatal("McpError class >> standardKinds not found in smalltalk/core/McpError.gs")
	}
	kinds := map[string]bool{errkind.UnknownSession: true, errkind.SessionLimit: true}
	for _, m := range regexp.MustCompile(`'([A-Za-z]+)'`).FindAllSubmatch(body[1], -1) {
		kinds[string(m[1])] = true
	}
	return kinds
}

// argumentsFor fills a tool's required arguments with values that name the probe class, so every
// tool runs against something this test owns.
func argumentsFor(schema map[string]any) map[string]any {
	args := map[string]any{}
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]any)
	for _, r := range required {
		name, _ := r.(string)
		prop, _ := props[name].(map[string]any)
		switch prop["type"] {
		case "boolean":
			args[name] = false
		case "integer", "number":
			args[name] = 10
		case "array":
			args[name] = []any{}
		case "object":
			args[name] = map[string]any{}
		default:
			args[name] = map[string]string{
				"className": probeClass, "code": "3 + 4", "selector": "answer", "source": "answer\n  ^42",
				"comment": "realstone probe", "category": "realstone", "dictionary": "UserGlobals",
				"dictionaryName": "McpRealstoneDict", "name": "McpRealstoneDict", "pattern": "answer", "text": "answer",
				"definition":    "Object subclass: '" + probeClass + "' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
				"testClassName": probeClass, "superclassName": "Object",
			}[name]
			if args[name] == "" {
				args[name] = probeClass
			}
		}
	}
	return args
}

func TestEveryListedToolAnswersAToolResult(t *testing.T) {
	s := open(t)
	defineProbe(s)
	resp := s.request("tools/list", map[string]any{})
	if resp.Error != nil {
		t.Fatalf("tools/list: %s", resp.Error.Message)
	}
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(resp.Result, &list); err != nil || len(list.Tools) == 0 {
		t.Fatalf("tools/list answered no tools (%v): %s", err, resp.Result)
	}
	// Destructive tools last, so the others see the probe.
	sort.SliceStable(list.Tools, func(i, j int) bool {
		d := func(n string) bool { return strings.HasPrefix(n, "delete_") || strings.HasPrefix(n, "remove_") }
		return !d(list.Tools[i].Name) && d(list.Tools[j].Name)
	})
	kinds := knownKinds(t)
	for _, tool := range list.Tools {
		if tool.InputSchema["additionalProperties"] != false {
			t.Errorf("%s: input schema is not closed (additionalProperties %v)", tool.Name, tool.InputSchema["additionalProperties"])
		}
		if tool.Name == "commit" {
			continue // this session's probe must never be committed
		}
		r := s.call(tool.Name, argumentsFor(tool.InputSchema))
		if r.IsError && !kinds[r.Kind()] {
			t.Errorf("%s: isError without a known structuredContent.error.kind: %s", tool.Name, r.Text())
		}
		t.Logf("%-28s isError=%v %.80q", tool.Name, r.IsError, r.Text())
	}
	s.mustCall("abort", map[string]any{})
}

// A method compiled and committed in one session is seen by a second.
func TestACommittedMethodIsSeenByASecondSession(t *testing.T) {
	t.Cleanup(func() { cleanUp(t) })
	a := open(t)
	defineProbe(a)
	a.mustCall("compile_method", map[string]any{"className": probeClass, "source": "answer\n  ^42"})
	a.mustCall("commit", map[string]any{})
	b := open(t)
	if got := b.eval(probeClass + " new answer"); !strings.Contains(got, "42") {
		t.Fatalf("second session sees %q, want 42", got)
	}
}

// twoSessionsOnAProbe commits the probe class and opens two sessions that both see it; the
// test's cleanup removes what it made.
func twoSessionsOnAProbe(t *testing.T) (a, b *session) {
	t.Helper()
	t.Cleanup(func() { cleanUp(t) })
	setup := open(t)
	defineProbe(setup)
	setup.mustCall("commit", map[string]any{})
	return open(t), open(t)
}

// A conflicting commit from a second session; the subtests are the steps, in order.
func TestAConflictingCommitFromASecondSession(t *testing.T) {
	a, b := twoSessionsOnAProbe(t)
	a.eval("UserGlobals at: #McpRealstoneMark put: 1. true")
	b.eval("UserGlobals at: #McpRealstoneMark put: 2. true")
	a.mustCall("commit", map[string]any{})
	r := b.call("commit", map[string]any{})
	t.Run("is reported", func(t *testing.T) {
		if !r.IsError && !strings.Contains(strings.ToLower(r.Text()), "conflict") {
			t.Fatalf("conflicting commit was reported as success: %s", r.Text())
		}
	})
	t.Run("is recovered from by abort", func(t *testing.T) {
		b.mustCall("abort", map[string]any{})
		if got := b.eval("UserGlobals at: #McpRealstoneMark"); !strings.Contains(got, "1") {
			t.Fatalf("after abort the second session sees %q, want the committed 1", got)
		}
	})
}

// TestDifferentMethodsOfOneClassConflictOnItsMethodDictionary pins on a stone what the model
// follows (internal/gsmodel/method_dict.go): two sessions compiling different methods of one
// class conflict, and what System transactionConflicts names is the object
// persistentMethodDictForEnv: 0 answers, which the worker reports as the class's method
// dictionary with the selector this session compiled there.
func TestDifferentMethodsOfOneClassConflictOnItsMethodDictionary(t *testing.T) {
	a, b := twoSessionsOnAProbe(t)
	a.mustCall("compile_method", map[string]any{"className": probeClass, "source": "alpha\n  ^1"})
	b.mustCall("compile_method", map[string]any{"className": probeClass, "source": "beta\n  ^2"})
	a.mustCall("commit", map[string]any{})
	r := b.call("commit", map[string]any{})
	if !r.IsError || r.Kind() != "commitConflict" {
		t.Fatalf("the second commit: isError %v kind %q, want commitConflict: %s", r.IsError, r.Kind(), r.Text())
	}
	if !strings.Contains(r.Text(), "on the method dictionary of "+probeClass) {
		t.Errorf("the refusal does not name the method dictionary of %s: %s", probeClass, r.Text())
	}
	named := false
	for _, c := range r.Conflicts() {
		if c["object"] == "method dictionary" && c["className"] == probeClass {
			named = true
			if sels, _ := c["selectors"].([]any); len(sels) != 1 || sels[0] != "beta" {
				t.Errorf("the method dictionary entry names the selectors %v, want [beta]", c["selectors"])
			}
		}
	}
	if !named {
		t.Errorf("structuredContent.error.conflicts has no method dictionary entry for %s: %v", probeClass, r.Conflicts())
	}
	b.mustCall("abort", map[string]any{})
}

func TestRefresh(t *testing.T) {
	a, b := twoSessionsOnAProbe(t)
	a.mustCall("compile_method", map[string]any{"className": probeClass, "source": "pending\n  ^17"})
	b.eval("UserGlobals at: #McpRealstoneMark put: 7. true")
	b.mustCall("commit", map[string]any{})
	a.mustCall("refresh", map[string]any{})
	t.Run("moves the view", func(t *testing.T) {
		if got := a.eval("UserGlobals at: #McpRealstoneMark ifAbsent: [nil]"); !strings.Contains(got, "7") {
			t.Fatalf("after refresh the view did not move: %q", got)
		}
	})
	t.Run("keeps uncommitted work", func(t *testing.T) {
		if got := a.eval(probeClass + " new pending"); !strings.Contains(got, "17") {
			t.Fatalf("refresh lost the uncommitted method: %q", got)
		}
	})
	a.mustCall("abort", map[string]any{})
}

// DELETE ends the session: its id is then unknown.
func TestDeleteEndsTheSession(t *testing.T) {
	s := open(t)
	if resp := s.request("ping", map[string]any{}); resp.Error != nil {
		t.Fatalf("ping: %s", resp.Error.Message)
	}
	id := s.id
	req, _ := http.NewRequest(http.MethodDelete, s.url, nil)
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE answered %d", res.StatusCode)
	}
	s.id = ""
	post, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))
	post.Header.Set("Content-Type", "application/json")
	post.Header.Set("Accept", "application/json, text/event-stream")
	post.Header.Set("Mcp-Session-Id", id)
	post.Header.Set("MCP-Protocol-Version", protocolVersion)
	res, err = s.http.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("a request on a deleted session answered %d, want 404", res.StatusCode)
	}
}

// The contract fixtures of test/contract, sent through the HTTP front end instead of straight to a
// worker: the protocol cases (cases/) and the per-toolset scenarios (realstone/).

const contractDir = "../contract"

var placeholders = contract.Placeholders{"WORKER_CLASS": "McpServer", "ARGS_TOOL": "execute_code", "ARGS_TOOL_ARG": "code"}

// send posts raw bytes (on the session when it has one) and answers the JSON-RPC payload, or nil
// for a 202 with no body.
func (s *session) send(body []byte) []byte {
	s.t.Helper()
	res := s.postRaw(body)
	defer res.Body.Close()
	if id := res.Header.Get("Mcp-Session-Id"); s.id == "" && id != "" {
		s.id = id // an initialize sent without a session opened one; DELETE it at the end
		s.t.Cleanup(func() { s.delete() })
	}
	if res.StatusCode == http.StatusAccepted {
		return nil
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return lastSSEResponse(s.t, res.Body)
	}
	payload, _ := io.ReadAll(res.Body)
	return payload
}

func TestContractProtocolCasesThroughTheServer(t *testing.T) {
	cases, err := contract.Load(filepath.Join(contractDir, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	s := open(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			target := s
			if strings.HasPrefix(c.Name, "initialize") {
				target = &session{t: t, url: s.url, http: s.http} // initialize opens a session of its own
			}
			if err := c.Check(target.send(c.Request(placeholders))); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestContractToolScenariosOnePerToolset(t *testing.T) {
	contract.Scenarios(t, contractDir, func(t *testing.T, cases []contract.Case) {
		s := open(t)
		defer s.call("abort", map[string]any{}) // leave the stone as it was, whatever failed
		for _, c := range cases {
			if err := c.Check(s.send(c.Request(placeholders))); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
	})
}
