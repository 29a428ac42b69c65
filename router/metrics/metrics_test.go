package metrics_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/metrics"
)

func scrape(t *testing.T, r *metrics.Registry) string {
	t.Helper()
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("scrape: content type %q, want the Prometheus text format", ct)
	}
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func wantLine(t *testing.T, body, line string) {
	t.Helper()
	for _, l := range strings.Split(body, "\n") {
		if l == line {
			return
		}
	}
	t.Errorf("scrape lacks %q", line)
}

func TestEveryFamilyIsServedWithWhatWasRecorded(t *testing.T) {
	r := metrics.New()
	r.SessionOpened()
	r.SessionOpened()
	r.SessionEnded("deleted")
	r.Call("tools/call", "ok", 3*time.Millisecond)
	r.Call("tools/call", "sessionGone", time.Second)
	r.Call("ping", "ok", 100*time.Microsecond)
	r.Ended("hardBreak")
	r.Reaped("streamlessIdle")
	r.StreamOpened()
	r.StreamOpened()
	r.StreamClosed()
	r.OutboxDropped(3)
	r.LoginFailed("loginDenied")
	body := scrape(t, r)
	for _, line := range []string{
		`mcp_sessions_open 1`,
		`mcp_sessions_opened_total 2`,
		`mcp_sessions_ended_total{reason="deleted"} 1`,
		`mcp_calls_total{method="tools/call",outcome="ok"} 1`,
		`mcp_calls_total{method="tools/call",outcome="sessionGone"} 1`,
		`mcp_calls_total{method="ping",outcome="ok"} 1`,
		`mcp_call_duration_seconds_count{method="tools/call"} 2`,
		`mcp_call_duration_seconds_bucket{method="tools/call",le="0.005"} 1`,
		`mcp_call_duration_seconds_bucket{method="tools/call",le="1"} 2`,
		`mcp_call_endings_total{step="hardBreak"} 1`,
		`mcp_reaps_total{reason="streamlessIdle"} 1`,
		`mcp_streams_open 1`,
		`mcp_outbox_dropped_total 3`,
		`mcp_login_failures_total{kind="loginDenied"} 1`,
	} {
		wantLine(t, body, line)
	}
	if !strings.Contains(body, "go_goroutines ") || !strings.Contains(body, "process_resident_memory_bytes ") {
		t.Error("the Go runtime and process collectors are missing")
	}
}

// A client chooses method names; a mistaken caller might pass a session id or a message as a
// reason. Neither reaches a label.
func TestClientChosenOrIdentifyingValuesNeverBecomeLabels(t *testing.T) {
	r := metrics.New()
	const sid = "4c11d2dda602d41e91fe6d06de173d97"
	r.Call("x/"+sid, "ok", time.Millisecond)
	r.Call("tools/call", sid, time.Millisecond)
	r.SessionOpened()
	r.SessionEnded("ended by alice at /home/alice")
	r.LoginFailed("bench-" + sid)
	body := scrape(t, r)
	if strings.Contains(body, sid) || strings.Contains(body, "alice") {
		t.Fatalf("an identifying value reached a label:\n%s", body)
	}
	wantLine(t, body, `mcp_calls_total{method="other",outcome="ok"} 1`)
	wantLine(t, body, `mcp_calls_total{method="tools/call",outcome="other"} 1`)
	wantLine(t, body, `mcp_sessions_ended_total{reason="other"} 1`)
	wantLine(t, body, `mcp_login_failures_total{kind="other"} 1`)
}

func TestLabelHygiene(t *testing.T) {
	for in, want := range map[string]string{
		"tools/call": "tools/call", "TOOLS/CALL": "other", "": "other", "notifications/cancelled": "notifications/cancelled",
	} {
		if got := metrics.Method(in); got != want {
			t.Errorf("Method(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"sessionGone": "sessionGone", "": "none", "a b": "other", "deadbeefdeadbeef": "other",
		"stoppedByEscalation": "stoppedByEscalation", strings.Repeat("a", 41): "other",
		strings.Repeat("g", 40): strings.Repeat("g", 40), strings.Repeat("g", 41): "other", "a_9": "a_9", "9a": "other", "_a": "other", "café": "other",
	} {
		if got := metrics.Token(in); got != want {
			t.Errorf("Token(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRecordingIsSafeFromManyGoroutines(t *testing.T) {
	r := metrics.New()
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				r.SessionOpened()
				r.Call("tools/call", "ok", time.Microsecond)
				r.StreamOpened()
				r.StreamClosed()
				r.SessionEnded("deleted")
			}
		}()
	}
	wg.Wait()
	body := scrape(t, r)
	wantLine(t, body, `mcp_sessions_open 0`)
	wantLine(t, body, `mcp_sessions_opened_total 8000`)
	wantLine(t, body, `mcp_calls_total{method="tools/call",outcome="ok"} 8000`)
	wantLine(t, body, `mcp_streams_open 0`)
}

func TestNopNeverPanics(t *testing.T) {
	n := metrics.Nop
	n.SessionOpened()
	n.SessionEnded("deleted")
	n.Call("tools/call", "ok", time.Second)
	n.Ended("stop")
	n.Reaped("idle")
	n.StreamOpened()
	n.StreamClosed()
	n.OutboxDropped(5)
	n.LoginFailed("x")
}

func TestBuildInfosVersionLabel(t *testing.T) {
	for _, c := range []struct{ name, version, want string }{
		{"is the version", "v1.4.0-3-gc73b098-dirty", `mcp_build_info{version="v1.4.0-3-gc73b098-dirty"} 1`},
		{"is other for what is not a version", `x"} 1` + "\nmcp_sessions_open 99", `mcp_build_info{version="other"} 1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := metrics.New()
			r.BuildInfo(c.version)
			wantLine(t, scrape(t, r), c.want)
		})
	}
}
