package router_test

import (
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

type recordingObserver struct {
	router.NopObserver
	mu       sync.Mutex
	calls    []router.CallEvent
	launches []string
}

func (o *recordingObserver) CallEnded(e router.CallEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.calls = append(o.calls, e)
}

func (o *recordingObserver) LaunchFailed(kind string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.launches = append(o.launches, kind)
}

func (o *recordingObserver) outcomes() map[string]int {
	o.mu.Lock()
	defer o.mu.Unlock()
	m := map[string]int{}
	for _, c := range o.calls {
		m[c.Method+" "+c.Outcome]++
	}
	return m
}

func TestTheObserver(t *testing.T) {
	obs := &recordingObserver{}
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.Observer = obs
		o.RequestTimeout = 100 * time.Millisecond
	})
	t.Run("hears every call outcome", func(t *testing.T) {
		f := f.in(t)
		sid := f.open()
		f.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		f.post(sid, call(2, "echo", `{"text":"x"}`))
		f.post(sid, call(3, "sleep", `{"ms":5000}`))
		f.post(sid, call(4, "die", `{}`))
		mcptest.Eventually(t, 2*time.Second, "all outcomes observed", func() bool {
			o := obs.outcomes()
			return o["initialize ok"] == 1 && o["notifications/initialized ok"] == 1 && o["tools/call ok"] == 1 &&
				o["tools/call requestTimeout"] == 1 && o["tools/call sessionGone"] == 1
		})
	})
	t.Run("hears a failed launch", func(t *testing.T) {
		f.l.LoginError = workertest.LoginDenied("login denied")
		f.in(t).post("", initBody)
		obs.mu.Lock()
		defer obs.mu.Unlock()
		if len(obs.launches) != 1 || obs.launches[0] != "loginDenied" {
			t.Fatalf("launch failures %v", obs.launches)
		}
	})
}
