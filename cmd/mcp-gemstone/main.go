// Command mcp-gemstone is the MCP server for GemStone/S 64: a Streamable HTTP front end
// (package router) that gives each MCP client its own worker gem through the GCI binding.
//
// Configuration is one table of settings, each an environment variable and (but for a secret)
// the equivalent flag: internal/config, docs/configuration.md, mcp-gemstone -h. SIGTERM or SIGINT
// stops it gracefully: no new connections, running calls get MCP_SHUTDOWN_GRACE to finish,
// what remains is broken, every worker gem is logged out, and it exits 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
)

// version is set at build time: make build passes -ldflags "-X main.version=<git describe>".
// A plain go build leaves it "dev".
var version = "dev"

func main() {
	if os.Getenv("GOGC") == "" {
		// The process's collector pacing; an operator's GOGC wins (docs/operations.md).
		wiring.FloorGCHeap(wiring.GCHeapFloor)
	}
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// closeTimeout bounds the last step of a shutdown: breaking what still runs and logging
// every gem out.
const closeTimeout = 30 * time.Second

// run is the program: -help and -version write to stdout, everything else (the log, a
// refused setting) to stderr.
func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := config.Load(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, config.ErrVersion) {
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcp-gemstone:", err)
		return 2
	}
	log := newLogger(cfg, stderr)
	netMode, err := newNetworkMode(cfg, log)
	if err != nil {
		fmt.Fprintln(stderr, "mcp-gemstone:", err)
		return 2
	}
	for _, w := range cfg.Warnings {
		log.Warn().Msg(w)
	}
	tracer, err := tracingFromEnv(context.Background(), getenv, buildVersion())
	if err != nil {
		fmt.Fprintln(stderr, "mcp-gemstone:", err)
		return 2
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tracer.Shutdown(ctx); err != nil {
			log.Warn().Err(err).Msg("tracing: the last spans were not all sent")
		}
	}()
	// A client that hangs up mid-answer must cost its connection, never the process.
	signal.Ignore(syscall.SIGPIPE)

	lib, err := gemstone.Open(cfg.Library)
	if err != nil {
		log.Error().Err(err).Msg("GemStone client library not loaded: the server starts, and every initialize will fail until it is fixed")
	} else {
		log.Info().Str("library", lib.Path()).Str("version", lib.VersionText()).Msg("GemStone client library loaded")
	}
	control := newLazyControl(lib, worker.LoginSpec{
		StoneNRS: cfg.StoneNRS(), GemNRS: cfg.GemNRS(), User: cfg.ControlUser, Password: cfg.Password,
	}, log)
	if code := checkWorkerUser(cfg, lib, control, log); code != 0 {
		return code
	}
	ln, err := net.Listen("tcp", cfg.Addr())
	if err != nil {
		log.Error().Err(err).Str("addr", cfg.Addr()).Msg(listenHint(err, cfg.Port))
		return 1
	}
	if !cfg.RouterIDSet { // the router is known by its port; with MCP_PORT=0 that is the one it got
		cfg.RouterID = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	}
	opts := routerOptions(cfg, gciworker.NewLauncher(lib, gciworker.Options{Control: control, OneTimeUser: oneTimeUser(cfg)}), log)
	opts.Ready = control.ready
	if tracer.Enabled() {
		opts.Tracer = tracer.Tracer
		log.Info().Str("endpoint", tracer.Endpoint).Msg("tracing: one OpenTelemetry span per MCP message, sent over OTLP/HTTP")
	}
	asm, err := wiring.Assemble(opts, wiring.Parts{
		Metrics: cfg.Metrics, Lifetime: cfg.Lifetime, Stone: control, Network: netMode.apply, Version: buildVersion(), Log: log,
		ProgressKeepalive: cfg.ProgressKeepalive,
	})
	if err != nil { // config.Load validated the same settings; this is a defect, not a bad setting
		log.Error().Err(err).Msg("session lifetime policy not started")
		return 1
	}
	defer asm.CloseChannel()
	srv, engine := asm.Server, asm.Engine
	url := netMode.scheme() + "://" + ln.Addr().String() + "/mcp"
	log.Info().Str("url", url).Str("version", buildVersion()).Str("routerId", cfg.RouterID).Int("maxSessions", cfg.MaxSessions).
		Str("workerClass", cfg.WorkerClass).Msg("listening")
	netMode.announce(log)
	if !cfg.IsLoopback() && !netMode.authenticated() {
		log.Warn().Str("host", cfg.Host).Msg("listening on a non-loopback address with no authentication configured: anyone who can reach it can run code in your stone")
	}
	if cfg.Trace {
		limit := "no cap"
		if cfg.TraceLimit > 0 {
			limit = "bodies capped at " + strconv.Itoa(cfg.TraceLimit) + " bytes"
		}
		log.Warn().Msg("message trace: ON -- " + limit + "; the log will hold every argument every client sends")
	}
	go control.connect(context.Background()) // early, so the first stop does not wait for a login

	hs := srv.HTTPServer(cfg.Addr())
	served := make(chan error, 1)
	go func() { served <- netMode.serve(hs, ln) }()

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	code := 0
	select {
	case s := <-sigs:
		log.Info().Str("signal", s.String()).Dur("grace", cfg.ShutdownGrace).Msg("shutting down: no new connections; running calls get the grace")
	case err := <-served:
		log.Error().Err(err).Msg("server stopped")
		code = 1
	}
	engine.Stop() // no reaping or view hygiene while the shutdown ends sessions itself
	shutdown(srv, hs, control, cfg.ShutdownGrace, log)
	return code
}

// shutdown stops accepting, lets running calls finish within grace, breaks the rest and
// logs every gem out; nothing is left behind.
func shutdown(srv *router.Server, hs *http.Server, control *lazyControl, grace time.Duration, log zerolog.Logger) {
	srv.BeginShutdown() // streams end, /healthz answers 503, no new sessions
	graceCtx, cancel := context.WithTimeout(context.Background(), grace)
	if err := hs.Shutdown(graceCtx); err != nil {
		log.Info().Msg("grace over: breaking the calls still running")
	}
	cancel()
	closeCtx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	srv.Close(closeCtx)
	// The broken calls' answers are being written now; let them reach their clients before
	// the remaining connections are cut.
	flushCtx, cancelFlush := context.WithTimeout(context.Background(), 5*time.Second)
	_ = hs.Shutdown(flushCtx)
	cancelFlush()
	_ = hs.Close()
	if err := control.Close(closeCtx); err != nil {
		log.Warn().Err(err).Msg("control session logout")
	}
	log.Info().Msg("stopped; every worker gem logged out")
}

func routerOptions(cfg *config.Config, launcher worker.Launcher, log zerolog.Logger) router.Options {
	return router.Options{
		Launcher: launcher,
		Login: worker.LoginSpec{
			StoneNRS: cfg.StoneNRS(), GemNRS: cfg.GemNRS(), User: cfg.WorkerUser, Password: cfg.Password,
		},
		Prepare: worker.PrepareConfig{
			WorkerClass:    cfg.WorkerClass,
			Toolsets:       cfg.Toolsets,
			ToolsetOptions: cfg.ToolsetOptions,
			ServerName:     cfg.ServerName,
			ServerVersion:  cfg.ServerVersion,
			ServerTitle:    cfg.ServerTitle,
			Instructions:   cfg.Instructions,
			ResultCap:      cfg.ResultCap,
			FrontEnd:       worker.FrontEnd{Name: "mcp-gemstone", Version: buildVersion()},
			Lifetime:       prepareLifetime(cfg.Lifetime),
		},
		RouterID:       cfg.RouterID,
		IDPrefixed:     cfg.RouterIDSet,
		MaxSessions:    cfg.MaxSessions,
		StatelessPool:  cfg.StatelessPool,
		HandleYield:    cfg.HandleYield,
		MaxBody:        cfg.MaxBody,
		ReadTimeout:    cfg.ReadTimeout,
		RequestTimeout: cfg.RequestTimeout,
		PendingTimeout: cfg.ClientAnswerTimeout,
		PendingTimeouts: map[string]time.Duration{
			"elicitation/create": cfg.ElicitationTimeout,
		},
		LoginTimeout:   cfg.LoginTimeout,
		AllowedOrigins: cfg.AllowedOrigins,
		AllowedHosts:   allowedHosts(cfg),
		Trace:          cfg.Trace,
		TraceLimit:     cfg.TraceLimit,
		Version:        buildVersion(),
		Log:            log,
	}
}

// allowedHosts adds the address the server was told to listen on: a client reaching
// MCP_HOST=10.0.0.5 sends Host: 10.0.0.5. A wildcard address names no host, so it adds none.
func allowedHosts(cfg *config.Config) []string {
	hosts := append([]string(nil), cfg.AllowedHosts...)
	if ip := net.ParseIP(cfg.Host); ip == nil || !ip.IsUnspecified() {
		hosts = append(hosts, cfg.Host)
	}
	return hosts
}

func newLogger(cfg *config.Config, w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(cfg.LogLevel)
	if err != nil {
		level = zerolog.InfoLevel
	}
	if cfg.LogFormat == "console" {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}

// prepareLifetime tells the worker the deadlines that would discard a session's uncommitted work.
func prepareLifetime(c lifetime.Config) *worker.Lifetime {
	seconds := func(l lifetime.Limit) *int {
		if !l.On() {
			return nil
		}
		n := int(l.D() / time.Second)
		return &n
	}
	return &worker.Lifetime{IdleSeconds: seconds(c.IdleTimeout), StreamlessIdleSeconds: seconds(c.StreamlessIdleTimeout)}
}
