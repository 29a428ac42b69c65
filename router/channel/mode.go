package channel

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Mode connects a Hub to a router through the router's seams, so the router's own code
// never changes for the channel:
//
//	mode := &channel.Mode{Hub: hub, Streams: streams, Standalone: streams.Stream}
//	opts.PrepareSession = mode.PrepareSession   // address + secret into the prepare config
//	opts.Responses = mode                       // answers turn into SSE when the worker speaks
//	opts.Streams = mode                         // GET with a POST stream's Last-Event-ID resumes it
//	opts.Hooks = mode.Hooks(opts.Hooks)         // attach on open, close on end
type Mode struct {
	Hub *Hub
	// Streams serves every GET that is not the resumption of a POST stream.
	Streams router.StreamOpener
	// Standalone finds a session's GET-stream pathway for notifications bound to no call;
	// nil drops them.
	Standalone func(sessionID string) (*sse.Session, bool)
	// Unclaimed is how long an endpoint whose session never opened (a failed login) lives;
	// default 2 minutes (above the default login timeout).
	Unclaimed time.Duration
	// ProgressKeepalive, when above zero, sends a client that asked for progress a
	// notifications/progress whenever the worker has been silent this long (Answer.KeepProgress).
	ProgressKeepalive time.Duration
}

// PrepareSession implements router.Options.PrepareSession: the session's endpoint is made and
// its address and secret go to the worker.
func (m *Mode) PrepareSession(_ context.Context, sessionID string, cfg *worker.PrepareConfig) error {
	ep, err := m.Hub.Open(sessionID)
	if err != nil {
		return err
	}
	cfg.Channel = &worker.Channel{Address: ep.Address(), Secret: ep.Secret()}
	wait := m.Unclaimed
	if wait <= 0 {
		wait = 2 * time.Minute
	}
	time.AfterFunc(wait, func() {
		if !ep.attached() {
			ep.Close()
		}
	})
	return nil
}

// Hooks wraps next so that a session's endpoint is attached when it opens and closed when
// it ends.
func (m *Mode) Hooks(next session.Hooks) session.Hooks {
	return session.Hooks{
		Opened: func(s *session.Session) {
			if ep := m.Hub.Endpoint(s.ID()); ep != nil {
				ep.Attach(m.relay(s))
			}
			if next.Opened != nil {
				next.Opened(s)
			}
		},
		Ended: func(s *session.Session, r session.Reason) {
			if ep := m.Hub.Endpoint(s.ID()); ep != nil {
				ep.Close()
			}
			if next.Ended != nil {
				next.Ended(s, r)
			}
		},
	}
}

func (m *Mode) relay(s *session.Session) Relay {
	// The client's answers go to the worker in one frame, with the envelope around them.
	s.Pending().SetMaxAnswer(m.Hub.o.MaxFrame - answerOverhead)
	r := Relay{Pending: s.Pending()}
	if m.Standalone != nil {
		id := s.ID()
		r.Standalone = func(msg []byte) bool {
			st, ok := m.Standalone(id)
			return ok && st.Send(msg) > 0
		}
	}
	return r
}

// Begin implements router.ResponseMode.
func (m *Mode) Begin(w http.ResponseWriter, r *http.Request, sess *session.Session, msg jsonrpc.Message) router.Answer {
	ep := m.Hub.Endpoint(sess.ID())
	a := NewAnswer(w, r, ep, AnswerOptions{ProtocolVersion: sess.ProtocolVersion()})
	if ep != nil {
		a.unbind = ep.Bind(msg.ID, a)
	}
	a.KeepProgress(progressToken(msg.Params), m.ProgressKeepalive)
	return a
}

// progressToken reads params._meta.progressToken, exactly (nil when absent or unusable).
func progressToken(params json.RawMessage) json.RawMessage {
	if len(params) == 0 {
		return nil
	}
	p, err := jsonrpc.Members(params)
	if err != nil || len(p["_meta"]) == 0 {
		return nil
	}
	meta, err := jsonrpc.Members(p["_meta"])
	tok := meta["progressToken"]
	if err != nil || len(tok) == 0 || (tok[0] != '"' && tok[0] != '-' && (tok[0] < '0' || tok[0] > '9')) {
		return nil
	}
	return tok
}

// ServeStream implements router.StreamOpener.
func (m *Mode) ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session) {
	if ep := m.Hub.Endpoint(sess.ID()); ep != nil && ep.Resume(w, r) {
		return
	}
	m.Streams.ServeStream(w, r, sess)
}
