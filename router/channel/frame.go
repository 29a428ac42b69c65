package channel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A frame is a 4-byte big-endian length followed by that many bytes of one UTF-8 JSON object.
const frameHeader = 4

// ErrFrameTooLarge: a frame announced more bytes than the limit (or none at all).
var ErrFrameTooLarge = errors.New("channel: frame size outside the limit")

// readFrame reads one frame of at most limit bytes. An oversized length is refused before
// any of its payload is read, so a worker cannot make the router allocate what it likes.
func readFrame(r io.Reader, limit int) ([]byte, error) {
	var head [frameHeader]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n == 0 || int64(n) > int64(limit) {
		return nil, fmt.Errorf("%w: %d bytes announced, limit %d", ErrFrameTooLarge, n, limit)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, fmt.Errorf("channel: frame cut short: %w", err)
	}
	return buf, nil
}

// appendFrame appends payload as one frame.
func appendFrame(dst, payload []byte) []byte {
	var head [frameHeader]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(payload)))
	return append(append(dst, head[:]...), payload...)
}
