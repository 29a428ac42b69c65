package router

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

// A state handle names a gem of one client's own on the stateless revision: a session of the
// table (same cap, same lifetime policy, same logged end), never reachable by MCP-Session-Id,
// bound to the token subject in the network-facing mode. docs/transport.md, "2026-07-28: state
// without sessions", has the decision; this file is its mechanics.

// stateAsk is what a request's _meta["io.github.gemstone-mcp/state"] says.
type stateAsk struct {
	fresh  bool   // "new": run this request on a gem of its own and hand out the handle
	handle string // run on this handle's gem
	end    string // {"end": handle}: end that handle, then run the request statelessly
}

// parseStateAsk reads the state member; why names what is malformed.
func parseStateAsk(raw json.RawMessage) (stateAsk, string) {
	var a stateAsk
	if len(raw) == 0 {
		return a, ""
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		switch {
		case str == "new":
			a.fresh = true
		case str == "" || len(str) > 256:
			return a, "must be \"new\", a handle this server issued, or {\"end\": handle}"
		default:
			a.handle = str
		}
		return a, ""
	}
	var obj struct {
		End *string `json:"end"`
	}
	if json.Unmarshal(raw, &obj) != nil || obj.End == nil || *obj.End == "" {
		return a, "must be \"new\", a handle this server issued, or {\"end\": handle}"
	}
	a.end = *obj.End
	return a, ""
}

// handleSession finds a live handle's session for this request's principal; nil when the
// handle names nothing this principal may use (never issued, ended, expired, another's).
func (s *Server) handleSession(ctx context.Context, handle string) *session.Session {
	if !s.handles.has(handle) {
		return nil
	}
	sess, ok := s.table.Get(handle)
	if !ok {
		return nil
	}
	if _, ended := sess.Ended(); ended {
		return nil
	}
	if !s.owns(ctx, sess.Owner()) {
		return nil
	}
	return sess
}

// issueHandle logs a gem in for one client, under the cap, and introduces the router to it.
func (s *Server) issueHandle(ctx context.Context) (*session.Session, error) {
	sess, err := s.openHidden(ctx, s.handles.add, s.handles.remove)
	if err != nil {
		var pl *errPoolLaunch
		if errors.As(err, &pl) && pl.lf.kind == "sessionLimit" {
			s.o.Log.Warn().Int("limit", pl.lf.number).Msg("state handle refused: session limit reached")
		}
		return nil, err
	}
	if _, err := s.introduce(ctx, sess); err != nil {
		return nil, err
	}
	// The revision tells the lifetime policy the handle will never open a stream: it idles out
	// at MCP_IDLE_TIMEOUT, not at the streamless deadline a pool gem keeps.
	sess.SetProtocolVersion(StatelessVersion)
	s.o.Log.Info().Str("session", sess.ID()).Int("sessions", s.table.Len()).Msg("state handle issued")
	return sess, nil
}

// stampState puts the handle in the result's _meta, so a client that asked for one learns it
// from the answer to the very request that asked.
func stampState(reply []byte, handle string) []byte {
	outer, err := jsonrpc.Members(reply)
	if err != nil || len(outer["result"]) == 0 || outer["result"][0] != '{' {
		return reply
	}
	res, err := jsonrpc.Members(outer["result"])
	if err != nil {
		return reply
	}
	meta := map[string]json.RawMessage{}
	if raw := res["_meta"]; len(raw) > 0 {
		if m, err := jsonrpc.Members(raw); err == nil {
			meta = m
		}
	}
	meta[metaState], _ = json.Marshal(handle)
	res["_meta"], _ = json.Marshal(meta)
	outer["result"], _ = json.Marshal(res)
	out, err := json.Marshal(outer)
	if err != nil {
		return reply
	}
	return out
}

// openHidden logs a gem in for a 2026-07-28 path (a state handle, a pool gem) under the session
// cap, hidden from MCP-Session-Id. onOpen runs with the new session's id before anything can end
// it, onDone once it has ended.
func (s *Server) openHidden(ctx context.Context, onOpen, onDone func(id string)) (*session.Session, error) {
	if s.closing.Err() != nil {
		return nil, &errPoolLaunch{status: http.StatusServiceUnavailable, lf: launchFailure{message: session.ErrShuttingDown.Reason, kind: session.ErrShuttingDown.Kind}}
	}
	slot, err := s.table.Reserve()
	if err != nil {
		var lim *session.LimitError
		errors.As(err, &lim)
		return nil, &errPoolLaunch{status: http.StatusOK, lf: launchFailure{message: err.Error(), kind: "sessionLimit", number: lim.Limit}}
	}
	sess, status, lf := s.open(ctx, slot)
	if sess == nil {
		return nil, &errPoolLaunch{status: status, lf: lf}
	}
	id := sess.ID()
	s.hidden.add(id)
	onOpen(id)
	go func() {
		<-sess.Done()
		onDone(id)
		s.hidden.remove(id)
	}()
	return sess, nil
}
