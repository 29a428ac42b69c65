package auth

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

// testIssuer is an OpenID provider built from go-jose keys: discovery, JWKS, and a token
// endpoint for the client_credentials and password grants. Its key set can be rotated.
type testIssuer struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	keys    []*rsa.PrivateKey
	kids    []string
	jwksHit atomic.Int64

	// users the password grant knows: username -> password.
	users map[string]string
	// clients the client_credentials grant knows: client id -> secret.
	clients map[string]string
	// audience and scope put in tokens from the token endpoint.
	audience string
}

func newTestIssuer(t *testing.T) *testIssuer {
	t.Helper()
	is := &testIssuer{t: t, users: map[string]string{}, clients: map[string]string{}}
	is.addKey("k1")
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
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
		is.jwksHit.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(is.publicSet())
	})
	mux.HandleFunc("/token", is.token)
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

func (is *testIssuer) URL() string { return is.srv.URL }

func (is *testIssuer) addKey(kid string) *rsa.PrivateKey {
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

// rotate replaces every key with a new one under kid.
func (is *testIssuer) rotate(kid string) {
	is.t.Helper()
	is.mu.Lock()
	is.keys, is.kids = nil, nil
	is.mu.Unlock()
	is.addKey(kid)
}

func (is *testIssuer) publicSet() jose.JSONWebKeySet {
	is.mu.Lock()
	defer is.mu.Unlock()
	var set jose.JSONWebKeySet
	for i, k := range is.keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: is.kids[i], Algorithm: "RS256", Use: "sig"})
	}
	return set
}

func (is *testIssuer) current() (*rsa.PrivateKey, string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	return is.keys[0], is.kids[0]
}

// sign makes a token with the issuer's current key over claims.
func (is *testIssuer) sign(claims map[string]any) string {
	is.t.Helper()
	k, kid := is.current()
	return signRSA(is.t, k, kid, claims)
}

func signRSA(t *testing.T, k *rsa.PrivateKey, kid string, claims map[string]any) string {
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

// claimsFor are a valid token's claims for sub, against cfg.
func claimsFor(is *testIssuer, resource, sub string, scopes string) map[string]any {
	now := time.Now()
	return map[string]any{
		"iss": is.URL(), "sub": sub, "aud": resource,
		"exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nbf": now.Add(-time.Second).Unix(),
		"scope": scopes,
	}
}

// token is the token endpoint: client_credentials (sub = client id) and password
// (sub = username) grants, client authentication by HTTP Basic or form fields.
func (is *testIssuer) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if want, known := is.clients[id]; !known || want != secret {
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	var sub string
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
		sub = id
	case "password":
		u := r.PostForm.Get("username")
		if want, known := is.users[u]; !known || want != r.PostForm.Get("password") {
			writeOAuthError(w, http.StatusBadRequest, "invalid_grant")
			return
		}
		sub = u
	default:
		writeOAuthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	tok := is.sign(claimsFor(is, is.audience, sub, r.PostForm.Get("scope")))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": tok, "token_type": "Bearer", "expires_in": 300,
		"scope": strings.TrimSpace(r.PostForm.Get("scope")),
	})
}

func writeOAuthError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}
