package mcptest

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

func TestKindIsTheErrorsDataKindOrNothing(t *testing.T) {
	var r RPC
	if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"m","data":{"kind":"sessionGone"}}}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind() != errkind.SessionGone || r.Error.Code != -32001 || string(r.ID) != "3" {
		t.Fatalf("decoded %+v, kind %q", r, r.Kind())
	}
	for _, body := range []string{`{"id":1,"result":{}}`, `{"id":1,"error":{"code":-32600,"message":"m"}}`} {
		var r RPC
		_ = json.Unmarshal([]byte(body), &r)
		if k := r.Kind(); k != "" {
			t.Errorf("%s: kind %q, want none", body, k)
		}
	}
}

func TestToolCallIsAValidRequestNamingTheToolWithItsArguments(t *testing.T) {
	var req struct {
		ID     int    `json:"id"`
		Method string `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(ToolCall(7, `say "hi"`, `{"text":"x"}`)), &req); err != nil {
		t.Fatal(err)
	}
	if req.ID != 7 || req.Method != "tools/call" || req.Params.Name != `say "hi"` || req.Params.Arguments["text"] != "x" {
		t.Fatalf("decoded %+v", req)
	}
}

func TestSelfSignedCert(t *testing.T) {
	certFile, keyFile, cert := SelfSignedCert(t, t.TempDir(), "cn", "127.0.0.1", "localhost")
	t.Run("loads as a pair", func(t *testing.T) {
		if _, err := tls.LoadX509KeyPair(certFile, keyFile); err != nil {
			t.Fatalf("the files do not load as a pair: %v", err)
		}
	})
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	t.Run("is its own root for the names it was given", func(t *testing.T) {
		for _, host := range []string{"127.0.0.1", "localhost"} {
			if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: host}); err != nil {
				t.Errorf("verify for %s: %v", host, err)
			}
		}
	})
	t.Run("verifies for no other name", func(t *testing.T) {
		if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "evil.example.com"}); err == nil {
			t.Error("the certificate verifies for a name it was not given")
		}
	})
	t.Run("has its common name", func(t *testing.T) {
		if cert.Subject.CommonName != "cn" {
			t.Errorf("common name %q", cert.Subject.CommonName)
		}
	})
}

// Children and Alive see a child until it is reaped.
func TestAChildIsSeenUntilItIsReaped(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	kids, err := Children("sleep")
	if err != nil || !slices.Contains(kids, pid) || !Alive(pid) {
		t.Fatalf("a running child %d: Children(sleep) %v (%v), Alive %v", pid, kids, err, Alive(pid))
	}
	_ = cmd.Process.Kill()
	for deadline := time.Now().Add(5 * time.Second); Alive(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a killed child %d still counts as alive (a zombie must not)", pid)
		}
	}
	if kids, _ := Children("sleep"); slices.Contains(kids, pid) {
		t.Fatalf("a killed child %d is still listed", pid)
	}
	_ = cmd.Wait()
	if Alive(pid) {
		t.Fatalf("a reaped child %d counts as alive", pid)
	}
}

func TestEndsWithinTellsAnEndedReaderFromAnOpenOne(t *testing.T) {
	if !EndsWithin(strings.NewReader("some bytes"), time.Second) {
		t.Fatal("a reader at its end did not end")
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	if EndsWithin(pr, 50*time.Millisecond) {
		t.Fatal("an open pipe counted as ended")
	}
}
