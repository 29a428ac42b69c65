package sse

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkSendToDelivery measures one message from Send to the client reading its frame,
// over a real loopback socket.
func BenchmarkSendToDelivery(b *testing.B) {
	sess := NewStream(Options{Keepalive: time.Hour})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sess.ServeStream(w, r, "2025-06-18")
	}))
	defer srv.Close()
	defer sess.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := srv.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	sr := &sseReader{r: bufio.NewReader(resp.Body)}
	for {
		if _, open := sess.Generation(); open {
			break
		}
		time.Sleep(time.Millisecond)
	}
	msg := []byte(`{"jsonrpc":"2.0","id":"srv-1","method":"ping"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sess.Send(msg)
		if _, err := sr.next(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHangUpNoticed measures from the client closing its stream to OnStreamClosed.
func BenchmarkHangUpNoticed(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		closed := make(chan struct{}, 1)
		sess := NewStream(Options{Keepalive: time.Hour, OnStreamClosed: func(uint64) { closed <- struct{}{} }})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sess.ServeStream(w, r, "2025-06-18")
		}))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, open := sess.Generation(); open {
				break
			}
			time.Sleep(time.Millisecond)
		}
		b.StartTimer()
		cancel()
		<-closed
		b.StopTimer()
		resp.Body.Close()
		srv.Close()
	}
}
