package auth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Requests that need the keys while the first download is under way wait for that download
// rather than being refused or starting their own; one whose client hangs up stops waiting
// without cancelling the download the others wait for.
func TestRequestsDuringAKeyDownload(t *testing.T) {
	var downloads atomic.Int64
	release := make(chan struct{})
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		downloads.Add(1)
		<-release
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","use":"sig",` +
			`"x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}`))
	}))
	defer jwks.Close()
	k := newKeySet(jwks.URL, jwks.Client(), time.Now)

	hungUp, hangUp := context.WithCancel(context.Background())
	hungUpErr := make(chan error, 1)
	go func() {
		_, err := k.current(hungUp, false)
		hungUpErr <- err
	}()
	for downloads.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	const waiters = 8
	var wg sync.WaitGroup
	got := make([]int, waiters)
	errs := make([]error, waiters)
	for i := range waiters {
		wg.Go(func() {
			keys, err := k.current(context.Background(), false)
			got[i], errs[i] = len(keys), err
		})
	}
	hangUp()
	t.Run("one whose client hangs up stops waiting", func(t *testing.T) {
		if err := <-hungUpErr; !errors.Is(err, errKeysUnavailable) || !errors.Is(err, context.Canceled) {
			t.Fatalf("the request whose client hung up: %v, want keys unavailable because it was cancelled", err)
		}
	})
	time.Sleep(50 * time.Millisecond) // the waiters join the download under way
	close(release)
	wg.Wait()
	t.Run("the others get the keys of the download under way", func(t *testing.T) {
		for i := range waiters {
			if errs[i] != nil || got[i] != 1 {
				t.Errorf("waiter %d: %d keys, %v; want the one key of the shared download", i, got[i], errs[i])
			}
		}
	})
	t.Run("there is one download", func(t *testing.T) {
		if n := downloads.Load(); n != 1 {
			t.Fatalf("%d JWKS downloads for %d concurrent requests, want 1", n, waiters+1)
		}
	})
}
