package lifetime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limit is a duration that can be switched off. The zero value is off; 0 switched on is a
// real value for the knobs where it means "at once" (MCP_STREAM_LOSS_GRACE,
// MCP_STUCK_VIEW_GRACE).
type Limit struct {
	d  time.Duration
	on bool
}

// Off is a limit that is switched off ("none").
func Off() Limit { return Limit{} }

// After is a limit of d.
func After(d time.Duration) Limit { return Limit{d: d, on: true} }

// On says whether the limit applies.
func (l Limit) On() bool { return l.on }

// D is the duration; meaningless when the limit is off.
func (l Limit) D() time.Duration { return l.d }

// String formats the limit the way a variable would set it.
func (l Limit) String() string {
	if !l.on {
		return "none"
	}
	return l.d.String()
}

// Config is the session-lifetime and view-hygiene policy. Durations come from the
// environment as whole seconds or Go duration strings; "none" switches a limit off.
type Config struct {
	// IdleTimeout (MCP_IDLE_TIMEOUT, 30m): a session with no request for this long is
	// released. Off: a session with a stream lives as long as it answers liveness probes.
	IdleTimeout Limit
	// StreamlessIdleTimeout (MCP_STREAMLESS_IDLE_TIMEOUT, 60s): the deadline of a session with
	// no stream open, counted from its last request or the loss of its stream, whichever is
	// later. It can never be probed, so silence is the only evidence.
	StreamlessIdleTimeout Limit
	// StreamLossGrace (MCP_STREAM_LOSS_GRACE, 10s): how long a session whose client closed its
	// stream has to open another (or make any request) before it is released. 0 releases at
	// once; off leaves such a session to StreamlessIdleTimeout.
	StreamLossGrace Limit
	// MaxLifetime (MCP_MAX_LIFETIME, off): an absolute cap on a session's life, however busy.
	MaxLifetime Limit
	// ProbeInterval (MCP_PROBE_INTERVAL, 2m, never longer than half the idle timeout unless
	// set): a session with an open stream and idle this long is pinged, and pinged again each
	// interval while it stays idle. Off: never probe.
	ProbeInterval Limit
	// ProbeTimeout is how long a probe may go unanswered on the stream it went down before the
	// session is released. Mechanism, not policy: the router's pending-request table times
	// server requests out at the same 30 s.
	ProbeTimeout time.Duration
	// PassInterval (MCP_REAPER_INTERVAL, 15s) is how often the maintenance pass runs: idle
	// deadlines, probes and view hygiene are decided on it (the stream-loss grace and the probe
	// verdict run on their own timers).
	PassInterval time.Duration
	// LateAfter: a pass or timer that runs this much later than it was due is read as a host
	// suspend and forgiven. Default: four pass intervals, at least 30 s.
	LateAfter time.Duration
	// CallTimeout bounds the front end's own calls into a gem (view status, refresh) and the
	// stone reading.
	CallTimeout time.Duration
	// MaxCommitsBehind (MCP_MAX_COMMITS_BEHIND, 20; 0 = none): a session's view this many
	// commits behind is refreshed between calls. Lowered to the stone's signal-abort backlog
	// where that reading is smaller.
	MaxCommitsBehind int
	// StuckViewGrace (MCP_STUCK_VIEW_GRACE, 60s): how long a view that cannot be moved is
	// tolerated under backlog pressure before the session is released. 0 = the pass that
	// finds it.
	StuckViewGrace Limit
	// PinnedViewGrace (MCP_PINNED_VIEW_GRACE, 300s): how long a running call may hold the
	// oldest commit record under backlog pressure before it is ended.
	PinnedViewGrace Limit
}

// Defaults answers the documented defaults.
func Defaults() Config {
	return Config{
		IdleTimeout:           After(30 * time.Minute),
		StreamlessIdleTimeout: After(60 * time.Second),
		StreamLossGrace:       After(10 * time.Second),
		MaxLifetime:           Off(),
		ProbeInterval:         After(2 * time.Minute),
		ProbeTimeout:          30 * time.Second,
		PassInterval:          15 * time.Second,
		CallTimeout:           5 * time.Second,
		MaxCommitsBehind:      20,
		StuckViewGrace:        After(60 * time.Second),
		PinnedViewGrace:       After(300 * time.Second),
	}
}

// Environment variable names.
const (
	EnvIdleTimeout           = "MCP_IDLE_TIMEOUT"
	EnvStreamlessIdleTimeout = "MCP_STREAMLESS_IDLE_TIMEOUT"
	EnvStreamLossGrace       = "MCP_STREAM_LOSS_GRACE"
	EnvMaxLifetime           = "MCP_MAX_LIFETIME"
	EnvProbeInterval         = "MCP_PROBE_INTERVAL"
	EnvReaperInterval        = "MCP_REAPER_INTERVAL"
	EnvMaxCommitsBehind      = "MCP_MAX_COMMITS_BEHIND"
	EnvStuckViewGrace        = "MCP_STUCK_VIEW_GRACE"
	EnvPinnedViewGrace       = "MCP_PINNED_VIEW_GRACE"
)

// FromEnv reads the policy from the environment through getenv (os.Getenv in production),
// applies the defaults to what is unset, and validates the result. The error names the
// variable and the value it refused.
func FromEnv(getenv func(string) string) (Config, error) { return FromSettings(getenv, nil) }

// FromSettings is FromEnv for a loader that also offers the Knobs as flags: get answers a
// knob's value by its variable (a given flag's value in place of its variable), and name
// says what an error calls the knob (its flag, when a flag set it). A nil name calls every
// knob by its variable.
func FromSettings(get func(env string) string, name func(env string) string) (Config, error) {
	if name == nil {
		name = func(env string) string { return env }
	}
	c := Defaults()
	var errs []error
	limit := func(env string, dst *Limit) bool {
		raw := strings.TrimSpace(get(env))
		if raw == "" {
			return false
		}
		l, err := ParseLimit(raw)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", name(env), raw, err))
			return false
		}
		*dst = l
		return true
	}
	limit(EnvIdleTimeout, &c.IdleTimeout)
	limit(EnvStreamlessIdleTimeout, &c.StreamlessIdleTimeout)
	limit(EnvStreamLossGrace, &c.StreamLossGrace)
	limit(EnvMaxLifetime, &c.MaxLifetime)
	probeSet := limit(EnvProbeInterval, &c.ProbeInterval)
	var pass Limit
	if limit(EnvReaperInterval, &pass) {
		if !pass.On() {
			errs = append(errs, fmt.Errorf("%s=none: the maintenance pass cannot be switched off", name(EnvReaperInterval)))
		} else {
			c.PassInterval = pass.D()
		}
	}
	limit(EnvStuckViewGrace, &c.StuckViewGrace)
	limit(EnvPinnedViewGrace, &c.PinnedViewGrace)
	if raw := strings.TrimSpace(get(EnvMaxCommitsBehind)); raw != "" {
		n, err := parseCount(raw)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", name(EnvMaxCommitsBehind), raw, err))
		} else {
			c.MaxCommitsBehind = n
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	// An idle timeout set short without a probe interval gets probes that fit inside it,
	// rather than a refusal for a value nobody typed.
	if !probeSet && c.IdleTimeout.On() && c.ProbeInterval.D() > c.IdleTimeout.D()/2 {
		c.ProbeInterval = After(max(c.IdleTimeout.D()/2, c.PassInterval))
		if c.ProbeInterval.D() >= c.IdleTimeout.D() {
			c.ProbeInterval = Off()
		}
	}
	if err := c.validate(name); err != nil {
		return Config{}, err
	}
	return c, nil
}

// ParseLimit reads "none" (or "off"), whole seconds ("90"), or a Go duration ("90s", "1m30s").
func ParseLimit(raw string) (Limit, error) {
	s := strings.TrimSpace(raw)
	switch strings.ToLower(s) {
	case "none", "off":
		return Off(), nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return Limit{}, errors.New("a duration cannot be negative")
		}
		if n > int64(100*365*24*time.Hour/time.Second) {
			return Limit{}, errors.New("more than a century; use none for no limit")
		}
		return After(time.Duration(n) * time.Second), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return Limit{}, errors.New("want whole seconds, a Go duration such as 90s or 30m, or none")
	}
	if d < 0 {
		return Limit{}, errors.New("a duration cannot be negative")
	}
	return After(d), nil
}

func parseCount(raw string) (int, error) {
	switch strings.ToLower(raw) {
	case "none", "off":
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return 0, errors.New("want a whole number of commits, at least 1, or none")
	}
	return n, nil
}

// Validate refuses a combination that cannot work, naming both values.
func (c Config) Validate() error { return c.validate(func(env string) string { return env }) }

// validate is Validate calling each knob what name says.
func (c Config) validate(name func(env string) string) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.PassInterval <= 0 {
		bad("%s=%v: the maintenance pass needs a positive interval", name(EnvReaperInterval), c.PassInterval)
	}
	if c.ProbeTimeout <= 0 {
		bad("probe timeout %v: must be positive", c.ProbeTimeout)
	}
	if c.CallTimeout <= 0 {
		bad("call timeout %v: must be positive", c.CallTimeout)
	}
	zero := func(env string, l Limit) {
		if l.On() && l.D() == 0 {
			bad("%s=0 would release every session at once; use none to switch it off", name(env))
		}
	}
	zero(EnvIdleTimeout, c.IdleTimeout)
	zero(EnvStreamlessIdleTimeout, c.StreamlessIdleTimeout)
	zero(EnvMaxLifetime, c.MaxLifetime)
	if c.ProbeInterval.On() && c.ProbeInterval.D() == 0 {
		bad("%s=0 would probe continuously; use none to switch probes off", name(EnvProbeInterval))
	}
	if c.PinnedViewGrace.On() && c.PinnedViewGrace.D() == 0 {
		bad("%s=0 would end every call the moment the repository is under pressure, which is a request deadline, not this rule; use none to switch it off",
			name(EnvPinnedViewGrace))
	}
	if c.ProbeInterval.On() && c.IdleTimeout.On() && c.ProbeInterval.D() >= c.IdleTimeout.D() {
		bad("%s=%v is not shorter than %s=%v: no probe could ever be sent before the idle deadline",
			name(EnvProbeInterval), c.ProbeInterval, name(EnvIdleTimeout), c.IdleTimeout)
	}
	if c.ProbeInterval.On() && c.PassInterval > 0 && c.ProbeInterval.D() > 0 && c.ProbeInterval.D() < c.PassInterval {
		bad("%s=%v is shorter than %s=%v: probes are sent by the pass, so they could not keep that cadence",
			name(EnvProbeInterval), c.ProbeInterval, name(EnvReaperInterval), c.PassInterval)
	}
	if !c.IdleTimeout.On() && !c.ProbeInterval.On() {
		bad("%s=none with %s=none: a session holding a stream open could never be released", name(EnvIdleTimeout), name(EnvProbeInterval))
	}
	if c.StreamlessIdleTimeout.On() && c.IdleTimeout.On() && c.StreamlessIdleTimeout.D() > c.IdleTimeout.D() {
		bad("%s=%v is longer than %s=%v: a session that can never be probed would outlive one that can",
			name(EnvStreamlessIdleTimeout), c.StreamlessIdleTimeout, name(EnvIdleTimeout), c.IdleTimeout)
	}
	if c.StuckViewGrace.On() && c.StuckViewGrace.D() > 0 && c.StuckViewGrace.D() < c.PassInterval {
		bad("%s=%v is shorter than %s=%v: the view is only looked at once a pass; use 0 for the pass that finds it",
			name(EnvStuckViewGrace), c.StuckViewGrace, name(EnvReaperInterval), c.PassInterval)
	}
	if c.PinnedViewGrace.On() && c.PinnedViewGrace.D() > 0 && c.PinnedViewGrace.D() < c.PassInterval {
		bad("%s=%v is shorter than %s=%v: the oldest commit record is only looked at once a pass",
			name(EnvPinnedViewGrace), c.PinnedViewGrace, name(EnvReaperInterval), c.PassInterval)
	}
	if c.MaxCommitsBehind < 0 {
		bad("%s=%d: must be at least 1, or none", name(EnvMaxCommitsBehind), c.MaxCommitsBehind)
	}
	return errors.Join(errs...)
}

// lateAfter answers the lateness that reads as a host suspend.
func (c Config) lateAfter() time.Duration {
	if c.LateAfter > 0 {
		return c.LateAfter
	}
	return max(4*c.PassInterval, 30*time.Second)
}

// Describe renders the policy on one line, for the startup log.
func (c Config) Describe() string {
	mcb := "none"
	if c.MaxCommitsBehind > 0 {
		mcb = strconv.Itoa(c.MaxCommitsBehind)
	}
	return fmt.Sprintf("idle=%v streamless=%v streamLossGrace=%v maxLifetime=%v probeInterval=%v probeTimeout=%v pass=%v maxCommitsBehind=%s stuckViewGrace=%v pinnedViewGrace=%v",
		c.IdleTimeout, c.StreamlessIdleTimeout, c.StreamLossGrace, c.MaxLifetime, c.ProbeInterval,
		c.ProbeTimeout, c.PassInterval, mcb, c.StuckViewGrace, c.PinnedViewGrace)
}

// Knob describes one variable of this policy for a configuration loader that also offers
// command-line flags: register Flag, and hand FromSettings a get that answers a given flag's
// value in place of its variable (internal/config does).
type Knob struct {
	Env, Flag, Default, Help string
}

// Knobs lists the variables FromEnv reads, in the order docs/session-lifetime.md shows them.
func Knobs() []Knob {
	return []Knob{
		{EnvIdleTimeout, "idle-timeout", "30m", "release a session with no request for this long, or none"},
		{EnvStreamlessIdleTimeout, "streamless-idle-timeout", "60s", "release a session with no stream open and no request for this long"},
		{EnvStreamLossGrace, "stream-loss-grace", "10s", "how long a client that closed its stream has to open another (0: release at once; none: leave it to the streamless timeout)"},
		{EnvMaxLifetime, "max-lifetime", "none", "absolute cap on a session's life, or none"},
		{EnvProbeInterval, "probe-interval", "2m", "ping a session idle this long on its open stream, and again each interval; none: never"},
		{EnvReaperInterval, "reaper-interval", "15s", "how often the maintenance pass runs"},
		{EnvMaxCommitsBehind, "max-commits-behind", "20", "refresh a view this many commits behind, between calls; none: never"},
		{EnvStuckViewGrace, "stuck-view-grace", "60s", "release a session whose view cannot move after this long under backlog pressure (0: at once; none: never)"},
		{EnvPinnedViewGrace, "pinned-view-grace", "300s", "end a call holding the oldest commit record this long under backlog pressure; none: never"},
	}
}
