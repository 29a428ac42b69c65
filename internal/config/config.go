// Package config is the binary's one configuration path: a table of every setting (its
// environment variable, its flag, its default, its meaning and its validation), read from the
// environment and the command line (a flag wins over its variable) and checked before
// anything starts. A bad value refuses the start with a message naming the variable, the flag
// and what is wrong; so does a variable of an old name, naming its replacement. The packages
// it configures (router/auth, internal/tlsconf, router/lifetime's knobs) take plain values and
// read no environment. Secrets (the GemStone password) come only from the environment or a
// file, never a flag (flags show in ps), and never appear in an error.
//
//	environment ─┐
//	             ├─ settings() rows ─ parse/validate ─ cross-checks ─ *Config ─ cmd/mcp-gemstone
//	-flags ──────┘
package config

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/tlsconf"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
)

// Config is the validated configuration.
type Config struct {
	Host string
	Port int

	MaxSessions    int           // 0: no cap
	StatelessPool  int           // gems serving 2026-07-28 requests without state
	HandleYield    time.Duration // local mode: an open_session gem idle this long yields its slot to a newcomer
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

	// Library is where the GemStone client library is (GCI_LIBRARY, GEMSTONE).
	Library gemstone.LibraryConfig

	StoneHost  string
	Stone      string
	Netldi     string
	GemConfig  string
	WorkerUser string
	// WorkerUserSet says MCP_WORKER_USER (or -worker-user) was given rather than defaulted: a
	// given worker user other than ControlUser logs in with one-time passwords.
	WorkerUserSet bool
	// ControlUser is the router's own GemStone user for the control session (GS_USER).
	ControlUser string
	Password    string // secret: never logged, never in an error

	// Auth is the network-facing mode (MCP_AUTH=oidc, docs/auth.md), its Surface resolved;
	// nil in the localhost mode.
	Auth *auth.Config
	// TLS names the key pair the port serves HTTPS with; the zero value is plain HTTP.
	TLS tlsconf.Config

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

	// from names where each given setting came from (its variable or -flag), by variable;
	// a defaulted one is absent. The cross-checks name a setting by it.
	from map[string]string
	// The rows fill these; the cross-checks decide what they become.
	passEnv  string
	authMode string
	oidc     auth.Config
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

// Load reads the configuration: defaults, then the environment (getenv), then the flags in
// args. The error names every bad value at once, each by variable and flag.
func Load(args []string, getenv func(string) string, usage io.Writer) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	all, knobs := settings(), lifetime.Knobs()
	fs, flags, knobFlags := newFlagSet(all, knobs)
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
		return nil, fmt.Errorf("unexpected arguments %q: every setting is a -flag or an environment variable", fs.Args())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })

	c := &Config{from: map[string]string{}}
	var problems []string
	for _, r := range renamed {
		if getenv(r.old) != "" {
			problems = append(problems, fmt.Sprintf("%s is set, but this server reads %s instead (the same setting): rename it", r.old, r.now))
		}
	}
	problems = append(problems, c.readRows(all, flags, given, getenv)...)
	problems = append(problems, c.loadLifetime(getenv, knobs, knobFlags, given)...)
	problems = append(problems, c.reconcile()...)
	if len(problems) > 0 {
		return nil, errors.New("refusing to start; bad configuration:\n  " + strings.Join(problems, "\n  "))
	}
	return c, nil
}

// newFlagSet declares a flag for every row that has one and for every lifetime knob; each
// answers "" until given, so a row can tell a given flag from its default.
func newFlagSet(all []setting, knobs []lifetime.Knob) (fs *flag.FlagSet, flags, knobFlags []*string) {
	fs = flag.NewFlagSet("mcp-gemstone", flag.ContinueOnError)
	// The flag package's own usage is the bare flag list; the help is written by writeHelp
	// instead, and a parse error is returned for the caller to print once.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	flags = make([]*string, len(all))
	for i, s := range all {
		if s.flag != "" {
			flags[i] = fs.String(s.flag, "", s.help)
		}
	}
	knobFlags = make([]*string, len(knobs))
	for i, k := range knobs {
		knobFlags[i] = fs.String(k.Flag, "", k.Help)
	}
	return fs, flags, knobFlags
}

// readRows gives every row its value (the default, else its variable, else its flag),
// recording where a given one came from, and answers the refusals.
func (c *Config) readRows(all []setting, flags []*string, given map[string]bool, getenv func(string) string) []string {
	var problems []string
	for i, s := range all {
		v, from := s.def, "default"
		if e, ok := lookup(getenv, s.env); ok {
			v, from = e, s.env
			c.from[s.env] = from
		}
		if s.flag != "" && given[s.flag] {
			v, from = *flags[i], "-"+s.flag
			c.from[s.env] = from
		}
		if !s.secret { // a password is taken as given, spaces and all
			v = strings.TrimSpace(v)
		}
		if err := s.parse(c, v); err != nil {
			problems = append(problems, s.refusal(v, from, err))
		}
	}
	return problems
}

// refusal is the line naming a bad value: the variable, the flag, the value (a secret's is
// not shown) and where it came from.
func (s setting) refusal(v, from string, err error) string {
	name := s.env
	if s.flag != "" {
		name += " (-" + s.flag + ")"
	}
	shown := strconv.Quote(v)
	if s.secret {
		shown = "(not shown)"
	}
	return fmt.Sprintf("%s = %s from %s: %v", name, shown, from, err)
}

// named is how a cross-check names a setting: by the -flag or variable that gave it.
func (c *Config) named(env string) string {
	if from, ok := c.from[env]; ok {
		return from
	}
	return env
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

func list(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
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
