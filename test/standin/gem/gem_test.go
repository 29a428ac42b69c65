package main

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
)

// harness drives a gem's serve loop over pipes, as the library would over the socketpair.
type harness struct {
	t    *testing.T
	toG  *io.PipeWriter
	from *io.PipeReader
	done chan int
	dir  string
}

func startGem(t *testing.T, user, password string, flags uint32) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, toG: inW, from: outR, done: make(chan int, 1), dir: t.TempDir()}
	g := newGem(outW, os.Getpid())
	go func() { h.done <- g.serve(inR); outW.Close() }()
	t.Cleanup(func() { inW.Close() })
	h.send(gemproto.TypeLogin, gemproto.EncodeStrings("!tcp@h#server!gs64stone", "!tcp@h#netldi:1#task!gemnetobject -C A=1;B=two",
		user, password, "", strconv.Itoa(int(flags)), h.dir))
	return h
}

func (h *harness) send(kind byte, payload []byte) {
	h.t.Helper()
	if err := gemproto.WriteFrame(h.toG, kind, payload); err != nil {
		h.t.Fatalf("sending %q: %v", kind, err)
	}
}

func (h *harness) read() gemproto.Frame {
	h.t.Helper()
	type got struct {
		f   gemproto.Frame
		err error
	}
	ch := make(chan got, 1)
	go func() { f, err := gemproto.ReadFrame(h.from); ch <- got{f, err} }()
	select {
	case g := <-ch:
		if g.err != nil {
			h.t.Fatalf("reading a frame: %v", g.err)
		}
		return g.f
	case <-time.After(10 * time.Second):
		h.t.Fatal("no frame from the gem within 10 s")
		return gemproto.Frame{}
	}
}

func (h *harness) perform(receiver, selector string, args ...gemproto.Arg) gemproto.Frame {
	h.t.Helper()
	h.send(gemproto.TypePerform, gemproto.PerformCall{Receiver: receiver, Selector: selector, Args: args}.Encode())
	return h.read()
}

func str(s string) gemproto.Arg { return gemproto.StringArg(s) }

func resultText(t *testing.T, f gemproto.Frame) string {
	t.Helper()
	if f.Type != gemproto.TypeResult || len(f.Payload) < 9 || f.Payload[0] != gemproto.KindBytes {
		t.Fatalf("want a byte result, got %q %q", f.Type, f.Payload)
	}
	return string(f.Payload[9:])
}

func errorNumber(t *testing.T, f gemproto.Frame) (uint32, byte) {
	t.Helper()
	if f.Type != gemproto.TypeError {
		t.Fatalf("want an error frame, got %q %q", f.Type, f.Payload)
	}
	return binary.LittleEndian.Uint32(f.Payload), f.Payload[4]
}

const prepareConfig = `{"contract":1,"workerClass":"McpServer","protocolVersions":["2025-11-25"],"cacheName":"c","resultCap":0,"frontEnd":{"name":"t","version":"0","routerId":"r"}}`

// A gem's login and quit; each subtest is one step, in order.
func TestAGemsSession(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	t.Run("login answers hello with the session number, registered", func(t *testing.T) {
		f := h.read()
		if f.Type != gemproto.TypeHello || len(f.Payload) != 8 {
			t.Fatalf("hello: %q %v", f.Type, f.Payload)
		}
		n := int(int32(binary.LittleEndian.Uint32(f.Payload)))
		pid := int(int32(binary.LittleEndian.Uint32(f.Payload[4:])))
		data, err := os.ReadFile(filepath.Join(h.dir, strconv.Itoa(n)))
		if n != 1 || pid != os.Getpid() || err != nil || strings.TrimSpace(string(data)) != strconv.Itoa(pid) {
			t.Fatalf("session %d pid %d entry %q %v", n, pid, data, err)
		}
	})
	t.Run("quit exits 0, unregistered", func(t *testing.T) {
		h.send(gemproto.TypeQuit, nil)
		if code := <-h.done; code != 0 {
			t.Fatalf("exit code %d", code)
		}
		if _, err := os.Stat(filepath.Join(h.dir, "1")); !os.IsNotExist(err) {
			t.Fatalf("entry left after quit: %v", err)
		}
	})
}

func TestLoginRefusalsCarryGemStoneNumbers(t *testing.T) {
	for _, c := range []struct {
		user, password string
		flags          uint32
		want           uint32
	}{
		{"baduser", "x", 0, 4051},
		{"DataCurator", "wrong", 0, 4051},
		{"DataCurator", "plain", loginPwEncrypted, 4051},
		{"DataCurator", "only.two", loginJWT, 4051},
	} {
		h := startGem(t, c.user, c.password, c.flags)
		n, flags := errorNumber(t, h.read())
		if n != c.want || flags&gemproto.ErrFatal == 0 {
			t.Errorf("%s/%s/%#x: error %d flags %d", c.user, c.password, c.flags, n, flags)
		}
		<-h.done
	}
}

func TestStoneNameIsTheNRSsLastPart(t *testing.T) {
	if stoneName("!tcp@h#server!nostone") != "nostone" || stoneName("gs64stone") != "gs64stone" {
		t.Fatal("stoneName")
	}
}

func TestGemConfigReadsTheCBodyToASpace(t *testing.T) {
	cfg := gemConfig("!tcp@h#netldi:1#task!gemnetobject -C A=1;B=two;C=3 D=4")
	if len(cfg) != 3 || cfg["A"] != "1" || cfg["B"] != "two" || cfg["C"] != "3" {
		t.Fatalf("gemConfig (a space ends the body): %v", cfg)
	}
}

func TestCheckLogin(t *testing.T) {
	t.Run("refuses a stone that is not there", func(t *testing.T) {
		if _, err := checkLogin(gemproto.LoginParams{StoneNRS: "nostone", User: "u", Password: "p"}); err == nil || err.Number != 4065 {
			t.Fatalf("nostone: %v", err)
		}
	})
	t.Run("takes a JWT's subject as the user", func(t *testing.T) {
		token := "eyJhbGciOiJub25lIn0.eyJzdWIiOiJib2IifQ.sig"
		info, err := checkLogin(gemproto.LoginParams{StoneNRS: "s", User: "u", Password: token, Flags: loginJWT})
		if err != nil || info.User != "bob" || info.JWTSub != "bob" {
			t.Fatalf("jwt: %+v %v", info, err)
		}
	})
	t.Run("takes an encrypted password", func(t *testing.T) {
		info, err := checkLogin(gemproto.LoginParams{StoneNRS: "s", User: "u", Password: encryptedPrefix + "pw", Flags: loginPwEncrypted})
		if err != nil || info.User != "u" {
			t.Fatalf("encrypted: %v", err)
		}
	})
}

// The worker contract's calls (prepare, handle, view status, refresh) on one gem; each subtest
// is one step, in order.
func TestTheContractsCalls(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	h.read()
	t.Run("mcpHandle: before prepare is a worker signal", func(t *testing.T) {
		if n, _ := errorNumber(t, h.perform("McpServer", "mcpHandle:", str(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))); n != errWorkerSignal {
			t.Fatalf("mcpHandle: before prepare: %d", n)
		}
	})
	t.Run("mcpPrepare: answers ok with the session", func(t *testing.T) {
		var prepared map[string]any
		_ = json.Unmarshal([]byte(resultText(t, h.perform("McpServer", "mcpPrepare:", str(prepareConfig)))), &prepared)
		if prepared["ok"] != true || prepared["gemSession"] != 1.0 {
			t.Fatalf("prepare: %v", prepared)
		}
	})
	t.Run("mcpHandle: answers a request", func(t *testing.T) {
		if got := resultText(t, h.perform("McpServer", "mcpHandle:", str(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
			t.Fatalf("ping: %s", got)
		}
	})
	t.Run("mcpHandle: answers a notification with the empty string", func(t *testing.T) {
		if got := resultText(t, h.perform("McpServer", "mcpHandle:", str(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))); got != "" {
			t.Fatalf("a notification must answer the empty string: %q", got)
		}
	})
	t.Run("mcpViewStatus", func(t *testing.T) {
		if got := resultText(t, h.perform("McpServer", "mcpViewStatus")); !strings.Contains(got, `"commitsBehind":0`) {
			t.Fatalf("view status: %s", got)
		}
	})
	t.Run("mcpRefreshView", func(t *testing.T) {
		if got := resultText(t, h.perform("McpServer", "mcpRefreshView")); got != `{"refreshed":true,"conflicts":false}` {
			t.Fatalf("refresh: %s", got)
		}
	})
	t.Run("an unknown selector is doesNotUnderstand", func(t *testing.T) {
		if n, _ := errorNumber(t, h.perform("McpServer", "frobnicate")); n != errDoesNotUnderstand {
			t.Fatalf("unknown selector: %d", n)
		}
	})
	t.Run("a SmallInteger for a String is refused", func(t *testing.T) {
		if n, _ := errorNumber(t, h.perform("McpServer", "mcpHandle:", gemproto.SmallIntegerArg(1))); n != errBadArgKind {
			t.Fatalf("SmallInteger argument: %d", n)
		}
	})
	t.Run("the workerClass must be the receiver", func(t *testing.T) {
		if got := resultText(t, h.perform("Other", "mcpPrepare:", str(prepareConfig))); !strings.Contains(got, `"badConfig"`) {
			t.Fatalf("workerClass must be the receiver: %s", got)
		}
	})
}

func TestABreakFrameReachesTheRunningCall(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	h.read()
	h.perform("McpServer", "mcpPrepare:", str(prepareConfig))
	for _, c := range []struct {
		tool string
		hard byte
		want uint32
	}{{"sleep", 0, 6003}, {"sleep_soft_immune", 1, 6004}} {
		start := time.Now()
		h.send(gemproto.TypePerform, gemproto.PerformCall{Receiver: "McpServer", Selector: "mcpHandle:",
			Args: []gemproto.Arg{str(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":{"ms":5000}}}`)}}.Encode())
		time.Sleep(50 * time.Millisecond)
		h.send(gemproto.TypeBreak, []byte{c.hard})
		n, flags := errorNumber(t, h.read())
		if n != c.want || flags&gemproto.ErrHasContext == 0 || time.Since(start) > 3*time.Second {
			t.Fatalf("%s: error %d flags %d after %v", c.tool, n, flags, time.Since(start))
		}
	}
}

// The System calls and the control session's sources a gem answers besides the contract;
// each subtest is one step on the same gem, in order.
func TestTheGemsOtherCalls(t *testing.T) {
	h := startGem(t, "DataCurator", "swordfish", 0)
	h.read()
	t.Run("System session", func(t *testing.T) {
		f := h.perform("System", "session")
		if f.Type != gemproto.TypeResult || f.Payload[0] != gemproto.KindSpecial || binary.LittleEndian.Uint64(f.Payload[1:]) != 1<<3|2 {
			t.Fatalf("System session: %v", f.Payload)
		}
	})
	t.Run("stopSession: of a pid that is no gem is false", func(t *testing.T) {
		// Session 7 names this test process, which is not a stand-in gem: it must not be killed.
		_ = os.WriteFile(filepath.Join(h.dir, "7"), []byte(strconv.Itoa(os.Getpid())), 0o600)
		f := h.perform("System", "stopSession:", gemproto.SmallIntegerArg(7))
		if binary.LittleEndian.Uint64(f.Payload[1:]) != gemproto.OopFalse {
			t.Fatalf("stopSession: of a non-gem pid must answer false: %v", f.Payload)
		}
	})
	t.Run("gemConfigurationAt:", func(t *testing.T) {
		if got := resultText(t, h.perform("System", "gemConfigurationAt:", str("B"))); got != "two" {
			t.Fatalf("gemConfigurationAt: %q", got)
		}
	})
	t.Run("standinLoginInfo names the user, never the password", func(t *testing.T) {
		if got := resultText(t, h.perform("System", "standinLoginInfo")); strings.Contains(got, "swordfish") || !strings.Contains(got, `"user":"DataCurator"`) {
			t.Fatalf("login info must name the user and never the password: %s", got)
		}
	})
	t.Run("the stone readings from the environment", func(t *testing.T) {
		t.Setenv("GCI_STANDIN_STONE_READINGS", "5 100 3 4")
		h.send(gemproto.TypeExecute, []byte("\"mcp-control:stone-readings v1\"\n| s |\nSystem abortTransaction."))
		if got := resultText(t, h.read()); got != "5 100 3 4" {
			t.Fatalf("readings from env: %q", got)
		}
	})
	t.Run("the stone readings from a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "readings")
		_ = os.WriteFile(file, []byte("7 8\n"), 0o600)
		t.Setenv("GCI_STANDIN_STONE_READINGS", "5 100 3 4")
		t.Setenv("GCI_STANDIN_STONE_READINGS_FILE", file)
		h.send(gemproto.TypeExecute, []byte(`"mcp-control:stone-readings v1"`))
		if got := resultText(t, h.read()); got != "7 8" {
			t.Fatalf("readings from file: %q", got)
		}
	})
	t.Run("transactionless mode", func(t *testing.T) {
		h.send(gemproto.TypeExecute, []byte("System transactionMode: #transactionless"))
		if f := h.read(); f.Type != gemproto.TypeResult || binary.LittleEndian.Uint64(f.Payload[1:]) != gemproto.OopNil {
			t.Fatalf("transactionless: %q %v", f.Type, f.Payload)
		}
	})
	t.Run("other source is a compile error", func(t *testing.T) {
		h.send(gemproto.TypeExecute, []byte("3 + 4"))
		if n, _ := errorNumber(t, h.read()); n != errCompile {
			t.Fatalf("other source: %d", n)
		}
	})
}

func TestSessionDirectoryReclaimsStaleEntries(t *testing.T) {
	d := sessionDir{dir: t.TempDir()}
	// An entry whose pid is not a stand-in gem is stale and is taken over.
	_ = os.WriteFile(d.path(1), []byte("999999999\n"), 0o600)
	n, err := d.register(os.Getpid())
	if err != nil || n != 1 {
		t.Fatalf("register: %d %v", n, err)
	}
	m, _ := d.register(os.Getpid())
	if m != 1 { // the test process is no stand-in gem, so its own entry counts as stale too
		t.Fatalf("second register: %d", m)
	}
	d.unregister(1, os.Getpid()+1)
	if _, err := os.Stat(d.path(1)); err != nil {
		t.Fatal("unregister removed an entry naming another pid")
	}
	d.unregister(1, os.Getpid())
	if _, err := os.Stat(d.path(1)); !os.IsNotExist(err) {
		t.Fatal("unregister left the entry")
	}
}

func TestSessionDirectoryHoldsOnlySessionEntries(t *testing.T) {
	d := sessionDir{dir: filepath.Join(t.TempDir(), "sessions")}
	if _, err := d.register(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(d.dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != "1" {
		t.Fatalf("entries %v %v: want the one session entry", entries, err)
	}
}
