package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest/fixtureworker"
)

type fixtureBreak = fixtureworker.Break

const (
	softBreak = fixtureworker.SoftBreak
	hardBreak = fixtureworker.HardBreak
)

// Error numbers the gem raises, as GemStone numbers them (gci-ts.md section 3).
const (
	errCompile           = 1001 // COMPILER_ERR_STDB
	errDoesNotUnderstand = 2010 // rtErrDoesNotUnderstand
	errBadArgKind        = 2094 // an argument of the wrong kind
	errWorkerSignal      = 2318 // an Error signalled by the worker's own code
)

// workerState is the worker-class side of the gem: the prepared fixture worker, if any.
type workerState struct {
	worker *fixtureworker.Worker
}

func (g *gem) workerCall(p gemproto.PerformCall, breaks chan fixtureBreak) gemproto.Answer {
	if g.model != nil {
		a, err := g.model.perform(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "standin-gem: the model stone went away:", err)
			g.die() // a gem cannot go on without its stone
		}
		return a
	}
	switch p.Selector {
	case "mcpPrepare:":
		text, bad := byteArg(p)
		if bad != nil {
			return *bad
		}
		return g.prepare(p.Receiver, text)
	case "mcpHandle:":
		text, bad := byteArg(p)
		if bad != nil {
			return *bad
		}
		return g.handle(text, breaks)
	case "mcpGrant:":
		text, bad := byteArg(p)
		if bad != nil {
			return *bad
		}
		if g.state.worker == nil {
			return notPrepared()
		}
		return stringResult(g.state.worker.Grant(text))
	case "mcpViewStatus", "mcpRefreshView":
		w := g.state.worker
		if w == nil {
			return notPrepared()
		}
		if p.Selector == "mcpViewStatus" {
			return stringResult(w.ViewStatus())
		}
		return stringResult(w.RefreshView())
	}
	return dnu(p)
}

func byteArg(p gemproto.PerformCall) ([]byte, *gemproto.Answer) {
	if len(p.Args) != 1 || p.Args[0].Special {
		r := errorResult(errBadArgKind, p.Selector+" expects one String argument")
		return nil, &r
	}
	return p.Args[0].Bytes, nil
}

func dnu(p gemproto.PerformCall) gemproto.Answer {
	return errorResult(errDoesNotUnderstand, "a "+p.Receiver+" class does not understand #"+p.Selector)
}

func notPrepared() gemproto.Answer {
	return errorResult(errWorkerSignal, "the worker was not prepared: send mcpPrepare: first")
}

func (g *gem) prepare(receiver string, config []byte) gemproto.Answer {
	w, err := fixtureworker.New(config)
	if err != nil {
		return stringResult(fixtureworker.PrepareFailure(err))
	}
	if w.WorkerClass() != receiver {
		return stringResult(fixtureworker.PrepareFailure(&fixtureworker.PrepareError{
			Kind: "badConfig", Message: "workerClass " + w.WorkerClass() + " is not the receiver " + receiver}))
	}
	g.state.worker = w
	return stringResult(w.PrepareAnswer(g.session))
}

func (g *gem) handle(msg []byte, breaks chan fixtureBreak) gemproto.Answer {
	w := g.state.worker
	if w == nil {
		return notPrepared()
	}
	reply, err := w.HandleWithBreaks(context.Background(), msg, breaks)
	var be *fixtureworker.BreakError
	switch {
	case err == nil:
		return stringResult(reply)
	case errors.As(err, &be):
		r := errorResult(uint32(be.Break.ErrorNumber()), "the call was ended by a "+be.Break.String())
		r.Err.HasContext = true
		return r
	case errors.Is(err, fixtureworker.ErrDied):
		g.die()
	}
	return errorResult(errWorkerSignal, err.Error())
}

// system answers the kernel calls the router's control session makes, plus stand-in-only
// introspection (standinLoginInfo).
func (g *gem) system(p gemproto.PerformCall) gemproto.Answer {
	switch p.Selector {
	case "session":
		if len(p.Args) == 0 {
			return smallIntegerResult(int64(g.session))
		}
	case "stopSession:":
		if len(p.Args) != 1 || !p.Args[0].IsSmallInteger() {
			return errorResult(errBadArgKind, "stopSession: expects a SmallInteger")
		}
		return boolResult(g.sessions.stop(int(p.Args[0].SmallInteger())))
	case "gemConfigurationAt:":
		if len(p.Args) != 1 || p.Args[0].Special {
			return errorResult(errBadArgKind, "gemConfigurationAt: expects a Symbol or String")
		}
		v, ok := g.login.GemConfig[string(p.Args[0].Bytes)]
		if !ok {
			return specialResult(gemproto.OopNil)
		}
		return stringResult([]byte(v))
	case "standinLoginInfo":
		if len(p.Args) == 0 {
			b, _ := json.Marshal(g.login)
			return stringResult(b)
		}
	}
	return dnu(p)
}

// Tags of the control session's sources (docs/worker-contract.md).
const (
	stoneReadingsTag   = `"mcp-control:stone-readings v1"`
	transactionlessSrc = "System transactionMode: #transactionless"
)

// defaultStoneReadings is a healthy stone: no backlog, signal threshold unknown, nobody
// holding the oldest commit record.
const defaultStoneReadings = "0 -1"

func (g *gem) execute(source string) gemproto.Answer {
	src := strings.TrimSpace(source)
	switch {
	case strings.HasPrefix(src, stoneReadingsTag):
		return stringResult([]byte(stoneReadings()))
	case strings.HasPrefix(src, oneTimeTag):
		return g.mintOneTime(src)
	case strings.TrimSuffix(src, ".") == transactionlessSrc:
		return specialResult(gemproto.OopNil)
	}
	return errorResult(errCompile, "the stand-in evaluates only the control sources of docs/worker-contract.md")
}

// stoneReadings answers the test's chosen readings: the file named by
// GCI_STANDIN_STONE_READINGS_FILE (read on every call, so a test can change it), else
// GCI_STANDIN_STONE_READINGS, else defaultStoneReadings. They are passed on verbatim.
func stoneReadings() string {
	if path := os.Getenv("GCI_STANDIN_STONE_READINGS_FILE"); path != "" {
		if data, err := os.ReadFile(path); err == nil {
			return strings.TrimSpace(string(data))
		}
	}
	if v := os.Getenv("GCI_STANDIN_STONE_READINGS"); v != "" {
		return v
	}
	return defaultStoneReadings
}
