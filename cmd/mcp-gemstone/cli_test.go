package main

import (
	"bytes"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
)

func noEnv(string) string { return "" }

// The version flag prints one line to stdout and exits 0, whatever the settings say.
func TestTheVersionFlagPrintsOneLine(t *testing.T) {
	for _, arg := range []string{"-version", "--version"} {
		t.Run(arg, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			// A bad setting does not stand in the way of asking which build this is.
			code := run([]string{arg}, func(k string) string {
				if k == "MCP_PORT" {
					return "not-a-port"
				}
				return ""
			}, &stdout, &stderr)
			if code != 0 || stderr.Len() != 0 {
				t.Errorf("%s: exit %d, stderr %q", arg, code, stderr.String())
			}
			line := stdout.String()
			if !strings.HasPrefix(line, "mcp-gemstone "+buildVersion()+" (go") || strings.Count(line, "\n") != 1 {
				t.Errorf("%s printed %q", arg, line)
			}
		})
	}
}

func TestTheHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--help"}, noEnv, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	help := stdout.String()
	for name, wants := range map[string][]string{
		"describes the server and points at the docs": {"Model Context Protocol server for GemStone/S 64", "-version", "Documentation:",
			"docs/configuration.md", "README.md"},
		"names every setting with its default": {"-router-id  (MCP_ROUTER_ID, default the port)", "-control-user  (GS_USER, default MCP_WORKER_USER)",
			"-port  (MCP_PORT, default 8000)", "-stone  (GS_STONE, default gs64stone)", "-password-file  (GS_PASS_FILE, default none: GS_PASS)",
			"-auth  (MCP_AUTH, default none)", "-oidc-issuer  (MCP_OIDC_ISSUER", "-scope-toolsets  (MCP_SCOPE_TOOLSETS", "-tls-cert  (MCP_TLS_CERT",
			"-tls-key  (MCP_TLS_KEY"},
		"names what is read from the environment alone": {gemstone.EnvHome, gemstone.EnvLibrary, "GS_PASS\n", "OTEL_EXPORTER_OTLP_ENDPOINT"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, w := range wants {
				if !strings.Contains(help, w) {
					t.Errorf("help lacks %q", w)
				}
			}
		})
	}
	t.Run("never says the router id defaults to empty", func(t *testing.T) {
		for _, line := range strings.Split(help, "\n") {
			if strings.Contains(line, `default "")`) && strings.Contains(line, "MCP_ROUTER_ID") {
				t.Errorf("help still says the router id defaults to empty: %q", line)
			}
		}
	})
}

func TestAnUnknownFlagIsOneLinePointingAtHelpNotTheWholeUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"-verbose"}, noEnv, &stdout, &stderr)
	if code != 2 || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, stdout.String())
	}
	if got := stderr.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "-verbose") || !strings.Contains(got, "--help") {
		t.Fatalf("stderr %q", got)
	}
}

// A taken port is refused naming MCP_PORT and what holds it.
func TestATakenPortIsExplained(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	holder := portHolder(port)
	t.Run("portHolder names the process holding it", func(t *testing.T) {
		if want := "pid " + strconv.Itoa(os.Getpid()) + " ("; !strings.HasPrefix(holder, want) {
			t.Fatalf("portHolder(%d) = %q, want this test process (%s...)", port, holder, want)
		}
	})
	t.Run("the server exits 1 naming the port, its holder and the setting", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		env := map[string]string{"MCP_PORT": strconv.Itoa(port), "MCP_LOG_FORMAT": "console"}
		code := run(nil, func(k string) string { return env[k] }, &stdout, &stderr)
		if code != 1 {
			t.Fatalf("exit %d with the port taken; log:\n%s", code, stderr.String())
		}
		for _, want := range []string{"port " + strconv.Itoa(port) + " is in use", holder, "MCP_PORT"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("the log lacks %q:\n%s", want, stderr.String())
			}
		}
	})
}

func TestAPortNobodyHoldsHasNoHolder(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if h := portHolder(port); h != "" {
		t.Fatalf("a closed port is held by %q", h)
	}
}

func TestLoadAnswersErrVersionForTheVersionFlag(t *testing.T) {
	if _, err := config.Load([]string{"-version"}, noEnv, nil); err != config.ErrVersion {
		t.Fatalf("err %v", err)
	}
}
