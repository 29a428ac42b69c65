package main

import (
	"runtime"
	"runtime/debug"
)

// buildVersion is the version this binary reports: what make build stamped (a tag, or the
// commit), else the commit the Go toolchain recorded, so even a plain go build names its source.
func buildVersion() string {
	if version != "dev" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	return version + "+" + rev
}

// versionLine is what -version prints.
func versionLine() string {
	return "mcp-gemstone " + buildVersion() + " (" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")"
}
