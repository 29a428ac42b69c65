package router_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

type readiness struct {
	Status, Reason, Version string
}

func getReadyz(t *testing.T, url string, header ...string) (int, readiness) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"/readyz", nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if len(header) >= 2 && header[0] == "Host" {
		req.Host = header[1]
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var r readiness
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("/readyz %d answered %q, not JSON: %v", resp.StatusCode, body, err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("/readyz Content-Type %q", ct)
	}
	return resp.StatusCode, r
}

func TestReadyzFollowsTheReadinessCheckWhileHealthzStaysLiveness(t *testing.T) {
	var missing atomic.Value
	missing.Store("the GemStone client library is not loaded")
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.Version = "v9.9.9"
		o.Ready = func(context.Context) error {
			if m := missing.Load().(string); m != "" {
				return errors.New(m)
			}
			return nil
		}
	})
	// No gate applies: a probe reaches it by whatever name it uses.
	code, r := getReadyz(t, f.ts.URL, "Host", "probe.internal", "Origin", "http://evil.example")
	if code != http.StatusServiceUnavailable || r.Status != "notReady" || r.Reason != "the GemStone client library is not loaded" {
		t.Fatalf("not ready: %d %+v", code, r)
	}
	if resp, err := http.Get(f.ts.URL + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz while not ready: %v %v", resp, err)
	}
	missing.Store("")
	if code, r = getReadyz(t, f.ts.URL); code != http.StatusOK || r.Status != "ready" || r.Reason != "" || r.Version != "v9.9.9" {
		t.Fatalf("ready: %d %+v", code, r)
	}
	f.srv.BeginShutdown()
	if code, r = getReadyz(t, f.ts.URL); code != http.StatusServiceUnavailable || r.Reason != "shutting down" {
		t.Fatalf("shutting down: %d %+v", code, r)
	}
}

func TestReadyzWithoutACheckIsReady(t *testing.T) {
	f := newFixture(t)
	if code, r := getReadyz(t, f.ts.URL); code != http.StatusOK || r.Status != "ready" {
		t.Fatalf("%d %+v", code, r)
	}
}

func TestReadyzAnswersOnlyGET(t *testing.T) {
	f := newFixture(t)
	req, _ := http.NewRequest(http.MethodPost, f.ts.URL+"/readyz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET" {
		t.Fatalf("POST /readyz: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func TestReadyzGivesUpOnACheckThatHangs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.Ready = func(ctx context.Context) error {
			<-ctx.Done()
			return errors.New("the router's control session did not answer in time")
		}
	})
	if code, r := getReadyz(t, f.ts.URL); code != http.StatusServiceUnavailable || r.Reason == "" {
		t.Fatalf("%d %+v", code, r)
	}
}
