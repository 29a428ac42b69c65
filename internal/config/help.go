package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
)

// ErrVersion is what Load answers for -version: the caller prints the version and exits 0.
var ErrVersion = errors.New("version requested")

// description is the help's opening paragraph.
const description = `mcp-gemstone is a Model Context Protocol server for GemStone/S 64 (3.7.5 and later). It serves
MCP Streamable HTTP at /mcp and gives every client its own worker gem, logged in through
GemStone's thread-safe client library (libgcits) and running the Smalltalk worker that
install.sh files into the stone; nothing is committed on a client's behalf. /healthz says the
process is up, /readyz that the client library is loaded and the router's own login works,
/metrics serves Prometheus metrics.`

// otelFamily is the one family of variables outside the table: the OpenTelemetry SDK's own,
// read by it under the standard names.
const otelFamily = "OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_*"

const otelMeaning = "OpenTelemetry tracing, off by default: otlp (or an OTLP endpoint) sends one span per MCP message over OTLP/HTTP; " +
	"OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and the other standard variables apply (docs/operations.md)"

// writeHelp writes the whole help: what the program is, every setting by flag and variable
// with its default, the environment-only variables and where the documentation is.
func writeHelp(w io.Writer, all []setting, knobs []lifetime.Knob) {
	var b strings.Builder
	b.WriteString(description)
	b.WriteString("\n\nUsage:\n  mcp-gemstone [-flag value ...]\n  mcp-gemstone -version\n  mcp-gemstone -help\n\n")
	b.WriteString("Settings: each is a flag and the equivalent environment variable (a flag wins). A bad\n" +
		"value refuses the start with exit status 2. Durations are whole seconds or Go durations\n" +
		"(1m30s); none switches a limit off where the setting says so.\n\n")
	row := func(flagName, env, def, help string) {
		fmt.Fprintf(&b, "  -%s  (%s, default %s)\n      %s\n", flagName, env, strings.Trim(def, "`"), help)
	}
	for _, s := range all {
		if s.flag != "" {
			row(s.flag, s.env, s.defaultText(), s.help)
		}
	}
	for _, k := range knobs {
		row(k.Flag, k.Env, orQuote(k.Default), k.Help)
	}
	b.WriteString("\nEnvironment only (never a flag):\n")
	for _, s := range all {
		if s.flag == "" {
			fmt.Fprintf(&b, "  %s\n      %s\n", s.env, s.help)
		}
	}
	fmt.Fprintf(&b, "  %s\n      %s\n", otelFamily, otelMeaning)
	fmt.Fprintf(&b, "\nDocumentation: %s\n", docsLocation())
	_, _ = io.WriteString(w, b.String())
}

// Table renders every setting, then the lifetime knobs, as a Markdown table
// (docs/configuration.md holds its output).
func Table() string {
	var b strings.Builder
	b.WriteString("| variable | flag | default | meaning |\n|---|---|---|---|\n")
	for _, s := range settings() {
		flagText := "none"
		if s.flag != "" {
			flagText = "`-" + s.flag + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.env, flagText, s.defaultText(), s.help)
	}
	for _, k := range lifetime.Knobs() {
		fmt.Fprintf(&b, "| `%s` | `-%s` | %s | %s |\n", k.Env, k.Flag, orQuote(k.Default), k.Help)
	}
	return b.String()
}

// docsLocation names where the README and docs/ are: next to the binary when it runs from a
// checkout (bin/mcp-gemstone), else the module's source tree.
func docsLocation() string {
	const tree = "docs/configuration.md (every setting), README.md and docs/ in the source tree (github.com/gemstone-mcp/mcp-gemstone)"
	exe, err := os.Executable()
	if err != nil {
		return tree
	}
	root := filepath.Dir(filepath.Dir(exe))
	if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
		return tree
	}
	if _, err := os.Stat(filepath.Join(root, "docs")); err != nil {
		return tree
	}
	return filepath.Join(root, "docs", "configuration.md") + " (every setting), " + filepath.Join(root, "README.md") + " and " +
		filepath.Join(root, "docs") + string(filepath.Separator)
}
