package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
)

func loadConfig(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	cfg, err := config.Load(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestOnlyAGivenWorkerUserOtherThanTheControlUserLogsInWithOneTimePasswords(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, ""},
		{map[string]string{"MCP_WORKER_USER": "McpReadOnly"}, ""}, // the control user defaults to it
		{map[string]string{"MCP_WORKER_USER": "McpReadOnly", "GS_USER": "DataCurator"}, "McpReadOnly"},
		{map[string]string{"MCP_WORKER_USER": "DataCurator", "GS_USER": "DataCurator"}, ""},
		{map[string]string{"GS_USER": "SystemUser"}, ""}, // the default worker user keeps its plain login
	}
	for _, c := range cases {
		if got := oneTimeUser(loadConfig(t, c.env)); got != c.want {
			t.Errorf("%v: one-time user %q, want %q", c.env, got, c.want)
		}
	}
}

func TestAWorkerUserThatCannotBeMintedForRefusesTheStart(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"MCP_WORKER_USER": "Mcp.ReadOnly", "GS_USER": "DataCurator"})
	var out bytes.Buffer
	if code := checkWorkerUser(cfg, nil, nil, zerolog.New(&out)); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if !strings.Contains(out.String(), "refusing to start") || !strings.Contains(out.String(), "MCP_WORKER_USER") {
		t.Fatalf("log %q must say why the start is refused", out.String())
	}
}
