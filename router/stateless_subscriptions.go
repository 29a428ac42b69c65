package router

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// The bounds of subscriptions/listen streams (docs/transport.md). listenerBuffer bounds what
// waits for one slow stream (past it, notifications to that stream are dropped: a list-changed
// notification only says "list again", so a dropped one costs a late refresh).
const (
	maxListeners = 64
	// maxListenersPerOwner is one token subject's share in the network-facing mode.
	maxListenersPerOwner = 8
	listenerBuffer       = 16
	// maxListenLife and maxListenBytes end a stream (with notifications/cancelled naming its
	// request, as the revision asks of a server that tears one down); the client listens again.
	maxListenLife  = 30 * time.Minute
	maxListenBytes = 16 << 20
	// maxSubscriptionURIs and maxFilterBytes bound what one stream asks to hear.
	maxSubscriptionURIs = 256
	maxFilterBytes      = 64 << 10
)

// kindOf maps a notification to the subscription filter member that opts in to it.
var kindOf = map[string]string{
	"notifications/tools/list_changed":     "toolsListChanged",
	"notifications/prompts/list_changed":   "promptsListChanged",
	"notifications/resources/list_changed": "resourcesListChanged",
	"notifications/resources/updated":      "resourceSubscriptions",
}

type listener struct {
	id    string
	owner session.Owner
	kinds map[string]bool
	uris  map[string]bool
	out   chan []byte
}

// listenerSet holds the open subscriptions/listen streams of the stateless revision.
type listenerSet struct {
	mu  sync.Mutex
	set map[*listener]struct{}
}

// offer hands a worker notification to every stream that asked for its kind, tagged with
// that stream's subscription id; false when the method is not one a listen stream carries. A
// list-changed notification comes from a gem serving owner's call, whose tool surface is that
// owner's token's: it reaches only that owner's streams.
func (l *listenerSet) offer(owner session.Owner, method string, msg []byte) bool {
	kind, ok := kindOf[method]
	if !ok {
		return false
	}
	var n struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(msg, &n)
	if n.Params == nil {
		n.Params = map[string]json.RawMessage{}
	}
	var uri string
	_ = json.Unmarshal(n.Params["uri"], &uri)
	// The notification as a listen stream carries it, before its subscription id.
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": n.Params})
	if err != nil {
		return true
	}
	base := jsonrpc.Message{Kind: jsonrpc.Notification, Method: method, Raw: raw}
	l.mu.Lock()
	defer l.mu.Unlock()
	for ln := range l.set {
		if !ln.kinds[kind] || (kind == "resourceSubscriptions" && !ln.uris[uri]) ||
			(kind != "resourceSubscriptions" && ln.owner != owner) {
			continue
		}
		tagged, err := jsonrpc.WithMeta(base, func(meta map[string]json.RawMessage) bool {
			meta[metaSubscriptionID], _ = json.Marshal(ln.id)
			return true
		})
		if err != nil {
			continue
		}
		select {
		case ln.out <- tagged.Raw:
		default:
		}
	}
	return true
}

// listen serves subscriptions/listen: an SSE stream that opens with the acknowledgement of
// the notifications it will carry and then carries them, until the client leaves or the
// server shuts down.
func (s *statelessServer) listen(w http.ResponseWriter, r *http.Request, req statelessRequest) {
	filter, ok := readFilter(req.params.Get("notifications"))
	if !ok {
		writeJSON(w, http.StatusBadRequest, errorBody(req.m.ID, jsonrpc.CodeInvalidParams,
			"Invalid params: subscriptions/listen needs params.notifications, a subscription filter object", errkind.InvalidParams))
		return
	}
	if len(req.params.Get("notifications")) > maxFilterBytes || len(filter.ResourceSubscriptions) > maxSubscriptionURIs {
		writeJSON(w, http.StatusBadRequest, errorBodyWith(req.m.ID, jsonrpc.CodeInvalidParams,
			fmt.Sprintf("Invalid params: a subscription filter takes at most %d resource URIs and %d bytes", maxSubscriptionURIs, maxFilterBytes),
			limitsData{Kind: errkind.SubscriptionTooLarge, Limit: maxSubscriptionURIs, LimitBytes: maxFilterBytes}))
		return
	}
	owner, err := s.owner(r.Context())
	if err != nil {
		writeJSON(w, http.StatusUnauthorized, errorBody(req.m.ID, jsonrpc.CodeServer, "no verified principal for this stream", errkind.Unauthorized))
		return
	}
	info, err := s.pool.workerInfo(r.Context())
	if err != nil {
		status, body := s.poolFailure(req.m, err)
		writeJSON(w, status, body)
		return
	}
	var caps struct {
		Tools     *struct{ ListChanged bool } `json:"tools"`
		Prompts   *struct{ ListChanged bool } `json:"prompts"`
		Resources *struct {
			ListChanged bool
			Subscribe   bool
		} `json:"resources"`
	}
	_ = json.Unmarshal(info.Capabilities, &caps)
	// Only what the worker can produce is acknowledged (the revision: a kind the server has
	// nothing for is left out of the acknowledged set).
	ack := map[string]any{}
	ln := &listener{owner: owner, kinds: map[string]bool{}, uris: map[string]bool{}, out: make(chan []byte, listenerBuffer)}
	if filter.ToolsListChanged && caps.Tools != nil {
		ack["toolsListChanged"], ln.kinds["toolsListChanged"] = true, true
	}
	if filter.PromptsListChanged && caps.Prompts != nil {
		ack["promptsListChanged"], ln.kinds["promptsListChanged"] = true, true
	}
	if filter.ResourcesListChanged && caps.Resources != nil {
		ack["resourcesListChanged"], ln.kinds["resourcesListChanged"] = true, true
	}
	if len(filter.ResourceSubscriptions) > 0 && caps.Resources != nil && caps.Resources.Subscribe {
		ack["resourceSubscriptions"], ln.kinds["resourceSubscriptions"] = filter.ResourceSubscriptions, true
		for _, u := range filter.ResourceSubscriptions {
			ln.uris[u] = true
		}
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	ln.id = "sub-" + hex.EncodeToString(b[:])
	s.listeners.mu.Lock()
	if len(s.listeners.set) >= maxListeners {
		s.listeners.mu.Unlock()
		writeJSON(w, http.StatusServiceUnavailable, errorBodyWith(req.m.ID, jsonrpc.CodeServer,
			"too many subscription streams are open; try again later", limitData{Kind: errkind.TooManyListeners, Limit: maxListeners}))
		return
	}
	if s.o.Identity != nil && s.listeners.countLocked(owner) >= maxListenersPerOwner {
		s.listeners.mu.Unlock()
		writeJSON(w, http.StatusTooManyRequests, errorBodyWith(req.m.ID, jsonrpc.CodeServer,
			fmt.Sprintf("this subject already holds %d subscription streams; close one first", maxListenersPerOwner),
			limitData{Kind: errkind.TooManyListeners, Limit: maxListenersPerOwner}))
		return
	}
	s.listeners.set[ln] = struct{}{}
	s.listeners.mu.Unlock()
	defer func() {
		s.listeners.mu.Lock()
		delete(s.listeners.set, ln)
		s.listeners.mu.Unlock()
	}()
	if ln.kinds["resourceSubscriptions"] {
		go s.watchForListener(r.Context(), ln) // resources.go
	}
	stream := sse.NewEventWriter(w, 0)
	if stream.StartStream() != nil {
		return
	}
	first, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
		"params": map[string]any{"notifications": ack, "_meta": map[string]any{metaSubscriptionID: ln.id}}})
	if stream.Event("", first) != nil {
		return
	}
	end := time.Now().Add(maxListenLife)
	why := "the stream reached its lifetime (" + maxListenLife.String() + "); listen again"
	if td, ok := s.o.Identity.(TokenDeadline); ok {
		if d, ok := td.TokenDeadline(r.Context()); ok && d.Before(end) {
			end, why = d, "the token it was opened with expired; listen again with a fresh one"
		}
	}
	s.pumpListen(r.Context(), stream, req, ln, listenBounds{end: end, why: why, maxBytes: maxListenBytes})
}

// listenBounds end a listen stream: its deadline (its life, or its token's expiry, whichever
// comes first, with why), and the bytes it may carry.
type listenBounds struct {
	end      time.Time
	why      string
	maxBytes int
}

// pumpListen writes ln's notifications to stream until a bound ends it (notifications/cancelled
// naming the listen request, then the end of the stream), the client leaves or the server
// closes.
func (s *statelessServer) pumpListen(ctx context.Context, stream *sse.EventWriter, req statelessRequest, ln *listener, b listenBounds) {
	life := time.NewTimer(time.Until(b.end))
	defer life.Stop()
	keepalive := time.NewTicker(sse.DefaultKeepalive)
	defer keepalive.Stop()
	sent := 0
	for {
		select {
		case msg := <-ln.out:
			if sent += len(msg); sent > b.maxBytes {
				s.endListen(stream, req, "the stream carried its "+strconv.Itoa(b.maxBytes)+" bytes; listen again")
				return
			}
			if stream.Event("", msg) != nil {
				return
			}
		case <-keepalive.C:
			if stream.Comment("keepalive") != nil {
				return
			}
		case <-life.C:
			s.endListen(stream, req, b.why)
			return
		case <-ctx.Done():
			return
		case <-s.closing.Done():
			s.endListen(stream, req, "the server is shutting down")
			return
		}
	}
}

// endListen tears a listen stream down as the revision asks: notifications/cancelled naming the
// subscriptions/listen request, then the end of the stream.
func (s *statelessServer) endListen(stream *sse.EventWriter, req statelessRequest, why string) {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": map[string]any{"requestId": req.m.ID, "reason": why}})
	if stream.Event("", msg) == nil {
		stream.Finish()
	}
}

// countLocked is how many streams owner holds; the caller holds l.mu.
func (l *listenerSet) countLocked(owner session.Owner) int {
	n := 0
	for ln := range l.set {
		if ln.owner == owner {
			n++
		}
	}
	return n
}

// subscriptionFilter is what a subscriptions/listen request asks to hear.
type subscriptionFilter struct {
	ToolsListChanged, PromptsListChanged, ResourcesListChanged bool
	ResourceSubscriptions                                      []string
}

// readFilter reads params.notifications with its member names exactly (a "ToolsListChanged"
// member asks for nothing); false when it is not an object or a member has the wrong type.
func readFilter(raw json.RawMessage) (subscriptionFilter, bool) {
	var f subscriptionFilter
	m, err := jsonrpc.Members(raw)
	if err != nil {
		return f, false
	}
	for name, dst := range map[string]*bool{
		"toolsListChanged": &f.ToolsListChanged, "promptsListChanged": &f.PromptsListChanged,
		"resourcesListChanged": &f.ResourcesListChanged,
	} {
		if v := m[name]; len(v) > 0 && json.Unmarshal(v, dst) != nil {
			return f, false
		}
	}
	if v := m["resourceSubscriptions"]; len(v) > 0 && json.Unmarshal(v, &f.ResourceSubscriptions) != nil {
		return f, false
	}
	return f, true
}
