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

func TestAPanicIsLoggedAndAnsweredNotADroppedConnection(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Launcher = panickyLauncher{} })
	r := f.post("", initBody)
	wantError(t, r, http.StatusInternalServerError, -32603, "")
	if !strings.Contains(f.log.String(), "a bug in a launcher") {
		t.Fatal("the panic is not in the log")
	}
	if u := f.srv.Sessions().Used(); u != 0 {
		t.Fatalf("the panicking launch kept its slot (%d used)", u)
	}
}
