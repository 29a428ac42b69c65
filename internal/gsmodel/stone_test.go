package gsmodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type stoneClient struct {
	t   *testing.T
	c   net.Conn
	dec *json.Decoder
}

func dialStone(t *testing.T, sock, user string) *stoneClient {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sc := &stoneClient{t: t, c: c, dec: json.NewDecoder(bufio.NewReader(c))}
	if a := sc.ask(StoneRequest{Op: "login", User: user}); !a.OK {
		t.Fatalf("login refused: %+v", a)
	}
	return sc
}

func (sc *stoneClient) send(r StoneRequest) {
	if err := json.NewEncoder(sc.c).Encode(r); err != nil {
		sc.t.Fatal(err)
	}
}

func (sc *stoneClient) ask(r StoneRequest) StoneAnswer {
	sc.t.Helper()
	sc.send(r)
	var a StoneAnswer
	if err := sc.dec.Decode(&a); err != nil {
		sc.t.Fatal(err)
	}
	return a
}

func (sc *stoneClient) exec(src string) string {
	sc.t.Helper()
	a := sc.ask(StoneRequest{Op: "execute", Source: src})
	switch a.Kind {
	case "bytes":
		return string(a.Bytes)
	case "int":
		return fmtInt(int(a.Int))
	case "special":
		return a.Special
	}
	return "ERROR " + fmtInt(a.Number) + " " + a.Text
}

func startTestStone(t *testing.T, files ...string) *Stone {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{"app.gs": "run\nUserGlobals at: #Counter put: 0. true\n%\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := StartStone(dir, append([]string{"app.gs"}, files...), filepath.Join(dir, "stone.sock"), io.Discard, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Stop() })
	return st
}

// Two gems are two sessions of one stone: a commit of one is seen by the other once it
// refreshes, and a conflicting commit is refused.
func TestStoneSessionsShareCommits(t *testing.T) {
	st := startTestStone(t)
	a := dialStone(t, st.Sock, "DataCurator")
	b := dialStone(t, st.Sock, "alice")
	steps := []struct {
		c         *stoneClient
		src, want string
	}{
		{a, "Globals at: #G1 put: 1. System commitTransaction", "true"},
		{b, "(Globals at: #G1 ifAbsent: [#absent]) printString", "#absent"},
		{b, "System abortTransaction", "nil"},
		{b, "(Globals at: #G1 ifAbsent: [#absent]) printString", "1"},
		{b, "System myUserProfile userId", "alice"},
	}
	for i, s := range steps {
		if got := s.c.exec(s.src); !strings.HasPrefix(got, s.want) {
			t.Errorf("step %d %q: got %q, want %q", i, s.src, got, s.want)
		}
	}
	// alice has her own UserGlobals: DataCurator's Counter is not hers.
	if got := b.exec("(System myUserProfile symbolList first includesKey: #Counter) printString"); got != "false" {
		t.Errorf("alice's UserGlobals holds Counter: %s", got)
	}
	if got := a.exec("Globals at: #Shared put: 1. System commitTransaction"); got != "true" {
		t.Fatalf("first commit: %s", got)
	}
	b.exec("System abortTransaction")
	a.exec("Globals at: #Shared put: 2")
	b.exec("Globals at: #Shared put: 3")
	if got := a.exec("System commitTransaction"); got != "true" {
		t.Errorf("a's commit: %s", got)
	}
	if got := b.exec("System commitTransaction"); got != "false" {
		t.Errorf("b's conflicting commit: %s, want false", got)
	}
}

// A soft break ends a running call with 6003 unless the code traps it; a hard break ends it
// even then, with 6004; the session serves the next call.
func TestStoneBreaksEndARunningCall(t *testing.T) {
	st := startTestStone(t)
	a := dialStone(t, st.Sock, "DataCurator")
	for _, c := range []struct {
		src  string
		hard bool
		want int
	}{
		{"[true] whileTrue: [3 + 4]", false, errSoftBreak},
		{"[[true] whileTrue: [3 + 4]] on: ControlInterrupt do: [:e | e retry]", true, errHardBreak},
	} {
		a.send(StoneRequest{Op: "execute", Source: c.src})
		time.Sleep(100 * time.Millisecond)
		if c.hard {
			a.send(StoneRequest{Op: "break"}) // trapped and retried: the call goes on
			time.Sleep(100 * time.Millisecond)
		}
		a.send(StoneRequest{Op: "break", Hard: c.hard})
		var ans StoneAnswer
		if err := a.dec.Decode(&ans); err != nil {
			t.Fatal(err)
		}
		if ans.Number != c.want || !ans.Context {
			t.Errorf("%s: answer %+v, want error %d with a context", c.src, ans, c.want)
		}
		if got := a.exec("3 + 4"); got != "7" {
			t.Errorf("after the break the session answered %q", got)
		}
	}
}

// While one session runs a long call, another is served: the interpreter lock is handed over.
func TestStoneServesOthersDuringALongCall(t *testing.T) {
	st := startTestStone(t)
	a := dialStone(t, st.Sock, "DataCurator")
	b := dialStone(t, st.Sock, "DataCurator")
	a.send(StoneRequest{Op: "execute", Source: "[true] whileTrue: [3 + 4]"})
	time.Sleep(50 * time.Millisecond)
	done := make(chan string, 1)
	go func() { done <- b.exec("3 + 4") }()
	select {
	case got := <-done:
		if got != "7" {
			t.Errorf("b answered %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("b was not served while a ran")
	}
	a.send(StoneRequest{Op: "break", Hard: true})
	var ans StoneAnswer
	if err := a.dec.Decode(&ans); err != nil || ans.Number != errHardBreak {
		t.Fatalf("a's call: %+v %v", ans, err)
	}
}
