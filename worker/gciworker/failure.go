package gciworker

import (
	"context"
	"errors"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// ending is the seam's name for the binding's escalation step.
func ending(e gemstone.Ending) worker.Ending {
	switch e {
	case gemstone.EndedBySoftBreak:
		return worker.EndedBySoftBreak
	case gemstone.EndedByHardBreak:
		return worker.EndedByHardBreak
	case gemstone.EndedByStop:
		return worker.EndedByStop
	}
	return worker.NotEnded
}

// failure is the one place the binding's errors become what the router reads: a
// *worker.Failure carrying err whole for the log. It answers nil for nil.
func failure(err error) error {
	if err == nil {
		return nil
	}
	var f *worker.Failure
	if errors.As(err, &f) { // a refused prepare, already described
		return err
	}
	return classify(err)
}

func classify(err error) *worker.Failure {
	var ge *gemstone.Error
	fromGemStone := errors.As(err, &ge)
	f := &worker.Failure{Kind: worker.Other, Fatal: gemstone.IsFatal(err), Safe: gemstone.ClientSafe(err), Err: err}
	if fromGemStone {
		f.Number = ge.Number
	}
	var oe *OneTimeLoginError
	if errors.As(err, &oe) {
		// A provisioning problem, whatever GemStone number came with it: the session that
		// refused it was never the client's.
		f.Kind, f.Fatal, f.Safe = worker.UserNotProvisioned, false, oe.ClientMessage()+" ("+f.Safe+")"
		return f
	}
	if errors.Is(err, context.DeadlineExceeded) && !fromGemStone {
		f.Kind, f.Fatal, f.Safe = worker.TimedOut, false, "the GemStone login or call did not finish in time"
		return f
	}
	f.Ending = ending(gemstone.EndingOf(err))
	if f.Ending == worker.EndedByStop {
		f.Fatal = true
	}
	switch {
	case gemstone.IsLoginDenied(err):
		f.Kind = worker.LoginRefused
	case f.Fatal:
		f.Kind = worker.GemGone
	case gemstone.IsBreak(err):
		f.Kind = worker.CallBroken
	case errors.Is(err, gemstone.ErrCallInProgress):
		f.Kind = worker.CallInProgress
	case isLibraryFailure(err):
		// Its text names paths: the client learns only that the library is missing.
		f.Kind, f.Safe = worker.LibraryMissing, "the GemStone client library could not be loaded"
	}
	return f
}

func isLibraryFailure(err error) bool {
	var le *gemstone.LoadError
	var se *gemstone.SymbolError
	return errors.As(err, &le) || errors.As(err, &se)
}
