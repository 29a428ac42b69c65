package router_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

var hex128 = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestInitializeOpensASessionWithA128BitVisibleASCIIId(t *testing.T) {
	f := newFixture(t)
	r := f.post("", initBody)
	sid := mcptest.NewSession(t, r)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(r.RPC.Result, &res); err != nil || res.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize result %s: want protocolVersion 2025-11-25", r.RPC.Result)
	}
	if other := f.open(); other == sid {
		t.Fatalf("two sessions got the same id %q", sid)
	}
}

func TestRouterIDPrefixesSessionIDsWhenAsked(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.RouterID, o.IDPrefixed = "edge7", true })
	sid := f.open()
	if !strings.HasPrefix(sid, "edge7-") || !hex128.MatchString(strings.TrimPrefix(sid, "edge7-")) {
		t.Fatalf("session id %q: want edge7- then 32 hex digits", sid)
	}
	cfg := f.l.Configs()[0]
	if want := "McpFixtureServer:edge7:" + strings.TrimPrefix(sid, "edge7-")[:8]; cfg.CacheName != want {
		t.Fatalf("cacheName %q, want %q", cfg.CacheName, want)
	}
}

func TestWhatThePrepareConfigCarries(t *testing.T) {
	f := newFixture(t)
	f.open()
	cfg := f.l.Configs()[0]
	t.Run("every revision initialize negotiates", func(t *testing.T) {
		// initialize negotiates every spoken revision but the stateless one, which has no initialize.
		want := slices.DeleteFunc(slices.Clone(router.SupportedProtocolVersions), func(v string) bool { return v == router.StatelessVersion })
		if strings.Join(cfg.ProtocolVersions, ",") != strings.Join(want, ",") || len(want) != len(router.SupportedProtocolVersions)-1 {
			t.Errorf("prepare protocolVersions %v, want %v", cfg.ProtocolVersions, want)
		}
	})
	t.Run("the contract and the router's id", func(t *testing.T) {
		if cfg.Contract != 1 || cfg.FrontEnd.RouterID != "r1" {
			t.Errorf("prepare config contract %d routerId %q", cfg.Contract, cfg.FrontEnd.RouterID)
		}
	})
}

func TestTheSessionCapRefusesBeforeAnyLogin(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxSessions = 2 })
	f.open()
	f.open()
	r := f.post("", initBody)
	wantError(t, r, http.StatusOK, -32001, errkind.SessionLimit)
	if lim, _ := r.RPC.Error.Data["limit"].(float64); lim != 2 {
		t.Fatalf("data.limit %v, want 2", r.RPC.Error.Data["limit"])
	}
	if !strings.Contains(r.RPC.Error.Message, "MCP_MAX_SESSIONS") {
		t.Fatalf("message %q does not name MCP_MAX_SESSIONS", r.RPC.Error.Message)
	}
	if r.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("a refused initialize carried a session id")
	}
	if n := f.l.Launches(); n != 2 {
		t.Fatalf("%d logins attempted, want 2 (none past the cap)", n)
	}
}

func TestNoneMeansNoSessionCap(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxSessions = 0 })
	for range 6 {
		f.open()
	}
}

func TestConcurrentInitializesNeverOvershootTheCap(t *testing.T) {
	f := newFixture(t, func(o *router.Options, l *workertest.Launcher) { l.LoginDelay = 50 * time.Millisecond })
	var wg sync.WaitGroup
	var mu sync.Mutex
	opened, limited := 0, 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.post("", initBody)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case r.RPC.Error == nil && r.Header.Get("Mcp-Session-Id") != "":
				opened++
			case r.RPC.Kind() == errkind.SessionLimit:
				limited++
			default:
				t.Errorf("unexpected answer %d %s", r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
	if opened != 3 || limited != 17 {
		t.Fatalf("opened %d, refused %d; want 3 and 17", opened, limited)
	}
	if n := f.l.Launches(); n != 3 {
		t.Fatalf("%d logins attempted under a cap of 3", n)
	}
}

// deniedLogins is a router of one slot whose every login is denied, the denial naming the
// user and the stone's NRS.
func deniedLogins(t *testing.T) *fixture {
	return newFixture(t, func(o *router.Options, l *workertest.Launcher) {
		o.MaxSessions = 1
		l.LoginError = workertest.LoginDenied("login denied for SecretUser on !tcp@secret-host#netldi:ldi#task!gemnetobject")
	})
}

// A failed login's answer names the GemStone error and the setting to fix, and nothing of the
// login: no user, host, password or NRS.
func TestAFailedLoginExplainsItselfWithoutSecrets(t *testing.T) {
	f := deniedLogins(t)
	r := f.post("", initBody)
	wantError(t, r, http.StatusOK, -32001, errkind.LoginDenied)
	if n, _ := r.RPC.Error.Data["number"].(float64); n != 4051 {
		t.Errorf("data.number %v, want 4051", r.RPC.Error.Data["number"])
	}
	msg := r.RPC.Error.Message
	if !strings.Contains(msg, "4051") || !strings.Contains(msg, "MCP_WORKER_USER") {
		t.Errorf("message %q must name 4051 and MCP_WORKER_USER", msg)
	}
	for _, secret := range []string{"secret-host", "SecretUser", "hunter2", "!tcp"} {
		if strings.Contains(string(r.Body), secret) {
			t.Errorf("the answer leaks %q: %s", secret, r.Body)
		}
	}
}

func TestAFailedLoginGivesItsSlotBack(t *testing.T) {
	f := deniedLogins(t)
	for i := range 2 { // twice: the first failure must have given the only slot back
		wantError(t, f.post("", initBody), http.StatusOK, -32001, errkind.LoginDenied)
		if u := f.srv.Sessions().Used(); u != 0 {
			t.Fatalf("%d slots still taken after failed login %d", u, i+1)
		}
	}
}

// refusedPrepares is a router of one slot whose worker refuses every prepare (an unknown toolset).
func refusedPrepares(t *testing.T) *fixture {
	return newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.MaxSessions = 1
		o.Prepare.Toolsets = []string{"AcmeToolset"}
	})
}

func TestARefusedPrepareNamesTheSettingToCheck(t *testing.T) {
	r := refusedPrepares(t).post("", initBody)
	wantError(t, r, http.StatusOK, -32001, errkind.ToolsetNotFound)
	if !strings.Contains(r.RPC.Error.Message, "MCP_TOOLSETS") {
		t.Errorf("message %q should say to check MCP_TOOLSETS", r.RPC.Error.Message)
	}
}

func TestARefusedPrepareGivesItsSlotBack(t *testing.T) {
	f := refusedPrepares(t)
	wantError(t, f.post("", initBody), http.StatusOK, -32001, errkind.ToolsetNotFound)
	if u := f.srv.Sessions().Used(); u != 0 {
		t.Fatalf("%d slots still taken after a refused prepare", u)
	}
}

func TestDeleteLeavesNothingOfTheSession(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxSessions = 1 })
	sid := f.open()
	wantStatus(t, f.do(http.MethodDelete, sid, ""), http.StatusNoContent)
	if n := f.l.Live(); n != 0 {
		t.Fatalf("%d gems still logged in after DELETE", n)
	}
	wantError(t, f.do(http.MethodDelete, sid, ""), http.StatusNotFound, -32001, errkind.SessionNotFound)
	wantError(t, f.post(sid, call(2, "echo", `{"text":"x"}`)), http.StatusNotFound, -32001, errkind.SessionNotFound)
	f.open() // the only slot came back
}

// (An unknown session's DELETE is TestUnknownSessionIdIs404OnEveryVerb/DELETE.)
func TestDeleteWithoutASessionIdIs400(t *testing.T) {
	f := newFixture(t)
	wantError(t, f.do(http.MethodDelete, "", ""), http.StatusBadRequest, -32600, errkind.SessionRequired)
}

func TestInitializeOnAnExistingSessionIsRefused(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	wantError(t, f.post(sid, initBody), http.StatusBadRequest, -32600, errkind.AlreadyInitialized)
}
