package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth"
)

// setting is one row of the configuration table: its variable, its flag (none for a value
// read from the environment only), its default, its meaning and its parser, which validates
// the value and stores it in the Config.
type setting struct {
	env, flag, def, help string
	parse                func(c *Config, v string) error
	// shown is the default as people read it where it follows from another setting; stated
	// as the bare def it would read "".
	shown string
	// secret: never a flag (flags show in ps) and never echoed in a refusal.
	secret bool
}

// row is a setting with a flag.
func row(env, flag, def, help string, parse func(*Config, string) error) setting {
	return setting{env: env, flag: flag, def: def, help: help, parse: parse}
}

// envOnly is a setting without a flag: a path the GemStone tools share, or a secret.
func envOnly(env, help string, parse func(*Config, string) error) setting {
	return setting{env: env, help: help, parse: parse}
}

func (s setting) showing(text string) setting { s.shown = text; return s }

func (s setting) hidden() setting { s.secret = true; return s }

func (s setting) defaultText() string {
	if s.shown != "" {
		return s.shown
	}
	return orQuote(s.def)
}

// renamed are the variables the binary no longer reads, each with its replacement (the
// spec's names, which the scripts take too). One that is set refuses the start, so an old
// environment file cannot be half obeyed.
var renamed = []struct{ old, now string }{
	{"MCP_STONE", "GS_STONE"},
	{"MCP_CONTROL_USER", "GS_USER"},
	{"MCP_PASSWORD_FILE", "GS_PASS_FILE"},
}

// The variables the cross-checks name.
const (
	envWorkerUser     = "MCP_WORKER_USER"
	envAuth           = "MCP_AUTH"
	envIssuer         = "MCP_OIDC_ISSUER"
	envResource       = "MCP_RESOURCE"
	envScopeToolsets  = "MCP_SCOPE_TOOLSETS"
	envTLSCert        = "MCP_TLS_CERT"
	envTLSKey         = "MCP_TLS_KEY"
	envToolsets       = "MCP_TOOLSETS"
	envToolsetOptions = "MCP_TOOLSET_OPTIONS"
	envGrailDir       = "MCP_GRAIL_DIR"
)

// oidcOnly are the settings of the network-facing mode besides MCP_AUTH itself.
var oidcOnly = []string{envIssuer, envResource, "MCP_REQUIRED_SCOPES", "MCP_EXTRA_SCOPES", envScopeToolsets,
	"MCP_USERID_CLAIM", "MCP_OIDC_CLOCK_SKEW"}

// settings lists every setting in the order the docs table shows them.
func settings() []setting {
	return []setting{
		row("MCP_HOST", "host", "127.0.0.1", "address to listen on (loopback unless you mean otherwise)", required(func(c *Config) *string { return &c.Host })),
		row("MCP_PORT", "port", "8000", "TCP port to listen on (0: any free port)", wholeNumber(func(c *Config) *int { return &c.Port }, 0, 65535, "a port number 0-65535")),
		row("MCP_MAX_SESSIONS", "max-sessions", "3", "most sessions (worker gems) at once, or none", countOrNone(func(c *Config) *int { return &c.MaxSessions })),
		row("MCP_STATELESS_POOL", "stateless-pool", strconv.Itoa(router.DefaultStatelessPool), "gems serving 2026-07-28 requests that carry no state (each one session of the cap)",
			wholeNumber(func(c *Config) *int { return &c.StatelessPool }, 1, 1024, "a whole number from 1 to 1024")),
		row("MCP_HANDLE_YIELD", "handle-yield", durationText(router.DefaultHandleYield), "local mode: a session opened with open_session and idle this long gives its login to a newcomer that finds every slot taken (its uncommitted work discarded, logged)",
			duration(func(c *Config) *time.Duration { return &c.HandleYield }, false)),
		row("MCP_MAX_BODY", "max-body", sizeText(router.DefaultMaxBody), "largest request body (bytes, or with KiB/MiB suffix)", func(c *Config, v string) (err error) {
			c.MaxBody, err = ParseSize(v)
			return err
		}),
		row("MCP_READ_TIMEOUT", "read-timeout", durationText(router.DefaultReadTimeout), "a client must send its whole request within this", duration(func(c *Config) *time.Duration { return &c.ReadTimeout }, false)),
		row("MCP_REQUEST_TIMEOUT", "request-timeout", "none", "longest a single request may run before it is ended, or none", duration(func(c *Config) *time.Duration { return &c.RequestTimeout }, true)),
		row("MCP_LOGIN_TIMEOUT", "login-timeout", durationText(router.DefaultLoginTimeout), "longest a worker gem login and prepare may take", duration(func(c *Config) *time.Duration { return &c.LoginTimeout }, false)),
		row("MCP_SHUTDOWN_GRACE", "shutdown-grace", "10s", "on SIGTERM, how long running calls may finish before they are broken", duration(func(c *Config) *time.Duration { return &c.ShutdownGrace }, false)),
		row("MCP_ELICITATION_TIMEOUT", "elicitation-timeout", "10m", "how long a tool waits for the person answering its elicitation form",
			duration(func(c *Config) *time.Duration { return &c.ElicitationTimeout }, false)),
		row("MCP_CLIENT_ANSWER_TIMEOUT", "client-answer-timeout", durationText(router.DefaultPendingTimeout), "how long a tool waits for the client's answer to any other request (sampling, roots)",
			duration(func(c *Config) *time.Duration { return &c.ClientAnswerTimeout }, false)),
		row("MCP_PROGRESS_KEEPALIVE", "progress-keepalive", "20s", "a call whose client sent a progressToken gets a progress notification whenever its tool has reported none for this long, or none",
			duration(func(c *Config) *time.Duration { return &c.ProgressKeepalive }, true)),
		row("MCP_ALLOWED_ORIGINS", "allowed-origins", "", "extra browser Origin hosts (or full origins) besides loopback, space or comma separated", items(func(c *Config) *[]string { return &c.AllowedOrigins })),
		row("MCP_ALLOWED_HOSTS", "allowed-hosts", "", "extra Host header names besides loopback (the names clients reach this server by)", items(func(c *Config) *[]string { return &c.AllowedHosts })),
		row("MCP_TRACE", "trace", "0", "1 logs every message in and out (bodies; never headers)", boolean(func(c *Config) *bool { return &c.Trace })),
		row("MCP_TRACE_LIMIT", "trace-limit", "4096", "most body bytes a trace line shows, or none", countOrNone(func(c *Config) *int { return &c.TraceLimit })),
		row("MCP_ROUTER_ID", "router-id", "", "this router's name; when set it also prefixes session ids (several routers behind one proxy)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if !routerIDPattern.MatchString(v) {
				return errors.New("must be 1-16 letters, digits or underscores")
			}
			c.RouterID, c.RouterIDSet = v, true
			return nil
		}).showing("the port"),
		row("MCP_WORKER_CLASS", "worker-class", "McpServer", "the worker class every session's gem runs", func(c *Config, v string) error {
			if !classPattern.MatchString(v) {
				return errors.New("must be a Smalltalk class name")
			}
			c.WorkerClass = v
			return nil
		}),
		row(envToolsets, "toolsets", "", "the tool surface, by toolset class name (empty: the worker's default)", func(c *Config, v string) error {
			c.Toolsets = list(v)
			for _, t := range c.Toolsets {
				if !classPattern.MatchString(t) {
					return fmt.Errorf("%q is not a Smalltalk class name", t)
				}
			}
			return nil
		}).showing("the worker's default"),
		row(envToolsetOptions, "toolset-options", "", `per-toolset options as JSON: {"Toolset":{"option":value}}`, func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if err := json.Unmarshal([]byte(v), &c.ToolsetOptions); err != nil {
				return fmt.Errorf("must be a JSON object of objects: %v", err)
			}
			return nil
		}),
		row("MCP_SERVER_NAME", "server-name", "", "serverInfo.name override", optString(func(c *Config) **string { return &c.ServerName })),
		row("MCP_SERVER_VERSION", "server-version", "", "serverInfo.version override", optString(func(c *Config) **string { return &c.ServerVersion })),
		row("MCP_SERVER_TITLE", "server-title", "", "serverInfo.title (none by default)", optString(func(c *Config) **string { return &c.ServerTitle })),
		row("MCP_INSTRUCTIONS_FILE", "instructions-file", "", "a UTF-8 file whose text replaces the stock instructions (an empty file: none)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			b, err := os.ReadFile(v)
			if err != nil {
				return fmt.Errorf("cannot read it: %v", err)
			}
			if n := len([]rune(string(b))); n > 32768 {
				return fmt.Errorf("holds %d characters; at most 32768", n)
			}
			s := string(b)
			c.Instructions = &s
			return nil
		}),
		row(envGrailDir, "grail-dir", "", "the Grail checkout McpGrailToolset reads (shorthand for its grailDirectory option; needs McpGrailToolset in MCP_TOOLSETS)", text(func(c *Config) *string { return &c.GrailDir })),
		row("MCP_RESULT_CAP", "result-cap", "50000", "most characters a single-value tool result carries before it is cut",
			wholeNumber(func(c *Config) *int { return &c.ResultCap }, 0, 1<<31-1, "a count of characters")),
		envOnly(gemstone.EnvHome, "a GemStone product directory: the server loads the highest lib/libgcits-*-64.so in it", text(func(c *Config) *string { return &c.Library.Home })),
		envOnly(gemstone.EnvLibrary, "the libgcits file itself, in place of GEMSTONE", text(func(c *Config) *string { return &c.Library.Path })),
		row("MCP_STONE_HOST", "stone-host", "localhost", "host of the stone and its NetLDI", func(c *Config, v string) error {
			c.StoneHost = v
			_, err := gemstone.StoneNRS(v, "x")
			return stripPrefix(err)
		}),
		row("GS_STONE", "stone", "gs64stone", "the stone's name", func(c *Config, v string) error {
			c.Stone = v
			_, err := gemstone.StoneNRS("localhost", v)
			return stripPrefix(err)
		}),
		row("MCP_NETLDI", "netldi", "gs64ldi", "the NetLDI that starts gems (name or port)", func(c *Config, v string) error {
			c.Netldi = v
			_, err := gemstone.GemNRS("localhost", v, "")
			return stripPrefix(err)
		}),
		row("MCP_GEM_CONFIG", "gem-config", "", "gem configuration for worker gems: NAME=value;NAME=value", func(c *Config, v string) error {
			c.GemConfig = v
			if v == "" {
				return nil
			}
			return stripPrefix(gemstone.CheckGemConfig(v))
		}),
		row(envWorkerUser, "worker-user", "DataCurator", "GemStone user the worker gems log in as; one given and other than GS_USER logs in with one-time passwords the control session mints (docs/read-only-user.md)",
			required(func(c *Config) *string { return &c.WorkerUser })),
		row("GS_USER", "control-user", "", "GemStone user of the router's control session (default: MCP_WORKER_USER)", text(func(c *Config) *string { return &c.ControlUser })).showing("MCP_WORKER_USER"),
		row("GS_PASS_FILE", "password-file", "", "file holding the GemStone password of GS_USER (else GS_PASS)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			b, err := os.ReadFile(v)
			if err != nil {
				return fmt.Errorf("cannot read it: %v", errors.Unwrap(err))
			}
			c.Password = strings.TrimRight(string(b), "\r\n")
			return nil
		}).showing("none: GS_PASS"),
		envOnly("GS_PASS", "the GemStone password, when GS_PASS_FILE is not set (never a flag, never logged)", text(func(c *Config) *string { return &c.passEnv })).hidden(),
		row(envAuth, "auth", "none", "none (the localhost mode) or oidc: OAuth 2.1 bearer tokens, each worker gem logged in as its token's user (docs/auth.md)", func(c *Config, v string) error {
			if v != "none" && v != "oidc" {
				return errors.New("must be oidc or none")
			}
			c.authMode = v
			return nil
		}),
		row(envIssuer, "oidc-issuer", "", "with MCP_AUTH=oidc (required): the issuer URL, exactly as the tokens' iss has it; https (http only for a loopback host)", urlOf(func(c *Config) *string { return &c.oidc.Issuer }, auth.CheckIssuer)),
		row(envResource, "resource", "", "with MCP_AUTH=oidc (required): this server's canonical URL as clients reach it, the tokens' audience, e.g. https://gs.example.com/mcp", urlOf(func(c *Config) *string { return &c.oidc.Resource }, auth.CheckResource)),
		row("MCP_REQUIRED_SCOPES", "required-scopes", "", "with MCP_AUTH=oidc: scopes every token must carry, space or comma separated", scopes(func(c *Config) *[]string { return &c.oidc.RequiredScopes })),
		row("MCP_EXTRA_SCOPES", "extra-scopes", "", "with MCP_AUTH=oidc: scopes advertised but not required", scopes(func(c *Config) *[]string { return &c.oidc.ExtraScopes })),
		row(envScopeToolsets, "scope-toolsets", "", `with MCP_AUTH=oidc: the toolsets each token scope grants, as JSON {"scope":["Toolset",...]} (unset: every token gets the whole surface)`, func(c *Config, v string) error {
			m, err := auth.ParseScopeMap(v)
			if err != nil {
				return err
			}
			c.oidc.ScopeToolsets = m
			return nil
		}),
		row("MCP_USERID_CLAIM", "userid-claim", "sub", "with MCP_AUTH=oidc: the token claim naming the GemStone user", func(c *Config, v string) error {
			c.oidc.UserIDClaim = v
			return auth.CheckClaim(v)
		}),
		row("MCP_OIDC_CLOCK_SKEW", "oidc-clock-skew", durationText(auth.DefaultClockSkew), "with MCP_AUTH=oidc: how far a token's exp and nbf may be off this host's clock (at most "+durationText(auth.MaxClockSkew)+")", func(c *Config, v string) error {
			d, err := ParseDuration(v, false)
			if err == nil {
				err = auth.CheckClockSkew(d)
			}
			c.oidc.ClockSkew = d
			return err
		}),
		row(envTLSCert, "tls-cert", "", "PEM certificate chain: with MCP_TLS_KEY the port speaks HTTPS only (both or neither; a renewal is read without a restart)", readable(func(c *Config) *string { return &c.TLS.CertFile })),
		row(envTLSKey, "tls-key", "", "PEM private key of MCP_TLS_CERT", readable(func(c *Config) *string { return &c.TLS.KeyFile })),
		row("MCP_METRICS", "metrics", "1", "1 serves Prometheus metrics at /metrics on the same listener; 0 turns them off", boolean(func(c *Config) *bool { return &c.Metrics })),
		row("MCP_LOG_FORMAT", "log-format", "json", "json, or console for people", oneOf(func(c *Config) *string { return &c.LogFormat }, "json", "console")),
		row("MCP_LOG_LEVEL", "log-level", "info", "debug, info, warn or error", oneOf(func(c *Config) *string { return &c.LogLevel }, "debug", "info", "warn", "error")),
	}
}

var (
	routerIDPattern = regexp.MustCompile(`^[A-Za-z0-9_]{1,16}$`)
	classPattern    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,255}$`)
)

// The parsers below each store one kind of value in the field their accessor names.

func text(field func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error {
		*field(c) = v
		return nil
	}
}

func required(field func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v == "" {
			return errors.New("must not be empty")
		}
		*field(c) = v
		return nil
	}
}

func oneOf(field func(*Config) *string, choices ...string) func(*Config, string) error {
	return func(c *Config, v string) error {
		for _, ch := range choices {
			if v == ch {
				*field(c) = v
				return nil
			}
		}
		return errors.New("must be " + strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1])
	}
}

func optString(field func(*Config) **string) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v != "" {
			*field(c) = &v
		}
		return nil
	}
}

func items(field func(*Config) *[]string) func(*Config, string) error {
	return func(c *Config, v string) error {
		*field(c) = list(v)
		return nil
	}
}

func wholeNumber(field func(*Config) *int, least, most int, what string) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < least || n > most {
			return errors.New("must be " + what)
		}
		*field(c) = n
		return nil
	}
}

func countOrNone(field func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		if strings.EqualFold(v, "none") {
			*field(c) = 0
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return errors.New("must be a positive whole number, or none")
		}
		*field(c) = n
		return nil
	}
}

func duration(field func(*Config) *time.Duration, allowNone bool) func(*Config, string) error {
	return func(c *Config, v string) (err error) {
		*field(c), err = ParseDuration(v, allowNone)
		return err
	}
}

func boolean(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		switch strings.ToLower(v) {
		case "1", "true", "yes", "on":
			*field(c) = true
		case "0", "false", "no", "off", "":
			*field(c) = false
		default:
			return errors.New("must be 1 or 0")
		}
		return nil
	}
}

// readable is a path that must name a file this process can read, when given.
func readable(field func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error {
		*field(c) = v
		if v == "" {
			return nil
		}
		f, err := os.Open(v)
		if err != nil {
			return fmt.Errorf("cannot read it: %v", errors.Unwrap(err))
		}
		return f.Close()
	}
}

// urlOf is a URL the check accepts, when given (whether it is required is the mode's call).
func urlOf(field func(*Config) *string, check func(string) error) func(*Config, string) error {
	return func(c *Config, v string) error {
		*field(c) = v
		if v == "" {
			return nil
		}
		return check(v)
	}
}

func scopes(field func(*Config) *[]string) func(*Config, string) error {
	return func(c *Config, v string) (err error) {
		*field(c), err = auth.ParseScopes(v)
		return err
	}
}

// durationText writes a default duration as the table shows it: whole minutes above one
// minute, seconds otherwise ("8s", "60s", "5m").
func durationText(d time.Duration) string {
	if d > time.Minute && d%time.Minute == 0 {
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return strconv.FormatInt(int64(d/time.Second), 10) + "s"
}

// sizeText writes a default byte count as the table shows it: whole MiB when it is, bytes
// otherwise.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10)
}
