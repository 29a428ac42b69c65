// Package gemfail reads the errors of the worker seam for the router: the binding's
// *gemstone.Error (fatal band, breaks, the escalation's ending, a client-safe summary) and a
// worker's refused prepare. It is the only place the router's side learns GemStone's error
// numbers, so the router package itself depends on the worker interfaces alone.
package gemfail

import (
	"context"
	"errors"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
)

// Classify reads err for the router.
func Classify(err error) router.Failure {
	if err == nil {
		return router.Failure{}
	}
	// A refused prepare ({"ok":false,"error":{kind,message}}): the worker contract makes its
	// kind and message safe to show a client.
	var pe *gciworker.PrepareError
	if errors.As(err, &pe) {
		return router.Failure{Kind: pe.Kind, Safe: "the worker refused its configuration: " + pe.ClientMessage()}
	}
	// The restricted worker user could not be logged in: a provisioning problem, whatever
	// GemStone number (a refused mint, 4051 for the minted password) it came with.
	var oe *gciworker.OneTimeLoginError
	if errors.As(err, &oe) {
		f := router.Failure{Kind: "workerUserNotProvisioned", Safe: oe.ClientMessage() + " (" + gemstone.ClientSafe(err) + ")"}
		var ge *gemstone.Error
		if errors.As(err, &ge) {
			f.Number = ge.Number
		}
		return f
	}
	if errors.Is(err, context.DeadlineExceeded) && !errors.As(err, new(*gemstone.Error)) {
		return router.Failure{Kind: "loginTimeout", Safe: "the login did not finish within MCP_LOGIN_TIMEOUT"}
	}
	f := router.Failure{Fatal: gemstone.IsFatal(err), Safe: gemstone.ClientSafe(err)}
	if e := gemstone.EndingOf(err); e != gemstone.NotEnded {
		f.Ending = e.String()
		switch e {
		case gemstone.EndedBySoftBreak:
			f.Step = "softBreak"
		case gemstone.EndedByHardBreak:
			f.Step = "hardBreak"
		case gemstone.EndedByStop:
			f.Step = "stop"
			f.Fatal = true
		}
	}
	var ge *gemstone.Error
	if errors.As(err, &ge) {
		f.Number = ge.Number
	}
	switch {
	case gemstone.IsLoginDenied(err):
		f.Kind = "loginDenied"
	case f.Fatal:
		f.Kind = "sessionGone"
	case gemstone.IsBreak(err):
		f.Kind = "break"
	case errors.Is(err, gemstone.ErrCallInProgress):
		f.Kind = "busy"
	case isLibraryFailure(err):
		// Its text names paths: the client learns only that the library is missing.
		f.Kind = "libraryNotFound"
		f.Safe = "the GemStone client library could not be loaded"
	}
	return f
}

func isLibraryFailure(err error) bool {
	var le *gemstone.LoadError
	var se *gemstone.SymbolError
	return errors.As(err, &le) || errors.As(err, &se)
}
