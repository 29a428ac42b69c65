package router_test

import (
	"net/http"
	"testing"
)

func TestSmokeInitializeListCallDelete(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	r := f.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	wantStatus(t, r, http.StatusAccepted)
	r = f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "Mcp-Protocol-Version", "2025-11-25")
	wantStatus(t, r, http.StatusOK)
	r = f.post(sid, call(3, "echo", `{"text":"hi"}`))
	wantStatus(t, r, http.StatusOK)
	t.Logf("%s", r.Body)
	r = f.do(http.MethodDelete, sid, "")
	wantStatus(t, r, http.StatusNoContent)
	r = f.post(sid, call(4, "echo", `{"text":"hi"}`))
	wantStatus(t, r, http.StatusNotFound)
}
