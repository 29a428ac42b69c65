// Command benchrun is make bench: the benchmarks of docs/performance.md, each a ratio of
// two figures measured in the same run on this machine, printed as a table (both sides, ratio,
// target).
//
//  1. tools/call of a trivial echo, 16 clients on 16 sessions, through bin/mcp-gemstone and the
//     binding and the stand-in's gem processes, against the Go SDK v1.8.0 stateful streamable
//     server with an in-process echo tool; the same load generator (harness.RunLoad: unique
//     ids, every answer's id and bytes checked) drives both. Target: >= 2x, p99 no worse.
//  2. the same through the router with the in-process fake worker, against a bare net/http
//     handler answering fixed JSON (the ceiling); answers checked for status and a result only,
//     on both sides. Target: >= 1/4 of the ceiling.
//  3. 1,000 sessions with open GET streams on the router with fake workers, idle: the router's
//     RSS and CPU over a window holding at least two keepalive rounds. Targets: < 64 MiB,
//     < 1% of a core.
//  4. benchmark 1's echo on one binary, 2026-07-28 stateless requests against 2025-11-25
//     sessions. Target: >= 0.9x.
//  5. benchmark 1's load, fully checked, against the router's own path (benchserver -mode fake:
//     the binary's assembly with the in-process fake worker) and the Go SDK: the median of at
//     least five alternating rounds' ratios, and each server process's CPU per call. Target:
//     >= 5x.
//  6. benchmark 1's echo on one binary, each 2026-07-28 client in a GemStone session it opened
//     with open_session (every call carries the session argument) against the same calls in
//     2025-11-25 sessions: the median of the ratios of many short alternating rounds (-slices
//     of -slice), every side's sessions open throughout. Target: >= 0.95x. Two rows with no
//     target split it: 2025-11-25 session calls carrying the 2026-07-28 request's _meta and
//     headers against plain ones (the newer wire's bytes), and the calls by session argument
//     against those (its routing).
//
// It runs every server as its own process (test/bench/benchserver, bin/mcp-gemstone) on loopback.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

func main() {
	server := flag.String("server", "bin/mcp-gemstone", "the mcp-gemstone binary")
	benchserver := flag.String("benchserver", "build/bench/benchserver", "the benchserver binary")
	duration := flag.Duration("d", 5*time.Second, "measured duration of each load run")
	warmup := flag.Duration("warmup", time.Second, "unmeasured load before each run")
	clients := flag.Int("c", 16, "concurrent clients (each on its own session)")
	idleSessions := flag.Int("idle-sessions", 1000, "sessions with open streams for the idle benchmark")
	idleWindow := flag.Duration("idle-window", 35*time.Second, "how long the idle benchmark samples RSS and CPU")
	idleSettle := flag.Duration("idle-settle", 10*time.Second, "wait after opening the idle sessions before sampling")
	only := flag.String("only", "1,2,3,4,5,6", "which benchmarks to run")
	rounds := flag.Int("rounds", 2, "rounds of benchmarks 1 and 2, the two sides alternating (a shared machine's load moves)")
	slices := flag.Int("slices", 12, "rounds of benchmark 6, each side loaded for -slice in each")
	slice := flag.Duration("slice", 2*time.Second, "measured duration of each side in each round of benchmark 6")
	flag.Parse()

	b := &bench{server: *server, benchserver: *benchserver, d: *duration, warmup: *warmup, c: *clients, rounds: max(*rounds, 1),
		slices: *slices, slice: *slice}
	var rows []row
	if strings.Contains(*only, "1") {
		rows = append(rows, b.throughputVsSDK()...)
	}
	if strings.Contains(*only, "2") {
		rows = append(rows, b.routerVsBare()...)
	}
	if strings.Contains(*only, "3") {
		rows = append(rows, b.idleStreams(*idleSessions, *idleSettle, *idleWindow)...)
	}
	if strings.Contains(*only, "4") {
		rows = append(rows, b.statelessVsSession()...)
	}
	if strings.Contains(*only, "5") {
		rows = append(rows, b.routerVsSDK()...)
	}
	if strings.Contains(*only, "6") {
		rows = append(rows, b.handleVsSession()...)
	}
	printTable(os.Stdout, rows)
	for _, r := range rows {
		if r.err != "" {
			os.Exit(1)
		}
	}
}

type bench struct {
	server, benchserver string
	d, warmup           time.Duration
	c, rounds           int
	// slices rounds of slice each: benchmark 6, whose sides stay open between rounds.
	slices int
	slice  time.Duration
}

// row is one line of the table.
type row struct {
	name, ours, theirs, ratio, target, verdict, err string
}

func fail(name string, err error) []row {
	fmt.Fprintf(os.Stderr, "benchrun: %s: %v\n", name, err)
	return []row{{name: name, err: err.Error(), verdict: "ERROR"}}
}

// load runs warmup and measured load against url.
func (b *bench) load(url string, statusOnly bool) (harness.LoadResult, error) {
	return b.loadWith(harness.LoadOptions{URL: url, Sessions: b.c, Workers: b.c, StatusOnly: statusOnly}, nil)
}

// loadWith opens o's sessions, runs a warmup of b.warmup and then the measured run of b.d on
// them (so the measured calls find their gems logged in and warm, and no other gems logging in
// or out), and closes them. around, when set, brackets the measured run alone.
func (b *bench) loadWith(o harness.LoadOptions, around func(run func() (harness.LoadResult, error)) (harness.LoadResult, error)) (harness.LoadResult, error) {
	ls, err := b.warmSessions(o)
	if err != nil {
		return harness.LoadResult{}, err
	}
	defer ls.Close(context.Background())
	return measuredRun(ls, o, b.d, around)
}

// warmSessions opens o's sessions and runs b.warmup of calls on them.
func (b *bench) warmSessions(o harness.LoadOptions) (*harness.LoadSessions, error) {
	ctx, cancel := context.WithTimeout(context.Background(), b.warmup+time.Minute)
	defer cancel()
	ls, err := harness.OpenLoadSessions(ctx, o)
	if err != nil {
		return nil, err
	}
	o.Duration = b.warmup
	if _, err := harness.RunLoadOn(ctx, ls, o); err != nil {
		ls.Close(context.Background())
		return nil, err
	}
	return ls, nil
}

// measuredRun runs d of o's calls on ls, bracketed by around when it is set; a run in which a
// call failed, or none was answered, is an error, not a figure.
func measuredRun(ls *harness.LoadSessions, o harness.LoadOptions, d time.Duration, around func(run func() (harness.LoadResult, error)) (harness.LoadResult, error)) (harness.LoadResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
	defer cancel()
	o.Duration = d
	run := func() (harness.LoadResult, error) { return harness.RunLoadOn(ctx, ls, o) }
	if around == nil {
		around = func(run func() (harness.LoadResult, error)) (harness.LoadResult, error) { return run() }
	}
	res, err := around(run)
	if err != nil {
		return res, err
	}
	if res.Failed > 0 || res.OK == 0 {
		return res, fmt.Errorf("%d of %d calls failed: %s", res.Failed, res.Sent, res.FirstProblem)
	}
	return res, nil
}

// cpuSplit is where one side's CPU went over its measured calls.
type cpuSplit struct {
	router, gems, self time.Duration
	calls              int64
}

// loadWithSplit is b.load on bin/mcp-gemstone, measuring where the CPU of the measured run
// alone goes: the router process, the gem processes (its sessions' gems, all logged in before
// it starts and logged out after it ends) and this load generator.
func (b *bench) loadWithSplit(s *harness.Server, acc *cpuSplit) (harness.LoadResult, error) {
	return b.loadWith(harness.LoadOptions{URL: s.URL, Sessions: b.c, Workers: b.c}, splitInto(s, acc))
}

// splitInto brackets a measured run (measuredRun's around), adding to acc the CPU it cost the
// router process, the gem processes and this load generator, and the calls it answered.
func splitInto(s *harness.Server, acc *cpuSplit) func(run func() (harness.LoadResult, error)) (harness.LoadResult, error) {
	pid := s.Cmd.Process.Pid
	gemsCPU := func() (sum time.Duration) {
		for _, g := range s.LiveGems() {
			_, c, _ := harness.ProcStat(g)
			sum += c
		}
		return sum
	}
	return func(run func() (harness.LoadResult, error)) (harness.LoadResult, error) {
		_, router0, _ := harness.ProcStat(pid)
		self0, gems0 := selfCPU(), gemsCPU()
		res, err := run()
		_, router1, _ := harness.ProcStat(pid)
		acc.router += router1 - router0
		acc.self += selfCPU() - self0
		acc.gems += gemsCPU() - gems0
		acc.calls += res.OK
		return res, err
	}
}

// printSplit prints where a side's CPU went per call.
func printSplit(label string, split cpuSplit) {
	fmt.Fprintf(os.Stderr, "  CPU per call, %s: router %.0f us, gems %.0f us, load generator %.0f us\n", label,
		float64(split.router.Microseconds())/float64(split.calls), float64(split.gems.Microseconds())/float64(split.calls),
		float64(split.self.Microseconds())/float64(split.calls))
}

// side is one side of a comparison: tag prefixes its errors, label names it in the progress
// lines, load runs it once.
type side struct {
	tag, label string
	load       func() (harness.LoadResult, error)
}

// loader is a side's load of url with b.load.
func (b *bench) loader(url string, statusOnly bool) func() (harness.LoadResult, error) {
	return func() (harness.LoadResult, error) { return b.load(url, statusOnly) }
}

// alternate loads ours, then theirs, b.rounds times, so that a change in a shared machine's
// load hits both sides, printing each round; after, when set, runs after each round. It
// answers each side's rounds merged.
func (b *bench) alternate(ours, theirs side, after func()) (o, th harness.LoadResult, err error) {
	var ourRounds, theirRounds []harness.LoadResult
	width := max(len(ours.label), len(theirs.label))
	for round := range b.rounds {
		if o, err = ours.load(); err != nil {
			return o, th, fmt.Errorf("%s: %w", ours.tag, err)
		}
		if th, err = theirs.load(); err != nil {
			return o, th, fmt.Errorf("%s: %w", theirs.tag, err)
		}
		fmt.Fprintf(os.Stderr, "  round %d: %-*s %v\n           %-*s %v\n", round+1, width, ours.label, o, width, theirs.label, th)
		ourRounds, theirRounds = append(ourRounds, o), append(theirRounds, th)
		if after != nil {
			after()
		}
	}
	return merge(ourRounds), merge(theirRounds), nil
}

// merge adds up rounds: rate over the summed time, the mean of their p99s.
func merge(rounds []harness.LoadResult) harness.LoadResult {
	var m harness.LoadResult
	for _, r := range rounds {
		m.Sent += r.Sent
		m.OK += r.OK
		m.Failed += r.Failed
		m.Elapsed += r.Elapsed
		m.P50 += r.P50 / time.Duration(len(rounds))
		m.P99 += r.P99 / time.Duration(len(rounds))
		m.Max = max(m.Max, r.Max)
	}
	return m
}

func (b *bench) throughputVsSDK() []row {
	const name = "1. echo via stand-in gems vs Go SDK v1.8.0"
	dir, _ := os.MkdirTemp("", "mcp-bench-")
	defer os.RemoveAll(dir)
	s, err := harness.Start(harness.Options{Binary: b.server, Dir: dir, Env: []string{"MCP_MAX_SESSIONS=none"}})
	if err != nil {
		return fail(name, err)
	}
	defer s.Stop(30 * time.Second)
	sdk, err := startBenchserver(b.benchserver, "sdk")
	if err != nil {
		return fail(name, err)
	}
	defer sdk.stop()
	var split cpuSplit
	ours, theirs, err := b.alternate(
		side{"mcp-gemstone", "mcp-gemstone+stand-in", func() (harness.LoadResult, error) { return b.loadWithSplit(s, &split) }},
		side{"go-sdk", "go-sdk v1.8.0", b.loader(sdk.url, false)}, nil)
	if err != nil {
		return fail(name, err)
	}
	printSplit("mcp-gemstone+stand-in", split)
	return []row{rateRow(name, ours, theirs, 2), p99Row(name, ours, theirs)}
}

// routerVsSDK is benchmark 1's load against the router's own path: the front end assembled as
// the binary assembles it (benchserver -mode fake: wiring.Assemble with the in-process fake
// worker) against the Go SDK v1.8.0 streamable server with its in-process echo tool, both
// checked in full. The GCI binding and gems are left out on purpose: this is what the
// transport, the session record and the seams cost, side by side with an SDK doing the same.
func (b *bench) routerVsSDK() []row {
	const name = "5. echo via router+fake worker vs Go SDK v1.8.0"
	fake, err := startBenchserver(b.benchserver, "fake")
	if err != nil {
		return fail(name, err)
	}
	defer fake.stop()
	sdk, err := startBenchserver(b.benchserver, "sdk")
	if err != nil {
		return fail(name, err)
	}
	defer sdk.stop()
	var routerCPU, sdkCPU processCPU
	ours := side{"router", "router+fakeworker", func() (harness.LoadResult, error) { return routerCPU.measure(fake, b.loader(fake.url, false)) }}
	theirs := side{"go-sdk", "go-sdk v1.8.0", func() (harness.LoadResult, error) { return sdkCPU.measure(sdk, b.loader(sdk.url, false)) }}
	o, th, median, err := b.medianRounds(ours, theirs)
	if err != nil {
		return fail(name, err)
	}
	fmt.Fprintf(os.Stderr, "  CPU per call: router+fake worker process %s; Go SDK process %s\n", routerCPU, sdkCPU)
	return []row{medianRow(name, o, th, median, 5), p99Row(name, o, th)}
}

// processCPU adds up a server process's CPU and this load generator's over measured calls
// (warmups included, as both run the same load).
type processCPU struct {
	server, self time.Duration
	calls        int64
}

// measure runs load against p, adding what it cost.
func (c *processCPU) measure(p *process, load func() (harness.LoadResult, error)) (harness.LoadResult, error) {
	_, s0, _ := harness.ProcStat(p.cmd.Process.Pid)
	self0 := selfCPU()
	res, err := load()
	_, s1, _ := harness.ProcStat(p.cmd.Process.Pid)
	c.server += s1 - s0
	c.self += selfCPU() - self0
	c.calls += res.Sent
	return res, err
}

func (c processCPU) String() string {
	if c.calls == 0 {
		return "(no calls)"
	}
	return fmt.Sprintf("%.0f us (load generator %.0f us)", float64(c.server.Microseconds())/float64(c.calls),
		float64(c.self.Microseconds())/float64(c.calls))
}

// statelessVsSession is the echo of benchmark 1 on one server two ways, rounds alternating: c
// clients each on its own 2025-11-25 session, and c clients sending 2026-07-28 requests that
// stand alone, served by a stateless pool as large as the number of sessions.
func (b *bench) statelessVsSession() []row {
	const name = "4. 2026-07-28 stateless echo vs 2025-11-25 session echo"
	dir, _ := os.MkdirTemp("", "mcp-bench-")
	defer os.RemoveAll(dir)
	s, err := harness.Start(harness.Options{Binary: b.server, Dir: dir,
		Env: []string{"MCP_MAX_SESSIONS=none", fmt.Sprintf("MCP_STATELESS_POOL=%d", b.c)}})
	if err != nil {
		return fail(name, err)
	}
	defer s.Stop(30 * time.Second)
	stateless := func() (harness.LoadResult, error) {
		return b.loadWith(harness.LoadOptions{URL: s.URL, Sessions: b.c, Workers: b.c, Stateless: true}, nil)
	}
	ours, theirs, err := b.alternate(side{"stateless", "stateless", stateless}, side{"session", "session", b.loader(s.URL, false)}, nil)
	if err != nil {
		return fail(name, err)
	}
	return []row{rateRow(name, ours, theirs, 0.9)}
}

// handleVsSession is benchmark 6: the session argument's routing must cost a call nothing a
// session's call does not pay. The figure is the median of the rounds' ratios, so that one round
// a shared machine disturbed does not decide it. A third side, run in the same rounds, splits
// the figure for the record: 2025-11-25 session calls as large as the 2026-07-28 ones (their
// _meta and headers) against plain ones is what the newer wire's bytes cost, and the calls by
// session argument against those is what its routing costs.
//
// The figure it looks for is a few per cent, on a machine whose other tenants move its load by
// more than that from one second to the next. So every side's sessions are opened and warmed
// once, before the first round, and stay open: a round is the sides' calls alone, short
// (b.slice), and there are many of them (b.slices), in an order that turns each round, so
// the sides meet the same moments of the machine and none always follows the same other.
func (b *bench) handleVsSession() []row {
	const name = "6. 2026-07-28 echo with a session argument vs 2025-11-25 session echo"
	dir, _ := os.MkdirTemp("", "mcp-bench-")
	defer os.RemoveAll(dir)
	s, err := harness.Start(harness.Options{Binary: b.server, Dir: dir, Env: []string{"MCP_MAX_SESSIONS=none"}})
	if err != nil {
		return fail(name, err)
	}
	defer s.Stop(30 * time.Second)
	var handleCPU, sizedCPU, sessionCPU cpuSplit
	var sides []side
	for _, sd := range []struct {
		tag, label string
		o          harness.LoadOptions
		acc        *cpuSplit
	}{
		{"handle", "session argument", harness.LoadOptions{Stateless: true, Handles: true}, &handleCPU},
		{"sized", "2025-11-25 session, 2026-07-28 bytes", harness.LoadOptions{NewerWireBytes: true}, &sizedCPU},
		{"session", "2025-11-25 session", harness.LoadOptions{}, &sessionCPU},
	} {
		sd.o.URL, sd.o.Sessions, sd.o.Workers = s.URL, b.c, b.c
		load, closeSessions, err := b.openedLoad(s, sd.o, sd.acc)
		if err != nil {
			return fail(name, fmt.Errorf("%s: %w", sd.tag, err))
		}
		defer closeSessions()
		sides = append(sides, side{sd.tag, sd.label, load})
	}
	results, medians, err := b.medianRoundsOf(sides, [][2]int{{0, 2}, {1, 2}, {0, 1}}, b.slices)
	if err != nil {
		return fail(name, err)
	}
	printSplit("session argument", handleCPU)
	printSplit("2025-11-25 session, 2026-07-28 bytes", sizedCPU)
	printSplit("2025-11-25 session", sessionCPU)
	return []row{
		medianRow(name, results[0], results[2], medians[0], 0.95),
		infoRow("6a. of which the wire's bytes: 2025-11-25 session echo as large as 2026-07-28's vs plain", results[1], results[2], medians[1]),
		infoRow("6b. of which the routing: 2026-07-28 echo with a session argument vs 6a's", results[0], results[1], medians[2]),
	}
}

// openedLoad opens o's sessions on s and warms them, and answers a load that runs b.slice of
// calls on them, adding the CPU of the router, the gems and this load generator to acc, and the
// closing of the sessions.
func (b *bench) openedLoad(s *harness.Server, o harness.LoadOptions, acc *cpuSplit) (load func() (harness.LoadResult, error), closeSessions func(), err error) {
	ls, err := b.warmSessions(o)
	if err != nil {
		return nil, nil, err
	}
	load = func() (harness.LoadResult, error) {
		return measuredRun(ls, o, b.slice, splitInto(s, acc))
	}
	return load, func() { ls.Close(context.Background()) }, nil
}

// medianRoundsOf loads every side in turn, in at least five rounds, and answers each side's
// rounds merged and, for each pair (i, j), the median of the rounds' ratios of side i to side j.
// It prints every round and every ratio.
func (b *bench) medianRoundsOf(sides []side, pairs [][2]int, rounds int) (merged []harness.LoadResult, medians []float64, err error) {
	width := 0
	for _, sd := range sides {
		width = max(width, len(sd.label))
	}
	runs := make([][]harness.LoadResult, len(sides))
	ratios := make([][]float64, len(pairs))
	for round := range max(rounds, 5) {
		this := make([]harness.LoadResult, len(sides))
		for k := range sides {
			// Each round starts one side later than the last, so no side always goes first
			// or always follows the same other.
			i := (k + round) % len(sides)
			sd := sides[i]
			if this[i], err = sd.load(); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", sd.tag, err)
			}
			runs[i] = append(runs[i], this[i])
			lead := "           "
			if k == 0 {
				lead = fmt.Sprintf("  round %d: ", round+1)
			}
			fmt.Fprintf(os.Stderr, "%s%-*s %v\n", lead, width, sd.label, this[i])
		}
		for k, p := range pairs {
			ratios[k] = append(ratios[k], this[p[0]].Rate()/this[p[1]].Rate())
		}
	}
	for k, p := range pairs {
		fmt.Fprintf(os.Stderr, "  ratios by round, %s / %s:", sides[p[0]].tag, sides[p[1]].tag)
		for _, r := range ratios[k] {
			fmt.Fprintf(os.Stderr, " %.2f", r)
		}
		fmt.Fprintln(os.Stderr)
		slices.Sort(ratios[k])
		medians = append(medians, ratios[k][len(ratios[k])/2])
	}
	for i := range sides {
		merged = append(merged, merge(runs[i]))
	}
	return merged, medians, nil
}

// medianRounds is medianRoundsOf for two sides: ours and theirs merged, and the median of the
// rounds' ratios of ours to theirs.
func (b *bench) medianRounds(ours, theirs side) (o, th harness.LoadResult, median float64, err error) {
	merged, medians, err := b.medianRoundsOf([]side{ours, theirs}, [][2]int{{0, 1}}, b.rounds)
	if err != nil {
		return o, th, 0, err
	}
	return merged[0], merged[1], medians[0], nil
}

// medianRow is a rate comparison whose figure is the median of the rounds' ratios: it must
// reach min.
func medianRow(name string, ours, theirs harness.LoadResult, median, min float64) row {
	return row{
		name: name + ": calls/s, median of the rounds' ratios", ours: fmt.Sprintf("%.0f/s", ours.Rate()), theirs: fmt.Sprintf("%.0f/s", theirs.Rate()),
		ratio: fmt.Sprintf("%.2fx", median), target: fmt.Sprintf(">= %gx", min), verdict: verdict(median >= min),
	}
}

func (b *bench) routerVsBare() []row {
	const name = "2. router+fake worker vs bare net/http (fixed JSON)"
	fake, err := startBenchserver(b.benchserver, "fake")
	if err != nil {
		return fail(name, err)
	}
	defer fake.stop()
	bare, err := startBenchserver(b.benchserver, "bare")
	if err != nil {
		return fail(name, err)
	}
	defer bare.stop()
	var wo, wt wrkResult
	var wrkErr error
	// The Go load generator saturates well below a bare handler's ceiling on two cores;
	// wrk (C, no answer matching) shows the ceiling itself, once after each round.
	wrk := func() {
		if wrkErr != nil {
			return
		}
		var a, c wrkResult
		if a, wrkErr = b.wrkSide(fake.url); wrkErr == nil {
			c, wrkErr = b.wrkSide(bare.url)
		}
		if wrkErr == nil {
			fmt.Fprintf(os.Stderr, "           wrk router+fakeworker %.0f/s p99 %v, %d non-2xx; wrk bare %.0f/s p99 %v, %d non-2xx\n",
				a.rate, a.p99, a.bad, c.rate, c.p99, c.bad)
			wo.rate += a.rate / float64(b.rounds)
			wt.rate += c.rate / float64(b.rounds)
			wo.bad += a.bad
			wt.bad += c.bad
		}
	}
	ours, theirs, err := b.alternate(side{"router", "router+fakeworker", b.loader(fake.url, true)},
		side{"bare", "bare net/http", b.loader(bare.url, true)}, wrk)
	if err != nil {
		return fail(name, err)
	}
	ratio := ours.Rate() / theirs.Rate()
	rows := []row{{
		name: name + ": calls/s (Go load generator, answers checked)", ours: fmt.Sprintf("%.0f/s", ours.Rate()), theirs: fmt.Sprintf("%.0f/s", theirs.Rate()),
		ratio: fmt.Sprintf("%.2f", ratio), target: ">= 0.25", verdict: verdict(ratio >= 0.25),
	}}
	if wrkErr != nil {
		fmt.Fprintf(os.Stderr, "benchrun: wrk: %v\n", wrkErr)
		return append(rows, row{name: name + ": calls/s (wrk)", ours: "not run", theirs: wrkErr.Error()})
	}
	wr := wo.rate / wt.rate
	v := verdict(wr >= 0.25)
	if wo.bad > 0 || wt.bad > 0 {
		v = fmt.Sprintf("%s (%d/%d non-2xx answers)", v, wo.bad, wt.bad)
	}
	return append(rows, row{
		name: name + ": calls/s (wrk -t2)", ours: fmt.Sprintf("%.0f/s", wo.rate), theirs: fmt.Sprintf("%.0f/s", wt.rate),
		ratio: fmt.Sprintf("%.2f", wr), target: ">= 0.25", verdict: v,
	})
}

func (b *bench) wrkSide(url string) (wrkResult, error) {
	if _, err := runWrk(url, b.c, b.warmup); err != nil {
		return wrkResult{}, err
	}
	return runWrk(url, b.c, b.d)
}

func (b *bench) idleStreams(n int, settle, window time.Duration) []row {
	name := fmt.Sprintf("3. %d idle sessions with GET streams (fake workers)", n)
	fake, err := startBenchserver(b.benchserver, "fake")
	if err != nil {
		return fail(name, err)
	}
	defer fake.stop()
	c := &harness.Client{URL: fake.url, HTTP: harness.NewHTTPClient(64, 30*time.Second), Protocol: harness.ProtocolVersion}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streamClient := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, DisableKeepAlives: true}}
	var open sync.WaitGroup
	var opened, streams sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		sid, err := c.Open(ctx)
		if err != nil {
			return fail(name, fmt.Errorf("session %d: %w", i, err))
		}
		open.Add(1)
		opened.Add(1)
		streams.Add(1)
		go func() {
			defer streams.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fake.url, nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", harness.ProtocolVersion)
			resp, err := streamClient.Do(req)
			open.Done()
			if err != nil || resp.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("GET stream: %v %v", err, resp)
				opened.Done()
				return
			}
			opened.Done()
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	open.Wait()
	opened.Wait()
	select {
	case err := <-errs:
		return fail(name, err)
	default:
	}
	// Let the opening burst settle: its garbage collected, the heap scavenged back.
	time.Sleep(settle)
	_, cpu0, err := harness.ProcStat(fake.cmd.Process.Pid)
	if err != nil {
		return fail(name, err)
	}
	t0 := time.Now()
	var peak int64
	for time.Since(t0) < window {
		time.Sleep(500 * time.Millisecond)
		rss, _, err := harness.ProcStat(fake.cmd.Process.Pid)
		if err != nil {
			return fail(name, err)
		}
		peak = max(peak, rss)
	}
	_, cpu1, _ := harness.ProcStat(fake.cmd.Process.Pid)
	elapsed := time.Since(t0)
	cpuShare := float64(cpu1-cpu0) / float64(elapsed) * 100
	cancel()
	mib := float64(peak) / (1 << 20)
	fmt.Fprintf(os.Stderr, "  idle: %d streams, peak RSS %.1f MiB, CPU %v over %v\n", n, mib, cpu1-cpu0, elapsed.Round(time.Second))
	return []row{{
		name: name + ": RSS", ours: fmt.Sprintf("%.1f MiB", mib), theirs: "64 MiB (target)",
		ratio: fmt.Sprintf("%.2f", mib/64), target: "< 1", verdict: verdict(mib < 64),
	}, {
		name: name + ": CPU", ours: fmt.Sprintf("%.2f%% of a core", cpuShare), theirs: "1% (target)",
		ratio: fmt.Sprintf("%.2f", cpuShare/1), target: "< 1", verdict: verdict(cpuShare < 1),
	}}
}

// selfCPU is this process's CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) time.Duration {
		return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
	}
	return tv(ru.Utime) + tv(ru.Stime)
}

// rateRow compares two sides' calls/s: ours must reach min times theirs.
func rateRow(name string, ours, theirs harness.LoadResult, min float64) row {
	ratio := ours.Rate() / theirs.Rate()
	return row{
		name: name + ": calls/s", ours: fmt.Sprintf("%.0f/s", ours.Rate()), theirs: fmt.Sprintf("%.0f/s", theirs.Rate()),
		ratio: fmt.Sprintf("%.2fx", ratio), target: fmt.Sprintf(">= %gx", min), verdict: verdict(ratio >= min),
	}
}

// p99Row compares two sides' 99th percentile latency: ours must be no higher than theirs.
func p99Row(name string, ours, theirs harness.LoadResult) row {
	return row{
		name: name + ": p99", ours: ours.P99.Round(10 * time.Microsecond).String(), theirs: theirs.P99.Round(10 * time.Microsecond).String(),
		ratio:  fmt.Sprintf("%.2fx", float64(ours.P99)/float64(theirs.P99)),
		target: "<= 1x", verdict: verdict(ours.P99 <= theirs.P99),
	}
}

// infoRow is a medianRow with no target: a figure that explains another.
func infoRow(name string, ours, theirs harness.LoadResult, median float64) row {
	return row{
		name: name + ": calls/s, median of the rounds' ratios", ours: fmt.Sprintf("%.0f/s", ours.Rate()), theirs: fmt.Sprintf("%.0f/s", theirs.Rate()),
		ratio: fmt.Sprintf("%.2fx", median), target: "(none)", verdict: "for the record",
	}
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func printTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| benchmark | ours | other side | ratio | target | |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		if r.err != "" {
			fmt.Fprintf(w, "| %s | ERROR: %s | | | | |\n", r.name, r.err)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.name, r.ours, r.theirs, r.ratio, r.target, r.verdict)
	}
}

// process is a running benchserver.
type process struct {
	cmd *exec.Cmd
	url string
}

func startBenchserver(bin, mode string) (*process, error) {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(abs, "-mode", mode)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", abs, err)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				line <- u
			}
		}
	}()
	select {
	case u := <-line:
		return &process{cmd: cmd, url: u}, nil
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("benchserver -mode %s did not start", mode)
	}
}

func (p *process) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}
