package contract

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest/fixtureworker"
)

// standinPlaceholders fills the fixtures for the stand-in's fixture worker: echo has one
// required string argument, text.
var standinPlaceholders = Placeholders{"WORKER_CLASS": "McpServer", "ARGS_TOOL": "echo", "ARGS_TOOL_ARG": "text"}

// loadAll answers every case and prepare.json filled with p.
func loadAll(t *testing.T, p Placeholders) ([]Case, []byte) {
	t.Helper()
	cases, err := Load("cases")
	if err != nil {
		t.Fatal(err)
	}
	prepare, err := os.ReadFile("prepare.json")
	if err != nil {
		t.Fatal(err)
	}
	return cases, Fill(prepare, p)
}

func TestEveryCaseHoldsForTheInProcessFixtureWorker(t *testing.T) {
	cases, prepare := loadAll(t, standinPlaceholders)
	w, err := fixtureworker.New(prepare)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			reply, err := w.Handle(context.Background(), c.Request(standinPlaceholders))
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if err := c.Check(reply); err != nil {
				t.Errorf("%s: %v", c.Description, err)
			}
		})
	}
}

// gemProcess is a real stand-in gem driven over its socketpair with the frame protocol, as
// the stand-in libgcits drives it.
type gemProcess struct {
	t    *testing.T
	cmd  *exec.Cmd
	conn *os.File
}

func standinGem(t *testing.T) string {
	t.Helper()
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		if _, err := os.Stat("../../build/standin/bin/standin-gem"); err != nil {
			t.Skip("SKIPPED the stand-in gem leg: GEMSTONE_STANDIN is not set and build/standin is not built; `make test` runs it")
		}
		home = "../../build/standin"
	}
	path := filepath.Join(home, "bin", "standin-gem")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("GEMSTONE_STANDIN=%s but its gem program is missing: %v (run make standin)", home, err)
	}
	return path
}

// startGemProcess starts the gem at path with the test's environment plus env (NAME=value).
func startGemProcess(t *testing.T, path string, env ...string) *gemProcess {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := os.NewFile(uintptr(fds[0]), "library-end")
	child := os.NewFile(uintptr(fds[1]), "gem-end")
	cmd := exec.Command(path)
	cmd.ExtraFiles = []*os.File{child} // fd 3 in the gem
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child.Close()
	g := &gemProcess{t: t, cmd: cmd, conn: conn}
	watchdog := time.AfterFunc(2*time.Minute, func() { _ = cmd.Process.Kill(); conn.Close() })
	t.Cleanup(func() {
		watchdog.Stop()
		_ = gemproto.WriteFrame(conn, gemproto.TypeQuit, nil)
		conn.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("the gem did not exit cleanly: %v", err)
		}
	})
	login := gemproto.LoginParams{StoneNRS: "gs64stone", GemNRS: "!@localhost!gemnetobject", User: "DataCurator",
		Password: "swordfish", SessionDir: t.TempDir()}
	g.send(gemproto.TypeLogin, login.Encode())
	if f := g.read(); f.Type != gemproto.TypeHello {
		t.Fatalf("login answered %q, not hello", f.Type)
	}
	return g
}

func (g *gemProcess) send(typ byte, payload []byte) {
	g.t.Helper()
	if err := gemproto.WriteFrame(g.conn, typ, payload); err != nil {
		g.t.Fatalf("writing to the gem: %v", err)
	}
}

func (g *gemProcess) read() gemproto.Frame {
	g.t.Helper()
	f, err := gemproto.ReadFrame(g.conn)
	if err != nil {
		g.t.Fatalf("reading from the gem: %v", err)
	}
	return f
}

// perform sends a one-String perform and answers the String it gets back.
func (g *gemProcess) perform(receiver, selector string, arg []byte) []byte {
	g.t.Helper()
	call := gemproto.PerformCall{Receiver: receiver, Selector: selector,
		Args: []gemproto.Arg{{Class: gemproto.OopClassString, Bytes: arg}}}
	g.send(gemproto.TypePerform, call.Encode())
	a, err := gemproto.DecodeAnswer(g.read())
	if err != nil || a.Err != nil || a.Special {
		g.t.Fatalf("%s %s: %+v %v", receiver, selector, a, errors.Join(err, errFrom(a.Err)))
	}
	return a.Bytes
}

func errFrom(e *gemproto.GemError) error {
	if e == nil {
		return nil
	}
	return e
}

func TestEveryCaseHoldsThroughAStandinGemProcess(t *testing.T) {
	path := standinGem(t)
	cases, prepare := loadAll(t, standinPlaceholders)
	runThroughGem(t, startGemProcess(t, path), cases, prepare, standinPlaceholders)
}

// smalltalkPlaceholders fill the fixtures for the Smalltalk McpServer: execute_code has one
// required string argument, code.
var smalltalkPlaceholders = Placeholders{"WORKER_CLASS": "McpServer", "ARGS_TOOL": "execute_code", "ARGS_TOOL_ARG": "code"}

// The Smalltalk McpServer itself at its mcpHandle: entry: a stand-in gem in model mode
// forwards the worker-class calls to the executable model of GemStone (internal/gsmodel), which
// runs the project's Smalltalk. Malformed JSON and invalid UTF-8 reach the worker here, as
// they never do through the HTTP front end.
func TestEveryCaseHoldsForTheSmalltalkWorkerThroughAModelGem(t *testing.T) {
	path := standinGem(t)
	cases, prepare := loadAll(t, smalltalkPlaceholders)
	stone := modelstone.Start(t)
	runThroughGem(t, startGemProcess(t, path, stone.Env()), cases, prepare, smalltalkPlaceholders)
}

// runThroughGem prepares the gem's worker and holds every case to what it answers.
func runThroughGem(t *testing.T, g *gemProcess, cases []Case, prepare []byte, p Placeholders) {
	t.Helper()
	var prepared struct {
		OK bool `json:"ok"`
	}
	if answer := g.perform("McpServer", "mcpPrepare:", prepare); json.Unmarshal(answer, &prepared) != nil || !prepared.OK {
		t.Fatalf("prepare answered %s", answer)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if err := c.Check(g.perform("McpServer", "mcpHandle:", c.Request(p))); err != nil {
				t.Errorf("%s: %v", c.Description, err)
			}
		})
	}
}

// A match rule compares codes, kinds and shapes, never the text.
func TestMatchRule(t *testing.T) {
	t.Run("passes free text and extra members", testMatchPassesFreeText)
	t.Run("catches what differs", testMatchCatchesWhatDiffers)
	t.Run("binds $each, $minItems and $exact", testMatchOperators)
}

var matchPattern = map[string]any{
	"id": 1.0, "result": "$absent",
	"error": map[string]any{"code": -32602.0, "message": "$string"},
}

func matchBody(t *testing.T, body string) error {
	var v any
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return Match(matchPattern, v, "$")
}

func testMatchPassesFreeText(t *testing.T) {
	if err := matchBody(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"any words at all","data":{"x":1}}}`); err != nil {
		t.Fatalf("free text and extra members must not matter: %v", err)
	}
}

func testMatchCatchesWhatDiffers(t *testing.T) {
	for body, why := range map[string]string{
		`{"id":1,"error":{"code":-32601,"message":"m"}}`:            "a different code",
		`{"id":2,"error":{"code":-32602,"message":"m"}}`:            "a different id",
		`{"id":1,"error":{"code":-32602}}`:                          "a missing message",
		`{"id":1,"error":{"code":-32602,"message":7}}`:              "a message that is not a string",
		`{"id":1,"result":{},"error":{"code":-32602,"message":""}}`: "a member that must be absent",
		`{"id":"1","error":{"code":-32602,"message":""}}`:           "a string id for a number",
	} {
		if matchBody(t, body) == nil {
			t.Errorf("%s was not caught: %s", why, body)
		}
	}
}

func testMatchOperators(t *testing.T) {
	each := map[string]any{"$each": map[string]any{"kind": errkind.InvalidParams}, "$minItems": 1.0}
	if Match(each, []any{}, "$") == nil || Match(each, []any{map[string]any{"kind": "other"}}, "$") == nil {
		t.Error("$each / $minItems do not bind")
	}
	if Match(map[string]any{"$exact": map[string]any{}}, map[string]any{"a": true}, "$") == nil {
		t.Error("$exact {} matched a non-empty object")
	}
}

func TestEveryCaseFileIsWellFormed(t *testing.T) {
	cases, _ := loadAll(t, standinPlaceholders)
	if len(cases) < 15 {
		t.Fatalf("only %d cases loaded", len(cases))
	}
	for _, c := range cases {
		if strings.Contains(string(c.Request(standinPlaceholders)), "${") {
			t.Errorf("%s: a placeholder is left unfilled", c.Name)
		}
	}
}
