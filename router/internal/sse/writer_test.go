package sse

import (
	"net/http/httptest"
	"testing"
	"time"
)

func TestEventWriterRefusesFieldsThatWouldForgeLines(t *testing.T) {
	rec := httptest.NewRecorder()
	ew := NewEventWriter(rec, time.Second)
	if err := ew.Event("1\nevent: evil", []byte("x")); err == nil {
		t.Fatal("an id with a line break was written")
	}
	if err := ew.Comment("ok\r\ndata: evil"); err == nil {
		t.Fatal("a comment with a line break was written")
	}
	if rec.Body.Len() != 0 {
		t.Fatalf("wrote %q", rec.Body.String())
	}
}
