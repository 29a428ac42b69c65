package wiring

import (
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/metrics"
)

// metricsObserver turns what the router observes into metrics.
type metricsObserver struct{ r metrics.Recorder }

func (m metricsObserver) CallEnded(e router.CallEvent) {
	m.r.Call(e.Method, e.Outcome, e.Took)
	if e.Step != "" {
		m.r.Ended(e.Step)
	}
}

func (m metricsObserver) LaunchFailed(kind string) { m.r.LoginFailed(kind) }
func (m metricsObserver) SessionOpened()           { m.r.SessionOpened() }
func (m metricsObserver) SessionEnded(kind string) { m.r.SessionEnded(kind) }
func (m metricsObserver) Reaped(kind string)       { m.r.Reaped(kind) }
func (m metricsObserver) StreamOpened()            { m.r.StreamOpened() }
func (m metricsObserver) StreamClosed()            { m.r.StreamClosed() }
func (m metricsObserver) OutboxDropped()           { m.r.OutboxDropped(1) }
