package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawCall is call with the id's JSON text given as is.
func rawCall(id, tool, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

func TestMembersAreReadExactlySoTheRouterAndTheWorkerReadOneMessageOneWay(t *testing.T) {
	s := start(t)
	sid := s.open()
	for body, want := range map[string]string{
		`{"JSONRPC":"2.0","id":1,"METHOD":"ping"}`:                                              "case-sensitive",
		`{"jsonrpc":"2.0","ID":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}`: "case-sensitive",
		`{"jsonrpc":"2.0","id":2,"method":"ping","Method":"tools/call"}`:                         "case-sensitive",
		`{"jsonrpc":"2.0","id":3,"method":"ping","method":"tools/call"}`:                         "given twice",
	} {
		a := s.post(sid, body)
		wantError(t, a, http.StatusBadRequest, -32600, "")
		if !strings.Contains(a.RPC.Error.Message, want) {
			t.Errorf("%s: message %q, want it to say %q", body, a.RPC.Error.Message, want)
		}
	}
	wantStatus(t, s.post(sid, call(4, "echo", `{"text":"still serving"}`)), http.StatusOK)
}

func TestIdsAreKeyedByTheirExactText(t *testing.T) {
	s := start(t)
	sid := s.open()
	// 2^53+1 and 2^53 are one float64: they must still be two ids, not a duplicate.
	first := s.async(sid, rawCall(`9007199254740993`, "sleep", `{"ms":1500}`))
	time.Sleep(300 * time.Millisecond)
	second := s.post(sid, rawCall(`9007199254740992`, "echo", `{"text":"x"}`))
	wantStatus(t, second, http.StatusOK)
	if second.RPC.Error != nil || string(second.RPC.ID) != `9007199254740992` {
		t.Fatalf("the second id was taken for the first: %s", second.Body)
	}
	if a := <-first; a.Status != http.StatusOK || string(a.RPC.ID) != `9007199254740993` {
		t.Fatalf("first: %d %s", a.Status, a.Body)
	}
	// An id no float64 holds is still an id a cancellation can name.
	done := s.async(sid, rawCall(`1e400`, "sleep", `{"ms":30000}`))
	time.Sleep(300 * time.Millisecond)
	wantStatus(t, s.post(sid, cancelOf(`1e400`)), http.StatusAccepted)
	select {
	case a := <-done:
		wantStatus(t, a, http.StatusAccepted)
	case <-time.After(10 * time.Second):
		t.Fatal("notifications/cancelled naming 1e400 did not end the call")
	}
}
