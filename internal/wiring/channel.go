package wiring

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/channel"
)

// withChannel opens the worker-to-router channel (docs/worker-contract.md) on a free loopback
// port and plugs it into the router's seams: the prepare config (whose endpoint the session
// then holds), the response mode, and the GET stream (resumption of a POST stream closed
// mid-call). Without a channel the server still serves (answers stay application/json), so a
// failure is logged, not fatal.
func withChannel(o *router.Options, progressKeepalive time.Duration, log zerolog.Logger) *channel.Hub {
	hub, err := channel.Listen(channel.Options{Log: log})
	if err != nil {
		log.Error().Err(err).Msg("worker-to-router channel not opened: tools cannot report progress, log or ask the client")
		return nil
	}
	mode := &channel.Mode{Hub: hub, Streams: o.Streams, ProgressKeepalive: progressKeepalive}
	o.PrepareSession = mode.PrepareSession
	o.Responses = mode
	o.Streams = mode
	log.Info().Str("address", hub.Address()).Msg("worker-to-router channel listening")
	return hub
}
