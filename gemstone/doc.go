// Package gemstone binds GemStone/S 64's thread-safe C interface (libgcits, 3.7.0 and later)
// through cgo, loading the library at run time with dlopen. No GemStone header is included
// (they are C++); the prototypes are declared in gci.go from gcits.hf.
//
// # Finding the library
//
//	lib, err := gemstone.Open(gemstone.LibraryConfigFromEnv(nil))
//
// GCI_LIBRARY names the libgcits file; otherwise GEMSTONE names a product directory and the
// binding loads $GEMSTONE/lib/libgcits-<version>-64.so, the highest version present. On Linux
// libnetldi-<version>-64.so from the same directory is loaded first with RTLD_GLOBAL
// (libgcits refers to its HostCreateThread). A library that cannot be loaded does not stop
// the program: Open answers a Library whose every Login fails with the paths tried and the
// variables to set. A missing symbol is named; symbols newer than 3.7.0 are bound on first
// use and, when missing, named with the release that introduced them.
//
// # Sessions and calls
//
//	s, err := lib.Login(ctx, gemstone.LoginParams{...})     // GciTsNbLogin, GCI_LOGIN_QUIET
//	out, err := s.Perform(ctx, "McpServer", "mcpHandle:", gemstone.String(body))
//	out, err := s.Execute(ctx, source)
//	err = s.Close(ctx)                                      // GciTsLogout, idempotent
//
// Every call is non-blocking underneath (GciTsNbPerform / GciTsNbExecute):
//
//	goroutine holding the call slot                     other goroutines
//	─────────────────────────────────                   ────────────────
//	create args (GciTsNewString_ ...), start the call   Break: GciTsBreak only
//	park in the netpoller on an epoll fd of its own,
//	  watching GciTsSocket + a wake-up pipe       ◀──── ctx done / Close: poke the pipe
//	GciTsNbPoll(0) → GciTsNbResult
//	GciTsFetchSize, GciTsFetchBytes (64 KiB buffer, else 256 KiB pages)
//	GciTsReleaseObjs (result and arguments)
//
// (one crossing into C to start, one per wake-up to look and, when done, to fetch)
//
// A session runs one call at a time: the slot is taken without waiting, and a second call
// fails with ErrCallInProgress (the router queues, not the binding). All GCI calls on a
// session come from the goroutine holding the slot; only GciTsBreak comes from elsewhere,
// because polling a session from one thread while another is inside a call on it has crashed
// the library. A waiting goroutine parks in Go's netpoller, which watches a per-session epoll
// descriptor holding the GCI socket and the wake-up pipe, so it holds no OS thread; the GCI
// socket itself never reaches the netpoller and is never made non-blocking, read, written or
// closed by Go (where epoll is missing, the wait blocks one thread in poll(2) instead).
// Logins wait in poll(2) on GciTsNbLogin's poll socket, so a slow login stalls no other
// session.
//
// # Cancellation
//
// When ctx ends (or Close is called) during a call, the binding escalates: soft break; if
// the call still runs after the gap (LoginParams.BreakGap, at least MinBreakGap = 300 ms,
// since a hard break right after a soft one has crashed the library), hard break; if it
// still runs after another gap, the stop hook (SetStopHook: System stopSession: from a
// control session), or GciTsNbLogout when there is none. The error says which step ended
// the call (EndingOf) and wraps ctx.Err(). After a break or an error that left a suspended
// GsProcess, GciTsClearStack runs and the error's objects are released, so the next call
// starts clean.
//
// # Errors
//
// GemStone errors are *Error (number, category, fatal flag, argument count, message,
// reason). IsFatal, IsBreak and IsLoginDenied classify them. Message and Reason may embed
// the NRS, host and user (fatal errors do): log them, and give clients only ClientSafe().
//
// # Signals
//
// The binding installs no signal handlers and changes no dispositions. A program should
// call signal.Ignore(syscall.SIGPIPE) at start, so that a write to a dead gem's socket from
// a library thread yields EPIPE instead of killing the process; that choice belongs to the
// program (cmd/), not to a library.
package gemstone
