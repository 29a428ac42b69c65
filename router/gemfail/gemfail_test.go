package gemfail

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
)

func TestClassifyReadsTheBindingsErrors(t *testing.T) {
	kernel := gemstone.KernelErrorCategory
	cases := []struct {
		name   string
		err    error
		fatal  bool
		number int
		kind   string
		ending string
	}{
		{"fatal band", &gemstone.Error{Number: 4137, Category: kernel, Fatal: true, Message: "!tcp@host secret"}, true, 4137, "sessionGone", ""},
		{"soft break", &gemstone.Error{Number: 6003, Category: kernel, Ending: gemstone.EndedBySoftBreak}, false, 6003, "break", "ended by soft break"},
		{"stopped", &gemstone.Error{Number: 4100, Category: kernel, Fatal: true, Ending: gemstone.EndedByStop}, true, 4100, "sessionGone", "ended by stopping the session"},
		{"login denied", &gemstone.Error{Number: 4051, Category: kernel}, true, 4051, "loginDenied", ""},
		{"worker bug", fmt.Errorf("wrapped: %w", &gemstone.Error{Number: 2010, Category: kernel}), false, 2010, "", ""},
		{"closed", gemstone.ErrSessionClosed, true, 0, "sessionGone", ""},
		{"library", &gemstone.LoadError{Tried: []string{"/opt/secret/lib.so"}, Reason: "no such file"}, false, 0, "libraryNotFound", ""},
		{"login timeout", fmt.Errorf("login: %w", context.DeadlineExceeded), false, 0, "loginTimeout", ""},
		{"prepare refused", &gciworker.PrepareError{Kind: "toolsetNotFound", Message: "no toolset named X"}, false, 0, "toolsetNotFound", ""},
		{"one-time login refused", &gciworker.OneTimeLoginError{User: "secretuser", Step: "login", Err: &gemstone.Error{Number: 4051, Category: kernel, Fatal: true}}, false, 4051, "workerUserNotProvisioned", ""},
		{"one-time mint refused", &gciworker.OneTimeLoginError{User: "secretuser", Step: "mint", Err: &gemstone.Error{Number: 2151, Category: kernel}}, false, 2151, "workerUserNotProvisioned", ""},
	}
	for _, c := range cases {
		f := Classify(c.err)
		if f.Fatal != c.fatal || f.Number != c.number || f.Kind != c.kind || f.Ending != c.ending || (c.ending != "") != (f.Step != "") {
			t.Errorf("%s: %+v", c.name, f)
		}
		if strings.Contains(f.Safe, "secret") || strings.Contains(f.Safe, "!tcp") {
			t.Errorf("%s: client-safe text leaks: %q", c.name, f.Safe)
		}
	}
}
