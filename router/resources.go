package router

import (
	"context"
	"encoding/json"
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
	if _, watched := s.watches.LoadOrStore(sess.ID(), true); watched {
		return
	}
	ctx, stop := context.WithCancel(s.base)
	sess.Hold(&resourceWatch{stop: func() {
		stop()
		s.watches.Delete(sess.ID())
	}})
	go s.pollResources(ctx, sess, func(uri string) {
		if st := sess.Stream(); st != nil {
			st.Send(resourceUpdated(uri))
		}
	})
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
