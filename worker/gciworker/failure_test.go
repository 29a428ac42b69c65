package gciworker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// TestFailureMapsEveryKindTheRouterTellsApart: one row per kind (and per way to reach it),
// checked field by field, with secrets in every cause that must not reach the client text.
func TestFailureMapsEveryKindTheRouterTellsApart(t *testing.T) {
	kernel := gemstone.KernelErrorCategory
	cases := []struct {
		name string
		err  error
		want worker.Failure
	}{
		{"fatal band", &gemstone.Error{Number: 4137, Category: kernel, Fatal: true, Message: "!tcp@host secret"},
			worker.Failure{Kind: worker.GemGone, Number: 4137, Fatal: true}},
		{"closed", gemstone.ErrSessionClosed, worker.Failure{Kind: worker.GemGone, Fatal: true}},
		{"stopped", &gemstone.Error{Number: 4100, Category: kernel, Fatal: true, Ending: gemstone.EndedByStop},
			worker.Failure{Kind: worker.GemGone, Number: 4100, Fatal: true, Ending: worker.EndedByStop}},
		{"soft break", &gemstone.Error{Number: 6003, Category: kernel, Ending: gemstone.EndedBySoftBreak},
			worker.Failure{Kind: worker.CallBroken, Number: 6003, Ending: worker.EndedBySoftBreak}},
		{"hard break", &gemstone.Error{Number: 6004, Category: kernel, Ending: gemstone.EndedByHardBreak},
			worker.Failure{Kind: worker.CallBroken, Number: 6004, Ending: worker.EndedByHardBreak}},
		{"login denied", &gemstone.Error{Number: 4051, Category: kernel, Message: "secret user"},
			worker.Failure{Kind: worker.LoginRefused, Number: 4051, Fatal: true}},
		{"login refused", &gemstone.Error{Number: 4136, Category: kernel},
			worker.Failure{Kind: worker.LoginRefused, Number: 4136, Fatal: true}},
		{"busy", fmt.Errorf("perform: %w", gemstone.ErrCallInProgress), worker.Failure{Kind: worker.CallInProgress}},
		{"worker bug", fmt.Errorf("wrapped: %w", &gemstone.Error{Number: 2010, Category: kernel, Message: "at /secret/path"}),
			worker.Failure{Kind: worker.Other, Number: 2010}},
		{"not GemStone", errors.New("an answer from /secret/path that is not JSON"), worker.Failure{Kind: worker.Other}},
		{"stone unreachable", &gemstone.Error{Number: 4065, Category: kernel, Fatal: true},
			worker.Failure{Kind: worker.GemGone, Number: 4065, Fatal: true}},
		{"library", &gemstone.LoadError{Tried: []string{"/opt/secret/lib.so"}, Reason: "no such file"},
			worker.Failure{Kind: worker.LibraryMissing}},
		{"login timeout", fmt.Errorf("login: %w", context.DeadlineExceeded), worker.Failure{Kind: worker.TimedOut}},
		{"prepare refused", worker.Refused("toolsetNotFound", "no toolset named X"),
			worker.Failure{Kind: worker.PrepareRefused, Refusal: errkind.ToolsetNotFound}},
		{"one-time login refused", &OneTimeLoginError{User: "secretuser", Step: "login", Err: &gemstone.Error{Number: 4051, Category: kernel, Fatal: true}},
			worker.Failure{Kind: worker.UserNotProvisioned, Number: 4051}},
		{"one-time mint refused", &OneTimeLoginError{User: "secretuser", Step: "mint", Err: &gemstone.Error{Number: 2151, Category: kernel}},
			worker.Failure{Kind: worker.UserNotProvisioned, Number: 2151}},
	}
	for _, c := range cases {
		var f *worker.Failure
		if !errors.As(failure(c.err), &f) {
			t.Fatalf("%s: failure(%v) is no *worker.Failure", c.name, c.err)
		}
		got := *f
		if got.Kind != c.want.Kind || got.Number != c.want.Number || got.Fatal != c.want.Fatal ||
			got.Ending != c.want.Ending || got.Refusal != c.want.Refusal {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		if got.Safe == "" || strings.Contains(got.Safe, "secret") || strings.Contains(got.Safe, "!tcp") {
			t.Errorf("%s: client text %q is empty or leaks", c.name, got.Safe)
		}
		if !errors.Is(f, c.err) {
			t.Errorf("%s: the failure does not keep its cause for the log", c.name)
		}
	}
	if failure(nil) != nil {
		t.Error("failure(nil) is not nil")
	}
}
