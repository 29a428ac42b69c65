package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

// fixture is a resource server in front of a handler that opens and serves sessions the
// way the router does: POST without Mcp-Session-Id opens one bound to the token's subject,
// a request with the header is served only for its owner, else 404 as for an unknown id.
type fixture struct {
	t      *testing.T
	is     *authtest.Issuer
	cfg    Config
	a      *Authenticator
	owners *testOwners
	srv    *httptest.Server
	logs   *mcptest.LogBuffer
	tokens []string // every token the test sent, for the log check
	clock  *clock
}

// clock is the real time plus an offset the test moves forward (throttles, retries).
type clock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

const sessionHeader = "Mcp-Session-Id"

func newFixture(t *testing.T, edit func(*Config)) *fixture {
	t.Helper()
	f := &fixture{t: t, is: authtest.NewIssuer(t), owners: &testOwners{by: map[string]session.Owner{}}, logs: &mcptest.LogBuffer{}, clock: &clock{}}
	var handler http.Handler = http.NotFoundHandler()
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(f.srv.Close)
	f.cfg = Config{
		Issuer: f.is.URL(), Resource: f.srv.URL + "/mcp",
		RequiredScopes: []string{"mcp:use"}, ExtraScopes: []string{"profile"},
	}
	if edit != nil {
		edit(&f.cfg)
	}
	a, err := New(f.cfg, zerolog.New(f.logs).Level(zerolog.DebugLevel), VerifierOptions{Now: f.clock.now})
	if err != nil {
		t.Fatal(err)
	}
	f.a, f.cfg = a, a.Config()
	f.is.SetAudience(f.cfg.Resource, nil)
	seq := 0
	var mu sync.Mutex
	protected := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := PrincipalFrom(r.Context())
		if id := r.Header.Get(sessionHeader); id != "" {
			if !f.owners.Owns(r.Context(), id) {
				http.Error(w, "unknown session", http.StatusNotFound)
				return
			}
			_ = json.NewEncoder(w).Encode(p)
			return
		}
		mu.Lock()
		seq++
		id := "s" + string(rune('0'+seq))
		mu.Unlock()
		if err := f.owners.Bind(r.Context(), id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set(sessionHeader, id)
		_ = json.NewEncoder(w).Encode(p)
	})
	mux := http.NewServeMux()
	for path, meta := range a.PublicRoutes() {
		mux.Handle(path, meta)
	}
	mux.Handle("/", a.Middleware(protected))
	handler = mux
	return f
}

type reply struct {
	status    int
	challenge string
	session   string
	body      map[string]any
}

func (f *fixture) do(method, token, session string, header ...string) reply {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.srv.URL+"/mcp", strings.NewReader(`{}`))
	if token != "" {
		f.tokens = append(f.tokens, token)
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set(sessionHeader, session)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	return reply{resp.StatusCode, resp.Header.Get("WWW-Authenticate"), resp.Header.Get(sessionHeader), body}
}

func (f *fixture) valid(sub string, edit func(map[string]any)) string {
	c := f.is.Claims(f.cfg.Resource, sub, "mcp:use profile")
	if edit != nil {
		edit(c)
	}
	return f.is.Sign(c)
}

func (f *fixture) challenge(code, desc string) string {
	prm := `resource_metadata="` + f.srv.URL + `/.well-known/oauth-protected-resource/mcp"`
	if code == "" {
		return `Bearer ` + prm + `, scope="mcp:use profile"`
	}
	return `Bearer error="` + code + `", error_description="` + desc + `", ` + prm + `, scope="mcp:use profile"`
}

// assertNoTokenLogged fails if any token sent, or the signature part of one, is in the log.
func (f *fixture) assertNoTokenLogged() {
	f.t.Helper()
	logs := f.logs.String()
	if !strings.Contains(logs, "request refused") {
		f.t.Fatalf("the log holds no refusals at all, so this check proves nothing:\n%s", logs)
	}
	for _, tok := range f.tokens {
		parts := strings.Split(tok, ".")
		needles := []string{tok}
		if len(parts) == 3 && len(parts[2]) > 16 {
			needles = append(needles, parts[2])
		}
		for _, n := range needles {
			if strings.Contains(logs, n) {
				f.t.Fatalf("a bearer token (or its signature) is in the log:\n%s", logs)
			}
		}
	}
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func payloadOf(t *testing.T, claims map[string]any) string {
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// hs256WithPublicKey is the classic algorithm-confusion forgery: an HMAC token whose
// secret is the issuer's published RSA public key.
func hs256WithPublicKey(t *testing.T, pub *rsa.PublicKey, claims map[string]any) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: secret},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader(jose.HeaderKey("kid"), "k1"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestEveryForgeryIsAnsweredWithItsChallenge(t *testing.T) {
	f := newFixture(t, nil)
	issuerKey, _ := f.is.Current()
	rogue, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	good := f.is.Claims(f.cfg.Resource, "alice", "mcp:use profile")
	badSig := "the token's signature could not be verified (an allowed asymmetric algorithm and a current key of the issuer are required)"

	cases := []struct {
		name      string
		token     string
		status    int
		challenge string
	}{
		{"no token", "", 401, f.challenge("", "")},
		{"not a JWT", "not-a-jwt", 401, f.challenge("invalid_token", "the token is not a signed JWT")},
		{"three dots but not a JWS", "a.b.c", 401, f.challenge("invalid_token", badSig)},
		{"alg none", b64(`{"alg":"none","typ":"JWT"}`) + "." + payloadOf(t, good) + ".", 401, f.challenge("invalid_token", badSig)},
		{"HS256 signed with the RSA public key", hs256WithPublicKey(t, &issuerKey.PublicKey, good), 401, f.challenge("invalid_token", badSig)},
		{"key not in the JWKS, issuer's kid", authtest.SignRSA(t, rogue, "k1", good), 401, f.challenge("invalid_token", badSig)},
		{"key not in the JWKS, unknown kid", authtest.SignRSA(t, rogue, "rogue", good), 401, f.challenge("invalid_token", badSig)},
		{"key not in the JWKS, no kid", authtest.SignRSA(t, rogue, "", good), 401, f.challenge("invalid_token", badSig)},
		{"wrong issuer", f.valid("alice", func(c map[string]any) { c["iss"] = "https://evil.example" }), 401,
			f.challenge("invalid_token", "the token was issued by another issuer than this server trusts")},
		{"wrong audience", f.valid("alice", func(c map[string]any) { c["aud"] = "https://other.example/mcp" }), 401,
			f.challenge("invalid_token", "the token's audience is not this server (its aud must include the resource named in the protected resource metadata)")},
		{"no audience", f.valid("alice", func(c map[string]any) { delete(c, "aud") }), 401,
			f.challenge("invalid_token", "the token's audience is not this server (its aud must include the resource named in the protected resource metadata)")},
		{"expired beyond the skew", f.valid("alice", func(c map[string]any) { c["exp"] = now.Add(-2 * time.Minute).Unix() }), 401,
			f.challenge("invalid_token", "the token has expired")},
		{"no exp", f.valid("alice", func(c map[string]any) { delete(c, "exp") }), 401,
			f.challenge("invalid_token", "the token has no valid exp claim")},
		{"nbf in the future", f.valid("alice", func(c map[string]any) { c["nbf"] = now.Add(5 * time.Minute).Unix() }), 401,
			f.challenge("invalid_token", "the token is not valid yet (nbf is in the future)")},
		{"required scope missing", f.valid("alice", func(c map[string]any) { c["scope"] = "profile" }), 403,
			f.challenge("insufficient_scope", "the token lacks a required scope")},
		{"no scope at all", f.valid("alice", func(c map[string]any) { delete(c, "scope") }), 403,
			f.challenge("insufficient_scope", "the token lacks a required scope")},
		{"valid token", f.valid("alice", nil), 200, ""},
		{"valid token, scp array", f.valid("alice", func(c map[string]any) { delete(c, "scope"); c["scp"] = []string{"mcp:use"} }), 200, ""},
		{"valid token, aud array", f.valid("alice", func(c map[string]any) { c["aud"] = []string{"other", f.cfg.Resource} }), 200, ""},
		{"expired within the skew", f.valid("alice", func(c map[string]any) { c["exp"] = now.Add(-20 * time.Second).Unix() }), 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := f.do(http.MethodPost, c.token, "")
			if got.status != c.status || got.challenge != c.challenge {
				t.Fatalf("got %d %q\nwant %d %q", got.status, got.challenge, c.status, c.challenge)
			}
			switch c.status {
			case 200:
				if got.body["user"] != "alice" || got.body["sub"] != "alice" || got.body["iss"] != f.is.URL() || got.session == "" {
					t.Fatalf("principal not handed on: %v (session %q)", got.body, got.session)
				}
			case 401, 403:
				wantErr := map[int]string{401: "invalid_token", 403: "insufficient_scope"}[c.status]
				if c.token == "" {
					wantErr = ""
				}
				if e, _ := got.body["error"].(string); e != wantErr || got.body["error_description"] == nil {
					t.Fatalf("body %v, want error %q with a description", got.body, wantErr)
				}
			}
		})
	}
	f.assertNoTokenLogged()
}

func TestAnotherSubjectsTokenOnASessionIsAnUnknownSession(t *testing.T) {
	f := newFixture(t, nil)
	opened := f.do(http.MethodPost, f.valid("alice", nil), "")
	if opened.status != 200 || opened.session == "" {
		t.Fatalf("open: %+v", opened)
	}
	if got := f.do(http.MethodPost, f.valid("bob", nil), opened.session); got.status != 404 {
		t.Fatalf("bob on alice's session: %d, want 404 (as for an unknown session)", got.status)
	}
	sameSubOtherIssuer := f.valid("alice", nil)
	// The same subject name from an issuer this server does not trust never gets this far.
	if got := f.do(http.MethodPost, f.is.Sign(map[string]any{"iss": "https://evil.example", "sub": "alice", "aud": f.cfg.Resource,
		"exp": time.Now().Add(time.Minute).Unix(), "scope": "mcp:use"}), opened.session); got.status != 401 {
		t.Fatalf("foreign issuer on the session: %d, want 401", got.status)
	}
	if got := f.do(http.MethodPost, sameSubOtherIssuer, opened.session); got.status != 200 || got.body["sub"] != "alice" {
		t.Fatalf("alice on her own session: %+v", got)
	}
	if got := f.do(http.MethodPost, "", opened.session); got.status != 401 || got.challenge != f.challenge("", "") {
		t.Fatalf("the session id alone: %d %q, want 401 with the challenge", got.status, got.challenge)
	}
	f.owners.Forget(opened.session)
	if got := f.do(http.MethodPost, f.valid("alice", nil), opened.session); got.status != 404 {
		t.Fatalf("a forgotten (ended) session: %d, want 404", got.status)
	}
	f.assertNoTokenLogged()
}

func TestTokensOnAnOpenSession(t *testing.T) {
	f := newFixture(t, nil)
	opened := f.do(http.MethodPost, f.valid("alice", nil), "")
	t.Run("an expired one is refused", func(t *testing.T) {
		expired := f.valid("alice", func(c map[string]any) { c["exp"] = time.Now().Add(-10 * time.Minute).Unix() })
		if got := f.do(http.MethodPost, expired, opened.session); got.status != 401 ||
			got.challenge != f.challenge("invalid_token", "the token has expired") {
			t.Fatalf("expired token on the session: %d %q", got.status, got.challenge)
		}
	})
	t.Run("a fresh one of the same subject continues it", func(t *testing.T) {
		if got := f.do(http.MethodPost, f.valid("alice", nil), opened.session); got.status != 200 {
			t.Fatalf("fresh token of the same subject: %d, want 200 (the session survives)", got.status)
		}
	})
	t.Run("another subject's is answered 404", func(t *testing.T) {
		if got := f.do(http.MethodPost, f.valid("mallory", nil), opened.session); got.status != 404 {
			t.Fatalf("fresh token of another subject: %d, want 404", got.status)
		}
	})
}

func TestMalformedRequestsAreInvalidRequestOrPlainChallenge(t *testing.T) {
	f := newFixture(t, nil)
	tok := f.valid("alice", nil)
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/mcp?access_token="+tok, nil)
	f.tokens = append(f.tokens, tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := f.challenge("invalid_request", "a token is accepted only in the Authorization header, never in the URL"); resp.StatusCode != 400 || resp.Header.Get("WWW-Authenticate") != want {
		t.Fatalf("token in the query: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if got := f.do(http.MethodPost, tok, "", "Authorization", "Bearer "+tok); got.status != 400 ||
		got.challenge != f.challenge("invalid_request", "more than one Authorization header") {
		t.Fatalf("two Authorization headers: %d %q", got.status, got.challenge)
	}
	if got := f.do(http.MethodPost, "", "", "Authorization", "Basic YWxpY2U6c2VjcmV0"); got.status != 401 || got.challenge != f.challenge("", "") {
		t.Fatalf("Basic credentials: %d %q, want the plain challenge", got.status, got.challenge)
	}
	if got := f.do(http.MethodPost, "", "", "Authorization", "bearer "+tok); got.status != 200 {
		t.Fatalf("a lower-case scheme name is still Bearer (RFC 7235): %d", got.status)
	}
	f.assertNoTokenLogged()
}

func TestUserIDComesFromTheConfiguredClaim(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.UserIDClaim = "preferred_username" })
	got := f.do(http.MethodPost, f.valid("3f2a-uuid", func(c map[string]any) { c["preferred_username"] = "analyst" }), "")
	if got.status != 200 || got.body["user"] != "analyst" || got.body["sub"] != "3f2a-uuid" {
		t.Fatalf("%+v", got)
	}
	got = f.do(http.MethodPost, f.valid("3f2a-uuid", nil), "")
	if got.status != 401 || got.challenge != f.challenge("invalid_token", "the token has no preferred_username claim naming a GemStone user") {
		t.Fatalf("no user claim: %d %q", got.status, got.challenge)
	}
}

// The issuer's keys over time; each subtest is one step, in order, on the same key set.
func TestTheIssuersKeys(t *testing.T) {
	f := newFixture(t, nil)
	issuerKeyBefore, _ := f.is.Current()
	rogue, _ := rsa.GenerateKey(rand.Reader, 2048)
	good := f.is.Claims(f.cfg.Resource, "alice", "mcp:use")
	t.Run("the first token fetches them once", func(t *testing.T) {
		if got := f.do(http.MethodPost, f.valid("alice", nil), ""); got.status != 200 {
			t.Fatalf("first token: %d", got.status)
		}
		if n := f.is.JWKSFetches(); n != 1 {
			t.Fatalf("JWKS fetched %d times for the first token, want 1", n)
		}
	})
	t.Run("a bad signature under a known kid fetches nothing", func(t *testing.T) {
		f.do(http.MethodPost, authtest.SignRSA(t, rogue, "k1", good), "")
		if n := f.is.JWKSFetches(); n != 1 {
			t.Fatalf("a bad signature under a known kid fetched the JWKS again (%d fetches)", n)
		}
	})
	t.Run("unknown kids do not hammer the issuer", func(t *testing.T) {
		f.clock.advance(11 * time.Second) // past the 10 s throttle
		for i := 0; i < 20; i++ {
			f.do(http.MethodPost, authtest.SignRSA(t, rogue, "made-up", good), "")
		}
		if n := f.is.JWKSFetches(); n != 2 {
			t.Fatalf("20 tokens with an unknown kid fetched the JWKS %d times in all, want 2 (one refresh, then throttled)", n)
		}
	})
	t.Run("a rotation is followed", func(t *testing.T) {
		// Once the throttle interval has passed, a token under the new kid makes the set
		// refresh and is accepted.
		f.is.Rotate("k2")
		f.clock.advance(11 * time.Second)
		if got := f.do(http.MethodPost, f.valid("alice", nil), ""); got.status != 200 {
			t.Fatalf("token under the rotated key: %d %q", got.status, got.challenge)
		}
		if n := f.is.JWKSFetches(); n != 3 {
			t.Fatalf("JWKS fetches after the rotation: %d, want 3", n)
		}
	})
	t.Run("a withdrawn key no longer verifies", func(t *testing.T) {
		oldKeyToken := authtest.SignRSA(t, issuerKeyBefore, "k1", good)
		if got := f.do(http.MethodPost, oldKeyToken, ""); got.status != 401 {
			t.Fatalf("token under the withdrawn key: %d", got.status)
		}
	})
}

func TestAnUnreachableIssuer(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	a, err := New(Config{Issuer: deadURL, Resource: "http://127.0.0.1:1/mcp"}, zerolog.Nop(), VerifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "Bearer a.b.c")
	t.Run("makes a request retry later, unchallenged", func(t *testing.T) {
		rec := httptest.NewRecorder()
		a.Middleware(http.NotFoundHandler()).ServeHTTP(rec, req)
		if rec.Code != 503 || rec.Header().Get("Retry-After") != "5" || rec.Header().Get("WWW-Authenticate") != "" {
			t.Fatalf("%d %v, want 503 with Retry-After 5 and no WWW-Authenticate", rec.Code, rec.Header())
		}
	})
	t.Run("fails discovery naming it", func(t *testing.T) {
		if err := a.Verifier().Discover(req.Context()); err == nil || !strings.Contains(err.Error(), "OpenID discovery") {
			t.Fatalf("Discover: %v", err)
		}
	})
}

func TestGETStreamContextEndsWhenItsTokenExpires(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.ClockSkew = time.Millisecond })
	ended := make(chan time.Duration, 1)
	exp := time.Now().Add(1500 * time.Millisecond).Truncate(time.Second).Add(time.Second)
	tok := f.valid("alice", func(c map[string]any) { c["exp"] = exp.Unix() })
	start := time.Now()
	h := f.a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			ended <- time.Since(start)
		case <-time.After(5 * time.Second):
			ended <- -1
		}
	}))
	req := httptest.NewRequest(http.MethodGet, "/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	h.ServeHTTP(httptest.NewRecorder(), req)
	if d := <-ended; d < 0 || d > time.Until(exp)+time.Since(start)+500*time.Millisecond {
		t.Fatalf("the stream's context did not end at the token's expiry (%v)", d)
	}
}

// signPayload signs raw claim bytes as they are, so a test can send what a map cannot hold
// (a claim given twice, names differing only in case).
func (f *fixture) signPayload(payload string) string {
	f.t.Helper()
	k, kid := f.is.Current()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader(jose.HeaderKey("kid"), kid))
	if err != nil {
		f.t.Fatal(err)
	}
	obj, err := signer.Sign([]byte(payload))
	if err != nil {
		f.t.Fatal(err)
	}
	tok, err := obj.CompactSerialize()
	if err != nil {
		f.t.Fatal(err)
	}
	return tok
}

func TestRegisteredClaims(t *testing.T) {
	f := newFixture(t, nil)
	c := f.is.Claims(f.cfg.Resource, "carol", "mcp:use profile")
	head, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(string(head), "}")
	t.Run("are read by their exact name", func(t *testing.T) {
		// RFC 7519 claim names are case-sensitive: SUB is some other claim, and sub stays carol
		// for both the session's owner and the gem's login.
		got := f.do(http.MethodPost, f.signPayload(base+`,"SUB":"alice"}`), "")
		if got.status != 200 || got.body["sub"] != "carol" || got.body["user"] != "carol" {
			t.Fatalf("sub beside SUB: %+v, want sub and user carol", got)
		}
	})
	t.Run("given twice are refused", func(t *testing.T) {
		// A claim given twice could be read either way.
		got := f.do(http.MethodPost, f.signPayload(base+`,"sub":"alice"}`), "")
		if got.status != 401 || got.challenge != f.challenge("invalid_token", "the token's claims are malformed") {
			t.Fatalf("sub given twice: %d %q", got.status, got.challenge)
		}
	})
}

// testOwners stands for the router's sessions: each remembers the Owner that opened it.
type testOwners struct {
	mu sync.Mutex
	by map[string]session.Owner
}

func (o *testOwners) Bind(ctx context.Context, id string) error {
	owner, err := Owner(ctx)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.by[id] = owner
	return nil
}

func (o *testOwners) Owns(ctx context.Context, id string) bool {
	owner, err := Owner(ctx)
	o.mu.Lock()
	defer o.mu.Unlock()
	got, ok := o.by[id]
	return err == nil && ok && got == owner
}

func (o *testOwners) Forget(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.by, id)
}
