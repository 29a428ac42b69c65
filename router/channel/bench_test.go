package channel

import (
	"encoding/json"
	"net"
	"testing"

	"github.com/rs/zerolog"
)

// countingStream is a CallStream that only counts, so the benchmark measures the channel.
type countingStream struct{ n chan struct{} }

func (c countingStream) Message([]byte) error { c.n <- struct{}{}; return nil }
func (countingStream) CloseStream() error     { return nil }

// BenchmarkNotificationRelay measures one progress notification from a worker's socket to the
// call's stream: framing, hello-authenticated connection, envelope check, binding lookup.
func BenchmarkNotificationRelay(b *testing.B) {
	h, err := Listen(Options{Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ep, _ := h.Open("bench")
	stream := countingStream{n: make(chan struct{}, 1024)}
	defer ep.Bind(json.RawMessage(`1`), stream)()
	nc, err := net.Dial("tcp", h.Address())
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	hello, _ := json.Marshal(map[string]any{"hello": 1, "secret": ep.Secret()})
	if _, err := nc.Write(appendFrame(nil, hello)); err != nil {
		b.Fatal(err)
	}
	if _, err := readFrame(nc, DefaultMaxFrame); err != nil {
		b.Fatal(err)
	}
	frame := appendFrame(nil, []byte(`{"call":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":50,"total":100}}}`))
	b.SetBytes(int64(len(frame)))
	b.ResetTimer()
	go func() {
		for i := 0; i < b.N; i++ {
			if _, err := nc.Write(frame); err != nil {
				return
			}
		}
	}()
	for i := 0; i < b.N; i++ {
		<-stream.n
	}
}
