package e2e_model

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

const sampleClassURI = "gemstone://Sample/SampleSavingsAccount"

// dataLines delivers the data of each event of an SSE body until it ends.
func dataLines(body interface{ Read([]byte) (int, error) }) <-chan string {
	out := make(chan string, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "data: ") {
				out <- strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return out
}

// awaitUpdated waits up to within for notifications/resources/updated naming uri.
func awaitUpdated(t *testing.T, events <-chan string, uri string, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := time.After(within)
	for {
		select {
		case data, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before notifications/resources/updated for %s", uri)
			}
			var m struct {
				Method string `json:"method"`
				Params struct {
					URI string `json:"uri"`
				} `json:"params"`
			}
			if json.Unmarshal([]byte(data), &m) == nil && m.Method == "notifications/resources/updated" && m.Params.URI == uri {
				return time.Since(start)
			}
		case <-deadline:
			t.Fatalf("no notifications/resources/updated for %s within %v", uri, within)
		}
	}
}

func TestSourceIsReadableAsResourcesInTheReadersView(t *testing.T) {
	s := start(t)
	a, b := s.open(t), s.open(t)
	var list struct {
		Resources []struct {
			URI string `json:"uri"`
		} `json:"resources"`
		NextCursor string `json:"nextCursor"`
	}
	found := false
	params := map[string]any{}
	for page := 0; page < 50 && !found; page++ {
		if err := json.Unmarshal(a.request("resources/list", params), &list); err != nil {
			t.Fatal(err)
		}
		for _, r := range list.Resources {
			found = found || r.URI == sampleClassURI
		}
		if list.NextCursor == "" {
			break
		}
		params = map[string]any{"cursor": list.NextCursor}
	}
	if !found {
		t.Fatalf("resources/list does not list %s", sampleClassURI)
	}
	var templates struct {
		ResourceTemplates []struct {
			URITemplate string `json:"uriTemplate"`
		} `json:"resourceTemplates"`
	}
	if err := json.Unmarshal(a.request("resources/templates/list", map[string]any{}), &templates); err != nil || len(templates.ResourceTemplates) != 3 {
		t.Fatalf("resources/templates/list: %v %+v", err, templates)
	}
	read := func(ss *session, uri string) string {
		var r struct {
			Contents []struct {
				Text string `json:"text"`
			} `json:"contents"`
		}
		if err := json.Unmarshal(ss.request("resources/read", map[string]any{"uri": uri}), &r); err != nil || len(r.Contents) != 1 {
			t.Fatalf("resources/read %s: %v", uri, err)
		}
		return r.Contents[0].Text
	}
	method := sampleClassURI + "/instance/addInterest"
	if got := read(a, method); !strings.Contains(got, "// 100") {
		t.Fatalf("the method resource: %q", got)
	}
	// The read licenses a write, as get_method_source does; the write is b's to see only after a commit.
	a.must("compile_method", compileArgs(fixedSource))
	if got := read(a, method); !strings.Contains(got, "+ 99") {
		t.Errorf("the writer's own view: %q", got)
	}
	if got := read(b, method); strings.Contains(got, "+ 99") {
		t.Errorf("another session reads an uncommitted change: %q", got)
	}
	if !strings.Contains(read(a, sampleClassURI), "addInterest") {
		t.Error("the class resource does not hold its methods")
	}
}

func TestASubscribedClassIsNotifiedOnTheGETStreamWhenAnotherSessionCommits(t *testing.T) {
	s := start(t)
	watcher, writer := s.open(t), s.open(t)
	resp := s.client().Stream(t, watcher.id, "")
	events := dataLines(resp.Body)
	watcher.request("resources/subscribe", map[string]any{"uri": sampleClassURI})
	writer.must("get_method_source", addInterest())
	writer.must("compile_method", compileArgs(fixedSource))
	// Nothing is committed yet: nothing to announce.
	quiet := time.After(2 * time.Second)
	for waiting := true; waiting; {
		select {
		case data := <-events:
			if strings.Contains(data, "resources/updated") {
				t.Fatalf("an uncommitted change was announced: %s", data)
			}
		case <-quiet:
			waiting = false
		}
	}
	writer.must("commit", map[string]any{})
	took := awaitUpdated(t, events, sampleClassURI, 10*time.Second)
	t.Logf("notifications/resources/updated arrived %v after the commit answered (poll interval 1s)", took)
}

func TestASubscribedClassIsNotifiedThroughSubscriptionsListenInTheStatelessRevision(t *testing.T) {
	s := start(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["` + sampleClassURI +
		`"]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("subscriptions/listen: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := dataLines(resp.Body)
	select {
	case ack := <-events:
		if !strings.Contains(ack, "notifications/subscriptions/acknowledged") || !strings.Contains(ack, sampleClassURI) {
			t.Fatalf("the stream did not open with the acknowledgement of the resource: %s", ack)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no acknowledgement within 30s")
	}
	writer := s.open(t)
	writer.must("get_method_source", addInterest())
	writer.must("compile_method", compileArgs(fixedSource))
	// The router holds the stream's subscription in a stateless gem once the stream is open.
	mcptest.Eventually(t, 30*time.Second, "the subscription held in a stateless gem", func() bool {
		return strings.Contains(s.log.String(), "resource subscriptions held in a stateless gem")
	})
	writer.must("commit", map[string]any{})
	took := awaitUpdated(t, events, sampleClassURI, 10*time.Second)
	t.Logf("notifications/resources/updated arrived on the listen stream %v after the commit answered", took)
}
