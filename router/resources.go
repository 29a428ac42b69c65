package router

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// A session that subscribed to a resource has its gem asked, between calls, which of its
// subscribed resources another session's commit changed (the worker's notify set: it is told
// by the stone, never by polling the repository), and each one the gem names reaches the
// client as notifications/resources/updated on its GET stream. The gem has no way to speak
// between calls, so the router asks: resourcePollInterval bounds how late a notification is,
// and an ask runs only when the session is idle, so it never delays a call by more than one
// small gem round trip.
const (
	resourcePollInterval = time.Second
	resourcePollTimeout  = 5 * time.Second
	// resourceUpdatesMethod is the worker's answer to "which subscribed resources changed"
	// (docs/worker-contract.md); a worker without it answers -32601 and is not asked again.
	resourceUpdatesMethod = "io.github.gemstone-mcp/resourceUpdates"
	// maxListenerResources is how many resources of one subscriptions/listen stream a pool gem
	// is asked to hold, the Smalltalk worker's own bound per session (McpResourceCatalog).
	maxListenerResources = 32
)

var resourceUpdatesRequest = []byte(`{"jsonrpc":"2.0","id":"router-resource-updates","method":"` + resourceUpdatesMethod + `"}`)

// resourceWatch is the poll of one session, held as a part of it so that it ends with it.
type resourceWatch struct {
	stop context.CancelFunc
}

func (w *resourceWatch) Close() { w.stop() }

// watchResources starts the poll of sess after its first successful resources/subscribe; a
// session is watched once however often it subscribes.
func (s *Server) watchResources(sess *session.Session) {
	s.gemWatch(sess, func(uri string) {
		if st := sess.Stream(); st != nil {
			st.Send(resourceUpdated(uri))
		}
	})
}

// gemWatch answers the poll of sess, starting it with deliver when there is none: one poll per
// gem, since what it answers is consumed by the asking.
func (s *Server) gemWatch(sess *session.Session, deliver func(uri string)) *listenerWatch {
	lw := &listenerWatch{listeners: map[*listener]bool{}}
	got, watched := s.watches.LoadOrStore(sess.ID(), lw)
	if watched {
		return got.(*listenerWatch)
	}
	if deliver == nil {
		deliver = lw.deliver
	}
	ctx, stop := context.WithCancel(s.base)
	sess.Hold(&resourceWatch{stop: func() {
		stop()
		s.watches.Delete(sess.ID())
	}})
	go s.pollResources(ctx, sess, deliver)
	return lw
}

// listenerWatch is the subscriptions/listen streams whose resource subscriptions one stateless
// pool gem holds. A pool gem serves one principal, so every stream here is that principal's.
type listenerWatch struct {
	mu        sync.Mutex
	listeners map[*listener]bool
}

func (lw *listenerWatch) add(ln *listener) {
	lw.mu.Lock()
	lw.listeners[ln] = true
	lw.mu.Unlock()
}

func (lw *listenerWatch) remove(ln *listener) {
	lw.mu.Lock()
	delete(lw.listeners, ln)
	lw.mu.Unlock()
}

// deliver hands the update to each stream that subscribed to uri, tagged with its subscription
// id; a stream whose buffer is full misses it (stateless_subscriptions.go's bound).
func (lw *listenerWatch) deliver(uri string) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	for ln := range lw.listeners {
		if !ln.uris[uri] {
			continue
		}
		msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/resources/updated",
			"params": map[string]any{"uri": uri, "_meta": map[string]any{metaSubscriptionID: ln.id}}})
		if err != nil {
			continue
		}
		select {
		case ln.out <- msg:
		default:
		}
	}
}

// watchForListener holds ln's resource subscriptions in a stateless pool gem of the listening
// principal for as long as the stream lasts: it subscribes there, gives the gem back to the
// pool (it goes on serving requests; a subscription does not occupy it), and has the gem's poll
// deliver to ln. A gem that ends (evicted, reaped) is replaced and subscribed again.
func (s *statelessServer) watchForListener(ctx context.Context, ln *listener) {
	for ctx.Err() == nil {
		sess, err := s.pool.acquire(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.o.Log.Warn().Err(err).Str("subscription", ln.id).Msg("resource subscriptions: no stateless gem to hold them; trying again")
				select {
				case <-ctx.Done():
				case <-time.After(resourcePollInterval):
				}
			}
			continue
		}
		held := 0
		for uri := range ln.uris {
			if held == maxListenerResources {
				s.o.Log.Info().Str("subscription", ln.id).Int("limit", maxListenerResources).Msg("resource subscriptions: a stream asked for more resources than a gem holds; the rest get no notifications")
				break
			}
			held++
			msgs, _, err := jsonrpc.Parse(subscribeRequest(uri))
			if err != nil || len(msgs) != 1 {
				continue
			}
			if out := sess.Do(ctx, msgs[0]); !subscribed(msgs[0], out) {
				s.o.Log.Debug().Str("subscription", ln.id).Str("uri", jsonrpc.Clip(uri)).Msg("resource subscriptions: the worker refused a subscription")
			}
		}
		s.pool.release(sess)
		lw := s.gemWatch(sess, nil)
		lw.add(ln)
		s.o.Log.Debug().Str("subscription", ln.id).Int("resources", held).Msg("resource subscriptions held in a stateless gem")
		select {
		case <-ctx.Done():
			lw.remove(ln)
			return
		case <-sess.Done():
			lw.remove(ln)
		}
	}
}

func subscribeRequest(uri string) []byte {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "router-subscribe", "method": "resources/subscribe",
		"params": map[string]any{"uri": uri}})
	return body
}

// pollResources asks the gem every resourcePollInterval, while the session is idle, and hands
// each changed URI to deliver, until ctx ends or the worker says it has no such question.
func (s *Server) pollResources(ctx context.Context, sess *session.Session, deliver func(uri string)) {
	tick := time.NewTicker(resourcePollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sess.Done():
			return
		case <-tick.C:
		}
		var updated []string
		unsupported := false
		_, err := sess.IfIdle(ctx, func(ctx context.Context, gem worker.Gem) error {
			callCtx, cancel := context.WithTimeout(ctx, resourcePollTimeout)
			defer cancel()
			raw, err := gem.Handle(callCtx, resourceUpdatesRequest)
			if err != nil {
				return err
			}
			updated, unsupported = parseResourceUpdates(raw)
			return nil
		})
		if err != nil {
			s.o.Log.Debug().Err(err).Str("session", sess.ID()).Msg("resource updates: asking the gem failed; asking again next interval")
			continue
		}
		if unsupported {
			s.o.Log.Debug().Str("session", sess.ID()).Msg("resource updates: the worker has no " + resourceUpdatesMethod + "; subscriptions get no notifications")
			return
		}
		for _, uri := range updated {
			deliver(uri)
		}
	}
}

// parseResourceUpdates reads the worker's answer: the URIs it names, or unsupported when it
// answered method-not-found.
func parseResourceUpdates(raw []byte) (updated []string, unsupported bool) {
	var answer struct {
		Result *struct {
			Updated []string `json:"updated"`
		} `json:"result"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &answer) != nil {
		return nil, false
	}
	if answer.Error != nil {
		return nil, answer.Error.Code == jsonrpc.CodeMethodNotFound
	}
	if answer.Result == nil {
		return nil, false
	}
	return answer.Result.Updated, false
}

// resourceUpdated is the notification for one changed resource.
func resourceUpdated(uri string) []byte {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/resources/updated",
		"params": map[string]any{"uri": uri}})
	return msg
}

// subscribed says whether out is a successful answer to a resources/subscribe.
func subscribed(m jsonrpc.Message, out session.Outcome) bool {
	if m.Method != "resources/subscribe" || out.Err != nil {
		return false
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
	}
	return json.Unmarshal(out.Reply, &answer) == nil && len(answer.Result) > 0
}
