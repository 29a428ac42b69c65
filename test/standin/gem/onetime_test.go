package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
)

func mintSourceFor(user string, seconds string) []byte {
	return []byte(oneTimeTag + "\nGsCurrentSession currentSession createOnetimePasswordForUserId: '" + user + "' validForSeconds: " + seconds)
}

func oneTimeLogin(dir, user, password string) *gemproto.GemError {
	_, denied := checkLogin(gemproto.LoginParams{StoneNRS: "gs64stone", User: user, Password: password,
		Flags: loginOneTimePw | 0x10, SessionDir: dir})
	return denied
}

func TestAMintedOneTimePasswordLogsItsUserInExactlyOnce(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	h.read()
	h.send(gemproto.TypeExecute, mintSourceFor("McpReadOnly", "60"))
	password := resultText(t, h.read())
	if !strings.HasPrefix(password, oneTimePrefix) || len(password) < len(oneTimePrefix)+32 {
		t.Fatalf("minted %q: want %s and at least 128 random bits", password, oneTimePrefix)
	}
	if denied := oneTimeLogin(h.dir, "DataCurator", password); denied == nil || denied.Number != 4051 {
		t.Fatalf("the password logged in another user: %v", denied)
	}
	if denied := oneTimeLogin(h.dir, "McpReadOnly", password); denied != nil {
		t.Fatalf("first use refused: %d %s", denied.Number, denied.Message)
	}
	if denied := oneTimeLogin(h.dir, "McpReadOnly", password); denied == nil || denied.Number != 4051 {
		t.Fatalf("second use: %v, want 4051", denied)
	}
	if denied := oneTimeLogin(h.dir, "McpReadOnly", oneTimePrefix+"0123456789abcdef0123456789abcdef"); denied == nil || denied.Number != 4051 {
		t.Fatalf("a password never minted: %v, want 4051", denied)
	}
	h.send(gemproto.TypeExecute, mintSourceFor("McpReadOnly", "0"))
	expired := resultText(t, h.read())
	time.Sleep(2 * time.Millisecond)
	if denied := oneTimeLogin(h.dir, "McpReadOnly", expired); denied == nil || denied.Number != 4051 {
		t.Fatalf("an expired password: %v, want 4051", denied)
	}
	entries, err := os.ReadDir(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "1" {
			t.Errorf("the session directory holds %q besides the session entry", e.Name())
		}
	}
}

func TestMintIsRefused(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	h.read()
	t.Run("without a grant", func(t *testing.T) {
		h.send(gemproto.TypeExecute, mintSourceFor(noGrantUser, "60"))
		if n, flags := errorNumber(t, h.read()); n != errNoPrivilege || flags&1 != 0 {
			t.Fatalf("mint for %s: error %d flags %d, want non-fatal %d", noGrantUser, n, flags, errNoPrivilege)
		}
	})
	t.Run("for a source with a quoted user id", func(t *testing.T) {
		h.send(gemproto.TypeExecute, mintSourceFor("x' , 'y", "60"))
		if n, _ := errorNumber(t, h.read()); n != errCompile {
			t.Fatalf("a quoted user id in the source: %d, want %d", n, errCompile)
		}
	})
	t.Run("for other code behind the tag", func(t *testing.T) {
		h.send(gemproto.TypeExecute, []byte(oneTimeTag+"\nSystem performOnServer: 'id'"))
		if n, _ := errorNumber(t, h.read()); n != errCompile {
			t.Fatalf("other code behind the tag: %d, want %d", n, errCompile)
		}
	})
}

func TestLoginLogRecordsEachLoginWithoutItsPassword(t *testing.T) {
	path := t.TempDir() + "/logins"
	t.Setenv("GCI_STANDIN_LOGIN_LOG", path)
	h := startGem(t, "McpReadOnly", "swordfish", 0x10)
	h.read()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := string(data)
	if !strings.Contains(line, `"session":1,`) || !strings.Contains(line, `"user":"McpReadOnly"`) || !strings.Contains(line, `"flags":16`) || !strings.HasSuffix(line, "}\n") {
		t.Fatalf("login log line %q: want session, user and flags", line)
	}
	if strings.Contains(line, "swordfish") {
		t.Fatalf("the login log holds the password: %s", line)
	}
}

func TestOneTimeLoginsRefusedKnobRefusesAFreshPassword(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	h.read()
	t.Setenv("GCI_STANDIN_ONETIME_LOGINS", "refused")
	h.send(gemproto.TypeExecute, mintSourceFor("McpReadOnly", "60"))
	password := resultText(t, h.read())
	if denied := oneTimeLogin(h.dir, "McpReadOnly", password); denied == nil || denied.Number != 4051 {
		t.Fatalf("a fresh password under GCI_STANDIN_ONETIME_LOGINS=refused: %v, want 4051", denied)
	}
}
