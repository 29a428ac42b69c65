package gemstone

// This file is the only one that speaks C. It loads libgcits with dlopen, binds the symbols
// the binding calls through function pointers (the GemStone headers are C++, so none is
// included; the prototypes below are written from gcits.hf), and offers them to the rest of
// the package as Go methods on *gciAPI that take and return Go types.
//
// A waiting call parks its goroutine in Go's netpoller (netwait.go) on an epoll descriptor of
// its own (mcp_epoll) that watches the session's GCI socket and a wake-up pipe, and crosses
// into mcp_await with a zero timeout each time that descriptor turns readable: no OS thread
// is held while it waits, and the GCI socket itself never reaches the netpoller. Only where
// epoll is missing, and for logins (waitReadable), does the wait block in poll(2) inside C. A
// call crosses into C twice (mcp_start, then mcp_await per wake-up), not once per GCI function.

/*
#cgo linux LDFLAGS: -ldl
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef uint64_t OopType;
typedef int BoolType;
typedef void *GciSession;
typedef int64_t int64;

// GciErrSType as laid out by gci.ht (3.6.2-3.7.5): 2168 bytes, align 8.
typedef struct {
	OopType category;
	OopType context;
	OopType exceptionObj;
	OopType args[10];
	int number;
	int argCount;
	unsigned char fatal;
	char message[1025];
	char reason[1025];
} GciErrSType;

_Static_assert(sizeof(GciErrSType) == 2168, "GciErrSType must be 2168 bytes");
_Static_assert(offsetof(GciErrSType, number) == 104, "GciErrSType.number offset");
_Static_assert(offsetof(GciErrSType, fatal) == 112, "GciErrSType.fatal offset");
_Static_assert(offsetof(GciErrSType, message) == 113, "GciErrSType.message offset");
_Static_assert(offsetof(GciErrSType, reason) == 1138, "GciErrSType.reason offset");

typedef unsigned (*fnVersion)(char *, size_t);
typedef GciSession (*fnNbLogin)(const char *, const char *, const char *, BoolType, const char *,
	const char *, const char *, unsigned int, int, int *);
typedef int (*fnNbLoginFinished)(GciSession, BoolType *, GciErrSType *);
typedef BoolType (*fnSessErr)(GciSession, GciErrSType *);
typedef BoolType (*fnNbExecute)(GciSession, const char *, OopType, OopType, OopType, int,
	unsigned short, GciErrSType *);
typedef BoolType (*fnNbPerform)(GciSession, OopType, OopType, const char *, const OopType *, int,
	int, unsigned short, GciErrSType *);
typedef OopType (*fnNbResult)(GciSession, GciErrSType *);
typedef int (*fnNbPoll)(GciSession, int, GciErrSType *);
typedef int (*fnSocket)(GciSession, GciErrSType *);
typedef BoolType (*fnBreak)(GciSession, BoolType, GciErrSType *);
typedef OopType (*fnNewString_)(GciSession, const char *, size_t, GciErrSType *);
typedef OopType (*fnNewByteArray)(GciSession, unsigned char *, size_t, GciErrSType *);
typedef OopType (*fnResolveSymbolObj)(GciSession, OopType, OopType, GciErrSType *);
typedef int64 (*fnFetchSize)(GciSession, OopType, GciErrSType *);
typedef int64 (*fnFetchBytes)(GciSession, OopType, int64, unsigned char *, int64, GciErrSType *);
typedef BoolType (*fnOops)(GciSession, OopType *, int, GciErrSType *);
typedef BoolType (*fnClearStack)(GciSession, OopType, GciErrSType *);

static void *mcp_dlopen(const char *path, int global, char *msg, size_t msgSize) {
	void *h = dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
	if (h == NULL) {
		const char *e = dlerror();
		snprintf(msg, msgSize, "%s", e ? e : "dlopen failed");
	}
	return h;
}

static void *mcp_dlsym(void *h, const char *name) {
	dlerror();
	return dlsym(h, name);
}

static unsigned mcp_version(void *f, char *buf, size_t n) { return ((fnVersion)f)(buf, n); }

static GciSession mcp_nbLogin(void *f, const char *stone, const char *hostUser, const char *hostPw,
		const char *gemNrs, const char *user, const char *pw, unsigned int flags, int *pollFd) {
	return ((fnNbLogin)f)(stone, hostUser, hostPw, 0, gemNrs, user, pw, flags, 0, pollFd);
}

static int mcp_nbLoginFinished(void *f, GciSession s, GciErrSType *e) {
	BoolType executedSessionInit = 0;
	return ((fnNbLoginFinished)f)(s, &executedSessionInit, e);
}

static BoolType mcp_sessErr(void *f, GciSession s, GciErrSType *e) { return ((fnSessErr)f)(s, e); }

static BoolType mcp_nbExecute(void *f, GciSession s, const char *src, OopType srcClass,
		OopType symbolList, GciErrSType *e) {
	// contextObject OOP_ILLEGAL: self is nil. flags 0: debugger off. environment 0.
	return ((fnNbExecute)f)(s, src, srcClass, 0x01, symbolList, 0, 0, e);
}

static BoolType mcp_nbPerform(void *f, GciSession s, OopType receiver, const char *selector,
		const OopType *args, int n, GciErrSType *e) {
	// aSymbol OOP_ILLEGAL: the selector is given as text. flags 0, environment 0.
	return ((fnNbPerform)f)(s, receiver, 0x01, selector, args, n, 0, 0, e);
}

static int mcp_socket(void *f, GciSession s, GciErrSType *e) { return ((fnSocket)f)(s, e); }
static BoolType mcp_break(void *f, GciSession s, int hard, GciErrSType *e) { return ((fnBreak)f)(s, hard, e); }

enum { bytesNone, bytesString, bytesByteArray };

// mcp_newBytes creates a String (kind bytesString) or a ByteArray (bytesByteArray) holding the
// n bytes at b. Neither function is given NULL, even for no bytes.
static OopType mcp_newBytes(void *fNewString, void *fNewByteArray, GciSession s, int kind,
		const unsigned char *b, size_t n, GciErrSType *e) {
	static unsigned char none[1];
	if (kind == bytesString) return ((fnNewString_)fNewString)(s, n ? (const char *)b : "", n, e);
	return ((fnNewByteArray)fNewByteArray)(s, n ? (unsigned char *)b : none, n, e);
}

static OopType mcp_resolve(void *f, GciSession s, OopType sym, GciErrSType *e) {
	return ((fnResolveSymbolObj)f)(s, sym, 0x14, e); // OOP_NIL: the user's symbol list
}

static int64 mcp_fetchSize(void *f, GciSession s, OopType o, GciErrSType *e) { return ((fnFetchSize)f)(s, o, e); }

static int64 mcp_fetchBytes(void *f, GciSession s, OopType o, int64 start, unsigned char *dst, int64 n,
		GciErrSType *e) {
	return ((fnFetchBytes)f)(s, o, start, dst, n, e);
}

static BoolType mcp_oops(void *f, GciSession s, OopType *oops, int n, GciErrSType *e) {
	return ((fnOops)f)(s, oops, n, e);
}

static BoolType mcp_clearStack(void *f, GciSession s, OopType proc, GciErrSType *e) {
	return ((fnClearStack)f)(s, proc, e);
}

// mcp_wait blocks until fd or wakeFd is readable (or hung up), or timeoutMs passes (-1: no
// limit). It answers a bit set: 1 fd, 2 wakeFd; 0 for a timeout or an interrupted poll (the
// caller recomputes its deadlines and waits again); -errno on failure.
static int mcp_wait(int fd, int wakeFd, int timeoutMs) {
	struct pollfd p[2];
	p[0].fd = fd; p[0].events = POLLIN; p[0].revents = 0;
	p[1].fd = wakeFd; p[1].events = POLLIN; p[1].revents = 0;
	int r = poll(p, wakeFd >= 0 ? 2 : 1, timeoutMs);
	if (r < 0) return errno == EINTR ? 0 : -errno;
	int bits = 0;
	if (p[0].revents) bits |= 1;
	if (wakeFd >= 0 && p[1].revents) bits |= 2;
	return bits;
}

static int mcp_pipe(int *fds) {
	if (pipe(fds) != 0) return -errno;
	for (int i = 0; i < 2; i++) {
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
	}
	return 0;
}

static void mcp_poke(int fd) { char c = 1; ssize_t r = write(fd, &c, 1); (void)r; }

static void mcp_drain(int fd) {
	char buf[64];
	while (read(fd, buf, sizeof buf) > 0) {}
}

// ---- the call path in two crossings ---------------------------------------------------------
//
// A perform takes about eleven steps (drain the wake pipe, new string, CString and free of the
// selector, perform, wait, poll, result, fetch size, fetch bytes, release); a crossing from Go
// into C for each would cost more than the steps. mcp_start and mcp_await do them in order, on
// the same thread that holds the session's call slot, in two crossings. Nothing here polls a session
// another thread is inside: both run only under the call slot, and GciTsBreak (the one call
// made from elsewhere) is never made here.

enum { opNone, opNewString, opNewByteArray, opPerform, opPoll, opResult, opFetchSize, opFetchBytes, opNoMemory };

// mcp_start drains stale wake-ups (wakeFd -1: none can be there), creates the call's one byte-object argument (argKind 1
// String, 2 ByteArray, 0 none; more args than that take the general path) and starts the
// perform. It answers the op that failed (opNone: started) and leaves the created argument
// in *created (OOP_ILLEGAL when none), so the caller releases it either way.
static int mcp_start(void *fNewString, void *fNewByteArray, void *fPerform, GciSession s, int wakeFd,
		OopType receiver, const char *sel, size_t selLen, int argKind, const unsigned char *arg, size_t argLen,
		OopType *created, GciErrSType *e) {
	char buf[4096];
	if (wakeFd >= 0) { while (read(wakeFd, buf, sizeof buf) > 0) {} }
	*created = 0x01;
	char *csel = selLen < sizeof buf ? buf : malloc(selLen + 1);
	if (csel == NULL) return opNoMemory;
	memcpy(csel, sel, selLen);
	csel[selLen] = 0;
	OopType argOop = 0;
	int n = 0, op = opNone;
	if (argKind != bytesNone) {
		argOop = mcp_newBytes(fNewString, fNewByteArray, s, argKind, arg, argLen, e);
		if (argOop == 0x01) op = argKind == bytesString ? opNewString : opNewByteArray;
	}
	if (op == opNone && argKind != 0) {
		*created = argOop;
		n = 1;
		memset(e, 0, sizeof *e);
	}
	if (op == opNone && ((fnNbPerform)fPerform)(s, receiver, 0x01, csel, n ? &argOop : NULL, n, 0, 0, e) == 0) {
		op = opPerform;
	}
	if (csel != buf) free(csel);
	return op;
}

typedef struct {
	int bits;          // mcp_wait's answer: 1 the GCI socket, 2 woken; 0 timed out; -errno
	int state;         // 0 not finished, 1 finished, -1 failed (failedOp, e)
	int failedOp;      // for state -1, and for a failed fetch with state 1
	int released;      // 1 the created objects and the result were released (releaseFailed: how)
	int releaseFailed;
	OopType result;
	int64 size;        // the result's size in bytes (byte objects)
	int64 got;         // bytes fetched into buf; -1: not fetched (too big for buf, or special)
} mcpAwait;

// mcp_await waits like mcp_wait and, when the GCI socket turned readable, polls; when the
// call finished it takes the result and, for a byte object that fits buf, fetches its bytes
// and releases it together with the call's created objects. A result too big for buf is left
// to the caller (got -1, nothing released).
static void mcp_await(void *fPoll, void *fResult, void *fSize, void *fBytes, void *fRelease,
		GciSession s, int fd, int wakeFd, int timeoutMs,
		unsigned char *buf, int64 bufLen, int64 page, const OopType *created, int nCreated,
		mcpAwait *o, GciErrSType *e, GciErrSType *re) {
	memset(o, 0, sizeof *o);
	o->got = -1;
	o->bits = mcp_wait(fd, wakeFd, timeoutMs);
	if (o->bits < 0) return;
	if (o->bits & 2) mcp_drain(wakeFd);
	if (!(o->bits & 1)) return;
	int r = ((fnNbPoll)fPoll)(s, 0, e);
	if (r == 0) { // readable but not finished (keep-alive traffic): let the library read it
		memset(e, 0, sizeof *e);
		r = ((fnNbPoll)fPoll)(s, 5, e);
	}
	if (r < 0) { o->state = -1; o->failedOp = opPoll; return; }
	if (r == 0) return;
	memset(e, 0, sizeof *e);
	OopType res = ((fnNbResult)fResult)(s, e);
	if (res == 0x01 || e->number != 0) { o->state = -1; o->failedOp = opResult; return; }
	o->state = 1;
	o->result = res;
	int special = (res & 7) != 0 && (res & 1) == 0;
	if (!special) {
		memset(e, 0, sizeof *e);
		int64 n = ((fnFetchSize)fSize)(s, res, e);
		if (n < 0) {
			o->failedOp = opFetchSize;
		} else if (n > bufLen) {
			o->size = n;
			return; // the caller fetches in pages into a buffer of its size, then releases
		} else {
			o->size = n;
			int64 off = 0;
			while (off < n) {
				int64 want = n - off < page ? n - off : page;
				memset(e, 0, sizeof *e);
				int64 got = ((fnFetchBytes)fBytes)(s, res, off + 1, buf + off, want, e);
				if (got < 0) { o->failedOp = opFetchBytes; break; }
				if (got == 0) break;
				off += got;
			}
			o->got = off;
		}
	}
	OopType stack[16];
	int k = nCreated + (special ? 0 : 1);
	OopType *rel = k <= 16 ? stack : malloc(k * sizeof *rel);
	if (rel == NULL) return; // not released: the caller does it
	for (int i = 0; i < nCreated; i++) rel[i] = created[i];
	if (!special) rel[nCreated] = res;
	if (k > 0 && ((fnOops)fRelease)(s, rel, k, re) == 0) o->releaseFailed = 1;
	o->released = 1;
	if (rel != stack) free(rel);
}

// mcp_epoll answers a non-blocking epoll descriptor watching fd (the GCI socket, left
// exactly as the library made it) and wakeFd for input, or -errno. Go's netpoller watches
// this descriptor in place of the socket, so a waiting call parks its goroutine instead of
// holding an OS thread in poll(2).
#ifdef __linux__
#include <sys/epoll.h>
static int mcp_epoll(int fd, int wakeFd) {
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0) return -errno;
	struct epoll_event ev;
	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN;
	ev.data.fd = fd;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) { int e = errno; close(ep); return -e; }
	ev.data.fd = wakeFd;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, wakeFd, &ev) != 0) { int e = errno; close(ep); return -e; }
	if (fcntl(ep, F_SETFL, fcntl(ep, F_GETFL) | O_NONBLOCK) != 0) { int e = errno; close(ep); return -e; }
	return ep;
}
#else
static int mcp_epoll(int fd, int wakeFd) { (void)fd; (void)wakeFd; return -ENOSYS; }
#endif

typedef int64 (*fnExportCount)(GciSession);
static int64 mcp_exportCount(void *f, GciSession s) { return ((fnExportCount)f)(s); }

static void mcp_close(int fd) { close(fd); }

static void mcp_wipe(char *p) { if (p) { volatile char *v = p; while (*v) *v++ = 0; } }
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// oop is a GemStone object pointer (OopType).
type oop = uint64

const (
	oopIllegal     oop = 0x01
	oopNil         oop = 0x14
	oopFalse       oop = 0x0C
	oopTrue        oop = 0x10C
	oopClassString oop = 74753

	loginQuiet           = 0x10
	loginOneTimePassword = 0x400
	loginJWTPassword     = 0x800
)

// symbol indexes the functions bound at load time (all in GemStone 3.7.0).
type symbol int

const (
	symVersion symbol = iota
	symNbLogin
	symNbLoginFinished
	symLogout
	symNbLogout
	symNbExecute
	symNbPerform
	symNbResult
	symNbPoll
	symSocket
	symBreak
	symNewString
	symNewByteArray
	symResolveSymbolObj
	symFetchSize
	symFetchBytes
	symReleaseObjs
	symClearStack
	symAbort
	symCount
)

var symbolNames = [symCount]string{
	symVersion:          "GciTsVersion",
	symNbLogin:          "GciTsNbLogin",
	symNbLoginFinished:  "GciTsNbLoginFinished",
	symLogout:           "GciTsLogout",
	symNbLogout:         "GciTsNbLogout",
	symNbExecute:        "GciTsNbExecute",
	symNbPerform:        "GciTsNbPerform",
	symNbResult:         "GciTsNbResult",
	symNbPoll:           "GciTsNbPoll",
	symSocket:           "GciTsSocket",
	symBreak:            "GciTsBreak",
	symNewString:        "GciTsNewString_",
	symNewByteArray:     "GciTsNewByteArray",
	symResolveSymbolObj: "GciTsResolveSymbolObj",
	symFetchSize:        "GciTsFetchSize",
	symFetchBytes:       "GciTsFetchBytes",
	symReleaseObjs:      "GciTsReleaseObjs",
	symClearStack:       "GciTsClearStack",
	symAbort:            "GciTsAbort",
}

// newerSymbols lists functions the binding never needs at load time, with the release that
// introduced them (vendor headers): those added after 3.7.0, and the debug functions that
// Windows builds lack. They are bound on first use, so an older library still loads.
var newerSymbols = map[string]Version{
	"GciTsFetchNamedOops":         {Major: 3, Minor: 7, Patch: 1},
	"GciTsFetchVaryingOops":       {Major: 3, Minor: 7, Patch: 1},
	"GciTsFetchGbjInfo":           {Major: 3, Minor: 7, Patch: 2},
	"GciTsPerformFetchOops":       {Major: 3, Minor: 7, Patch: 2},
	"GciTsNewStringFromUtf16":     {Major: 3, Minor: 7, Patch: 2},
	"GciTsDirtyExportedObjs":      {Major: 3, Minor: 7, Patch: 2},
	"GciTsKeepAliveCount":         {Major: 3, Minor: 7, Patch: 2},
	"GciTsKeyfilePermissions":     {Major: 3, Minor: 7, Patch: 2},
	"GciTsLogin_":                 {Major: 3, Minor: 7, Patch: 4, Build: 1, HasBuild: true},
	"GciTsNbLogin_":               {Major: 3, Minor: 7, Patch: 4, Build: 1, HasBuild: true},
	"GciTsStoreNamedOops":         {Major: 3, Minor: 7, Patch: 1},
	"GciTsStoreIdxOops":           {Major: 3, Minor: 7, Patch: 1},
	"GciTsAddOopsToNsc":           {Major: 3, Minor: 7, Patch: 1},
	"GciTsDebugConnectToGem":      {Major: 3, Minor: 7, Patch: 0},
	"GciTsDebugStartDebugService": {Major: 3, Minor: 7, Patch: 0},
}

// gciAPI holds the bound functions of one loaded library.
type gciAPI struct {
	path   string
	handle unsafe.Pointer
	fns    [symCount]unsafe.Pointer

	lazyMu sync.Mutex
	lazy   map[string]unsafe.Pointer

	// errs recycles the 2168-byte error structs every call passes to the library.
	errs sync.Pool
	// scratch recycles the buffers results are fetched into (*[]byte of scratchBytes): one
	// per call waiting, not one per session, so a thousand idle sessions hold none.
	scratch sync.Pool
}

// scratchBuf answers a buffer of scratchBytes; give it back with scratch.Put once the
// result's bytes were copied out of it.
func (a *gciAPI) scratchBuf() *[]byte {
	if b, ok := a.scratch.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, scratchBytes)
	return &b
}

// errBuf answers a cleared GciErrSType; give it back with errs.Put when the call is over
// (after its contents were copied into an *Error).
func (a *gciAPI) errBuf() *C.GciErrSType {
	if e, ok := a.errs.Get().(*C.GciErrSType); ok {
		*e = C.GciErrSType{}
		return e
	}
	return new(C.GciErrSType)
}

func loadAPI(path, netldi string, tried []string) (*gciAPI, error) {
	var msg [1024]C.char
	if netldi != "" {
		cpath := C.CString(netldi)
		h := C.mcp_dlopen(cpath, 1, &msg[0], C.size_t(len(msg)))
		C.free(unsafe.Pointer(cpath))
		if h == nil {
			return nil, &LoadError{Tried: append(tried, netldi), Reason: C.GoString(&msg[0])}
		}
	}
	cpath := C.CString(path)
	h := C.mcp_dlopen(cpath, 0, &msg[0], C.size_t(len(msg)))
	C.free(unsafe.Pointer(cpath))
	if h == nil {
		reason := C.GoString(&msg[0])
		if netldi == "" && runtime.GOOS == "linux" {
			reason += " (no libnetldi-<version>-64.so beside it: libgcits needs it loaded first)"
		}
		return nil, &LoadError{Tried: tried, Reason: reason}
	}
	api := &gciAPI{path: path, handle: h, lazy: map[string]unsafe.Pointer{}}
	for i, name := range symbolNames {
		cname := C.CString(name)
		f := C.mcp_dlsym(h, cname)
		C.free(unsafe.Pointer(cname))
		if f == nil {
			return nil, &SymbolError{Symbol: name, Library: path}
		}
		api.fns[i] = f
	}
	return api, nil
}

// lazySymbol binds a function newer than 3.7.0 on first use; the error names the symbol and
// the release that introduced it.
func (a *gciAPI) lazySymbol(name string, have Version) (unsafe.Pointer, error) {
	a.lazyMu.Lock()
	defer a.lazyMu.Unlock()
	if f, ok := a.lazy[name]; ok {
		return f, nil
	}
	since, known := newerSymbols[name]
	if !known {
		return nil, fmt.Errorf("gemstone: %s is not a symbol the binding binds lazily", name)
	}
	cname := C.CString(name)
	f := C.mcp_dlsym(a.handle, cname)
	C.free(unsafe.Pointer(cname))
	if f == nil {
		return nil, &SymbolError{Symbol: name, Library: a.path, Needs: &since, Have: have}
	}
	a.lazy[name] = f
	return f, nil
}

func (a *gciAPI) versionText() string {
	var buf [256]C.char
	C.mcp_version(a.fns[symVersion], &buf[0], C.size_t(len(buf)))
	return C.GoString(&buf[0])
}

// handle is a GciSession pointer; only this file dereferences it.
type handle = C.GciSession

// gciError turns a filled GciErrSType into an *Error that remembers the OOPs it exported.
func gciError(op string, e *C.GciErrSType) *Error {
	out := &Error{
		Number:   int(e.number),
		Category: uint64(e.category),
		Fatal:    e.fatal != 0,
		ArgCount: int(e.argCount),
		Message:  cText(e.message[:]),
		Reason:   cText(e.reason[:]),
		Op:       op,
		context:  uint64(e.context),
	}
	// Error objects are exported to the gem's export set: remember them for release.
	keep := func(o oop) {
		if o != 0 && o != oopNil && o != oopIllegal && !isSpecial(o) {
			out.exported = append(out.exported, o)
		}
	}
	keep(uint64(e.context))
	keep(uint64(e.exceptionObj))
	for i := 0; i < int(e.argCount) && i < len(e.args); i++ {
		keep(uint64(e.args[i]))
	}
	return out
}

func cText(b []C.char) string {
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b))
	for i, c := range raw {
		if c == 0 {
			return string(raw[:i])
		}
	}
	return string(raw)
}

// failed builds the error of a call that reported failure, or a session-gone error when the
// library reported failure without saying why.
func failed(op string, e *C.GciErrSType) *Error {
	if e.number == 0 {
		return sessionGoneError(op, "the library gave no error")
	}
	return gciError(op, e)
}

// loginStrings are the C copies of the login arguments. They live until the login finishes,
// because the library logs in on a thread of its own after GciTsNbLogin returns.
type loginStrings struct {
	stone, hostUser, hostPw, gem, user, pw *C.char
}

func newLoginStrings(p LoginParams) *loginStrings {
	cs := func(s string) *C.char {
		if s == "" {
			return nil
		}
		return C.CString(s)
	}
	return &loginStrings{
		stone: cs(p.StoneNRS), hostUser: cs(p.HostUser), hostPw: cs(p.HostPassword),
		gem: cs(p.GemNRS), user: cs(p.User), pw: cs(p.Password),
	}
}

// free wipes the secrets before giving the memory back.
func (l *loginStrings) free() {
	C.mcp_wipe(l.pw)
	C.mcp_wipe(l.hostPw)
	for _, p := range []*C.char{l.stone, l.hostUser, l.hostPw, l.gem, l.user, l.pw} {
		if p != nil {
			C.free(unsafe.Pointer(p))
		}
	}
}

func (a *gciAPI) nbLogin(l *loginStrings, flags uint) (handle, int) {
	var fd C.int = -1
	h := C.mcp_nbLogin(a.fns[symNbLogin], l.stone, l.hostUser, l.hostPw, l.gem, l.user, l.pw, C.uint(flags), &fd)
	return h, int(fd)
}

// nbLoginFinished answers 0 pending, 1 done (a warning may come with it), -1 failed.
func (a *gciAPI) nbLoginFinished(h handle) (int, *Error) {
	e := a.errBuf()
	defer a.errs.Put(e)
	r := int(C.mcp_nbLoginFinished(a.fns[symNbLoginFinished], h, e))
	if r < 0 {
		return r, failed("GciTsNbLoginFinished", e)
	}
	if e.number != 0 {
		return r, gciError("GciTsNbLoginFinished", e) // a warning on a successful login
	}
	return r, nil
}

func (a *gciAPI) sessErr(sym symbol, h handle) *Error {
	e := a.errBuf()
	defer a.errs.Put(e)
	if C.mcp_sessErr(a.fns[sym], h, e) == 0 {
		return failed(symbolNames[sym], e)
	}
	return nil
}

func (a *gciAPI) logout(h handle) *Error   { return a.sessErr(symLogout, h) }
func (a *gciAPI) nbLogout(h handle) *Error { return a.sessErr(symNbLogout, h) }
func (a *gciAPI) abort(h handle) *Error    { return a.sessErr(symAbort, h) }

func (a *gciAPI) socket(h handle) (int, *Error) {
	e := a.errBuf()
	defer a.errs.Put(e)
	fd := int(C.mcp_socket(a.fns[symSocket], h, e))
	if fd < 0 {
		return -1, failed("GciTsSocket", e)
	}
	return fd, nil
}

func (a *gciAPI) nbExecute(h handle, source string) *Error {
	csrc := C.CString(source)
	defer C.free(unsafe.Pointer(csrc))
	e := a.errBuf()
	defer a.errs.Put(e)
	if C.mcp_nbExecute(a.fns[symNbExecute], h, csrc, C.OopType(oopClassString), C.OopType(oopNil), e) == 0 {
		return failed("GciTsNbExecute", e)
	}
	return nil
}

func (a *gciAPI) nbPerform(h handle, receiver oop, selector string, args []oop) *Error {
	csel := C.CString(selector)
	defer C.free(unsafe.Pointer(csel))
	var argp *C.OopType
	if len(args) > 0 {
		argp = (*C.OopType)(unsafe.Pointer(&args[0]))
	}
	e := a.errBuf()
	defer a.errs.Put(e)
	if C.mcp_nbPerform(a.fns[symNbPerform], h, C.OopType(receiver), csel, argp, C.int(len(args)), e) == 0 {
		return failed("GciTsNbPerform", e)
	}
	return nil
}

func (a *gciAPI) breakCall(h handle, hard bool) *Error {
	e := a.errBuf()
	defer a.errs.Put(e)
	hv := C.int(0)
	if hard {
		hv = 1
	}
	if C.mcp_break(a.fns[symBreak], h, hv, e) == 0 {
		return failed("GciTsBreak", e)
	}
	return nil
}

func (a *gciAPI) newString(h handle, b []byte) (oop, *Error) {
	return a.newBytes(h, C.bytesString, symNewString, b)
}

func (a *gciAPI) newByteArray(h handle, b []byte) (oop, *Error) {
	return a.newBytes(h, C.bytesByteArray, symNewByteArray, b)
}

// newBytes creates the byte object of kind (mcp_newBytes) holding b; sym names the GCI
// function in an error.
func (a *gciAPI) newBytes(h handle, kind C.int, sym symbol, b []byte) (oop, *Error) {
	var p *C.uchar
	if len(b) > 0 {
		p = (*C.uchar)(unsafe.Pointer(&b[0]))
	}
	e := a.errBuf()
	defer a.errs.Put(e)
	r := oop(C.mcp_newBytes(a.fns[symNewString], a.fns[symNewByteArray], h, kind, p, C.size_t(len(b)), e))
	if r == oopIllegal {
		return r, failed(symbolNames[sym], e)
	}
	return r, nil
}

func (a *gciAPI) resolveSymbolObj(h handle, name oop) (oop, *Error) {
	e := a.errBuf()
	defer a.errs.Put(e)
	r := oop(C.mcp_resolve(a.fns[symResolveSymbolObj], h, C.OopType(name), e))
	if r == oopIllegal && e.number != 0 {
		return r, gciError("GciTsResolveSymbolObj", e)
	}
	// OOP_ILLEGAL without an error: the name is not defined.
	return r, nil
}

func (a *gciAPI) fetchSize(h handle, o oop) (int64, *Error) {
	e := a.errBuf()
	defer a.errs.Put(e)
	n := int64(C.mcp_fetchSize(a.fns[symFetchSize], h, C.OopType(o), e))
	if n < 0 {
		return n, failed("GciTsFetchSize", e)
	}
	return n, nil
}

// fetchBytes copies bytes of o from the 1-based start into dst.
func (a *gciAPI) fetchBytes(h handle, o oop, start int64, dst []byte) (int64, *Error) {
	e := a.errBuf()
	defer a.errs.Put(e)
	n := int64(C.mcp_fetchBytes(a.fns[symFetchBytes], h, C.OopType(o), C.int64(start),
		(*C.uchar)(unsafe.Pointer(&dst[0])), C.int64(len(dst)), e))
	if n < 0 {
		return n, failed("GciTsFetchBytes", e)
	}
	return n, nil
}

func (a *gciAPI) releaseObjs(h handle, oops []oop) *Error {
	if len(oops) == 0 {
		return nil
	}
	e := a.errBuf()
	defer a.errs.Put(e)
	if C.mcp_oops(a.fns[symReleaseObjs], h, (*C.OopType)(unsafe.Pointer(&oops[0])), C.int(len(oops)), e) == 0 {
		return failed("GciTsReleaseObjs", e)
	}
	return nil
}

func (a *gciAPI) clearStack(h handle, process oop) *Error {
	e := a.errBuf()
	defer a.errs.Put(e)
	if C.mcp_clearStack(a.fns[symClearStack], h, C.OopType(process), e) == 0 {
		return failed("GciTsClearStack", e)
	}
	return nil
}

// callOp names the GCI function a combined call failed in.
var callOps = map[C.int]string{
	C.opNewString: "GciTsNewString_", C.opNewByteArray: "GciTsNewByteArray", C.opPerform: "GciTsNbPerform",
	C.opPoll: "GciTsNbPoll", C.opResult: "GciTsNbResult", C.opFetchSize: "GciTsFetchSize", C.opFetchBytes: "GciTsFetchBytes",
}

// startPerform drains the wake pipe, creates the one byte-object argument (argKind 0 none,
// 1 String, 2 ByteArray) and starts the perform, in one crossing. created is the argument's
// object (oopIllegal when none was made), to be released whatever happens next.
func (a *gciAPI) startPerform(h handle, wakeFd int, receiver oop, selector string, argKind int, arg []byte) (created oop, _ *Error) {
	var argp *C.uchar
	if len(arg) > 0 {
		argp = (*C.uchar)(unsafe.Pointer(&arg[0]))
	}
	e := a.errBuf()
	defer a.errs.Put(e)
	var c C.OopType
	op := C.mcp_start(a.fns[symNewString], a.fns[symNewByteArray], a.fns[symNbPerform], h, C.int(wakeFd),
		C.OopType(receiver), (*C.char)(unsafe.Pointer(unsafe.StringData(selector))), C.size_t(len(selector)),
		C.int(argKind), argp, C.size_t(len(arg)), &c, e)
	created = oop(c)
	switch op {
	case C.opNone:
		return created, nil
	case C.opNoMemory:
		return created, &Error{Op: "GciTsNbPerform", Message: "out of memory for the selector"}
	}
	return created, failed(callOps[op], e)
}

// awaitResult is what one awaitStep saw.
type awaitResult struct {
	fdReady, woken bool
	// finished: the call is over; result is its object, bytes its bytes when fetched.
	finished bool
	result   oop
	bytes    []byte
	fetched  bool // bytes were fetched (false: special result, or too big for the scratch buffer)
	released bool // the created objects and the result were released
	callErr  *Error
	fetchErr *Error
	relErr   *Error
}

// awaitStep waits for the GCI socket or the wake pipe for up to timeoutMs (-1: no limit) and,
// when the call finished, takes its result, fetches a byte result that fits scratch and
// releases it with created, in one crossing.
func (a *gciAPI) awaitStep(h handle, fd, wakeFd, timeoutMs int, scratch []byte, created []oop) (awaitResult, error) {
	var o C.mcpAwait
	e := a.errBuf()
	defer a.errs.Put(e)
	re := a.errBuf()
	defer a.errs.Put(re)
	var cp *C.OopType
	if len(created) > 0 {
		cp = (*C.OopType)(unsafe.Pointer(&created[0]))
	}
	C.mcp_await(a.fns[symNbPoll], a.fns[symNbResult], a.fns[symFetchSize], a.fns[symFetchBytes], a.fns[symReleaseObjs],
		h, C.int(fd), C.int(wakeFd), C.int(timeoutMs),
		(*C.uchar)(unsafe.Pointer(&scratch[0])), C.int64(len(scratch)), C.int64(fetchPage), cp, C.int(len(created)), &o, e, re)
	if o.bits < 0 {
		return awaitResult{}, fmt.Errorf("gemstone: poll: errno %d", -o.bits)
	}
	r := awaitResult{fdReady: o.bits&1 != 0, woken: o.bits&2 != 0}
	switch o.state {
	case 0:
		return r, nil
	case -1:
		r.finished = true
		r.callErr = failed(callOps[o.failedOp], e)
		return r, nil
	}
	r.finished, r.result, r.released = true, oop(o.result), o.released != 0
	switch {
	case o.failedOp != C.opNone:
		r.fetchErr = failed(callOps[o.failedOp], e)
	case o.got >= 0:
		r.fetched = true
		r.bytes = make([]byte, o.got)
		copy(r.bytes, scratch[:o.got])
	}
	if o.releaseFailed != 0 {
		r.relErr = failed("GciTsReleaseObjs", re)
	}
	return r, nil
}

// newWaitFd answers an epoll descriptor on fd and wakeFd for Go's netpoller (mcp_epoll).
func newWaitFd(fd, wakeFd int) (int, error) {
	ep := int(C.mcp_epoll(C.int(fd), C.int(wakeFd)))
	if ep < 0 {
		return -1, fmt.Errorf("gemstone: epoll: errno %d", -ep)
	}
	return ep, nil
}

// standinExportCount answers the size of a session's export set as the GCI test stand-in
// counts it (GciStandinExportCount, a stand-in-only function), or -1 when the library has no
// such function (GemStone has none). Tests use it to prove that results, arguments and error
// objects are released.
func (a *gciAPI) standinExportCount(h handle) int64 {
	cname := C.CString("GciStandinExportCount")
	f := C.mcp_dlsym(a.handle, cname)
	C.free(unsafe.Pointer(cname))
	if f == nil {
		return -1
	}
	return int64(C.mcp_exportCount(f, h))
}

// waitReadable blocks in poll(2) on fd and wakeFd for up to timeoutMs (-1: no limit).
func waitReadable(fd, wakeFd, timeoutMs int) (fdReady, woken bool, err error) {
	r := int(C.mcp_wait(C.int(fd), C.int(wakeFd), C.int(timeoutMs)))
	if r < 0 {
		return false, false, fmt.Errorf("gemstone: poll: errno %d", -r)
	}
	return r&1 != 0, r&2 != 0, nil
}

// wakePipe is the pair of descriptors that interrupts a wait.
type wakePipe struct{ r, w int }

func newWakePipe() (wakePipe, error) {
	var fds [2]C.int
	if r := C.mcp_pipe(&fds[0]); r != 0 {
		return wakePipe{-1, -1}, fmt.Errorf("gemstone: wake-up pipe: errno %d", -r)
	}
	return wakePipe{int(fds[0]), int(fds[1])}, nil
}

func (p wakePipe) poke()  { C.mcp_poke(C.int(p.w)) }
func (p wakePipe) drain() { C.mcp_drain(C.int(p.r)) }
func (p wakePipe) close() {
	C.mcp_close(C.int(p.r))
	C.mcp_close(C.int(p.w))
}
