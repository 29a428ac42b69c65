// Package authtest is an OpenID provider for tests, built from go-jose keys on httptest:
// discovery, a JWKS that can be rotated, and a token endpoint for the client_credentials and
// password grants. It signs whatever claims a test asks for, which is what the attack tests need.
package authtest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Issuer is the test provider. Its URL is the issuer identifier.
type Issuer struct {
	t   testing.TB
	srv *httptest.Server

	mu       sync.Mutex
	keys     []*rsa.PrivateKey
	kids     []string
	clients  map[string]string // client id -> secret
	users    map[string]string // username -> password
	audience string
	extra    map[string]any

	jwksFetches atomic.Int64
}

// NewIssuer starts a provider with one RSA key, kid "k1"; it stops with the test.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is := &Issuer{t: t, clients: map[string]string{}, users: map[string]string{}}
	is.AddKey("k1")
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer":                                is.URL(),
			"jwks_uri":                              is.URL() + "/jwks",
			"token_endpoint":                        is.URL() + "/token",
			"authorization_endpoint":                is.URL() + "/authorize",
			"response_types_supported":              []string{"code"},
			"subject_types_supported":               []string{"public"},
			"id_token_signing_alg_values_supported": []string{"RS256"},
			"grant_types_supported":                 []string{"client_credentials", "password"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		is.jwksFetches.Add(1)
		writeJSON(w, http.StatusOK, is.publicSet())
	})
	mux.HandleFunc("/token", is.token)
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

// URL is the issuer identifier (and its base URL).
func (is *Issuer) URL() string { return is.srv.URL }

// Close stops the provider (an unreachable issuer).
func (is *Issuer) Close() { is.srv.Close() }

// JWKSFetches counts the GETs of the key set.
func (is *Issuer) JWKSFetches() int64 { return is.jwksFetches.Load() }

// AddKey puts a new current key in front of the set.
func (is *Issuer) AddKey(kid string) *rsa.PrivateKey {
	is.t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		is.t.Fatal(err)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys = append([]*rsa.PrivateKey{k}, is.keys...)
	is.kids = append([]string{kid}, is.kids...)
	return k
}

// Rotate replaces every key with a new one under kid.
func (is *Issuer) Rotate(kid string) {
	is.mu.Lock()
	is.keys, is.kids = nil, nil
	is.mu.Unlock()
	is.AddKey(kid)
}

// Current is the signing key and its kid.
func (is *Issuer) Current() (*rsa.PrivateKey, string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	return is.keys[0], is.kids[0]
}

// AddClient registers a confidential client for the token endpoint.
func (is *Issuer) AddClient(id, secret string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.clients[id] = secret
}

// AddUser registers a user for the password grant.
func (is *Issuer) AddUser(name, password string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.users[name] = password
}

// SetAudience is the aud of tokens from the token endpoint; extra claims are added to them.
func (is *Issuer) SetAudience(aud string, extra map[string]any) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.audience, is.extra = aud, extra
}

func (is *Issuer) publicSet() jose.JSONWebKeySet {
	is.mu.Lock()
	defer is.mu.Unlock()
	var set jose.JSONWebKeySet
	for i, k := range is.keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: is.kids[i], Algorithm: "RS256", Use: "sig"})
	}
	return set
}

// Claims are a valid token's claims: this issuer, aud, sub, scope, 5 minutes of life.
func (is *Issuer) Claims(aud, sub, scope string) map[string]any {
	now := time.Now()
	return map[string]any{
		"iss": is.URL(), "sub": sub, "aud": aud, "scope": scope,
		"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nbf": now.Add(-time.Second).Unix(),
	}
}

// Sign signs claims with the current key.
func (is *Issuer) Sign(claims map[string]any) string {
	is.t.Helper()
	k, kid := is.Current()
	return SignRSA(is.t, k, kid, claims)
}

// SignRSA signs claims with any RSA key (RS256), with kid in the header unless empty.
func SignRSA(t testing.TB, k *rsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	if kid != "" {
		opts = opts.WithHeader(jose.HeaderKey("kid"), kid)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// token is the token endpoint: client_credentials (sub = the client id) and password
// (sub = the username), client authentication by HTTP Basic or form fields.
func (is *Issuer) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	is.mu.Lock()
	want, known := is.clients[id]
	password, userKnown := is.users[r.PostForm.Get("username")]
	aud, extra := is.audience, is.extra
	is.mu.Unlock()
	if !known || want != secret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	var sub string
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
		sub = id
	case "password":
		if !userKnown || password != r.PostForm.Get("password") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		sub = r.PostForm.Get("username")
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	scope := strings.TrimSpace(r.PostForm.Get("scope"))
	claims := is.Claims(aud, sub, scope)
	for k, v := range extra {
		claims[k] = v
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": is.Sign(claims), "token_type": "Bearer", "expires_in": 300, "scope": scope,
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
