package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"golang.org/x/sync/singleflight"
)

// allowedAlgorithms are the only signature algorithms a token may use: asymmetric ones.
// An HMAC algorithm would let anyone holding the published key mint tokens, and "none"
// is no signature at all; both are refused before any key is looked at.
var allowedAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.EdDSA,
}

func allowedAlgorithmNames() []string {
	out := make([]string, len(allowedAlgorithms))
	for i, a := range allowedAlgorithms {
		out[i] = string(a)
	}
	return out
}

// errKeysUnavailable means the JWKS could not be fetched, so no verdict can be given.
var errKeysUnavailable = errors.New("the issuer's signing keys could not be fetched")

// errNoKey means no key of the issuer's current set verifies the token.
var errNoKey = errors.New("signature not made by any of the issuer's keys")

// keySet is the issuer's JWKS, cached. It is fetched again when a token names a key id it
// does not hold (the issuer rotated its keys) -- but at most once per minRefresh, so a flood
// of tokens with made-up key ids costs the issuer one fetch, not one each -- and when the
// cache is older than maxAge, so a key the issuer withdrew stops verifying. Requests that
// need a fetch while one is under way wait for that one (flight) instead of starting another.
type keySet struct {
	url        string
	client     *http.Client
	now        func() time.Time
	minRefresh time.Duration
	maxAge     time.Duration
	flight     singleflight.Group

	mu      sync.Mutex
	keys    []jose.JSONWebKey
	fetched time.Time // last attempt, successful or not
	loaded  time.Time // last success
	lastErr error
}

func newKeySet(url string, client *http.Client, now func() time.Time) *keySet {
	return &keySet{url: url, client: client, now: now, minRefresh: 10 * time.Second, maxAge: 10 * time.Minute}
}

// keyErrorKey carries a *error through go-oidc, which reports a key set's error as text only.
type keyErrorKey struct{}

// VerifySignature implements oidc.KeySet.
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	payload, err := k.verify(ctx, raw)
	if p, ok := ctx.Value(keyErrorKey{}).(*error); ok {
		*p = err
	}
	return payload, err
}

func (k *keySet) verify(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSignedCompact(raw, allowedAlgorithms)
	if err != nil {
		return nil, fmt.Errorf("not a compact JWS with an allowed algorithm: %w", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("exactly one signature is required")
	}
	hdr := jws.Signatures[0].Header
	keys, err := k.current(ctx, false)
	if err != nil {
		return nil, err
	}
	if payload, found, ok := verifyWith(jws, hdr, keys); ok {
		return payload, nil
	} else if found {
		return nil, errNoKey // the named key exists and the signature does not match it
	}
	keys, err = k.current(ctx, true)
	if err != nil {
		return nil, err
	}
	if payload, _, ok := verifyWith(jws, hdr, keys); ok {
		return payload, nil
	}
	return nil, errNoKey
}

// verifyWith tries the keys the header can mean; found says a key with the header's kid exists.
func verifyWith(jws *jose.JSONWebSignature, hdr jose.Header, keys []jose.JSONWebKey) (payload []byte, found, ok bool) {
	for i := range keys {
		key := &keys[i]
		if hdr.KeyID != "" && key.KeyID != hdr.KeyID {
			continue
		}
		if key.Algorithm != "" && key.Algorithm != hdr.Algorithm {
			continue
		}
		found = found || hdr.KeyID != ""
		if p, err := jws.Verify(key); err == nil {
			return p, true, true
		}
	}
	return nil, found, false
}

// current answers the cached keys, fetching them when there are none, when they are too
// old, or when refresh is asked for (refresh throttles itself to once per minRefresh).
func (k *keySet) current(ctx context.Context, refresh bool) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	need := refresh || k.loaded.IsZero() || k.now().Sub(k.loaded) > k.maxAge
	keys := k.keys
	k.mu.Unlock()
	if !need {
		return keys, nil
	}
	// The fetch runs on its own context (refresh), so a client hanging up does not cancel a
	// fetch other requests wait for; this request alone stops waiting.
	select {
	case r := <-k.flight.DoChan("jwks", k.refresh):
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.([]jose.JSONWebKey), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: %w", errKeysUnavailable, ctx.Err())
	}
}

// refresh downloads the JWKS unless the last attempt is younger than minRefresh, and answers
// the keys to use. A failed download keeps the keys last loaded: an issuer that is briefly
// down does not lock everyone out, and the next attempt comes minRefresh later.
func (k *keySet) refresh() (any, error) {
	k.mu.Lock()
	if !k.fetched.IsZero() && k.now().Sub(k.fetched) < k.minRefresh {
		defer k.mu.Unlock()
		return k.cached()
	}
	k.fetched = k.now()
	k.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keys, err := k.download(ctx)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err != nil {
		k.lastErr = fmt.Errorf("%w: %w", errKeysUnavailable, err)
		return k.cached()
	}
	k.keys, k.loaded, k.lastErr = keys, k.now(), nil
	return keys, nil
}

// cached answers the keys last loaded or, when none ever were, why not. k.mu is held.
func (k *keySet) cached() ([]jose.JSONWebKey, error) {
	if !k.loaded.IsZero() {
		return k.keys, nil
	}
	if k.lastErr != nil {
		return nil, k.lastErr
	}
	return nil, errKeysUnavailable
}

func (k *keySet) download(ctx context.Context) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET jwks_uri: %s", resp.Status)
	}
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("jwks_uri is not a JWK set: %w", err)
	}
	var keys []jose.JSONWebKey
	for _, raw := range doc.Keys {
		var key jose.JSONWebKey
		if json.Unmarshal(raw, &key) != nil {
			continue // a key type go-jose does not know; the others still count
		}
		if usable(key) {
			keys = append(keys, key)
		}
	}
	return keys, nil
}

// usable keeps public, asymmetric signature keys only: a symmetric ("oct") key in a JWKS
// must never become a way to accept HMAC tokens.
func usable(key jose.JSONWebKey) bool {
	if key.Use != "" && key.Use != "sig" {
		return false
	}
	switch key.Key.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey:
		return true
	}
	return false
}
