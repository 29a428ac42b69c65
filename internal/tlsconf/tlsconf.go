// Package tlsconf builds the front end's TLS configuration from a certificate chain and key
// in PEM files: TLS 1.2 at least, forward-secret AEAD cipher suites only, and a certificate
// that is read again when its files change (a renewal needs no restart).
package tlsconf

import (
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// Config names the key pair's files. The zero Config is plain HTTP; the binary's loader
// (internal/config) refuses half a pair.
type Config struct {
	CertFile string // PEM certificate chain, leaf first
	KeyFile  string // PEM private key of the leaf
}

// Enabled says a key pair is named.
func (c Config) Enabled() bool { return c.CertFile != "" || c.KeyFile != "" }

// cipherSuites are the TLS 1.2 suites offered: ECDHE key exchange (forward secrecy) with
// an AEAD cipher. TLS 1.3 suites are not configurable in Go and are all of this kind.
var cipherSuites = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}

// Load reads the key pair (a bad one is an error naming the file or what is wrong with the
// pair) and answers a server configuration that serves it.
func Load(c Config) (*tls.Config, error) {
	return load(c, time.Now)
}

func load(c Config, now func() time.Time) (*tls.Config, error) {
	r := &reloader{certFile: c.CertFile, keyFile: c.KeyFile, now: now}
	if err := r.load(); err != nil {
		return nil, err
	}
	cfg := &tls.Config{
		MinVersion:     tls.VersionTLS12,
		CipherSuites:   cipherSuites,
		GetCertificate: r.get,
		NextProtos:     []string{"h2", "http/1.1"},
	}
	return cfg, nil
}

// reloader serves the key pair, checking the files' modification times at most every
// checkEvery; a pair that fails to load keeps the previous one in service.
type reloader struct {
	certFile, keyFile string
	now               func() time.Time

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string
	checked time.Time
}

const checkEvery = 10 * time.Second

func (r *reloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := r.now(); now.Sub(r.checked) >= checkEvery {
		r.checked = now
		if stamp, err := r.stampOf(); err == nil && stamp != r.stamp {
			_ = r.loadLocked() // on failure the old certificate stays in service
		}
	}
	return r.cert, nil
}

func (r *reloader) load() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checked = r.now()
	return r.loadLocked()
}

func (r *reloader) loadLocked() error {
	stamp, err := r.stampOf()
	if err != nil {
		return err
	}
	pair, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		return fmt.Errorf("cannot load the key pair: %w", err)
	}
	if pair.Leaf != nil && time.Now().After(pair.Leaf.NotAfter) {
		return errors.New("the certificate expired on " + pair.Leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	r.cert, r.stamp = &pair, stamp
	return nil
}

func (r *reloader) stampOf() (string, error) {
	var b strings.Builder
	for _, f := range []string{r.certFile, r.keyFile} {
		st, err := os.Stat(f)
		if err != nil {
			return "", fmt.Errorf("cannot read %s: %w", f, errors.Unwrap(err))
		}
		fmt.Fprintf(&b, "%d/%d;", st.ModTime().UnixNano(), st.Size())
	}
	return b.String(), nil
}
