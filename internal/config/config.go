// Package config reads the front end's configuration from MCP_* environment variables and
// the equivalent command-line flags (a flag wins over its variable), and validates every
// value before anything starts: a bad value refuses to start with a message naming the
// variable, the flag and what is wrong. Secrets (the GemStone password) come only from the
// environment or a file, never a flag (flags show in ps), and never appear in an error.
package config

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
)

// Config is the validated configuration.
type Config struct {
	Host string
	Port int

	MaxSessions    int           // 0: no cap
	StatelessPool  int           // gems serving 2026-07-28 requests without state
	MaxBody        int64         // bytes
	ReadTimeout    time.Duration // a request must arrive whole within it
	RequestTimeout time.Duration // 0: none
	LoginTimeout   time.Duration
	ShutdownGrace  time.Duration
	// ElicitationTimeout and ClientAnswerTimeout bound the wait for a client's answer to a
	// request the worker sent it: an elicitation form (a person), anything else (the client).
	ElicitationTimeout  time.Duration
	ClientAnswerTimeout time.Duration
	// ProgressKeepalive: a silent call whose client sent a progressToken gets a progress
	// notification this often (0: never).
	ProgressKeepalive time.Duration

	AllowedOrigins []string
	AllowedHosts   []string

	Trace      bool
	TraceLimit int // 0: no cap

	// RouterID names this router in gem cache names; RouterIDSet says it was given, in which
	// case it also prefixes every session id (for proxies routing on it).
	RouterID    string
	RouterIDSet bool

	WorkerClass    string
	Toolsets       []string
	ToolsetOptions map[string]map[string]json.RawMessage
	ServerName     *string
	ServerVersion  *string
	ServerTitle    *string
	Instructions   *string
	ResultCap      int

	StoneHost  string
	Stone      string
	Netldi     string
	GemConfig  string
	WorkerUser string
	// WorkerUserSet says MCP_WORKER_USER (or -worker-user) was given rather than defaulted: a
	// given worker user other than ControlUser logs in with one-time passwords.
	WorkerUserSet bool
	// ControlUser is the router's own GemStone user for the control session.
	ControlUser string
	Password    string // secret: never logged, never in an error

	LogFormat string // json | console
	LogLevel  string
	Metrics   bool // serve /metrics

	// Lifetime is the session-lifetime and view-hygiene policy (docs/session-lifetime.md),
	// read from lifetime.Knobs()' variables and flags.
	Lifetime lifetime.Config

	// GrailDir is MCP_GRAIL_DIR, shorthand for McpGrailToolset's grailDirectory option.
	GrailDir string
	// Warnings are settings that were understood but will not do what they seem to; the
	// server logs them at start.
	Warnings []string
}

// GrailToolset is the optional Python toolset MCP_GRAIL_DIR configures.
const GrailToolset = "McpGrailToolset"

// StoneNRS is the stone's network resource string.
func (c *Config) StoneNRS() string {
	nrs, _ := gemstone.StoneNRS(c.StoneHost, c.Stone)
	return nrs
}

// GemNRS is the gem's network resource string.
func (c *Config) GemNRS() string {
	nrs, _ := gemstone.GemNRS(c.StoneHost, c.Netldi, c.GemConfig)
	return nrs
}

// Addr is the listen address.
func (c *Config) Addr() string { return net.JoinHostPort(c.Host, strconv.Itoa(c.Port)) }

// IsLoopback says the listen host is a loopback address or localhost.
func (c *Config) IsLoopback() bool {
	if c.Host == "localhost" {
		return true
	}
	ip := net.ParseIP(c.Host)
	return ip != nil && ip.IsLoopback()
}

// setting is one configuration value: its variable, its flag, its default and its parser.
type setting struct {
	env, flag, def, help string
	parse                func(c *Config, v string) error
}

// defaultText is the default as people read it. A few defaults follow from other settings
// rather than being a fixed value; stated as the bare def they would read "".
func (s setting) defaultText() string {
	switch s.env {
	case "MCP_ROUTER_ID":
		return "the port"
	case "MCP_CONTROL_USER":
		return "MCP_WORKER_USER"
	case "MCP_TOOLSETS":
		return "the worker's default"
	case "MCP_PASSWORD_FILE":
		return "none: GS_PASS"
	}
	return orQuote(s.def)
}

// Settings lists every setting in the order the docs table shows them.
func settings() []setting {
	return []setting{
		{"MCP_HOST", "host", "127.0.0.1", "address to listen on (loopback unless you mean otherwise)", func(c *Config, v string) error {
			if v == "" {
				return errors.New("must not be empty")
			}
			c.Host = v
			return nil
		}},
		{"MCP_PORT", "port", "8000", "TCP port to listen on (0: any free port)", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 65535 {
				return errors.New("must be a port number 0-65535")
			}
			c.Port = n
			return nil
		}},
		{"MCP_MAX_SESSIONS", "max-sessions", "3", "most sessions (worker gems) at once, or none", func(c *Config, v string) error {
			n, err := countOrNone(v)
			c.MaxSessions = n
			return err
		}},
		{"MCP_STATELESS_POOL", "stateless-pool", "2", "gems serving 2026-07-28 requests that carry no state (each one session of the cap)", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1024 {
				return errors.New("must be a whole number from 1 to 1024")
			}
			c.StatelessPool = n
			return nil
		}},
		{"MCP_MAX_BODY", "max-body", "4MiB", "largest request body (bytes, or with KiB/MiB suffix)", func(c *Config, v string) error {
			n, err := ParseSize(v)
			c.MaxBody = n
			return err
		}},
		{"MCP_READ_TIMEOUT", "read-timeout", "8s", "a client must send its whole request within this", func(c *Config, v string) error {
			d, err := ParseDuration(v, false)
			c.ReadTimeout = d
			return err
		}},
		{"MCP_REQUEST_TIMEOUT", "request-timeout", "none", "longest a single request may run before it is ended, or none", func(c *Config, v string) error {
			d, err := ParseDuration(v, true)
			c.RequestTimeout = d
			return err
		}},
		{"MCP_LOGIN_TIMEOUT", "login-timeout", "60s", "longest a worker gem login and prepare may take", func(c *Config, v string) error {
			d, err := ParseDuration(v, false)
			c.LoginTimeout = d
			return err
		}},
		{"MCP_SHUTDOWN_GRACE", "shutdown-grace", "10s", "on SIGTERM, how long running calls may finish before they are broken", func(c *Config, v string) error {
			d, err := ParseDuration(v, false)
			c.ShutdownGrace = d
			return err
		}},
		{"MCP_ELICITATION_TIMEOUT", "elicitation-timeout", "10m", "how long a tool waits for the person answering its elicitation form", func(c *Config, v string) error {
			d, err := ParseDuration(v, false)
			c.ElicitationTimeout = d
			return err
		}},
		{"MCP_CLIENT_ANSWER_TIMEOUT", "client-answer-timeout", "30s", "how long a tool waits for the client's answer to any other request (sampling, roots)", func(c *Config, v string) error {
			d, err := ParseDuration(v, false)
			c.ClientAnswerTimeout = d
			return err
		}},
		{"MCP_PROGRESS_KEEPALIVE", "progress-keepalive", "20s", "a call whose client sent a progressToken gets a progress notification whenever its tool has reported none for this long, or none", func(c *Config, v string) error {
			d, err := ParseDuration(v, true)
			c.ProgressKeepalive = d
			return err
		}},
		{"MCP_ALLOWED_ORIGINS", "allowed-origins", "", "extra browser Origin hosts (or full origins) besides loopback, space or comma separated", func(c *Config, v string) error {
			c.AllowedOrigins = list(v)
			return nil
		}},
		{"MCP_ALLOWED_HOSTS", "allowed-hosts", "", "extra Host header names besides loopback (the names clients reach this server by)", func(c *Config, v string) error {
			c.AllowedHosts = list(v)
			return nil
		}},
		{"MCP_TRACE", "trace", "0", "1 logs every message in and out (bodies; never headers)", func(c *Config, v string) error {
			b, err := parseBool(v)
			c.Trace = b
			return err
		}},
		{"MCP_TRACE_LIMIT", "trace-limit", "4096", "most body bytes a trace line shows, or none", func(c *Config, v string) error {
			n, err := countOrNone(v)
			c.TraceLimit = n
			return err
		}},
		{"MCP_ROUTER_ID", "router-id", "", "this router's name; when set it also prefixes session ids (several routers behind one proxy)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if !routerIDPattern.MatchString(v) {
				return errors.New("must be 1-16 letters, digits or underscores")
			}
			c.RouterID, c.RouterIDSet = v, true
			return nil
		}},
		{"MCP_WORKER_CLASS", "worker-class", "McpServer", "the worker class every session's gem runs", func(c *Config, v string) error {
			if !classPattern.MatchString(v) {
				return errors.New("must be a Smalltalk class name")
			}
			c.WorkerClass = v
			return nil
		}},
		{"MCP_TOOLSETS", "toolsets", "", "the tool surface, by toolset class name (empty: the worker's default)", func(c *Config, v string) error {
			c.Toolsets = list(v)
			for _, t := range c.Toolsets {
				if !classPattern.MatchString(t) {
					return fmt.Errorf("%q is not a Smalltalk class name", t)
				}
			}
			return nil
		}},
		{"MCP_TOOLSET_OPTIONS", "toolset-options", "", `per-toolset options as JSON: {"Toolset":{"option":value}}`, func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if err := json.Unmarshal([]byte(v), &c.ToolsetOptions); err != nil {
				return fmt.Errorf("must be a JSON object of objects: %v", err)
			}
			return nil
		}},
		{"MCP_SERVER_NAME", "server-name", "", "serverInfo.name override", optString(func(c *Config) **string { return &c.ServerName })},
		{"MCP_SERVER_VERSION", "server-version", "", "serverInfo.version override", optString(func(c *Config) **string { return &c.ServerVersion })},
		{"MCP_SERVER_TITLE", "server-title", "", "serverInfo.title (none by default)", optString(func(c *Config) **string { return &c.ServerTitle })},
		{"MCP_INSTRUCTIONS_FILE", "instructions-file", "", "a UTF-8 file whose text replaces the stock instructions (an empty file: none)", func(c *Config, v string) error {
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
		}},
		{"MCP_GRAIL_DIR", "grail-dir", "", "the Grail checkout McpGrailToolset reads (shorthand for its grailDirectory option; needs McpGrailToolset in MCP_TOOLSETS)", func(c *Config, v string) error {
			c.GrailDir = v
			return nil
		}},
		{"MCP_RESULT_CAP", "result-cap", "50000", "most characters a single-value tool result carries before it is cut", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return errors.New("must be a count of characters")
			}
			c.ResultCap = n
			return nil
		}},
		{"MCP_STONE_HOST", "stone-host", "localhost", "host of the stone and its NetLDI", func(c *Config, v string) error {
			c.StoneHost = v
			_, err := gemstone.StoneNRS(v, "x")
			return stripPrefix(err)
		}},
		{"MCP_STONE", "stone", "gs64stone", "the stone's name", func(c *Config, v string) error {
			c.Stone = v
			_, err := gemstone.StoneNRS("localhost", v)
			return stripPrefix(err)
		}},
		{"MCP_NETLDI", "netldi", "gs64ldi", "the NetLDI that starts gems (name or port)", func(c *Config, v string) error {
			c.Netldi = v
			_, err := gemstone.GemNRS("localhost", v, "")
			return stripPrefix(err)
		}},
		{"MCP_GEM_CONFIG", "gem-config", "", "gem configuration for worker gems: NAME=value;NAME=value", func(c *Config, v string) error {
			c.GemConfig = v
			if v == "" {
				return nil
			}
			return stripPrefix(gemstone.CheckGemConfig(v))
		}},
		{"MCP_WORKER_USER", "worker-user", "DataCurator", "GemStone user the worker gems log in as; one given and other than MCP_CONTROL_USER logs in with one-time passwords the control session mints (docs/read-only-user.md)", func(c *Config, v string) error {
			if v == "" {
				return errors.New("must not be empty")
			}
			c.WorkerUser = v
			return nil
		}},
		{"MCP_CONTROL_USER", "control-user", "", "GemStone user of the router's control session (default: MCP_WORKER_USER)", func(c *Config, v string) error {
			c.ControlUser = v
			return nil
		}},
		{"MCP_PASSWORD_FILE", "password-file", "", "file holding the GemStone password (else GS_PASS)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			b, err := os.ReadFile(v)
			if err != nil {
				return fmt.Errorf("cannot read it: %v", errors.Unwrap(err))
			}
			c.Password = strings.TrimRight(string(b), "\r\n")
			return nil
		}},
		{"MCP_METRICS", "metrics", "1", "1 serves Prometheus metrics at /metrics on the same listener; 0 turns them off", func(c *Config, v string) error {
			b, err := parseBool(v)
			c.Metrics = b
			return err
		}},
		{"MCP_LOG_FORMAT", "log-format", "json", "json, or console for people", func(c *Config, v string) error {
			if v != "json" && v != "console" {
				return errors.New("must be json or console")
			}
			c.LogFormat = v
			return nil
		}},
		{"MCP_LOG_LEVEL", "log-level", "info", "debug, info, warn or error", func(c *Config, v string) error {
			switch v {
			case "debug", "info", "warn", "error":
				c.LogLevel = v
				return nil
			}
			return errors.New("must be debug, info, warn or error")
		}},
	}
}

var (
	routerIDPattern = regexp.MustCompile(`^[A-Za-z0-9_]{1,16}$`)
	classPattern    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,255}$`)
)

// Load reads the configuration: defaults, then the environment (getenv), then the flags in
// args. The error names every bad value at once, each by variable and flag.
func Load(args []string, getenv func(string) string, usage io.Writer) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	all := settings()
	fs := flag.NewFlagSet("mcp-gemstone", flag.ContinueOnError)
	// The flag package's own usage is the bare flag list; the help is written below instead,
	// and a parse error is returned for the caller to print once.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	flags := make([]*string, len(all))
	for i, s := range all {
		flags[i] = fs.String(s.flag, "", s.help)
	}
	knobs := lifetime.Knobs()
	knobFlags := make([]*string, len(knobs))
	for i, k := range knobs {
		knobFlags[i] = fs.String(k.Flag, "", k.Help)
	}
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(usage, all, knobs)
			return nil, err
		}
		return nil, fmt.Errorf("%v (mcp-gemstone --help lists every setting)", err)
	}
	if *showVersion {
		return nil, ErrVersion
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q: every setting is a -flag or an MCP_* variable", fs.Args())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })

	c := &Config{}
	var problems []string
	for i, s := range all {
		v, from := s.def, "default"
		if e, ok := lookup(getenv, s.env); ok {
			v, from = e, s.env
		}
		if given[s.flag] {
			v, from = *flags[i], "-"+s.flag
		}
		if err := s.parse(c, strings.TrimSpace(v)); err != nil {
			problems = append(problems, fmt.Sprintf("%s (-%s) = %q from %s: %v", s.env, s.flag, v, from, err))
		}
		if s.env == "MCP_WORKER_USER" {
			c.WorkerUserSet = from != "default"
		}
	}
	problems = append(problems, c.loadLifetime(getenv, knobs, knobFlags, given)...)
	if c.Password == "" {
		c.Password = getenv("GS_PASS")
	}
	if c.ControlUser == "" {
		c.ControlUser = c.WorkerUser
	}
	if c.RouterID == "" {
		c.RouterID = strconv.Itoa(c.Port)
	}
	problems = append(problems, c.reconcileToolsetOptions()...)
	if len(problems) > 0 {
		return nil, errors.New("refusing to start; bad configuration:\n  " + strings.Join(problems, "\n  "))
	}
	return c, nil
}

// loadLifetime reads the lifetime policy, a given flag in place of its variable; a refusal
// names the flag when a flag set the value.
func (c *Config) loadLifetime(getenv func(string) string, knobs []lifetime.Knob, flags []*string, given map[string]bool) []string {
	fromFlag := map[string]string{} // variable -> flag value
	flagOf := map[string]string{}   // variable -> -flag
	for i, k := range knobs {
		flagOf[k.Env] = "-" + k.Flag
		if given[k.Flag] {
			fromFlag[k.Env] = *flags[i]
		}
	}
	get := func(env string) string {
		if v, ok := fromFlag[env]; ok {
			return v
		}
		return getenv(env)
	}
	name := func(env string) string {
		if _, ok := fromFlag[env]; ok {
			return flagOf[env]
		}
		return env
	}
	lc, err := lifetime.FromSettings(get, name)
	if err != nil {
		return strings.Split(err.Error(), "\n")
	}
	c.Lifetime = lc
	return nil
}

// reconcileToolsetOptions applies the spec's rules between MCP_TOOLSETS,
// MCP_TOOLSET_OPTIONS and MCP_GRAIL_DIR: options for a toolset the router does not serve
// refuse the start; MCP_GRAIL_DIR without McpGrailToolset in the surface is left off with a
// warning; MCP_TOOLSET_OPTIONS replaces MCP_GRAIL_DIR rather than adding to it; and a Grail
// directory must hold src/python/stdlib, so a typo is one line at launch.
func (c *Config) reconcileToolsetOptions() []string {
	var problems []string
	if len(c.Toolsets) > 0 {
		for name := range c.ToolsetOptions {
			if !slices.Contains(c.Toolsets, name) {
				problems = append(problems, fmt.Sprintf("MCP_TOOLSET_OPTIONS (-toolset-options) holds options for %s, which MCP_TOOLSETS does not serve", name))
			}
		}
	}
	if c.GrailDir == "" {
		return problems
	}
	switch {
	case c.ToolsetOptions != nil:
		c.Warnings = append(c.Warnings, "MCP_GRAIL_DIR is ignored: MCP_TOOLSET_OPTIONS replaces it (name grailDirectory there)")
	case !slices.Contains(c.Toolsets, GrailToolset):
		c.Warnings = append(c.Warnings, "MCP_GRAIL_DIR is set but "+GrailToolset+" is not in MCP_TOOLSETS: left off")
	default:
		if st, err := os.Stat(filepath.Join(c.GrailDir, "src", "python", "stdlib")); err != nil || !st.IsDir() {
			problems = append(problems, fmt.Sprintf("MCP_GRAIL_DIR (-grail-dir) = %q: not a Grail checkout (no src/python/stdlib in it)", c.GrailDir))
			break
		}
		dir, _ := json.Marshal(c.GrailDir)
		c.ToolsetOptions = map[string]map[string]json.RawMessage{GrailToolset: {"grailDirectory": dir}}
	}
	return problems
}

// Table renders the settings, then the lifetime knobs, as a Markdown table (README.md holds
// its output).
func Table() string {
	var b strings.Builder
	b.WriteString("| variable | flag | default | meaning |\n|---|---|---|---|\n")
	for _, s := range settings() {
		fmt.Fprintf(&b, "| `%s` | `-%s` | %s | %s |\n", s.env, s.flag, s.defaultText(), s.help)
	}
	for _, k := range lifetime.Knobs() {
		fmt.Fprintf(&b, "| `%s` | `-%s` | %s | %s |\n", k.Env, k.Flag, orQuote(k.Default), k.Help)
	}
	return b.String()
}

func lookup(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

func orQuote(s string) string {
	if s == "" {
		return `""`
	}
	return "`" + s + "`"
}

func optString(field func(*Config) **string) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v != "" {
			*field(c) = &v
		}
		return nil
	}
}

func list(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off", "":
		return false, nil
	}
	return false, errors.New("must be 1 or 0")
}

func countOrNone(v string) (int, error) {
	if strings.EqualFold(v, "none") {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, errors.New("must be a positive whole number, or none")
	}
	return n, nil
}

// ParseDuration reads whole seconds ("30") or a Go duration ("1m30s"); with allowNone,
// "none" means off (0). Zero and negative durations are refused: use none.
func ParseDuration(v string, allowNone bool) (time.Duration, error) {
	if allowNone && strings.EqualFold(v, "none") {
		return 0, nil
	}
	hint := "must be whole seconds or a duration like 1m30s"
	if allowNone {
		hint += ", or none"
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n <= 0 {
			return 0, errors.New(hint)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, errors.New(hint)
	}
	return d, nil
}

// ParseSize reads a byte count: digits, optionally followed by KiB, MiB or GiB (or K, M, G).
func ParseSize(v string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}
	mult := int64(1)
	num := v
	for _, u := range units {
		if strings.HasSuffix(v, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, errors.New("must be a positive byte count such as 4194304 or 4MiB")
	}
	return n * mult, nil
}

func stripPrefix(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(strings.TrimPrefix(err.Error(), "gemstone: "))
}
