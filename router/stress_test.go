package router_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// Many clients on many sessions, each request with a unique id and text: every answer must
// carry its own id and its own bytes (nothing lost, duplicated or crossed between sessions),
// with pings and cancellations of unknown ids mixed in.
func TestConcurrentClientsGetTheirOwnAnswers(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxSessions = 0 })
	const sessions, clientsPerSession, calls = 4, 3, 40
	var wg sync.WaitGroup
	for si := range sessions {
		sid := f.open()
		for ci := range clientsPerSession {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range calls {
					id := fmt.Sprintf("s%d-c%d-k%d", si, ci, k)
					var body string
					switch k % 10 {
					case 3:
						body = `{"jsonrpc":"2.0","id":"` + id + `","method":"ping"}`
					case 7:
						body = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nobody"}}`
					default:
						body = call(id, "echo", `{"text":"`+id+`"}`)
					}
					a, err := f.try(sid, body)
					if err != nil {
						t.Error(err)
						return
					}
					if k%10 == 7 {
						if a.Status != http.StatusAccepted {
							t.Errorf("%s: cancel got %d", id, a.Status)
						}
						continue
					}
					var got struct {
						ID string `json:"id"`
					}
					if a.Status != http.StatusOK || json.Unmarshal(a.Body, &got) != nil || got.ID != id {
						t.Errorf("%s: %d %s", id, a.Status, a.Body)
						return
					}
					if k%10 != 3 && !strings.Contains(string(a.Body), `"text":"`+id+`"`) {
						t.Errorf("%s: someone else's answer: %s", id, a.Body)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
}
