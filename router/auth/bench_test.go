package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// BenchmarkMiddlewareValidToken is the cost a valid RS256 (2048-bit) token adds to a request
// once the keys are cached: parse, signature, claims.
func BenchmarkMiddlewareValidToken(b *testing.B) {
	is := authtest.NewIssuer(b)
	a, err := New(Config{Issuer: is.URL(), Resource: "http://127.0.0.1/mcp", RequiredScopes: []string{"mcp:use"}}, zerolog.Nop(), VerifierOptions{})
	if err != nil {
		b.Fatal(err)
	}
	tok := is.Sign(is.Claims("http://127.0.0.1/mcp", "alice", "mcp:use"))
	h := a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil).WithContext(context.Background())
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		b.Fatalf("warm-up: %d", rec.Code)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("%d", rec.Code)
		}
	}
}

// BenchmarkMiddlewareForgedToken is what a forged token (unknown key id) costs once the JWKS
// refresh is throttled: the attacker's price is parse plus a failed lookup, no fetch.
func BenchmarkMiddlewareForgedToken(b *testing.B) {
	is := authtest.NewIssuer(b)
	a, err := New(Config{Issuer: is.URL(), Resource: "http://127.0.0.1/mcp"}, zerolog.Nop(), VerifierOptions{})
	if err != nil {
		b.Fatal(err)
	}
	rogue := authtest.NewIssuer(b)
	k, _ := rogue.Current()
	tok := authtest.SignRSA(b, k, "made-up", is.Claims("http://127.0.0.1/mcp", "alice", ""))
	h := a.Middleware(http.NotFoundHandler())
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	h.ServeHTTP(httptest.NewRecorder(), req)
	before := is.JWKSFetches()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 401 {
			b.Fatalf("%d", rec.Code)
		}
	}
	b.StopTimer()
	if n := is.JWKSFetches() - before; n > 1 {
		b.Fatalf("%d JWKS fetches during the run", n)
	}
}
