package gciworker

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// standinLoginInfo logs spec in directly and answers what the stand-in gem recorded of it.
func standinLoginInfo(t *testing.T, lib *gemstone.Library, spec worker.LoginSpec) (user string, flags uint32, err error) {
	t.Helper()
	s, err := lib.Login(ctxFor(t), loginParams(spec, 0))
	if err != nil {
		return "", 0, err
	}
	defer s.Close(context.Background())
	raw, err := s.Perform(ctxFor(t), "System", "standinLoginInfo")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		User  string `json:"user"`
		Flags uint32 `json:"flags"`
	}
	if err := json.Unmarshal(raw, &info); err != nil {
		t.Fatalf("standinLoginInfo %s: %v", raw, err)
	}
	return info.User, info.Flags, nil
}

func newStandinControl(t *testing.T, lib *gemstone.Library) *Control {
	t.Helper()
	t.Cleanup(func() { os.RemoveAll(os.Getenv("GCI_STANDIN_DIR") + ".onetime") })
	control, err := NewControl(ctxFor(t), lib, loginSpec())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { control.Close(context.Background()) })
	return control
}

func TestAMintedOneTimePassword(t *testing.T) {
	lib := standinLibrary(t)
	control := newStandinControl(t, lib)
	password, err := control.MintOneTimePassword(ctxFor(t), "McpReadOnly", time.Minute)
	if err != nil || password == "" {
		t.Fatalf("mint = %q, %v", password, err)
	}
	spec := loginSpec()
	spec.User, spec.Password, spec.PasswordKind = "McpReadOnly", password, worker.PasswordOneTime
	t.Run("logs its user in", func(t *testing.T) {
		user, flags, err := standinLoginInfo(t, lib, spec)
		if err != nil {
			t.Fatalf("first login with the minted password: %v", err)
		}
		if user != "McpReadOnly" || flags&0x400 == 0 || flags&0x10 == 0 {
			t.Fatalf("the gem saw user %q flags %#x; want McpReadOnly with GCI_LOGIN_ONETIME_PASSWORD|GCI_LOGIN_QUIET", user, flags)
		}
	})
	t.Run("is refused a second time", func(t *testing.T) {
		_, _, err := standinLoginInfo(t, lib, spec)
		var ge *gemstone.Error
		if !errors.As(err, &ge) || ge.Number != 4051 {
			t.Fatalf("second login with the same password = %v, want 4051", err)
		}
	})
	t.Run("is fresh at every mint", func(t *testing.T) {
		again, err := control.MintOneTimePassword(ctxFor(t), "McpReadOnly", time.Minute)
		if err != nil || again == password {
			t.Fatalf("a second mint = %v (same as the first: %v); every mint must be fresh", err, again == password)
		}
	})
}

func TestABadUserIDIsRefusedBeforeAnySourceIsBuilt(t *testing.T) {
	for _, user := range []string{"", "McpReadOnly' , 'x", "1abc", "Mcp ReadOnly", "a.b", "é"} {
		if err := CheckUserID(user); !errors.Is(err, ErrBadUserID) {
			t.Errorf("CheckUserID(%q) = %v, want ErrBadUserID", user, err)
		}
	}
	// A closed control session would fail any call: ErrBadUserID proves none was attempted.
	control := newStandinControl(t, standinLibrary(t))
	control.Close(ctxFor(t))
	if _, err := control.MintOneTimePassword(ctxFor(t), "x'. System stopSession: 1. '", time.Minute); !errors.Is(err, ErrBadUserID) {
		t.Fatalf("mint for an injected user id = %v, want ErrBadUserID", err)
	}
	if _, err := control.MintOneTimePassword(ctxFor(t), "McpReadOnly", time.Minute); !errors.Is(err, gemstone.ErrSessionClosed) {
		t.Fatalf("mint on a closed control session = %v, want ErrSessionClosed", err)
	}
	if src := mintSource("McpReadOnly", 1500*time.Millisecond); src != `"mcp-control:onetime-password v1"`+"\n"+
		"GsCurrentSession currentSession createOnetimePasswordForUserId: 'McpReadOnly' validForSeconds: 2" {
		t.Fatalf("mint source: %q", src)
	}
}

func TestOneTimeUserLaunchesEachGemWithAFreshPassword(t *testing.T) {
	lib := standinLibrary(t)
	control := newStandinControl(t, lib)
	l := NewLauncher(lib, Options{Control: control, OneTimeUser: "McpReadOnly"})
	base := loginSpec() // the control user's plain password: never used for the worker
	base.Password = "wrong"
	for i := 0; i < 2; i++ {
		g, err := l.Launch(ctxFor(t), base, prepareConfig())
		if err != nil {
			t.Fatalf("launch %d as the one-time user: %v", i+1, err)
		}
		g.Close(context.Background())
	}
}

func TestAMissingGrantIsAOneTimeLoginErrorSafeForClients(t *testing.T) {
	lib := standinLibrary(t)
	control := newStandinControl(t, lib)
	before := liveGems(t)
	l := NewLauncher(lib, Options{Control: control, OneTimeUser: "baduser"})
	_, err := l.Launch(ctxFor(t), loginSpec(), prepareConfig())
	var oe *OneTimeLoginError
	if !errors.As(err, &oe) || oe.Step != "mint" || oe.User != "baduser" {
		t.Fatalf("Launch without a grant = %v, want a OneTimeLoginError at the mint", err)
	}
	var ge *gemstone.Error
	if !errors.As(err, &ge) || ge.Number != 2151 || !strings.Contains(err.Error(), "setup-read-only-user.sh") {
		t.Fatalf("the error %v must carry GemStone's 2151 and say what to run", err)
	}
	f := worker.FailureOf(err)
	if f.Kind != worker.UserNotProvisioned || f.Number != 2151 || strings.Contains(f.Safe, "baduser") || !strings.Contains(f.Safe, "MCP_WORKER_USER") {
		t.Fatalf("the failure %+v must be a provisioning problem naming the setting, not the user", f)
	}
	if after := liveGems(t); len(after) != len(before) {
		t.Fatalf("a refused mint left gems: %v -> %v", before, after)
	}
	// The control session survives a refused mint.
	if _, err := control.MintOneTimePassword(ctxFor(t), "McpReadOnly", time.Minute); err != nil {
		t.Fatalf("mint after a refused one: %v", err)
	}
}

func TestALoginRefusedWithAMintedPasswordIsAOneTimeLoginError(t *testing.T) {
	lib := standinLibrary(t)
	l := NewLauncher(lib, Options{Control: consumingControl{newStandinControl(t, lib), lib, t}, OneTimeUser: "McpReadOnly"})
	_, err := l.Launch(ctxFor(t), loginSpec(), prepareConfig())
	var oe *OneTimeLoginError
	if !errors.As(err, &oe) || oe.Step != "login" || !gemstone.IsLoginDenied(err) {
		t.Fatalf("Launch with a used password = %v, want a OneTimeLoginError at the login (4051)", err)
	}
	if f := worker.FailureOf(err); f.Kind != worker.UserNotProvisioned || f.Number != 4051 || f.Fatal {
		t.Fatalf("the failure %+v must be a provisioning problem, not a refused login", f)
	}
	if strings.Contains(err.Error(), "standin-otp-") {
		t.Fatalf("the error holds the password: %v", err)
	}
}

// consumingControl mints, then uses the password itself, so the launch gets a spent one.
type consumingControl struct {
	*Control
	lib *gemstone.Library
	t   *testing.T
}

func (c consumingControl) MintOneTimePassword(ctx context.Context, user string, validFor time.Duration) (string, error) {
	pw, err := c.Control.MintOneTimePassword(ctx, user, validFor)
	if err != nil {
		return "", err
	}
	spec := loginSpec()
	spec.User, spec.Password, spec.PasswordKind = user, pw, worker.PasswordOneTime
	if _, _, err := standinLoginInfo(c.t, c.lib, spec); err != nil {
		c.t.Fatalf("using the password first: %v", err)
	}
	return pw, nil
}
