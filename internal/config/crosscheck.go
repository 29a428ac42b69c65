package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// reconcile fills the defaults that follow from other settings and checks the settings
// against each other.
func (c *Config) reconcile() []string {
	c.WorkerUserSet = c.from[envWorkerUser] != ""
	if c.ControlUser == "" {
		c.ControlUser = c.WorkerUser
	}
	if c.Password == "" {
		c.Password = c.passEnv
	} else if c.passEnv != "" {
		c.Warnings = append(c.Warnings, "GS_PASS is set but not used: the password is read from GS_PASS_FILE")
	}
	if c.RouterID == "" {
		c.RouterID = strconv.Itoa(c.Port)
	}
	problems := c.reconcileToolsetOptions()
	problems = append(problems, c.reconcileTLS()...)
	return append(problems, c.reconcileAuth()...)
}

// reconcileTLS takes both files of the key pair or neither.
func (c *Config) reconcileTLS() []string {
	cert, key := c.TLS.CertFile != "", c.TLS.KeyFile != ""
	switch {
	case cert && !key:
		return []string{fmt.Sprintf("%s is set but %s is not: set both (PEM files) or neither", c.named(envTLSCert), envTLSKey)}
	case key && !cert:
		return []string{fmt.Sprintf("%s is set but %s is not: set both (PEM files) or neither", c.named(envTLSKey), envTLSCert)}
	}
	return nil
}

// reconcileAuth makes the network-facing mode: its own settings only with MCP_AUTH=oidc (an
// issuer given without it would otherwise leave the server open while looking closed), the
// issuer and resource required, no worker user (the token names it), and a scope mapping
// held against the tool surface.
func (c *Config) reconcileAuth() []string {
	var problems []string
	if c.authMode != "oidc" {
		for _, env := range oidcOnly {
			if from, ok := c.from[env]; ok {
				problems = append(problems, fmt.Sprintf("%s needs %s=oidc: it configures the network-facing mode (docs/auth.md); set %s=oidc, or unset it", from, envAuth, envAuth))
			}
		}
		return problems
	}
	for _, env := range []string{envIssuer, envResource} {
		if _, ok := c.from[env]; !ok {
			problems = append(problems, fmt.Sprintf("%s must be set with %s=oidc", env, envAuth))
		}
	}
	if from, ok := c.from[envWorkerUser]; ok {
		problems = append(problems, from+" is refused with MCP_AUTH=oidc: each worker gem logs in as the GemStone user "+
			"its bearer token names (MCP_USERID_CLAIM); unset it, and give that user a restricted profile instead")
	}
	if m := c.oidc.ScopeToolsets; m != nil {
		surface, from, err := c.surface()
		if err != nil {
			problems = append(problems, err.Error())
		} else if err := m.CheckSurface(surface, from); err != nil {
			for _, p := range strings.Split(err.Error(), "\n  ") {
				problems = append(problems, c.from[envScopeToolsets]+": "+p)
			}
		}
		c.oidc.Surface, c.oidc.SurfaceFrom = surface, from
	}
	if len(problems) == 0 {
		a := c.oidc
		c.Auth = &a
	}
	return problems
}

// mcpServerDefaultToolsets is McpServer class >> defaultToolsetNames (smalltalk/core/McpServer.gs;
// a test holds the two equal): the surface when MCP_TOOLSETS is empty.
var mcpServerDefaultToolsets = []string{"McpBrowsingToolset", "McpExecutionToolset", "McpListingToolset",
	"McpMutationToolset", "McpSearchToolset", "McpSessionToolset", "McpTestingToolset"}

// surface is the configured tool surface by toolset name and where it came from: MCP_TOOLSETS,
// or the worker class's default, which the router knows for McpServer only.
func (c *Config) surface() ([]string, string, error) {
	switch {
	case len(c.Toolsets) > 0:
		return c.Toolsets, c.named(envToolsets), nil
	case c.WorkerClass == "McpServer":
		return mcpServerDefaultToolsets, "the default surface of McpServer, MCP_TOOLSETS being empty", nil
	}
	return nil, "", fmt.Errorf("%s needs MCP_TOOLSETS with MCP_WORKER_CLASS=%s: the router knows the default surface of McpServer only, "+
		"and holds the mapping against the surface at start", c.named(envScopeToolsets), c.WorkerClass)
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
	problems = append(problems, grailOptionProblems(c.ToolsetOptions[GrailToolset])...)
	if c.GrailDir == "" {
		return problems
	}
	switch {
	case c.ToolsetOptions != nil:
		c.Warnings = append(c.Warnings, "MCP_GRAIL_DIR is ignored: MCP_TOOLSET_OPTIONS replaces it (name grailDirectory there)")
	case !slices.Contains(c.Toolsets, GrailToolset):
		c.Warnings = append(c.Warnings, "MCP_GRAIL_DIR is set but "+GrailToolset+" is not in MCP_TOOLSETS: left off, since it "+
			"configures that toolset and does not add it (name "+GrailToolset+" in MCP_TOOLSETS to serve the Python tools)")
	default:
		if !isGrailCheckout(c.GrailDir) {
			problems = append(problems, fmt.Sprintf("MCP_GRAIL_DIR (-grail-dir) = %q: not a Grail checkout (no src/python/stdlib in it)", c.GrailDir))
			break
		}
		dir, _ := json.Marshal(c.GrailDir)
		c.ToolsetOptions = map[string]map[string]json.RawMessage{GrailToolset: {"grailDirectory": dir}}
	}
	return problems
}

func isGrailCheckout(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "src", "python", "stdlib"))
	return err == nil && st.IsDir()
}

// grailOptionNames are the options McpGrailToolset declares (its class>>declaredOptionNames).
var grailOptionNames = []string{"grailDirectory", "testGemConfig", "testGemMemoryCeilingPercent"}

// grailOptionProblems checks McpGrailToolset's options in MCP_TOOLSET_OPTIONS before any gem
// starts, as its worker does again at prepare: only its three options; grailDirectory a Grail
// checkout; testGemConfig one gemnetobject -C argument (no whitespace and none of ! # @ ^, which
// would end the argument inside the NRS and apply half of it); testGemMemoryCeilingPercent an
// integer from 0 to 100.
func grailOptionProblems(options map[string]json.RawMessage) []string {
	var problems []string
	where := "MCP_TOOLSET_OPTIONS (-toolset-options) " + GrailToolset + "."
	for _, name := range sortedKeys(options) {
		raw := options[name]
		switch name {
		case "grailDirectory":
			var dir string
			if json.Unmarshal(raw, &dir) != nil || !isGrailCheckout(dir) {
				problems = append(problems, fmt.Sprintf("%s%s = %s: not a Grail checkout (no src/python/stdlib in it)", where, name, raw))
			}
		case "testGemConfig":
			var conf string
			if json.Unmarshal(raw, &conf) != nil {
				problems = append(problems, fmt.Sprintf("%s%s = %s: must be a string", where, name, raw))
			} else if why := gemConfigProblem(conf); why != "" {
				problems = append(problems, fmt.Sprintf("%s%s = %q: %s", where, name, conf, why))
			}
		case "testGemMemoryCeilingPercent":
			var pct int
			if json.Unmarshal(raw, &pct) != nil || pct < 0 || pct > 100 {
				problems = append(problems, fmt.Sprintf("%s%s = %s: must be an integer from 0 to 100 (0: never stop)", where, name, raw))
			}
		default:
			problems = append(problems, fmt.Sprintf("%s%s: %s has no such option (it declares %s)", where, name, GrailToolset, strings.Join(grailOptionNames, ", ")))
		}
	}
	return problems
}

// gemConfigProblem says why conf cannot travel as McpGrailToolset's testGemConfig, or "".
func gemConfigProblem(conf string) string {
	if conf == "" {
		return "must not be empty"
	}
	if i := strings.IndexFunc(conf, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("!#@^", r) }); i >= 0 {
		return fmt.Sprintf("holds %q; it must hold no whitespace and none of ! # @ ^, which would end the gemnetobject -C argument early inside the NRS", conf[i:i+1])
	}
	return ""
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
