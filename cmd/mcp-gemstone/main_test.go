package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
)

func TestABadSettingExitsTwoNamingIt(t *testing.T) {
	var out bytes.Buffer
	env := map[string]string{"MCP_REQUEST_TIMEOUT": "forever", "GS_PASS": "pw-not-shown"}
	code := run(nil, func(k string) string { return env[k] }, &out, &out)
	if code != 2 || !strings.Contains(out.String(), "MCP_REQUEST_TIMEOUT") {
		t.Fatalf("exit %d, output %q", code, out.String())
	}
	if strings.Contains(out.String(), "pw-not-shown") {
		t.Fatal("the password reached the output")
	}
}

func TestHelpListsTheSettings(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-h"}, func(string) string { return "" }, &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"-max-sessions", "MCP_MAX_SESSIONS", "-request-timeout"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
}

func TestAllowedHostsAddTheListenAddressButNotAWildcard(t *testing.T) {
	for host, want := range map[string]bool{"10.1.2.3": true, "mcp.internal": true, "0.0.0.0": false, "::": false} {
		cfg := &config.Config{Host: host, AllowedHosts: []string{"x"}}
		got := allowedHosts(cfg)
		has := len(got) == 2 && got[1] == host
		if has != want {
			t.Errorf("%s: %v", host, got)
		}
	}
}

func TestABadLifetimeFlagExitsTwoNamingIt(t *testing.T) {
	var out bytes.Buffer
	env := map[string]string{"MCP_IDLE_TIMEOUT": "20m"}
	code := run([]string{"-idle-timeout", "ten minutes"}, func(k string) string { return env[k] }, &out, &out)
	if code != 2 || !strings.Contains(out.String(), `-idle-timeout="ten minutes"`) {
		t.Fatalf("exit %d, output %q", code, out.String())
	}
}

func TestHelpListsEveryLifetimeFlag(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-h"}, func(string) string { return "" }, &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, k := range lifetime.Knobs() {
		if !strings.Contains(out.String(), "-"+k.Flag) || !strings.Contains(out.String(), k.Env) {
			t.Errorf("help lacks -%s [%s]", k.Flag, k.Env)
		}
	}
}

func TestAVariableOfAnOldNameExitsTwoNamingItsReplacement(t *testing.T) {
	var out bytes.Buffer
	env := map[string]string{"MCP_STONE": "gs64stone", "MCP_PASSWORD_FILE": "/etc/pw"}
	code := run(nil, func(k string) string { return env[k] }, &out, &out)
	for _, want := range []string{"MCP_STONE is set, but this server reads GS_STONE instead", "MCP_PASSWORD_FILE is set, but this server reads GS_PASS_FILE instead"} {
		if code != 2 || !strings.Contains(out.String(), want) {
			t.Errorf("exit %d, output %q; want %q", code, out.String(), want)
		}
	}
}
