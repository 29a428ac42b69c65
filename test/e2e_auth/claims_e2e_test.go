package e2eauth

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// signPayload signs claim bytes as they are: a map cannot hold a claim twice, nor keep apart
// names that differ only in case.
func signPayload(t *testing.T, is *authtest.Issuer, payload string) string {
	t.Helper()
	k, kid := is.Current()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader(jose.HeaderKey("kid"), kid))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := signer.Sign([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// RFC 7519 claim names are case-sensitive: a validly signed token of carol's that also carries
// "SUB":"alice" is carol's, for the session's owner as for the gem's login. A claim given twice
// is refused.
func TestATokensClaims(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	aud := s.resource()
	alice := is.Sign(is.Claims(aud, "alice", "mcp:use profile"))
	a := s.do(s.client, http.MethodPost, alice, "", initializeBody)
	sid := a.Header.Get("Mcp-Session-Id")
	if a.Status != 200 || sid == "" {
		t.Fatalf("alice's initialize: %d %s", a.Status, a.Body)
	}
	carol, err := json.Marshal(is.Claims(aud, "carol", "mcp:use profile"))
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(string(carol), "}")
	ping := `{"jsonrpc":"2.0","id":9,"method":"ping"}`
	t.Run("name its exact subject", func(t *testing.T) {
		s := s.in(t)
		if a := s.do(s.client, http.MethodPost, signPayload(t, is, base+`,"SUB":"alice"}`), sid, ping); a.Status != http.StatusNotFound {
			t.Fatalf("carol's token with SUB alice on alice's session: %d %s; want 404 (it is carol's)", a.Status, a.Body)
		}
	})
	t.Run("given twice are refused", func(t *testing.T) {
		s := s.in(t)
		a := s.do(s.client, http.MethodPost, signPayload(t, is, base+`,"sub":"alice"}`), sid, ping)
		if a.Status != http.StatusUnauthorized || !strings.Contains(a.Header.Get("WWW-Authenticate"), "the token's claims are malformed") {
			t.Fatalf("a token naming sub twice: %d %q", a.Status, a.Header.Get("WWW-Authenticate"))
		}
	})
}
