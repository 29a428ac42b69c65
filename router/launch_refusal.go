package router

import (
	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// launchKind names a failed login or prepare for data.kind. A gem gone at login is not a
// session that went away (there was none yet): the kind says what could not be reached or
// started, by GemStone error number.
func launchKind(f worker.Failure) string {
	switch f.Kind {
	case worker.LoginRefused:
		return errkind.LoginDenied
	case worker.TimedOut:
		return errkind.LoginTimeout
	case worker.LibraryMissing:
		return errkind.LibraryNotFound
	case worker.UserNotProvisioned:
		return errkind.WorkerUserNotProvisioned
	case worker.CallBroken:
		return errkind.Break
	case worker.CallInProgress:
		return errkind.Busy
	case worker.PrepareRefused:
		if f.Refusal != "" {
			return f.Refusal // the worker's own kind (docs/worker-contract.md, mcpPrepare:)
		}
	}
	switch {
	case stoneUnreachable(f.Number):
		return errkind.StoneUnreachable
	case f.Number == 4042:
		return errkind.GemStartFailed
	case f.Number == 2106:
		// The login worked and the worker class could not be resolved by name.
		return errkind.WorkerClassNotFound
	}
	return errkind.LoginFailed
}

func stoneUnreachable(number int) bool {
	return number == 4065 || number == 4062 || number == 4066 || number == 4137
}

// launchWhat is what a client is told went wrong with a login or prepare. The deadline is
// the router's own, so it is the router that names its setting.
func launchWhat(f worker.Failure) string {
	switch {
	case f.Kind == worker.TimedOut:
		return "the login did not finish within MCP_LOGIN_TIMEOUT"
	case f.Safe == "":
		return "the worker could not be started"
	}
	return f.Safe
}

// launchHint says what to fix after a failed login or prepare, by its data.kind (launchKind)
// or GemStone error number. It names configuration variables, never their values.
func launchHint(kind string, number int) string {
	switch {
	case kind == errkind.WorkerUserNotProvisioned:
		return "its administrator must run ./setup-read-only-user.sh, which provisions that user and lets the server's own user mint one-time passwords for it"
	case kind == errkind.LoginDenied || number == 4051 || number == 4136:
		return "check MCP_WORKER_USER and its password (GS_PASS_FILE or GS_PASS)"
	case stoneUnreachable(number):
		return "the stone or its netldi could not be reached: check GS_STONE, MCP_NETLDI and GEMSTONE_GLOBAL_DIR"
	case kind == errkind.GemStartFailed:
		return "the NetLDI could not start a gem for the worker: check MCP_NETLDI, MCP_GEM_CONFIG and the NetLDI's log"
	case kind == errkind.WorkerClassNotFound:
		return "check MCP_WORKER_CLASS and that the worker code is installed for MCP_WORKER_USER"
	case kind == errkind.ToolsetNotFound || kind == errkind.BadOption:
		return "check MCP_TOOLSETS and MCP_TOOLSET_OPTIONS"
	case kind == errkind.ContractVersion:
		return "the worker code in the image is older or newer than this front end; reinstall it"
	case kind == errkind.LoginTimeout:
		return "check that the stone and its NetLDI answer, or raise MCP_LOGIN_TIMEOUT"
	case kind == errkind.LibraryNotFound:
		return "set GCI_LIBRARY or GEMSTONE to a GemStone client library"
	}
	return "see the server log for the full error"
}
