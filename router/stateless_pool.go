package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

// DefaultStatelessPool is how many gems serve requests that carry no state, when
// Options.StatelessPool is 0.
const DefaultStatelessPool = 2

// DefaultPoolDwell is how long, in the network-facing mode, a pool gem serves the principal it
// logged in for before another principal's request may log it out for a gem of its own.
const DefaultPoolDwell = 2 * time.Second

// statelessPool holds the gems that serve stateless requests: each one is a session of the
// table (one slot of the cap, the lifetime policy's reaper and view hygiene apply), never
// reachable by MCP-Session-Id, running one call at a time, its view refreshed between calls.
// In the network-facing mode a pool gem is logged in as, and bound to, one principal and the
// GemStone user its token named, and only serves requests of both.
type statelessPool struct {
	s   *statelessServer
	max int
	ids statelessIDs // the pool's gems: a subset of the server's hidden sessions

	mu    sync.Mutex
	idle  []idleGem
	live  int               // gems logged in or logging in
	freed chan struct{}     // closed and replaced whenever a gem is given back or a place frees
	users map[string]string // a pool gem's session id -> the GemStone user it logged in as

	infoMu sync.Mutex
	info   *workerInfo
}

// idleGem is a pool gem waiting for a request, and since when.
type idleGem struct {
	sess  *session.Session
	since time.Time
}

// workerInfo is what server/discover tells: the worker's own initialize answer.
type workerInfo struct {
	Capabilities json.RawMessage `json:"capabilities"`
	ServerInfo   json.RawMessage `json:"serverInfo"`
	Instructions json.RawMessage `json:"instructions"`
}

func newStatelessPool(s *statelessServer, max int) *statelessPool {
	if max <= 0 {
		max = DefaultStatelessPool
	}
	return &statelessPool{s: s, max: max, freed: make(chan struct{}), users: map[string]string{}}
}

// errPoolLaunch carries a failed login's answer to the client.
type errPoolLaunch struct {
	status int
	lf     launchFailure
}

func (e *errPoolLaunch) Error() string { return e.lf.message }

// acquire takes a free gem of this request's principal, logging one in when the pool has
// room; otherwise it waits for one to be given back, until ctx ends. A full cap is no reason to
// fail while the pool has a gem: the request waits its turn for it.
func (p *statelessPool) acquire(ctx context.Context) (*session.Session, error) {
	user := p.s.loginUser(ctx)
	dwell := p.s.o.PoolDwell
	if dwell <= 0 {
		dwell = DefaultPoolDwell
	}
	for {
		p.mu.Lock()
		for i := len(p.idle) - 1; i >= 0; i-- {
			sess := p.idle[i].sess
			if _, ended := sess.Ended(); ended {
				p.idle = append(p.idle[:i], p.idle[i+1:]...)
				continue
			}
			if !p.s.owns(ctx, sess.Owner()) || p.users[sess.ID()] != user {
				continue
			}
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			p.mu.Unlock()
			return sess, nil
		}
		if p.live < p.max {
			p.live++
			p.mu.Unlock()
			sess, err := p.open(ctx, user)
			if err == nil {
				return sess, nil
			}
			p.mu.Lock()
			p.live--
			p.signalLocked()
			others := p.live
			p.mu.Unlock()
			var pl *errPoolLaunch
			if !errors.As(err, &pl) || pl.lf.kind != errkind.SessionLimit || others == 0 {
				return nil, err
			}
			continue // the cap is full, but a pool gem exists: wait for it below
		}
		var dwellEnds <-chan time.Time
		if p.s.o.Identity != nil && len(p.idle) > 0 {
			// Full of other principals' idle gems: the one idle longest goes, so this one can log
			// in; but only a gem that has served its principal for the dwell, so that more
			// principals than gems take turns at most once a dwell per gem instead of logging a
			// gem in for every request, and no principal waits longer than a dwell for its turn.
			victim, soonest := -1, time.Duration(-1)
			for i, g := range p.idle {
				left := dwell - time.Since(g.sess.Created())
				if left <= 0 {
					victim = i
					break
				}
				if soonest < 0 || left < soonest {
					soonest = left
				}
			}
			if victim >= 0 {
				gone := p.idle[victim].sess
				p.idle = append(p.idle[:victim], p.idle[victim+1:]...)
				p.mu.Unlock()
				gone.End(context.Background(), session.Reason{Kind: session.ReasonPoolEvicted, Detail: "a stateless gem of another principal was needed"})
				continue
			}
			dwellEnds = time.After(soonest)
		}
		wait := p.freed
		p.mu.Unlock()
		p.s.preemptParked()
		select {
		case <-wait:
		case <-dwellEnds:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// yieldIdle logs out an idle pool gem, not the pool's last, so that a login that found the cap
// full (an open_session, an initialize) can take its slot: a pool gem holds no client's work.
func (p *statelessPool) yieldIdle() bool {
	p.mu.Lock()
	if p.live <= 1 || len(p.idle) == 0 {
		p.mu.Unlock()
		return false
	}
	victim := p.idle[0].sess
	p.idle = p.idle[1:]
	p.mu.Unlock()
	p.s.o.Log.Info().Str("session", victim.ID()).Msg("an idle stateless pool gem gave its login slot to a new session")
	return victim.End(context.Background(), session.Reason{Kind: session.ReasonPoolYielded, Detail: "its slot was needed by a new session"})
}

func (p *statelessPool) signalLocked() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// open logs a pool gem in and introduces the router to it with an initialize of the newest
// session revision, whose answer is what server/discover advertises.
func (p *statelessPool) open(ctx context.Context, user string) (*session.Session, error) {
	s := p.s
	sess, err := s.openHidden(ctx, true, func(id string) {
		p.ids.add(id)
		p.mu.Lock()
		p.users[id] = user
		p.mu.Unlock()
	}, func(id string) {
		p.ids.remove(id)
		p.mu.Lock()
		delete(p.users, id)
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
func (s *statelessServer) introduce(ctx context.Context, sess *session.Session) (*workerInfo, error) {
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
		return nil, &errPoolLaunch{status: http.StatusOK, lf: launchFailure{message: "cannot serve stateless requests: the worker did not accept initialize", kind: errkind.WorkerError}}
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
func (p *statelessPool) release(sess *session.Session) {
	if _, ended := sess.Ended(); ended {
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, idleGem{sess: sess, since: time.Now()})
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
	p.release(sess)
	p.infoMu.Lock()
	defer p.infoMu.Unlock()
	if p.info == nil {
		return nil, errors.New("the worker's initialize answer could not be read")
	}
	return p.info, nil
}

// loginUser is the GemStone user a gem logged in for this request would log in as ("" in the
// local mode, where every gem logs in as the configured user): a pool gem serves only requests
// whose token names its user, so two tokens of one subject naming two users never share a gem.
func (s *statelessServer) loginUser(ctx context.Context) string {
	if s.o.Identity == nil {
		return ""
	}
	login, err := s.o.Identity.WorkerLogin(ctx, s.o.Login)
	if err != nil {
		return ""
	}
	return login.User
}

// poolFailure is the answer to a request no pool gem could be found for.
func (s *statelessServer) poolFailure(m jsonrpc.Message, err error) (int, []byte) {
	var pe *errPoolLaunch
	if errors.As(err, &pe) {
		return pe.status, errorBodyWith(m.ID, jsonrpc.CodeServer, pe.lf.message, numberData{Kind: pe.lf.kind, Number: pe.lf.number})
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return http.StatusServiceUnavailable, errorBody(m.ID, jsonrpc.CodeServer,
			"no stateless gem became free before the request ended; send it again", errkind.PoolBusy)
	}
	return http.StatusOK, errorBody(m.ID, jsonrpc.CodeInternalError, "Internal error: "+err.Error(), errkind.WorkerError)
}
