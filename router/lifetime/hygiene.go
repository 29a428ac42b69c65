package lifetime

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// readings are the stone-wide figures one pass works from, already reduced to the limits
// the rules compare against.
type readings struct {
	stone worker.StoneStatus
	// refreshAt is the distance at which a movable view is refreshed; 0 = never.
	refreshAt int
	// pressureAt is the backlog that counts as real pressure; 0 = unknown.
	pressureAt int
	// backlogKnown says the backlog was read and there is a limit to read it against.
	backlogKnown bool
	// pressure says the backlog is at or over pressureAt.
	pressure bool
}

// readStone takes the stone readings. A reading of -1 was not taken and is skipped, never
// read as 0; a failed read leaves every stone-pressure rule unable to judge this pass.
func (e *Engine) readStone(ctx context.Context) readings {
	r := readings{refreshAt: e.cfg.MaxCommitsBehind}
	stoneOK := false
	if e.stone != nil {
		cctx, cancel := context.WithTimeout(ctx, e.cfg.CallTimeout)
		st, err := e.stone.ReadStone(cctx)
		cancel()
		if err != nil {
			e.log.Debug().Err(err).Msg("view hygiene: stone reading not taken this pass")
		} else {
			r.stone, stoneOK = st, true
		}
	}
	signalAbort := 0
	if stoneOK && r.stone.SignalAbortBacklog > 0 {
		signalAbort = r.stone.SignalAbortBacklog
	}
	if r.refreshAt > 0 && signalAbort > 0 && signalAbort < r.refreshAt {
		r.refreshAt = signalAbort
	}
	r.pressureAt = r.refreshAt
	if r.pressureAt == 0 {
		r.pressureAt = signalAbort
	}
	r.backlogKnown = stoneOK && r.stone.CommitRecordBacklog >= 0 && r.pressureAt > 0
	r.pressure = r.backlogKnown && r.stone.CommitRecordBacklog >= r.pressureAt
	return r
}

// hygiene is the view half of a pass, over sessions that survived the lifetime half.
func (e *Engine) hygiene(ctx context.Context, now time.Time, sessions []Session) {
	askViews := e.cfg.MaxCommitsBehind > 0 || e.cfg.StuckViewGrace.On()
	if len(sessions) == 0 || (!askViews && !e.cfg.PinnedViewGrace.On()) {
		return
	}
	r := e.readStone(ctx)
	for _, s := range sessions {
		if ctx.Err() != nil {
			return
		}
		if s.InFlight() {
			e.pinned(now, s, r)
			continue
		}
		e.clearSince(s, pinnedStamp)
		if askViews {
			e.view(ctx, now, s, r)
		}
	}
}

// view asks an idle session's gem where its view stands and acts on the session's own
// distance: a refresh for a movable view far behind, a release for one that cannot move
// under sustained pressure. Pressure on the stone alone never moves anyone's view.
func (e *Engine) view(ctx context.Context, now time.Time, s Session, r readings) {
	cctx, cancel := context.WithTimeout(ctx, e.cfg.CallTimeout)
	vs, err := s.ViewStatus(cctx)
	cancel()
	if err != nil || vs.CommitsBehind < 0 {
		return // could not ask: proves nothing either way
	}
	if r.refreshAt > 0 && vs.CommitsBehind >= r.refreshAt && vs.Movable {
		e.clearSince(s, stuckStamp)
		if e.declinedBefore(s, vs.CommitsBehind) {
			return
		}
		e.refresh(ctx, s, vs, r.refreshAt)
		return
	}
	if !e.cfg.StuckViewGrace.On() {
		return
	}
	if vs.Movable || r.pressureAt == 0 || vs.CommitsBehind < r.pressureAt {
		e.clearSince(s, stuckStamp)
		return
	}
	if !r.backlogKnown {
		return // the stone could not be read: proves nothing
	}
	if !r.pressure {
		e.clearSince(s, stuckStamp)
		return
	}
	since := e.startSince(s, stuckStamp, now)
	if now.Sub(since) < e.cfg.StuckViewGrace.D() {
		return
	}
	e.reap(s, Reason{KindStuckView, fmt.Sprintf(
		"the session's view cannot be moved (after a failed commit, or inside a nested transaction) and is %d commits behind while the repository's commit-record backlog stood at %d (limit %d) for %v (MCP_STUCK_VIEW_GRACE=%v); its uncommitted work could not have been committed",
		vs.CommitsBehind, r.stone.CommitRecordBacklog, r.pressureAt, now.Sub(since).Round(100*time.Millisecond), e.cfg.StuckViewGrace)})
}

func (e *Engine) refresh(ctx context.Context, s Session, vs worker.ViewStatus, limit int) {
	cctx, cancel := context.WithTimeout(ctx, e.cfg.CallTimeout)
	res, err := s.RefreshView(cctx)
	cancel()
	ev := e.log.Info().Str("session", s.ID()).Int("commitsBehind", vs.CommitsBehind).Int("limit", limit).
		Bool("uncommitted", vs.Uncommitted)
	switch {
	case err != nil:
		e.log.Info().Err(err).Str("session", s.ID()).Msg("view hygiene: refresh not done")
		return
	case !res.Refreshed:
		ev.Str("why", res.Reason).Msg("view hygiene: the worker declined to refresh; not asking again until the view falls further behind")
	default:
		ev.Bool("conflicts", res.Conflicts).Msg("view hygiene: view refreshed, uncommitted work kept")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stats.Refreshes++
	t := e.memoryLocked(s)
	t.declinedAt = 0
	if !res.Refreshed {
		t.declinedAt = vs.CommitsBehind
	}
}

// declinedBefore says the worker already declined a refresh at this distance or further.
func (e *Engine) declinedBefore(s Session, behind int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.memoryLocked(s)
	return t.declinedAt > 0 && behind <= t.declinedAt
}

// pinned ends a running call that has held the oldest commit record across the whole grace
// while the backlog was over its limit. A quiet repository never ends a call.
func (e *Engine) pinned(now time.Time, s Session, r readings) {
	if !e.cfg.PinnedViewGrace.On() || !r.backlogKnown {
		return // off, or the stone could not be read: proves nothing
	}
	id := s.ID()
	if !r.pressure || !slices.Contains(r.stone.OldestCRSessions, s.GemSession()) {
		e.clearSince(s, pinnedStamp)
		return
	}
	since := e.startSince(s, pinnedStamp, now)
	if now.Sub(since) < e.cfg.PinnedViewGrace.D() {
		return
	}
	e.clearSince(s, pinnedStamp)
	why := Reason{KindPinnedView, fmt.Sprintf(
		"the server ended this call because it held the repository's oldest commit record for %v while the commit-record backlog stood at %d (limit %d); the session and its uncommitted work are kept (MCP_PINNED_VIEW_GRACE=%v)",
		now.Sub(since).Round(100*time.Millisecond), r.stone.CommitRecordBacklog, r.pressureAt, e.cfg.PinnedViewGrace)}
	e.mu.Lock()
	e.stats.CallsEnded++
	e.mu.Unlock()
	e.log.Warn().Str("session", id).Str("detail", why.Detail).Msg("call ended: pinned view")
	e.host.EndCall(id, why)
}

// A sinceStamp picks one of a tracked session's pressure clocks: when its view was first seen
// stuck, or when its call was first seen pinning the oldest commit record.
type sinceStamp func(*tracked) *time.Time

func stuckStamp(t *tracked) *time.Time  { return &t.stuckSince }
func pinnedStamp(t *tracked) *time.Time { return &t.pinnedSince }

// clearSince stops a pressure clock: the pressure or the condition is gone.
func (e *Engine) clearSince(s Session, stamp sinceStamp) {
	e.mu.Lock()
	defer e.mu.Unlock()
	*stamp(e.memoryLocked(s)) = time.Time{}
}

// startSince starts a pressure clock at now unless it is running, and answers its start.
func (e *Engine) startSince(s Session, stamp sinceStamp, now time.Time) time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	since := stamp(e.memoryLocked(s))
	if since.IsZero() {
		*since = now
	}
	return *since
}
