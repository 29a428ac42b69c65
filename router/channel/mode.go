package channel

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Mode connects a Hub to a router through the router's seams, so the router's own code
// never changes for the channel:
//
//	mode := &channel.Mode{Hub: hub}
//	opts.PrepareSession = mode.PrepareSession   // address + secret into the prepare config; the endpoint joins the session
//	opts.Responses = mode                       // answers turn into SSE when the worker speaks
//	opts.Streams = mode                         // GET with a POST stream's Last-Event-ID resumes it
//
// The endpoint is a part of its session (session.Held): the session closes it when it ends,
// and the router closes it when the login fails.
type Mode struct {
	Hub *Hub
	// Streams serves every GET that is not the resumption of a POST stream (default: the
	// session's own stream, router.SessionStream).
	Streams router.StreamOpener
	// ProgressKeepalive, when above zero, sends a client that asked for progress a
	// notifications/progress whenever the worker has been silent this long (Answer.KeepProgress).
	ProgressKeepalive time.Duration
}

// PrepareSession implements router.Options.PrepareSession: the session's endpoint is made, its
// address and secret go to the worker, and the endpoint is the part the session will hold.
func (m *Mode) PrepareSession(_ context.Context, sessionID string, cfg *worker.PrepareConfig) (router.SessionPart, error) {
	ep, err := m.Hub.Open(sessionID)
	if err != nil {
		return nil, err
	}
	cfg.Channel = &worker.Channel{Address: ep.Address(), Secret: ep.Secret()}
	return ep, nil
}

// Join implements router.SessionPart: the endpoint relays to the session that opened. The
// client's answers go to the worker in one frame, with the envelope around them, and a
// notification bound to no call goes to the session's GET stream.
func (e *Endpoint) Join(s *session.Session) {
	s.Pending().SetMaxAnswer(e.hub.o.MaxFrame - answerOverhead)
	stream := s.Stream()
	e.attach(Relay{Pending: s.Pending(), Standalone: func(msg []byte) bool { return stream.Send(msg) > 0 }})
}

// endpointOf is the session's endpoint, or nil (no channel, or the hub could not open one).
func endpointOf(s *session.Session) *Endpoint {
	ep, _ := session.Held[*Endpoint](s)
	return ep
}

// Begin implements router.ResponseMode.
func (m *Mode) Begin(w http.ResponseWriter, r *http.Request, sess *session.Session, msg jsonrpc.Message) router.Answer {
	ep := endpointOf(sess)
	a := NewAnswer(w, r, ep, AnswerOptions{ProtocolVersion: sess.ProtocolVersion()})
	if ep != nil {
		a.unbind = ep.Bind(msg.ID, a)
	}
	a.KeepProgress(progressToken(msg.Params), m.ProgressKeepalive)
	return a
}

// progressToken reads params._meta.progressToken, exactly (nil when absent or unusable).
func progressToken(params json.RawMessage) json.RawMessage {
	tok := jsonrpc.MetaValue(params, "progressToken")
	if len(tok) == 0 || (tok[0] != '"' && tok[0] != '-' && (tok[0] < '0' || tok[0] > '9')) {
		return nil
	}
	return tok
}

// ServeStream implements router.StreamOpener.
func (m *Mode) ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session) {
	if ep := endpointOf(sess); ep != nil && ep.Resume(w, r) {
		return
	}
	if m.Streams == nil {
		router.SessionStream{}.ServeStream(w, r, sess)
		return
	}
	m.Streams.ServeStream(w, r, sess)
}
