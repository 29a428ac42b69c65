package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/test/fixtureworker"
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

func (g *gem) workerCall(p performCall, breaks chan fixtureBreak) result {
	switch p.selector {
	case "mcpPrepare:":
		text, bad := byteArg(p)
		if bad != nil {
			return *bad
		}
		return g.prepare(p.receiver, text)
	case "mcpHandle:":
		text, bad := byteArg(p)
		if bad != nil {
			return *bad
		}
		return g.handle(text, breaks)
	case "mcpViewStatus", "mcpRefreshView":
		w := g.state.worker
		if w == nil {
			return notPrepared()
		}
		if p.selector == "mcpViewStatus" {
			return stringResult(w.ViewStatus())
		}
		return stringResult(w.RefreshView())
	}
	return dnu(p)
}

func byteArg(p performCall) ([]byte, *result) {
	if len(p.args) != 1 || p.args[0].special {
		r := errorResult(errBadArgKind, p.selector+" expects one String argument")
		return nil, &r
	}
	return p.args[0].bytes, nil
}

func dnu(p performCall) result {
	return errorResult(errDoesNotUnderstand, "a "+p.receiver+" class does not understand #"+p.selector)
}

func notPrepared() result {
	return errorResult(errWorkerSignal, "the worker was not prepared: send mcpPrepare: first")
}

func (g *gem) prepare(receiver string, config []byte) result {
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

func (g *gem) handle(msg []byte, breaks chan fixtureBreak) result {
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
		r.err.hasContext = true
		return r
	case errors.Is(err, fixtureworker.ErrDied):
		g.die()
	}
	return errorResult(errWorkerSignal, err.Error())
}

// system answers the kernel calls the router's control session makes, plus stand-in-only
// introspection (standinLoginInfo).
func (g *gem) system(p performCall) result {
	switch p.selector {
	case "session":
		if len(p.args) == 0 {
			return smallIntegerResult(int64(g.session))
		}
	case "stopSession:":
		if len(p.args) != 1 || !p.args[0].isSmallInteger() {
			return errorResult(errBadArgKind, "stopSession: expects a SmallInteger")
		}
		return boolResult(g.sessions.stop(int(p.args[0].smallInteger())))
	case "gemConfigurationAt:":
		if len(p.args) != 1 || p.args[0].special {
			return errorResult(errBadArgKind, "gemConfigurationAt: expects a Symbol or String")
		}
		v, ok := g.login.GemConfig[string(p.args[0].bytes)]
		if !ok {
			return specialResult(oopNil)
		}
		return stringResult([]byte(v))
	case "standinLoginInfo":
		if len(p.args) == 0 {
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

func (g *gem) execute(source string) result {
	src := strings.TrimSpace(source)
	switch {
	case strings.HasPrefix(src, stoneReadingsTag):
		return stringResult([]byte(stoneReadings()))
	case strings.TrimSuffix(src, ".") == transactionlessSrc:
		return specialResult(oopNil)
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
