// Package wiring assembles a router the way bin/mcp-gemstone serves one: metrics, the
// network mode's gates, every session's server-to-client stream under the lifetime policy,
// and the worker-to-router channel, in the order each wraps the one before. The binary and
// the benchmark server both assemble through it, so what make bench measures is what runs.
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
	// Network, if set, adds the network mode's gates (authentication) to the options. It runs
	// after the metrics and before the streams, as the binary has always applied it.
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
	// Engine runs the lifetime policy; stop it before the shutdown ends sessions itself.
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
	var rec metrics.Recorder = metrics.Nop
	if p.Metrics {
		reg := metrics.New()
		reg.BuildInfo(p.Version)
		withMetrics(&o, reg)
		rec = reg
	}
	if p.Network != nil {
		p.Network(&o)
	}
	startLifetime := withLifetime(&o, p.Lifetime, p.Stone, rec, p.Log)
	hub := withChannel(&o, p.ProgressKeepalive, p.Log) // last: it wraps the Streams and Hooks set above (docs/channel.md)
	srv := router.New(o)
	engine, err := startLifetime(srv)
	if err != nil {
		if hub != nil {
			hub.Close()
		}
		return nil, err
	}
	return &Assembly{Server: srv, Engine: engine, Hub: hub}, nil
}

// CloseChannel closes the worker-to-router channel, if one was opened. Call it once the
// router has ended its sessions.
func (a *Assembly) CloseChannel() {
	if a.Hub != nil {
		a.Hub.Close()
	}
}
