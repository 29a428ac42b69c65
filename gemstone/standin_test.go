package gemstone

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// A session's life on the stand-in; each subtest is one step, in order.
func TestASessionOnTheStandIn(t *testing.T) {
	lib := openStandin(t)
	t.Run("the library names its version", func(t *testing.T) {
		if got := lib.Version().String(); got != standinVersion {
			t.Errorf("Version() = %s (from %q), want %s", got, lib.VersionText(), standinVersion)
		}
	})
	ctx := callCtx(t)
	params := standinLogin(t)
	params.HostUser, params.HostPassword = "gsadmin", "host-secret"
	s, err := lib.Login(ctx, params)
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	info, err := s.Perform(ctx, "System", "standinLoginInfo")
	if err != nil {
		t.Fatalf("standinLoginInfo: %v", err)
	}
	var login struct {
		User      string            `json:"user"`
		Flags     uint32            `json:"flags"`
		GemConfig map[string]string `json:"gemConfig"`
		HostUser  string            `json:"hostUser"`
	}
	if err := json.Unmarshal(info, &login); err != nil {
		t.Fatalf("standinLoginInfo answered %s: %v", info, err)
	}
	t.Run("the login carries the host user", func(t *testing.T) {
		if login.HostUser != "gsadmin" {
			t.Errorf("the gem saw host user %q, want gsadmin", login.HostUser)
		}
	})
	t.Run("the login carries the user, the quiet flag and the gem's config", func(t *testing.T) {
		if login.User != "DataCurator" || login.Flags&loginQuiet == 0 || login.GemConfig["GEM_TEMPOBJ_CACHE_SIZE"] != "50000" {
			t.Errorf("the gem saw user %q flags %#x config %v; want DataCurator, GCI_LOGIN_QUIET, the -C body", login.User, login.Flags, login.GemConfig)
		}
	})
	t.Run("Close logs out, and again does nothing", func(t *testing.T) {
		if err := s.Close(ctx); err != nil {
			t.Fatalf("logout: %v", err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatalf("a second Close: %v", err)
		}
	})
	t.Run("a call after logout is refused as closed", func(t *testing.T) {
		if _, err := s.Perform(ctx, "System", "session"); !errors.Is(err, ErrSessionClosed) || !IsFatal(err) {
			t.Fatalf("a call after logout = %v, want ErrSessionClosed (fatal)", err)
		}
		if err := s.Break(false); !errors.Is(err, ErrSessionClosed) {
			t.Fatalf("Break after logout = %v, want ErrSessionClosed", err)
		}
	})
}

func TestEachPasswordKindSetsItsLoginFlag(t *testing.T) {
	lib := openStandin(t)
	for _, c := range []struct {
		name string
		kind PasswordKind
		pw   string
		flag uint32
	}{
		{"one-time", PasswordOneTime, "", loginOneTimePassword}, // minted below
		{"JWT", PasswordJWT, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.c2ln", loginJWTPassword},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := standinLogin(t)
			p.Password, p.PasswordKind = c.pw, c.kind
			if c.kind == PasswordOneTime { // the stand-in, like a stone, takes only a password it minted
				p.Password = mintOneTimeOnStandin(t, lib, p.User)
			}
			s, err := lib.Login(callCtx(t), p)
			if err != nil {
				t.Fatalf("login with password kind %d: %v", c.kind, err)
			}
			info, err := s.Perform(callCtx(t), "System", "standinLoginInfo")
			s.Close(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var login struct {
				Flags uint32 `json:"flags"`
			}
			json.Unmarshal(info, &login)
			if login.Flags&c.flag == 0 || login.Flags&loginQuiet == 0 {
				t.Errorf("password kind %d: the gem saw flags %#x, want %#x|GCI_LOGIN_QUIET", c.kind, login.Flags, c.flag)
			}
		})
	}
}

// mintOneTimeOnStandin mints a one-time password for user the way the router's control
// session does (docs/read-only-user.md).
func mintOneTimeOnStandin(t *testing.T, lib *Library, user string) string {
	t.Helper()
	t.Cleanup(func() { os.RemoveAll(os.Getenv("GCI_STANDIN_DIR") + ".onetime") }) // beside the session directory
	minter, err := lib.Login(callCtx(t), standinLogin(t))
	if err != nil {
		t.Fatal(err)
	}
	defer minter.Close(context.Background())
	pw, err := minter.Execute(callCtx(t), `"mcp-control:onetime-password v1"
GsCurrentSession currentSession createOnetimePasswordForUserId: '`+user+`' validForSeconds: 60`)
	if err != nil || len(pw) == 0 {
		t.Fatalf("minting a one-time password: %q %v", pw, err)
	}
	return string(pw)
}

func TestAWrongPassword(t *testing.T) {
	lib := openStandin(t)
	p := standinLogin(t)
	p.Password = "wrong"
	err := refusedLogin(callCtx(t), t, lib, p, "a wrong password logged in")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("login error %v: want a *Error", err)
	}
	t.Run("is login denied", func(t *testing.T) {
		if !IsLoginDenied(err) || e.Number != ErrNumLoginDenied {
			t.Fatalf("login error %v: want a 4051 *Error that IsLoginDenied", err)
		}
	})
	t.Run("tells a client only the number", func(t *testing.T) {
		if got := e.ClientSafe(); got != "GemStone error 4051 (login denied)" {
			t.Errorf("ClientSafe = %q", got)
		}
	})
}

func TestGemConfigurationWithASpaceIsRefusedBeforeAnyGemStarts(t *testing.T) {
	lib := openStandin(t)
	p := standinLogin(t)
	p.GemNRS = "!tcp@localhost#netldi:gs64ldi#task!gemnetobject -C GEM_A=1; GEM_B=2;"
	err := refusedLogin(callCtx(t), t, lib, p, "a gem configuration with a space was accepted")
	if !strings.Contains(err.Error(), "space at position 9") {
		t.Fatalf("error %q does not name the space at position 9", err)
	}
}

func TestMissingSymbolIsNamed(t *testing.T) {
	_, err := Open(LibraryConfig{Home: brokenStandinHome(t)})
	var se *SymbolError
	if !errors.As(err, &se) || se.Symbol != "GciTsNbPerform" || !strings.Contains(err.Error(), "GciTsNbPerform") {
		t.Fatalf("opening the broken stand-in: %v; want a *SymbolError naming GciTsNbPerform", err)
	}
}

func TestSymbolsNewerThanTheBaseVersion(t *testing.T) {
	lib := openStandin(t)
	t.Run("are named with the version they need when missing", func(t *testing.T) {
		_, err := lib.api.lazySymbol("GciTsFetchGbjInfo", lib.Version())
		var se *SymbolError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "GciTsFetchGbjInfo") || !strings.Contains(err.Error(), "needs GemStone 3.7.2") {
			t.Fatalf("lazy bind of a symbol the stand-in lacks: %v; want it named with 'needs GemStone 3.7.2'", err)
		}
	})
	t.Run("are bound on first use", func(t *testing.T) {
		if f, err := lib.api.lazySymbol("GciTsKeepAliveCount", lib.Version()); err == nil && f == nil {
			t.Fatal("a lazily bound symbol answered nil without an error")
		}
	})
}

func TestEightSessionsSleepInParallel(t *testing.T) {
	lib := openStandin(t)
	const n, ms = 8, 500
	sessions := make([]*Session, n)
	for i := range sessions {
		sessions[i] = loginPrepared(t, lib)
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = callTool(callCtx(t), s, "sleep", map[string]any{"ms": ms})
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
	}
	t.Logf("%d sessions x sleep %d ms took %v (serial would be %v)", n, ms, elapsed, n*ms*time.Millisecond)
	if elapsed < ms*time.Millisecond {
		t.Fatalf("the sleeps ended after %v, before %d ms: they did not sleep", elapsed, ms)
	}
	if limit := n * ms * time.Millisecond / 2; elapsed > limit {
		t.Fatalf("8 parallel sleeps took %v, more than %v: calls are serialised", elapsed, limit)
	}
}

func TestSecondConcurrentCallFailsFastWithCallInProgress(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	done := make(chan error, 1)
	go func() {
		_, err := callTool(callCtx(t), s, "sleep", map[string]any{"ms": 1500})
		done <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); len(s.slot) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the first call never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	_, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "x"})
	if !errors.Is(err, ErrCallInProgress) {
		t.Fatalf("second call = %v, want ErrCallInProgress", err)
	}
	if d := time.Since(start); d > 250*time.Millisecond {
		t.Fatalf("the refusal took %v: it queued", d)
	}
	if err := <-done; err != nil {
		t.Fatalf("the first call: %v", err)
	}
}

func TestASoftBreakOfABreakableCall(t *testing.T) {
	s, elapsed, err := sleepPast(t, 200*time.Millisecond, "sleep")
	t.Run("ends it at once with 6003, not fatal", func(t *testing.T) {
		if EndingOf(err) != EndedBySoftBreak || !IsBreak(err) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("cancelled sleep = %v (ending %v); want a soft break wrapping DeadlineExceeded", err, EndingOf(err))
		}
		var e *Error
		if errors.As(err, &e); e.Number != ErrNumSoftBreak || IsFatal(err) {
			t.Fatalf("error number %d fatal %v, want 6003 not fatal", e.Number, IsFatal(err))
		}
		if elapsed > 200*time.Millisecond+time.Second {
			t.Fatalf("the soft break took %v to end the call", elapsed)
		}
	})
	t.Run("leaves the session serving", func(t *testing.T) {
		got, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "after the break"})
		if err != nil || len(got) == 0 || got[0] != "after the break" {
			t.Fatalf("the next call answered %q, %v", got, err)
		}
	})
}

func TestExplicitBreakFromAnotherGoroutineEndsTheCall(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	stop, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		// Break until the call ends: a break before the call starts is a no-op.
		for {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
				s.Break(false)
			}
		}
	}()
	_, err := callTool(callCtx(t), s, "sleep", map[string]any{"ms": 30000})
	close(stop)
	<-exited
	if !IsBreak(err) || EndingOf(err) != NotEnded {
		t.Fatalf("broken call = %v (ending %v); want a break not counted as the escalation's", err, EndingOf(err))
	}
	if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "x"}); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}

func TestEscalationEndsSoftImmuneSleepWithTheHardBreak(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	elapsed, err := timedSleep(ctx, s, "sleep_soft_immune")
	var e *Error
	if EndingOf(err) != EndedByHardBreak || !errors.As(err, &e) || e.Number != ErrNumHardBreak || !errors.Is(err, context.Canceled) {
		t.Fatalf("escalated call = %v (ending %v); want 6004 ended by the hard break, wrapping Canceled", err, EndingOf(err))
	}
	if elapsed < 100*time.Millisecond+MinBreakGap {
		t.Fatalf("the hard break came %v after the start: less than the %v gap after the soft one", elapsed, MinBreakGap)
	}
	if got, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "still here"}); err != nil || got[0] != "still here" {
		t.Fatalf("after the hard break the session answered %q, %v", got, err)
	}
}

func TestEscalationStopsASessionThatIgnoresBothBreaks(t *testing.T) {
	s, elapsed, err := sleepPast(t, 100*time.Millisecond, "sleep_immune")
	if EndingOf(err) != EndedByStop || !IsFatal(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("escalated call = %v (ending %v); want ended by stop, fatal, wrapping DeadlineExceeded", err, EndingOf(err))
	}
	if elapsed < 100*time.Millisecond+2*MinBreakGap || elapsed > 10*time.Second {
		t.Fatalf("the stop came after %v; want two gaps after the deadline", elapsed)
	}
	requireGone(t, s, "the stop")
}

func TestEscalationUsesTheStopHookWhenOneIsSet(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	control, err := lib.Login(callCtx(t), standinLogin(t))
	if err != nil {
		t.Fatal(err)
	}
	defer control.Close(context.Background())
	number, err := s.Perform(callCtx(t), "System", "session")
	if err != nil {
		t.Fatal(err)
	}
	hookRan := make(chan struct{}, 1)
	s.SetStopHook(func(ctx context.Context) error {
		hookRan <- struct{}{}
		var n int64
		json.Unmarshal(number, &n)
		_, err := control.Perform(ctx, "System", "stopSession:", SmallInteger(n))
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = callTool(ctx, s, "sleep_immune", map[string]any{"ms": 30000})
	if EndingOf(err) != EndedByStop || !IsFatal(err) {
		t.Fatalf("escalated call = %v (ending %v); want ended by stop, fatal", err, EndingOf(err))
	}
	select {
	case <-hookRan:
	default:
		t.Fatal("the stop hook did not run")
	}
	var e *Error
	if errors.As(err, &e); strings.Contains(e.Message, "stopped by the binding") {
		t.Fatalf("the binding fell back to NbLogout although the hook stopped the gem: %v", err)
	}
}

func TestKilledGemGivesAFatalError(t *testing.T) {
	lib := openStandin(t)
	s, pid := loginPreparedWithPid(t, lib)
	time.AfterFunc(200*time.Millisecond, func() { syscall.Kill(pid, syscall.SIGKILL) })
	_, err := callTool(callCtx(t), s, "sleep", map[string]any{"ms": 30000})
	var e *Error
	if !IsFatal(err) || !errors.As(err, &e) || e.Number < 4001 || e.Number > 4999 {
		t.Fatalf("call on a killed gem = %v; want a fatal error in 4001-4999", err)
	}
	safe := e.ClientSafe()
	for _, leak := range []string{"localhost", "gs64", "DataCurator", "tcp", "/"} {
		if strings.Contains(safe, leak) {
			t.Errorf("ClientSafe %q carries %q", safe, leak)
		}
	}
	requireGone(t, s, "the kill")
}

func TestGemThatDiesMidCallGivesAFatalError(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	_, err := callTool(callCtx(t), s, "die", map[string]any{})
	if !IsFatal(err) {
		t.Fatalf("die = %v, want a fatal error", err)
	}
}

// gemChildren lists this process's child processes running the stand-in gem.
func gemChildren(t *testing.T) map[int]bool {
	t.Helper()
	return children(t, "standin")
}

// children lists this process's live child processes whose command name contains name.
func children(t *testing.T, name string) map[int]bool {
	t.Helper()
	pids, err := mcptest.Children(name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, pid := range pids {
		out[pid] = true
	}
	return out
}

// loginPreparedWithPid logs in and answers the pid of the gem the login started.
func loginPreparedWithPid(t *testing.T, lib *Library) (*Session, int) {
	t.Helper()
	before := gemChildren(t)
	s := loginPrepared(t, lib)
	var started []int
	for pid := range gemChildren(t) {
		if !before[pid] {
			started = append(started, pid)
		}
	}
	if len(started) != 1 {
		t.Fatalf("the login started %d stand-in gem processes (%v), want 1", len(started), started)
	}
	return s, started[0]
}

func TestABigResultComesBackByteExact(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	const n = 10 << 20
	got, err := callTool(callCtx(t), s, "big", map[string]any{"n": n})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0]) != n {
		t.Fatalf("big answered %d texts, the first %d bytes; want one of %d", len(got), len(got[0]), n)
	}
	const pattern = "abcdefghijklmnopqrstuvwxyz0123456789\n"
	for i := 0; i < n; i += 4099 {
		if got[0][i] != pattern[i%len(pattern)] {
			t.Fatalf("byte %d is %q, want %q", i, got[0][i], pattern[i%len(pattern)])
		}
	}
}

func TestABigArgumentGoesByteExact(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	const n = 10 << 20
	text := make([]byte, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range text {
		text[i] = byte(' ' + rng.IntN(94))
	}
	echoed, err := callTool(callCtx(t), s, "echo", map[string]any{"text": string(text)})
	if err != nil {
		t.Fatal(err)
	}
	if echoed[0] != string(text) {
		t.Fatalf("a %d-byte echo came back different (%d bytes)", n, len(echoed[0]))
	}
}

func TestUnicodeWithAstralCharactersComesBackByteExact(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	in := "astral \U0001F600\U0001D11E\U00010348 mixed é ü 中文 \U0001F680 end"
	got, err := callTool(callCtx(t), s, "unicode", map[string]any{"text": in})
	if err != nil {
		t.Fatal(err)
	}
	want := "stand-in astral: \U0001F600 \U0001D11E \U00010348 \U0001F680"
	if len(got) != 2 || got[0] != in || got[1] != want {
		t.Fatalf("unicode answered %q, want [%q %q]", got, in, want)
	}
	// The same request as a ByteArray argument reaches the worker byte for byte.
	reply, err := s.Perform(callCtx(t), "McpServer", "mcpHandle:", ByteArray(toolCall(2, "echo", map[string]any{"text": in})))
	if err != nil || !strings.Contains(string(reply), in) {
		t.Fatalf("echo through a ByteArray argument answered %q, %v", reply, err)
	}
}

func TestExecuteAnswersTheStoneReadings(t *testing.T) {
	lib := openStandin(t)
	s, err := lib.Login(callCtx(t), standinLogin(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if _, err := s.Execute(callCtx(t), "System transactionMode: #transactionless"); err != nil {
		t.Fatalf("transactionless: %v", err)
	}
	got, err := s.Execute(callCtx(t), "\"mcp-control:stone-readings v1\"\n| s |\ns contents")
	if err != nil || len(strings.Fields(string(got))) < 2 {
		t.Fatalf("stone readings = %q, %v", got, err)
	}
	_, err = s.Execute(callCtx(t), "3 + 4")
	var e *Error
	if !errors.As(err, &e) || IsFatal(err) || e.Number < 1000 {
		t.Fatalf("an unsupported source = %v; want a non-fatal GemStone error", err)
	}
	if _, err := s.Execute(callCtx(t), "System transactionMode: #transactionless"); err != nil {
		t.Fatalf("the session after an error: %v", err)
	}
}

func TestUnknownReceiverIsAnOrdinaryError(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	_, err := s.Perform(callCtx(t), "NoSuchClassAnywhere", "mcpViewStatus")
	if err == nil || IsFatal(err) {
		t.Fatalf("perform on an undefined name = %v; want a non-fatal error", err)
	}
	if _, err := s.Perform(callCtx(t), "McpServer", "mcpViewStatus"); err != nil {
		t.Fatalf("the session after the error: %v", err)
	}
}

// Results, arguments and error objects are released.
func TestWhatACallExportsIsReleased(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	exports := func() int64 {
		n := lib.api.standinExportCount(s.h)
		if n < 0 {
			t.Fatal("the stand-in has no GciStandinExportCount")
		}
		return n
	}
	if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "warm"}); err != nil {
		t.Fatal(err)
	}
	before := exports()
	for i := range 20 {
		if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "x"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Perform(callCtx(t), "McpServer", "mcpPerformNothing:", ByteArray([]byte{1, 2}), SmallInteger(int64(i))); err == nil {
			t.Fatal("an unknown selector succeeded")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := callTool(ctx, s, "sleep", map[string]any{"ms": 10000})
		cancel()
		if !IsBreak(err) {
			t.Fatalf("cancelled sleep = %v", err)
		}
	}
	if after := exports(); after != before {
		t.Fatalf("the export set grew from %d to %d objects over 60 calls", before, after)
	}
}

func TestCloseDuringACall(t *testing.T) {
	lib := openStandin(t)
	s, pid := loginPreparedWithPid(t, lib)
	done := make(chan error, 1)
	go func() {
		_, err := callTool(context.Background(), s, "sleep", map[string]any{"ms": 30000})
		done <- err
	}()
	time.Sleep(150 * time.Millisecond)
	if err := s.Close(callCtx(t)); err != nil {
		t.Fatalf("Close during a call: %v", err)
	}
	t.Run("ends the call with a soft break", func(t *testing.T) {
		err := <-done
		if EndingOf(err) != EndedBySoftBreak || !errors.Is(err, ErrSessionClosed) {
			t.Fatalf("the call ended with %v (ending %v); want a soft break caused by Close", err, EndingOf(err))
		}
	})
	t.Run("logs the gem out", func(t *testing.T) {
		for deadline := time.Now().Add(5 * time.Second); gemChildren(t)[pid]; {
			if time.Now().After(deadline) {
				t.Fatalf("gem %d still runs after Close", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

func TestACancelledContextStartsNoLogin(t *testing.T) {
	lib := openStandin(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := gemChildren(t)
	if s, err := lib.Login(ctx, standinLogin(t)); err == nil || !errors.Is(err, context.Canceled) {
		if s != nil {
			s.Close(context.Background())
		}
		t.Fatalf("login with a cancelled context = %v, want context.Canceled", err)
	}
	if after := gemChildren(t); len(after) != len(before) {
		t.Fatalf("a cancelled login started a gem: %v -> %v", before, after)
	}
}

// A call with a cancelled context is never started, and the session serves the next.
func TestACancelledContextStartsNoCall(t *testing.T) {
	lib := openStandin(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := loginPrepared(t, lib)
	_, err := callTool(ctx, s, "echo", map[string]any{"text": "x"})
	if !errors.Is(err, context.Canceled) || EndingOf(err) != NotEnded {
		t.Fatalf("a call with a cancelled context = %v, want context.Canceled without an ending", err)
	}
	if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "x"}); err != nil {
		t.Fatalf("the session after a call that never started: %v", err)
	}
}

// slowGem makes the next logins take delay: the stand-in starts GCI_STANDIN_GEM, here a
// script that waits before it becomes the real gem.
func slowGem(t *testing.T, delay time.Duration) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "slow-gem")
	body := fmt.Sprintf("#!/bin/sh\nsleep %.3f\nexec %s \"$@\"\n", delay.Seconds(), filepath.Join(standinHome(t), "bin", "standin-gem"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GCI_STANDIN_GEM", script)
}

func TestSlowLoginDoesNotStallOtherSessionsCalls(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	slowGem(t, 1500*time.Millisecond)
	loggedIn := make(chan error, 1)
	go func() {
		other, err := lib.Login(callCtx(t), standinLogin(t))
		if err == nil {
			other.Close(context.Background())
		}
		loggedIn <- err
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	for i := range 20 {
		callStart := time.Now()
		if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "x"}); err != nil {
			t.Fatalf("call %d during the slow login: %v", i, err)
		}
		if d := time.Since(callStart); d > 500*time.Millisecond {
			t.Fatalf("call %d took %v while another session logged in", i, d)
		}
	}
	elapsed := time.Since(start)
	select {
	case err := <-loggedIn:
		t.Fatalf("the slow login ended (%v) before the calls did: the test proves nothing", err)
	default:
	}
	t.Logf("20 calls took %v during a 1.5 s login", elapsed)
	if err := <-loggedIn; err != nil {
		t.Fatalf("the slow login: %v", err)
	}
}

func TestACancelledLogin(t *testing.T) {
	lib := openStandin(t)
	slowGem(t, 700*time.Millisecond)
	before := children(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := refusedLogin(ctx, t, lib, standinLogin(t), "a login longer than its deadline succeeded")
	t.Run("returns at its deadline", func(t *testing.T) {
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 500*time.Millisecond {
			t.Fatalf("login = %v after %v; want DeadlineExceeded at the deadline", err, time.Since(start))
		}
	})
	t.Run("logs its gem out once it is in", func(t *testing.T) { abandonedGemEnds(t, before, start) })
}

// abandonedGemEnds waits for the one process an abandoned login started (since before) to end.
func abandonedGemEnds(t *testing.T, before map[int]bool, start time.Time) {
	var started []int
	for pid := range children(t, "") {
		if !before[pid] {
			started = append(started, pid)
		}
	}
	if len(started) != 1 {
		t.Fatalf("processes started by the abandoned login: %v; want its gem alone", started)
	}
	for deadline := time.Now().Add(10 * time.Second); children(t, "")[started[0]]; {
		if time.Now().After(deadline) {
			t.Fatalf("the abandoned login's gem %d still runs", started[0])
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the abandoned login's gem was gone %v after the login started", time.Since(start))
	if time.Since(start) < 700*time.Millisecond {
		t.Fatal("the gem was gone before it could have logged in: the test proves nothing")
	}
}

// aloneEnv asks a child test process to open a library in a fresh address space.
const aloneEnv = "GEMSTONE_TEST_OPEN_IN_FRESH_PROCESS"

// libnetldi is loaded first, and its absence is explained.
func TestLibnetldiIsLoadedFirst(t *testing.T) {
	if home := os.Getenv(aloneEnv); home != "" {
		// The child: a process where no libnetldi was loaded yet.
		_, err := Open(LibraryConfig{Home: home})
		fmt.Printf("OPEN-RESULT: %v\n", err)
		return
	}
	// The stand-in's libgcits, like GemStone's, refers to HostCreateThread in libnetldi: it
	// loads only if the binding loaded libnetldi with RTLD_GLOBAL first.
	alone := filepath.Join(t.TempDir(), "lib")
	if err := os.MkdirAll(alone, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "libgcits-" + standinVersion + "-64.so"
	body, err := os.ReadFile(filepath.Join(standinHome(t), "lib", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(alone, name), body, 0o755); err != nil {
		t.Fatal(err)
	}
	openIn := func(home string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLibnetldiIsLoadedFirst$", "-test.count=1")
		cmd.Env = append(os.Environ(), aloneEnv+"="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child test process: %v\n%s", err, out)
		}
		_, result, ok := strings.Cut(string(out), "OPEN-RESULT: ")
		if !ok {
			t.Fatalf("child test process printed no result:\n%s", out)
		}
		return strings.SplitN(result, "\n", 2)[0]
	}
	t.Run("so the stand-in opens in a fresh process", func(t *testing.T) {
		if got := openIn(standinHome(t)); got != "<nil>" {
			t.Fatalf("opening the stand-in in a fresh process: %s", got)
		}
	})
	t.Run("and the error without it names it", func(t *testing.T) {
		got := openIn(filepath.Dir(alone))
		t.Logf("without libnetldi: %s", got)
		if !strings.Contains(got, "HostCreateThread") || !strings.Contains(got, "libnetldi") {
			t.Fatalf("libgcits without libnetldi: %s; want the undefined HostCreateThread and libnetldi named", got)
		}
	})
}

// The one-argument path (argument, perform, wait, result, bytes and release in two
// crossings) keeps the export set flat through successes, worker errors and special results,
// for String and ByteArray arguments alike, and answers an empty result as empty, not nil.
func TestTheOneArgumentPath(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	exports := func() int64 { return lib.api.standinExportCount(s.h) }
	if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "warm"}); err != nil {
		t.Fatal(err)
	}
	before := exports()
	t.Run("answers exact bytes, ten times over", func(t *testing.T) {
		for range 10 {
			for _, arg := range []Arg{String([]byte("x")), ByteArray([]byte{1, 2}), String(nil)} {
				_, err := s.Perform(callCtx(t), "McpServer", "mcpPerformNothing:", arg)
				var gerr *Error
				if !errors.As(err, &gerr) || gerr.Number != 2010 {
					t.Fatalf("an unknown selector with one argument = %v, want GemStone error 2010", err)
				}
			}
			n, err := s.Perform(callCtx(t), "System", "session")
			if err != nil || len(n) == 0 || n[0] < '0' || n[0] > '9' {
				t.Fatalf("System session = %q, %v: want the session number's digits", n, err)
			}
			got, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "é𝄞"})
			if err != nil || len(got) != 1 || got[0] != "é𝄞" {
				t.Fatalf("echo = %q, %v", got, err)
			}
		}
	})
	t.Run("releases everything", func(t *testing.T) {
		if after := exports(); after != before {
			t.Fatalf("the export set grew from %d to %d objects", before, after)
		}
	})
}

func TestAnIdleSessionHoldsNoResultBuffer(t *testing.T) {
	lib := openStandin(t)
	s := loginPrepared(t, lib)
	reply, err := s.Perform(callCtx(t), "McpServer", "mcpHandle:", ByteArray(toolCall(2, "echo", map[string]any{"text": "hello"})))
	if err != nil || !strings.Contains(string(reply), "hello") {
		t.Fatalf("echo answered %s (%v)", reply, err)
	}
	// The result came through the fetch buffer; between calls the session must not keep
	// it, or a thousand idle sessions would hold 64 MiB of buffers.
	if s.scratch != nil {
		t.Fatalf("after the call the session still holds a %d-byte result buffer", len(s.scratch))
	}
	b := lib.api.scratchBuf()
	if len(*b) != scratchBytes {
		t.Fatalf("a recycled result buffer has %d bytes, want %d", len(*b), scratchBytes)
	}
}
