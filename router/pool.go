package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

// DefaultStatelessPool is how many gems serve requests that carry no state, when
// Options.StatelessPool is 0.
const DefaultStatelessPool = 2

// statelessPool holds the gems that serve stateless requests: each one is a session of the
// table (one slot of the cap, the lifetime policy's reaper and view hygiene apply), never
// reachable by MCP-Session-Id, running one call at a time, its view refreshed between calls.
// In the network-facing mode a pool gem is logged in as, and bound to, one principal, and only
// serves that principal.
type statelessPool struct {
	s   *Server
	max int

	mu    sync.Mutex
	idle  []*session.Session
	live  int           // gems logged in or logging in
	freed chan struct{} // closed and replaced whenever a gem is given back or a place frees

	infoMu sync.Mutex
	info   *workerInfo
}

// workerInfo is what server/discover tells: the worker's own initialize answer.
type workerInfo struct {
	Capabilities json.RawMessage `json:"capabilities"`
	ServerInfo   json.RawMessage `json:"serverInfo"`
	Instructions json.RawMessage `json:"instructions"`
}

func newStatelessPool(s *Server, max int) *statelessPool {
	if max <= 0 {
		max = DefaultStatelessPool
	}
	return &statelessPool{s: s, max: max, freed: make(chan struct{})}
}

// errPoolLaunch carries a failed login's answer to the client.
type errPoolLaunch struct {
	status int
	lf     launchFailure
}

func (e *errPoolLaunch) Error() string { return e.lf.message }

// acquire takes a free gem of this request's principal, logging one in when the pool has
// room; otherwise it waits for one to be given back, until ctx ends.
func (p *statelessPool) acquire(ctx context.Context) (*session.Session, error) {
	for {
		p.mu.Lock()
		for i := len(p.idle) - 1; i >= 0; i-- {
			sess := p.idle[i]
			if _, ended := sess.Ended(); ended {
				p.idle = append(p.idle[:i], p.idle[i+1:]...)
				continue
			}
			if !p.s.owns(ctx, sess.Owner()) {
				continue
			}
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			p.mu.Unlock()
			return sess, nil
		}
		if p.live < p.max {
			p.live++
			p.mu.Unlock()
			sess, err := p.open(ctx)
			if err != nil {
				p.mu.Lock()
				p.live--
				p.signalLocked()
				p.mu.Unlock()
				return nil, err
			}
			return sess, nil
		}
		if p.s.o.Identity != nil && len(p.idle) > 0 {
			// Full of other principals' idle gems: the oldest goes, so this one can log in.
			victim := p.idle[0]
			p.idle = p.idle[1:]
			p.mu.Unlock()
			victim.End(context.Background(), session.Reason{Kind: "poolEvicted", Detail: "a stateless gem of another principal was needed"})
			continue
		}
		wait := p.freed
		p.mu.Unlock()
		p.s.preemptParked()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (p *statelessPool) signalLocked() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// open logs a pool gem in and introduces the router to it with an initialize of the newest
// session revision, whose answer is what server/discover advertises.
func (p *statelessPool) open(ctx context.Context) (*session.Session, error) {
	s := p.s
	sess, err := s.openHidden(ctx, func(string) {}, func(string) {
		p.mu.Lock()
		p.live--
		p.signalLocked()
		p.mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	info, err := s.introduce(ctx, sess)
	if err != nil {
		return nil, err
	}
	p.infoMu.Lock()
	if p.info == nil {
		p.info = info
	}
	p.infoMu.Unlock()
	s.o.Log.Info().Str("session", sess.ID()).Msg("stateless pool gem logged in")
	return sess, nil
}

// introduce sends a new stateless gem the router's own initialize (the newest session revision,
// no client capabilities: each request brings its own in _meta) and reads the worker's answer.
// A gem that refuses it is ended.
func (s *Server) introduce(ctx context.Context, sess *session.Session) (*workerInfo, error) {
	hello := jsonrpc.Message{Kind: jsonrpc.Request, ID: json.RawMessage(`"router-initialize"`), Method: "initialize"}
	hello.Raw, _ = json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": "router-initialize", "method": "initialize",
		"params": map[string]any{
			"protocolVersion": s.sessionVersions()[0],
			"capabilities":    map[string]any{},
			"clientInfo":      map[string]any{"name": "mcp-gemstone-router", "version": s.o.Version},
		},
	})
	hello.Params, _ = json.Marshal(map[string]any{})
	out := sess.Do(ctx, hello)
	if out.Err != nil || out.Stopped != nil || len(out.Reply) == 0 || jsonrpc.IsErrorResponse(out.Reply) {
		sess.End(context.Background(), session.Reason{Kind: session.ReasonInitFailed, Detail: "the worker did not accept the router's initialize"})
		return nil, &errPoolLaunch{status: http.StatusOK, lf: launchFailure{message: "cannot serve stateless requests: the worker did not accept initialize", kind: "workerError"}}
	}
	var answer struct {
		Result workerInfo `json:"result"`
	}
	if err := json.Unmarshal(out.Reply, &answer); err != nil {
		return nil, fmt.Errorf("the worker's initialize answer: %w", err)
	}
	return &answer.Result, nil
}

// release gives a gem back after a call. Its next request begins with an abort in the worker
// (docs/worker-contract.md), so nothing of this call's work reaches the next client, and the
// next call sees the repository as of its start; the lifetime policy's view hygiene watches
// pool gems like every session between calls.
func (p *statelessPool) release(sess *session.Session, _ string) {
	if _, ended := sess.Ended(); ended {
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, sess)
	p.signalLocked()
	p.mu.Unlock()
}

// workerInfo is the worker's initialize answer, logging a pool gem in the first time.
func (p *statelessPool) workerInfo(ctx context.Context) (*workerInfo, error) {
	p.infoMu.Lock()
	info := p.info
	p.infoMu.Unlock()
	if info != nil {
		return info, nil
	}
	sess, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	p.release(sess, "server/discover")
	p.infoMu.Lock()
	defer p.infoMu.Unlock()
	if p.info == nil {
		return nil, errors.New("the worker's initialize answer could not be read")
	}
	return p.info, nil
}

// poolFailure is the answer to a request no pool gem could be found for.
func (s *Server) poolFailure(m jsonrpc.Message, err error) (int, []byte) {
	var pe *errPoolLaunch
	if errors.As(err, &pe) {
		return pe.status, errorBody(m.ID, jsonrpc.CodeServer, pe.lf.message, pe.lf.kind, "number", pe.lf.number)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return http.StatusServiceUnavailable, errorBody(m.ID, jsonrpc.CodeServer,
			"no stateless gem became free before the request ended; send it again", "poolBusy")
	}
	return http.StatusOK, errorBody(m.ID, jsonrpc.CodeInternalError, "Internal error: "+err.Error(), "workerError")
}
