package router

import (
	"slices"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

func TestParseResourceUpdatesReadsTheWorkersAnswer(t *testing.T) {
	for _, c := range []struct {
		name, answer string
		updates      []string
		unsupported  bool
	}{
		{"the updated URIs", `{"jsonrpc":"2.0","id":"x","result":{"updated":["gemstone://A/B","gemstone://A/C"]}}`, []string{"gemstone://A/B", "gemstone://A/C"}, false},
		{"a missing method stops the asking", `{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"method not found"}}`, nil, true},
		{"another error is neither", `{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"busy"}}`, nil, false},
		{"garbage is neither", `not json`, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, unsupported := parseResourceUpdates([]byte(c.answer))
			if unsupported != c.unsupported || !slices.Equal(got, c.updates) || (c.updates == nil && got != nil) {
				t.Errorf("%s: %v %v, want %v %v", c.answer, got, unsupported, c.updates, c.unsupported)
			}
		})
	}
}

func TestOnlyASuccessfulSubscribeStartsTheWatch(t *testing.T) {
	sub := jsonrpc.Message{Kind: jsonrpc.Request, Method: "resources/subscribe"}
	if !subscribed(sub, session.Outcome{Reply: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}) {
		t.Error("a subscribe answered with a result does not start the watch")
	}
	if subscribed(sub, session.Outcome{Reply: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}`)}) {
		t.Error("a refused subscribe starts the watch")
	}
	if subscribed(jsonrpc.Message{Kind: jsonrpc.Request, Method: "resources/read"}, session.Outcome{Reply: []byte(`{"result":{}}`)}) {
		t.Error("a read starts the watch")
	}
	if string(resourceUpdated("gemstone://A/B")) != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"gemstone://A/B"}}` {
		t.Errorf("notification: %s", resourceUpdated("gemstone://A/B"))
	}
}

func TestAListenStreamGetsOnlyTheUpdatesOfItsOwnResourcesTaggedWithItsID(t *testing.T) {
	mine := &listener{id: "sub-mine", uris: map[string]bool{"gemstone://A/B": true}, out: make(chan []byte, 2)}
	other := &listener{id: "sub-other", uris: map[string]bool{"gemstone://A/C": true}, out: make(chan []byte, 2)}
	lw := &listenerWatch{listeners: map[*listener]bool{}}
	lw.add(mine)
	lw.add(other)
	lw.deliver("gemstone://A/B")
	if len(other.out) != 0 {
		t.Errorf("a stream subscribed to another resource got %s", <-other.out)
	}
	if got := string(<-mine.out); got != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"`+metaSubscriptionID+`":"sub-mine"},"uri":"gemstone://A/B"}}` {
		t.Errorf("the stream's notification: %s", got)
	}
	lw.remove(mine)
	lw.deliver("gemstone://A/B")
	if len(mine.out) != 0 {
		t.Error("a removed stream still gets updates")
	}
}
