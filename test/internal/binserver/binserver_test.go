package binserver

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// script writes an executable shell script standing in for the server.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-server")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A server that exits on SIGTERM; each subtest is one step of its life, in order.
func TestAServerStoppedBySIGTERM(t *testing.T) {
	bin := script(t, `trap 'echo stopping; exit 3' TERM
echo "out $FAKE_ENV"
echo '{"level":"info","url":"https://127.0.0.1:4711/mcp","message":"listening"}' >&2
while :; do sleep 0.05; done
`)
	p, err := Start(bin, "FAKE_ENV=passed")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Start finds the logged URL", func(t *testing.T) {
		url, exited := p.WaitURL(10 * time.Second)
		if url != "https://127.0.0.1:4711/mcp" || exited {
			t.Fatalf("WaitURL = %q, exited %v; log:\n%s", url, exited, p.Log)
		}
	})
	t.Run("Stop answers the exit code after SIGTERM", func(t *testing.T) {
		if code := p.Stop(10 * time.Second); code != 3 {
			t.Fatalf("exit code after SIGTERM %d, want 3; log:\n%s", code, p.Log)
		}
	})
	t.Run("the log holds stdout and stderr", func(t *testing.T) {
		if log := p.Log.String(); !strings.Contains(log, "out passed") || !strings.Contains(log, `"message":"listening"`) {
			t.Fatalf("the log lacks stdout or stderr:\n%s", log)
		}
	})
	t.Run("after the exit Terminate is true and Stop the same", func(t *testing.T) {
		if !p.Terminate(time.Second) || p.Stop(time.Second) != 3 {
			t.Fatal("after the exit, Terminate must answer true and Stop the same exit code 3")
		}
	})
}

func TestWaitURLReportsAnExitBeforeListening(t *testing.T) {
	p, err := Start(script(t, "echo refused >&2; exit 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if url, exited := p.WaitURL(10 * time.Second); url != "" || !exited {
		t.Fatalf("WaitURL = %q, exited %v; want \"\", true", url, exited)
	}
	if code := p.Cmd.ProcessState.ExitCode(); code != 4 || p.ExitErr == nil {
		t.Fatalf("exit code %d (err %v), want 4", code, p.ExitErr)
	}
}

// Terminate kills a server that ignores SIGTERM, and answers false.
func TestTerminateKillsAServerThatIgnoresSIGTERM(t *testing.T) {
	p, err := Start(script(t, "trap '' TERM\necho '{\"url\":\"http://127.0.0.1:1/mcp\"}' >&2\nwhile :; do sleep 0.05; done\n"))
	if err != nil {
		t.Fatal(err)
	}
	if url, _ := p.WaitURL(10 * time.Second); url == "" {
		t.Fatalf("no URL; log:\n%s", p.Log)
	}
	if p.Terminate(300 * time.Millisecond) {
		t.Fatal("Terminate answered true for a server that ignores SIGTERM")
	}
	if code := p.Stop(time.Second); code != -1 {
		t.Fatalf("Stop answered %d for the killed server, want -1", code)
	}
}

// GemFiles maps session numbers to pids, skipping a file that holds no pid.
func TestGemFilesMapsSessionNumbersToPids(t *testing.T) {
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "1"), []byte("4242\n"), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "2"), []byte("not a pid"), 0o600)
	if got, want := GemFiles(dir), map[string]int{"1": 4242}; !reflect.DeepEqual(got, want) {
		t.Fatalf("GemFiles = %v, want %v", got, want)
	}
}

func TestStandinGemsFindsNoneWhereNoGemStarted(t *testing.T) {
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "1"), []byte("4242\n"), 0o600)
	if got := StandinGems(dir); len(got) != 0 {
		t.Fatalf("StandinGems found %v for a directory no gem was started with", got)
	}
}

func TestLogBufferKeepsEveryConcurrentWrite(t *testing.T) {
	var l LogBuffer
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				l.Write([]byte("x"))
				_ = l.String()
			}
		}()
	}
	wg.Wait()
	if n := len(l.String()); n != 800 {
		t.Fatalf("%d bytes, want 800", n)
	}
}

func TestStartListeningAnswersTheURLTheServerLogged(t *testing.T) {
	bin := script(t, `echo '{"level":"info","url":"http://127.0.0.1:4712/mcp","message":"listening"}' >&2
while :; do sleep 0.05; done
`)
	p, url := StartListening(t, 10*time.Second, bin)
	defer p.Terminate(5 * time.Second)
	if url != "http://127.0.0.1:4712/mcp" {
		t.Fatalf("StartListening answered %q; log:\n%s", url, p.Log)
	}
}
