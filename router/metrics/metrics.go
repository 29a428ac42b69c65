// Package metrics is the front end's Prometheus registry: sessions, calls, breaks and
// escalations, reaps, streams, outbox drops and login failures, served as /metrics.
//
// The router reports through Recorder, a small interface with a do-nothing implementation
// (Nop), so nothing in the router depends on Prometheus and metrics can be switched off.
//
// Labels are a closed, small set chosen by the front end, never by a client: a method label
// is one of the MCP methods listed here (anything else counts as "other"), and every other
// label value must look like an identifier the router itself made (a data.kind, a reason, an
// escalation step), else it is recorded as "other". No label ever carries a session id, a user
// name, a tool name or an argument: a scrape must not leak who uses the server or grow without
// bound as clients come and go.
package metrics

import (
	"net/http"
	"regexp"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Recorder is what the router calls. Every method is safe for concurrent use and cheap.
type Recorder interface {
	// SessionOpened: a session is mapped (its gem logged in and prepared).
	SessionOpened()
	// SessionEnded: a session is unmapped; reason is session.Reason.Kind (deleted, gemDied, ...).
	SessionEnded(reason string)
	// Call: a request answered by the worker (or ended before it answered); outcome is "ok",
	// or the data.kind of the error the client got (workerError, sessionGone, requestTimeout...).
	Call(method, outcome string, took time.Duration)
	// Ended: the escalation ended a call at this step (softBreak, hardBreak, stop).
	Ended(step string)
	// Reaped: the lifetime policy released a session (idle, streamlessIdle, streamLost, ...).
	Reaped(reason string)
	// StreamOpened and StreamClosed follow the GET streams.
	StreamOpened()
	StreamClosed()
	// OutboxDropped: n server messages were dropped from a full outbox.
	OutboxDropped(n int)
	// LoginFailed: a worker login or prepare failed; kind is the failure's data.kind.
	LoginFailed(kind string)
}

// Nop records nothing (metrics off).
var Nop Recorder = nop{}

type nop struct{}

func (nop) SessionOpened()                     {}
func (nop) SessionEnded(string)                {}
func (nop) Call(string, string, time.Duration) {}
func (nop) Ended(string)                       {}
func (nop) Reaped(string)                      {}
func (nop) StreamOpened()                      {}
func (nop) StreamClosed()                      {}
func (nop) OutboxDropped(int)                  {}
func (nop) LoginFailed(string)                 {}

// Registry holds the front end's metrics and serves them.
type Registry struct {
	reg *prometheus.Registry

	sessionsOpen   prometheus.Gauge
	sessionsOpened prometheus.Counter
	sessionsEnded  *prometheus.CounterVec
	calls          *prometheus.CounterVec
	callSeconds    *prometheus.HistogramVec
	endings        *prometheus.CounterVec
	reaps          *prometheus.CounterVec
	streamsOpen    prometheus.Gauge
	outboxDropped  prometheus.Counter
	loginFailures  *prometheus.CounterVec
	buildInfo      *prometheus.GaugeVec
}

var _ Recorder = (*Registry)(nil)

// CallBuckets span a ping-fast call to a long-running tool.
var CallBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// New makes a registry with the front end's metrics and the Go runtime and process collectors.
func New() *Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Each metric is registered where it is made, so none can be declared and never served.
	gauge := func(name, help string) prometheus.Gauge {
		return register(reg, prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help}))
	}
	counter := func(name, help string) prometheus.Counter {
		return register(reg, prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help}))
	}
	counterVec := func(name, help string, labels ...string) *prometheus.CounterVec {
		return register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels))
	}
	return &Registry{
		reg:            reg,
		sessionsOpen:   gauge("mcp_sessions_open", "MCP sessions open now (one worker gem each)."),
		sessionsOpened: counter("mcp_sessions_opened_total", "MCP sessions opened."),
		sessionsEnded:  counterVec("mcp_sessions_ended_total", "MCP sessions ended, by reason.", "reason"),
		calls: counterVec("mcp_calls_total",
			"Requests forwarded to workers, by MCP method and outcome (ok or the error's data.kind).", "method", "outcome"),
		callSeconds: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mcp_call_duration_seconds", Help: "Time from a request's arrival to its answer, by MCP method.",
			Buckets: CallBuckets}, []string{"method"})),
		endings: counterVec("mcp_call_endings_total",
			"Calls ended by the escalation, by the step that ended them (softBreak, hardBreak, stop).", "step"),
		reaps:         counterVec("mcp_reaps_total", "Sessions released by the lifetime policy, by reason.", "reason"),
		streamsOpen:   gauge("mcp_streams_open", "Standalone GET streams open now."),
		outboxDropped: counter("mcp_outbox_dropped_total", "Server-to-client messages dropped from full outboxes."),
		loginFailures: counterVec("mcp_login_failures_total", "Worker logins or prepares that failed, by kind.", "kind"),
		buildInfo: register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mcp_build_info", Help: "Always 1; the version label names this build (what mcp-gemstone -version prints)."},
			[]string{"version"})),
	}
}

// register adds c to reg and answers it.
func register[C prometheus.Collector](reg *prometheus.Registry, c C) C {
	reg.MustRegister(c)
	return c
}

// Handler serves the metrics in the Prometheus text format.
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Gatherer exposes the registry to tests and to a caller that serves it elsewhere.
func (r *Registry) Gatherer() prometheus.Gatherer { return r.reg }

func (r *Registry) SessionOpened() {
	r.sessionsOpened.Inc()
	r.sessionsOpen.Inc()
}

func (r *Registry) SessionEnded(reason string) {
	r.sessionsOpen.Dec()
	r.sessionsEnded.WithLabelValues(Token(reason)).Inc()
}

func (r *Registry) Call(method, outcome string, took time.Duration) {
	m := Method(method)
	r.calls.WithLabelValues(m, Token(outcome)).Inc()
	r.callSeconds.WithLabelValues(m).Observe(took.Seconds())
}

func (r *Registry) Ended(step string)    { r.endings.WithLabelValues(Token(step)).Inc() }
func (r *Registry) Reaped(reason string) { r.reaps.WithLabelValues(Token(reason)).Inc() }
func (r *Registry) StreamOpened()        { r.streamsOpen.Inc() }
func (r *Registry) StreamClosed()        { r.streamsOpen.Dec() }

func (r *Registry) OutboxDropped(n int) {
	if n > 0 {
		r.outboxDropped.Add(float64(n))
	}
}

func (r *Registry) LoginFailed(kind string) { r.loginFailures.WithLabelValues(Token(kind)).Inc() }

// BuildInfo sets mcp_build_info{version} to 1. The version comes from the build, never from a
// client, but it is still held to a short version-like string.
func (r *Registry) BuildInfo(version string) {
	if !versionPattern.MatchString(version) {
		version = "other"
	}
	r.buildInfo.WithLabelValues(version).Set(1)
}

var versionPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)

// methods are the MCP methods a label may name; a client can send any method string, so
// anything else is "other" (and the label set stays bounded).
var methods = map[string]bool{
	"initialize": true, "ping": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"prompts/list": true, "prompts/get": true, "completion/complete": true, "logging/setLevel": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/roots/list_changed": true, "notifications/progress": true,
}

// Method is the label for an MCP method: itself when it is a known MCP method, else "other".
func Method(m string) string {
	if methods[m] {
		return m
	}
	return "other"
}

// isToken says whether s looks like a router-made label value: a short identifier, a letter
// then up to 39 letters, digits or underscores. It is read on every call (the outcome label),
// so it is a loop rather than a regular expression.
func isToken(s string) bool {
	if len(s) == 0 || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '_'):
		default:
			return false
		}
	}
	return true
}

// Token is the label for a front-end identifier (a reason, a data.kind, a step): itself when it
// looks like one, else "other". It keeps a mistaken caller from putting a session id, a path or
// a message into a label.
func Token(s string) string {
	if s == "" {
		return "none"
	}
	if isToken(s) && !looksLikeID(s) {
		return s
	}
	return "other"
}

// looksLikeID refuses long hex runs (session ids are 32 hex digits).
func looksLikeID(s string) bool {
	hex := 0
	for _, c := range s {
		if (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') {
			hex++
			if hex >= 12 {
				return true
			}
			continue
		}
		hex = 0
	}
	return false
}
