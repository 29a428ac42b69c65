package router

// Failure is what the router needs to know about an error a worker call or a launch
// returned. The binding's classifier (gemstone.IsFatal, gemstone.EndingOf, ClientSafe)
// fills it in for real gems; tests may supply their own.
type Failure struct {
	// Fatal: the gem is gone (GCI fatal band, an invalid session, or stopped by the escalation).
	Fatal bool
	// Number is the GemStone error number, 0 when the error did not come from GemStone.
	Number int
	// Kind is a short machine-readable name for data.kind (e.g. loginDenied, toolsetNotFound).
	Kind string
	// Safe is a description a client may see: never an NRS, host, user or path.
	Safe string
	// Ending says in words which escalation step ended the call ("" when none did).
	Ending string
	// Step is the same as an identifier: softBreak, hardBreak or stop ("" when none).
	Step string
}

// Classifier reads an error into a Failure.
type Classifier func(error) Failure

// launchKind names a failed login or prepare for data.kind. A fatal GemStone error at login
// is not a session that went away (there was none yet): the kind says what could not be
// reached or started.
func launchKind(f Failure) string {
	switch {
	case f.Kind != "" && f.Kind != "sessionGone":
		return f.Kind
	case stoneUnreachable(f.Number):
		return "stoneUnreachable"
	case f.Number == 4042:
		return "gemStartFailed"
	case f.Number == 2106:
		// The login worked and the worker class could not be resolved by name.
		return "workerClassNotFound"
	}
	return "loginFailed"
}

func stoneUnreachable(number int) bool {
	return number == 4065 || number == 4062 || number == 4066 || number == 4137
}

// launchHint says what to fix after a failed login or prepare, by GemStone error number or
// prepare kind. It names configuration variables, never their values.
func launchHint(f Failure) string {
	switch {
	case f.Kind == "workerUserNotProvisioned":
		return "its administrator must run ./setup-read-only-user.sh, which provisions that user and lets the server's own user mint one-time passwords for it"
	case f.Kind == "loginDenied" || f.Number == 4051 || f.Number == 4136:
		return "check MCP_WORKER_USER and its password (GS_PASS_FILE or GS_PASS)"
	case stoneUnreachable(f.Number):
		return "the stone or its netldi could not be reached: check GS_STONE, MCP_NETLDI and GEMSTONE_GLOBAL_DIR"
	case f.Kind == "gemStartFailed":
		return "the NetLDI could not start a gem for the worker: check MCP_NETLDI, MCP_GEM_CONFIG and the NetLDI's log"
	case f.Kind == "workerClassNotFound":
		return "check MCP_WORKER_CLASS and that the worker code is installed for MCP_WORKER_USER"
	case f.Kind == "toolsetNotFound" || f.Kind == "badOption":
		return "check MCP_TOOLSETS and MCP_TOOLSET_OPTIONS"
	case f.Kind == "contractVersion":
		return "the worker code in the image is older or newer than this front end; reinstall it"
	case f.Kind == "loginTimeout":
		return "check that the stone and its NetLDI answer, or raise MCP_LOGIN_TIMEOUT"
	case f.Kind == "libraryNotFound":
		return "set GCI_LIBRARY or GEMSTONE to a GemStone client library"
	}
	return "see the server log for the full error"
}
