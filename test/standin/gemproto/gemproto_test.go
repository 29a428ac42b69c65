package gemproto

import (
	"bytes"
	"testing"
)

func TestFramesRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	p := PerformCall{Receiver: "McpServer", Selector: "mcpHandle:", Args: []Arg{StringArg("héllo"), {Special: true, Oop: OopNil}}}
	if err := WriteFrame(&buf, TypePerform, p.Encode()); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFrame(&buf)
	if err != nil || f.Type != TypePerform {
		t.Fatalf("%v %q", err, f.Type)
	}
	got, err := DecodePerform(f.Payload)
	if err != nil || got.Receiver != p.Receiver || got.Selector != p.Selector || len(got.Args) != 2 ||
		string(got.Args[0].Bytes) != "héllo" || got.Args[0].Class != OopClassString || !got.Args[1].Special {
		t.Fatalf("decoded %+v %v", got, err)
	}
	if _, err := DecodePerform(f.Payload[:len(f.Payload)-3]); err == nil {
		t.Fatal("a truncated payload must not decode")
	}
	buf.Write([]byte{'P', 0, 0, 0, 0xff, 0xff, 0xff, 0x7f})
	if _, err := ReadFrame(&buf); err == nil {
		t.Fatal("an oversized frame must be refused")
	}
}

func TestEachFrameRoundTrips(t *testing.T) {
	t.Run("login", func(t *testing.T) {
		lp := LoginParams{"stone", "gem -C A=1;", "u", "p", "h", 0x810, "/tmp/x"}
		got, err := DecodeLogin(lp.Encode())
		if err != nil || got != lp {
			t.Fatalf("login: %+v %v", got, err)
		}
	})
	t.Run("hello", func(t *testing.T) {
		h, err := DecodeHello(Hello{Session: 3, Pid: 99}.Encode())
		if err != nil || h.Session != 3 || h.Pid != 99 {
			t.Fatalf("hello: %+v %v", h, err)
		}
	})
	for name, a := range map[string]Answer{
		"a String answer":  {Class: OopClassString, Bytes: []byte("abc")},
		"a special answer": {Special: true, Oop: OopTrue},
		"an error answer":  {Err: &GemError{Number: 6003, HasContext: true, Message: "soft"}},
	} {
		t.Run(name, func(t *testing.T) {
			typ, payload := a.Frame()
			back, err := DecodeAnswer(Frame{Type: typ, Payload: payload})
			if err != nil || back.Special != a.Special || back.Oop != a.Oop || string(back.Bytes) != string(a.Bytes) ||
				(a.Err != nil && (back.Err == nil || *back.Err != *a.Err)) {
				t.Fatalf("answer %+v came back as %+v (%v)", a, back, err)
			}
		})
	}
}
