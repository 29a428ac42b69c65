package e2elifetime

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// These tests run the server binary as an operator does, configured only through MCP_*
// variables, on the stand-in: they prove the lifetime knobs reach the policy. The binary is
// built once by TestMain (binserver.Main) into binary.

var binary string

// server is one bin/mcp-gemstone process on the stand-in.
type server struct {
	t      *testing.T
	proc   *binserver.Process
	url    string // http://127.0.0.1:<port>/mcp
	gemDir string // GCI_STANDIN_DIR of this server's gems: one file per live gem, holding its pid
	logs   *binserver.LogBuffer
}

// startServer runs the binary on a free port with env added to a stand-in environment, and
// stops it with SIGTERM at the end of the test, checking that no gem outlives it.
func startServer(t *testing.T, env ...string) *server {
	t.Helper()
	s := &server{t: t}
	s.proc, s.url, s.gemDir = binserver.OnStandin(t, binary, func(p *binserver.Process) {
		if !p.Terminate(20 * time.Second) {
			t.Errorf("server did not stop within 20s of SIGTERM")
		}
	}, append([]string{"MCP_WORKER_USER=DataCurator"}, env...)...)
	s.logs = s.proc.Log
	return s
}

// in is s for the subtest t, as fixture.in is for the in-process rig.
func (s *server) in(t *testing.T) *server {
	c := *s
	c.t = t
	return &c
}

// hostPort is the server's listening address, for the tests that speak HTTP on a raw socket.
func (s *server) hostPort() string {
	return strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/mcp")
}

func (s *server) post(sid, body string) (int, http.Header, []byte) {
	s.t.Helper()
	return s.postWith(http.DefaultClient, sid, body)
}

// postWith sends one message with client; a test that needs a fresh connection passes a
// client of its own.
func (s *server) postWith(client *http.Client, sid, body string) (int, http.Header, []byte) {
	s.t.Helper()
	c := &mcptest.Client{URL: s.url, HTTP: client, Protocol: binaryProtocol}
	a, err := c.Post(context.Background(), sid, []byte(body))
	if err != nil {
		s.t.Fatalf("POST: %v", err)
	}
	return a.Status, a.Header, a.Body
}

// binaryProtocol is the revision the binary tests' sessions speak.
const binaryProtocol = "2025-06-18"

func (s *server) open() string {
	s.t.Helper()
	code, h, b := s.post("", fmt.Sprintf(initBody, binaryProtocol))
	if code != http.StatusOK {
		s.t.Fatalf("initialize: %d %s", code, b)
	}
	sid := h.Get("Mcp-Session-Id")
	if sid == "" {
		s.t.Fatal("initialize answered no Mcp-Session-Id")
	}
	return sid
}

// openWithGem opens a session and answers its id and the pid of its gem: the one gem the
// stand-in recorded during the initialize. The control session logs in after the server
// listens, so its gem is waited for first.
func (s *server) openWithGem() (string, int) {
	s.t.Helper()
	mcptest.Eventually(s.t, 10*time.Second, "the control session is logged in", func() bool { return len(binserver.GemFiles(s.gemDir)) == 1 })
	before := binserver.GemFiles(s.gemDir)
	sid := s.open()
	var pids []int
	for n, pid := range binserver.GemFiles(s.gemDir) {
		if _, old := before[n]; !old {
			pids = append(pids, pid)
		}
	}
	if len(pids) != 1 {
		s.t.Fatalf("the initialize started %d gems (%v), want 1", len(pids), pids)
	}
	if !mcptest.Alive(pids[0]) {
		s.t.Fatalf("the session's gem %d is not running", pids[0])
	}
	return sid, pids[0]
}

// metrics answers the server's /metrics text.
func (s *server) metrics() string {
	s.t.Helper()
	resp, err := http.Get(strings.TrimSuffix(s.url, "/mcp") + "/metrics")
	if err != nil {
		s.t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("GET /metrics: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// metric answers the value of one sample of /metrics (name with its labels, as printed), and
// false when the sample is absent.
func (s *server) metric(sample string) (float64, bool) {
	s.t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(sample) + ` (\S+)$`).FindStringSubmatch(s.metrics())
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		s.t.Fatalf("/metrics %s = %q", sample, m[1])
	}
	return v, true
}

// logged answers the server's log lines whose message is msg.
func (s *server) logged(msg string) []string {
	var out []string
	for _, line := range strings.Split(s.logs.String(), "\n") {
		if strings.Contains(line, `"message":"`+msg+`"`) {
			out = append(out, line)
		}
	}
	return out
}

func TestBinaryReleasesAGemAfterMCPStreamLossGraceWhenTheClientHangsUp(t *testing.T) {
	t.Parallel()
	s := startServer(t, "MCP_REAPER_INTERVAL=200ms", "MCP_STREAM_LOSS_GRACE=1500ms")
	sid := s.open()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := (&mcptest.Client{URL: s.url}).StreamContext(ctx, t, sid, "")
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || !strings.HasPrefix(line, ":") {
		cancel()
		t.Fatalf("first line of the stream %q (%v)", line, err)
	}
	cancel() // the editor tab closes
	closed := time.Now()
	// Watched through the log, not by requests: a request would itself retract the grace.
	mcptest.Eventually(t, 10*time.Second, "the session released after the grace", func() bool {
		return strings.Contains(s.logs.String(), `"reason":"streamLost"`)
	})
	if el := time.Since(closed); el < 1500*time.Millisecond {
		t.Fatalf("released %v after the hang-up, inside MCP_STREAM_LOSS_GRACE=1500ms", el)
	}
	t.Logf("released %v after the hang-up (grace 1.5s)", time.Since(closed))
	if code, _, _ := s.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusNotFound {
		t.Fatalf("request after the release: %d, want 404", code)
	}
}

func TestBinaryRefusesAnUnworkableLifetimeNamingBothValues(t *testing.T) {
	binserver.StandinHome(t)
	cmd := exec.Command(binary)
	cmd.Env = append(cmd.Environ(), "MCP_PORT=0", "MCP_IDLE_TIMEOUT=5m", "MCP_PROBE_INTERVAL=10m")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("server started (err %v); output:\n%s", err, out)
	}
	for _, want := range []string{"MCP_PROBE_INTERVAL=10m0s", "MCP_IDLE_TIMEOUT=5m0s"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("refusal does not name %s:\n%s", want, out)
		}
	}
}

func TestBinaryTellsAClientWhoseStreamlessSessionExpiredWhyItEnded(t *testing.T) {
	t.Parallel()
	s := startServer(t, "MCP_REAPER_INTERVAL=200ms", "MCP_STREAMLESS_IDLE_TIMEOUT=1s")
	sid := s.open()
	mcptest.Eventually(t, 10*time.Second, "the streamless session released", func() bool {
		return strings.Contains(s.logs.String(), `"reason":"streamlessIdle"`)
	})
	code, _, body := s.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if code != http.StatusNotFound {
		t.Fatalf("request after the expiry: %d %s, want 404", code, body)
	}
	for _, want := range []string{"this session has ended", "kept no stream open", "MCP_STREAMLESS_IDLE_TIMEOUT", "uncommitted work was discarded", `"ended":"streamlessIdle"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the 404 does not say %q: %s", want, body)
		}
	}
	// An id the server never issued is still only unknown.
	if code, _, body := s.post("0123456789abcdef0123456789abcdef", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); code != http.StatusNotFound || strings.Contains(string(body), "has ended") {
		t.Errorf("an id never issued: %d %s", code, body)
	}
}
