// Package wiring assembles a router the way bin/mcp-gemstone serves one: metrics, the
// network mode's gates, the lifetime policy and the worker-to-router channel, each plugged
// into its own seam of router.Options. The binary, the benchmark server and the end-to-end
// tests assemble through it, so what make bench measures and the tests check is what runs.
package wiring

import (
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/channel"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/router/metrics"
)

// Parts are the choices made before assembly.
type Parts struct {
	// Metrics records sessions, calls, streams and reaps and serves them at /metrics.
	Metrics bool
	// Lifetime is the session-lifetime and view-hygiene policy; Stone takes its stone readings.
	Lifetime lifetime.Config
	Stone    lifetime.StoneReader
	// Network, if set, adds the network mode's gates (authentication) to the options.
	Network func(*router.Options)
	// ProgressKeepalive is channel.Mode's: how often a silent call whose client sent a
	// progressToken gets a progress notification (0: never).
	ProgressKeepalive time.Duration
	// Version is this build's version, the label of mcp_build_info.
	Version string
	Log     zerolog.Logger
}

// Assembly is an assembled router with the parts that outlive assembly.
type Assembly struct {
	Server *router.Server
	// Engine runs the lifetime policy (the router starts it and stops it when shutdown
	// begins); its Stats are the policy's counts.
	Engine *lifetime.Engine
	// Hub is the worker-to-router channel, nil when it could not be opened (answers then stay
	// application/json and tools cannot report progress; logged).
	Hub *channel.Hub
}

// Assemble builds and starts the router from o and p.
func Assemble(o router.Options, p Parts) (*Assembly, error) {
	if p.Stone == nil {
		return nil, errors.New("wiring: the lifetime policy needs a stone reader")
	}
	if p.Metrics {
		reg := metrics.New()
		reg.BuildInfo(p.Version)
		o.Observer = metricsObserver{reg}
		o.Metrics = reg.Handler()
	}
	if p.Network != nil {
		p.Network(&o)
	}
	engine, err := lifetime.New(p.Lifetime, p.Stone, lifetime.WithLogger(p.Log))
	if err != nil {
		return nil, err
	}
	o.Lifetime = engine
	hub := withChannel(&o, p.ProgressKeepalive, p.Log)
	return &Assembly{Server: router.New(o), Engine: engine, Hub: hub}, nil
}

// CloseChannel closes the worker-to-router channel, if one was opened. Call it once the
// router has ended its sessions.
func (a *Assembly) CloseChannel() {
	if a.Hub != nil {
		a.Hub.Close()
	}
}
