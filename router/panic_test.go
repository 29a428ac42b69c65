package router_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

type panickyLauncher struct{}

func (panickyLauncher) Launch(context.Context, worker.LoginSpec, worker.PrepareConfig) (worker.Gem, error) {
	panic("a bug in a launcher")
}

func TestAPanicInALaunch(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Launcher = panickyLauncher{} })
	r := f.post("", initBody)
	t.Run("is answered, not a dropped connection", func(t *testing.T) {
		wantError(t, r, http.StatusInternalServerError, -32603, "")
	})
	t.Run("is logged", func(t *testing.T) {
		if !strings.Contains(f.log.String(), "a bug in a launcher") {
			t.Fatal("the panic is not in the log")
		}
	})
	t.Run("gives its slot back", func(t *testing.T) {
		if u := f.srv.Sessions().Used(); u != 0 {
			t.Fatalf("the panicking launch kept its slot (%d used)", u)
		}
	})
}
