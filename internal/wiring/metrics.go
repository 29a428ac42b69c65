package wiring

import (
	"net/http"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/metrics"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
)

// metricsRegistry is what withMetrics needs of router/metrics: the Recorder and /metrics.
type metricsRegistry interface {
	metrics.Recorder
	Handler() http.Handler
}

// withMetrics reports the router's sessions and calls to reg and serves it at /metrics.
// Session hooks already set are kept and run after the metrics ones.
func withMetrics(o *router.Options, reg metricsRegistry) {
	next := o.Hooks
	o.Hooks = session.Hooks{
		Opened: func(s *session.Session) {
			reg.SessionOpened()
			if next.Opened != nil {
				next.Opened(s)
			}
		},
		Ended: func(s *session.Session, r session.Reason) {
			reg.SessionEnded(r.Kind)
			if next.Ended != nil {
				next.Ended(s, r)
			}
		},
	}
	o.Observer = metricsObserver{reg}
	o.Metrics = reg.Handler()
}

// metricsObserver turns the router's call events into metrics.
type metricsObserver struct{ r metrics.Recorder }

func (m metricsObserver) CallEnded(e router.CallEvent) {
	m.r.Call(e.Method, e.Outcome, e.Took)
	if e.Step != "" {
		m.r.Ended(e.Step)
	}
}

func (m metricsObserver) LaunchFailed(kind string) { m.r.LoginFailed(kind) }
