package router_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func TestUnsupportedProtocolVersionListsTheSupportedOnesAsData(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	for name, r := range map[string]reply{
		"POST on a session":    f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "Mcp-Protocol-Version", "2024-11-05"),
		"GET":                  f.do(http.MethodGet, sid, "", "Mcp-Protocol-Version", "1999-01-01"),
		"POST with no session": f.post("", initBody, "Mcp-Protocol-Version", "2099-01-01"),
	} {
		t.Run(name, func(t *testing.T) {
			wantError(t, r, http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
			raw, _ := r.RPC.Error.Data["supported"].([]any)
			var got []string
			for _, v := range raw {
				s, _ := v.(string)
				got = append(got, s)
			}
			if !slices.Equal(got, router.SupportedProtocolVersions) {
				t.Errorf("data.supported %v, want %v", r.RPC.Error.Data["supported"], router.SupportedProtocolVersions)
			}
		})
	}
}

func TestANotificationWhoseSessionEndedFirstIsUndeliveredNotAnError(t *testing.T) {
	obs := &recordingObserver{}
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Observer = obs })
	sid := f.open()
	busy := make(chan reply, 1)
	go func() { r, _ := f.try(sid, call(2, "sleep", `{"ms":5000}`)); busy <- r }()
	mcptest.Eventually(t, 10*time.Second, "the sleep runs", func() bool {
		live, ok := f.srv.Sessions().Get(sid)
		if !ok {
			return false
		}
		_, running := live.InFlight()
		return running
	})
	// Queued behind the sleep, then the client ends the session, as a quick client does.
	wantStatus(t, f.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`), http.StatusAccepted)
	wantStatus(t, f.do(http.MethodDelete, sid, ""), http.StatusNoContent)
	<-busy
	// Waited for by hand, so that a failure says which outcomes were seen instead.
	for deadline := time.Now().Add(10 * time.Second); obs.outcomes()["notifications/initialized undelivered"] != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no undelivered notifications/initialized observed within 10 s; the outcomes seen: %v", obs.outcomes())
		}
	}
	if n := obs.outcomes()["notifications/initialized sessionGone"]; n != 0 {
		t.Fatalf("the notification counted as sessionGone %d times: %v", n, obs.outcomes())
	}
}
