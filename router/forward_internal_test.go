package router

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll must read what arrives, whatever length was declared, however the reader splits it.
func TestReadAllReadsTheWholeBodyWhateverItsDeclaredLength(t *testing.T) {
	body := strings.Repeat("héllo ", 50)
	splits := map[string]func(io.Reader) io.Reader{
		"as it comes":        func(r io.Reader) io.Reader { return r },
		"byte by byte":       iotest.OneByteReader,
		"its end with bytes": iotest.DataErrReader,
	}
	for _, declared := range []int64{-1, 0, 1, int64(len(body)) - 1, int64(len(body)), int64(len(body)) + 1, presizeLimit + 1} {
		for split, wrap := range splits {
			got, err := readAll(wrap(strings.NewReader(body)), declared)
			if err != nil || !bytes.Equal(got, []byte(body)) {
				t.Errorf("declared %d, read %s: %d bytes (%v), want %d", declared, split, len(got), err, len(body))
			}
		}
	}
}

func TestReadAllReportsAFailedRead(t *testing.T) {
	if _, err := readAll(iotest.ErrReader(iotest.ErrTimeout), 10); err != iotest.ErrTimeout {
		t.Fatalf("a failing body read as %v", err)
	}
}
