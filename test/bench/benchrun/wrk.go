package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// wrkScript posts tools/call echo with an id unique per thread and call, spreading the calls
// over the given sessions. It has no response callback (one costs wrk more than the bare
// handler costs the server), so only wrk's own non-2xx count checks the answers; benchmark 2's
// checked figures come from harness.RunLoad.
const wrkScript = `
local sids = {%s}
local counter = 0
local nextThread = 0
function setup(thread)
  thread:set("tid", nextThread)
  nextThread = nextThread + 1
end
function request()
  counter = counter + 1
  local id = tid * 1000000000 + counter
  local sid = sids[(counter %% #sids) + 1]
  local body = '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"echo","arguments":{"text":"wrk ' .. id .. '"}}}'
  return wrk.format("POST", nil, {["Content-Type"]="application/json", ["Accept"]="application/json, text/event-stream",
    ["Mcp-Session-Id"]=sid, ["Mcp-Protocol-Version"]="2025-11-25"}, body)
end
`

var (
	wrkRate = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	wrkBad  = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkP99  = regexp.MustCompile(`\s99%\s+([\d.]+)(us|ms|s)`)
)

// wrkResult is what one wrk run measured.
type wrkResult struct {
	rate float64
	p99  time.Duration
	bad  int
}

// runWrk drives url with wrk (2 threads, c connections) over c sessions it opens first.
func runWrk(url string, c int, d time.Duration) (wrkResult, error) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk is not installed (apt-get install wrk)")
	}
	cl := &harness.Client{URL: url, HTTP: harness.NewHTTPClient(c, 30*time.Second), Protocol: harness.ProtocolVersion}
	ctx := context.Background()
	var quoted []string
	for range c {
		sid, err := cl.Open(ctx)
		if err != nil {
			return wrkResult{}, err
		}
		quoted = append(quoted, strconv.Quote(sid))
	}
	dir, err := os.MkdirTemp("", "mcp-bench-wrk-")
	if err != nil {
		return wrkResult{}, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "call.lua")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(wrkScript, strings.Join(quoted, ","))), 0o644); err != nil {
		return wrkResult{}, err
	}
	out, err := exec.Command(wrk, "-t2", "-c"+strconv.Itoa(c), "-d"+d.String(), "--latency", "-s", script, url).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v\n%s", err, out)
	}
	var r wrkResult
	if m := wrkRate.FindSubmatch(out); m != nil {
		r.rate, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := wrkBad.FindSubmatch(out); m != nil {
		r.bad, _ = strconv.Atoi(string(m[1]))
	}
	if m := wrkP99.FindSubmatch(out); m != nil {
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[2])]
		r.p99 = time.Duration(v * float64(unit))
	}
	if r.rate == 0 {
		return r, fmt.Errorf("wrk printed no rate:\n%s", out)
	}
	return r, nil
}
