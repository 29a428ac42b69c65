package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// LoadOptions shape one load run: Workers clients sharing Sessions sessions (worker w uses
// session w mod Sessions), each making Calls calls one after another, or calling until
// Duration passes when Calls is 0.
type LoadOptions struct {
	URL      string
	Sessions int
	Workers  int
	Calls    int
	Duration time.Duration
	// Payload is appended to every echo text (non-ASCII by default, so bytes are checked).
	Payload string
	// Host, when set, is sent as the Host header.
	Host string
	// StatusOnly checks only that each answer is a 200 carrying a result (for a server that
	// answers fixed JSON); otherwise the id and the echoed bytes are checked too.
	StatusOnly bool
	// Stateless sends every call as a 2026-07-28 request standing alone (per-request _meta, no
	// session; the server runs it on its stateless pool); Sessions is then ignored.
	Stateless bool
	// Handles, with Stateless, opens a GemStone session per Sessions with open_session and sends
	// every call with its session argument (closed with close_session at the end).
	Handles bool
	// NewerWireBytes, without Stateless, makes every session call as large as a 2026-07-28
	// request's: the same params._meta members, naming 2025-11-25 (so that nothing reads the call
	// as the newer revision's), and the Mcp-Method and Mcp-Name headers. It separates what the
	// newer wire's bytes cost from what its routing costs (benchmark 6).
	NewerWireBytes bool
}

// LoadResult says what a run saw. Every call is accounted for: OK + Failed = Sent.
type LoadResult struct {
	Sent, OK, Failed int64
	// Mismatched counts answers whose id or echoed bytes were not the call's own;
	// Duplicated counts ids answered more than once.
	Mismatched, Duplicated int64
	Elapsed                time.Duration
	P50, P99, Max          time.Duration
	FirstProblem           string
}

// Rate is answered calls per second.
func (r LoadResult) Rate() float64 { return float64(r.OK) / r.Elapsed.Seconds() }

func (r LoadResult) String() string {
	return fmt.Sprintf("%d calls in %v (%.0f/s), %d failed, %d mismatched, %d duplicated; p50 %v p99 %v max %v",
		r.Sent, r.Elapsed.Round(time.Millisecond), r.Rate(), r.Failed, r.Mismatched, r.Duplicated,
		r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.Max.Round(time.Microsecond))
}

// DefaultPayload holds multi-byte and astral characters.
const DefaultPayload = " héllo wörld ✓ 😀"

// RunLoad opens the sessions, runs the workers on them (RunLoadOn) and closes them.
func RunLoad(ctx context.Context, o LoadOptions) (LoadResult, error) {
	ls, err := OpenLoadSessions(ctx, o)
	if err != nil {
		return LoadResult{}, err
	}
	defer ls.Close(context.WithoutCancel(ctx))
	return RunLoadOn(ctx, ls, o)
}

// LoadSessions are the sessions a load runs on, opened apart from any run so that several runs
// (a warmup, then the measured run) share them: a gem logged in for a run would otherwise start
// and warm up inside the run it is measured by, while the gems of the run before it log out.
type LoadSessions struct {
	c         *Client
	ids       []string
	stateless bool
}

// OpenLoadSessions opens o's sessions: MCP sessions, GemStone sessions by handle (Stateless and
// Handles), or none (Stateless alone).
func OpenLoadSessions(ctx context.Context, o LoadOptions) (*LoadSessions, error) {
	if o.Sessions <= 0 || o.Workers <= 0 {
		return nil, fmt.Errorf("harness: load needs sessions and workers")
	}
	ls := &LoadSessions{c: &Client{URL: o.URL, HTTP: NewHTTPClient(o.Workers, 60*time.Second), Protocol: ProtocolVersion, Host: o.Host},
		stateless: o.Stateless}
	if o.Stateless && !o.Handles {
		ls.ids = []string{""}
		return ls, nil
	}
	for i := range o.Sessions {
		var id string
		var err error
		if o.Stateless {
			id, err = OpenHandle(ctx, ls.c)
		} else {
			id, err = ls.c.Open(ctx)
		}
		if err != nil {
			ls.Close(context.WithoutCancel(ctx))
			return nil, fmt.Errorf("harness: opening session %d: %w", i, err)
		}
		ls.ids = append(ls.ids, id)
	}
	return ls, nil
}

// Close ends the sessions: close_session for a handle, DELETE for an MCP session.
func (ls *LoadSessions) Close(ctx context.Context) {
	for _, id := range ls.ids {
		switch {
		case id != "" && ls.stateless:
			_, _ = ls.c.Post(ctx, "", StatelessCallBody(0, "close_session", `{"session":"`+id+`"}`),
				"Mcp-Protocol-Version", StatelessVersion, "Mcp-Method", "tools/call", "Mcp-Name", "close_session")
		case id != "":
			_, _ = ls.c.Delete(ctx, id)
		}
	}
	ls.ids = nil
}

// RunLoadOn runs o's workers on ls, checking every answer (status 200, a JSON-RPC response and
// no error, the call's own id, its own text echoed byte for byte as the first content item of a
// result that is not isError, each id answered once). Each answer is decoded once (echoCaller).
func RunLoadOn(ctx context.Context, ls *LoadSessions, o LoadOptions) (LoadResult, error) {
	if len(ls.ids) == 0 {
		return LoadResult{}, fmt.Errorf("harness: the load's sessions are closed")
	}
	if o.Payload == "" {
		o.Payload = DefaultPayload
	}
	c, sids := ls.c, ls.ids
	var (
		res      LoadResult
		problem  sync.Once
		seenMu   sync.Mutex
		seen     = make(map[int64]struct{}, max(o.Workers*o.Calls, 1024))
		latMu    sync.Mutex
		all      []time.Duration
		deadline = time.Now().Add(o.Duration)
		wg       sync.WaitGroup
	)
	note := func(format string, args ...any) {
		problem.Do(func() { res.FirstProblem = fmt.Sprintf(format, args...) })
	}
	start := time.Now()
	for w := range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sid := sids[w%len(sids)]
			caller := &echoCaller{c: c}
			bodies, headers := workerBodies(w, sid, o)
			lat := make([]time.Duration, 0, max(o.Calls, 1024))
			for i := 0; o.Calls == 0 || i < o.Calls; i++ {
				if ctx.Err() != nil || (o.Calls == 0 && time.Now().After(deadline)) {
					break
				}
				id := int64(w)*10_000_000 + int64(i) + 1
				body, text := bodies.call(id, i)
				atomic.AddInt64(&res.Sent, 1)
				t0 := time.Now()
				status, a, msg, err := caller.call(ctx, headers.sid, body, headers.extra...)
				lat = append(lat, time.Since(t0))
				if err != nil || status != http.StatusOK {
					atomic.AddInt64(&res.Failed, 1)
					note("call %d: status %d, err %v: %.300s", id, status, err, msg)
					continue
				}
				if o.StatusOnly {
					if a.Result == nil {
						atomic.AddInt64(&res.Failed, 1)
						note("call %d: no result: %.300s", id, msg)
						continue
					}
					atomic.AddInt64(&res.OK, 1)
					continue
				}
				if a.Error != nil {
					atomic.AddInt64(&res.Failed, 1)
					note("call %d: error %d %s: %.300s", id, a.Error.Code, a.Error.Message, msg)
					continue
				}
				if string(a.ID) != strconv.FormatInt(id, 10) || a.Result == nil || len(a.Result.Content) == 0 ||
					a.Result.IsError || a.Result.Content[0].Text != text {
					atomic.AddInt64(&res.Failed, 1)
					atomic.AddInt64(&res.Mismatched, 1)
					note("call %d answered %.300s (want id %d, text %q)", id, msg, id, text)
					continue
				}
				seenMu.Lock()
				_, dup := seen[id]
				seen[id] = struct{}{}
				seenMu.Unlock()
				if dup {
					atomic.AddInt64(&res.Duplicated, 1)
					atomic.AddInt64(&res.Failed, 1)
					continue
				}
				atomic.AddInt64(&res.OK, 1)
			}
			latMu.Lock()
			all = append(all, lat...)
			latMu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	if len(all) > 0 {
		slices.Sort(all)
		res.P50 = all[len(all)/2]
		res.P99 = all[len(all)*99/100]
		res.Max = all[len(all)-1]
	}
	return res, nil
}

// callHeaders are what a load worker's calls carry besides the body: the MCP session id (""
// on the stateless wire) and the extra headers, as name, value pairs.
type callHeaders struct {
	sid   string
	extra []string
}

// workerBodies lays out worker w's calls on sid (a handle on the stateless wire) as o asks.
func workerBodies(w int, sid string, o LoadOptions) (echoBodies, callHeaders) {
	named := []string{"Mcp-Method", "tools/call", "Mcp-Name", "echo"}
	switch {
	case o.Stateless:
		return newEchoBodies(w, sid, StatelessVersion, o.Payload), callHeaders{"", append([]string{"Mcp-Protocol-Version", StatelessVersion}, named...)}
	case o.NewerWireBytes:
		return newEchoBodies(w, "", ProtocolVersion, o.Payload), callHeaders{sid, named}
	}
	return newEchoBodies(w, "", "", o.Payload), callHeaders{sid: sid}
}

// OpenHandle calls open_session on the 2026-07-28 wire and answers the session it opened.
func OpenHandle(ctx context.Context, c *Client) (string, error) {
	a, err := c.Post(ctx, "", StatelessCallBody(0, "open_session", `{}`),
		"Mcp-Protocol-Version", StatelessVersion, "Mcp-Method", "tools/call", "Mcp-Name", "open_session")
	if err != nil {
		return "", err
	}
	r, err := a.Decode()
	if err != nil || r.Error != nil {
		return "", fmt.Errorf("open_session answered %s (%v)", a.Message, err)
	}
	var res struct {
		StructuredContent struct {
			Session string `json:"session"`
		} `json:"structuredContent"`
	}
	if json.Unmarshal(r.Result, &res) != nil || res.StructuredContent.Session == "" {
		return "", fmt.Errorf("open_session answered no session: %s", a.Message)
	}
	return res.StructuredContent.Session, nil
}
