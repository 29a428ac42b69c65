// Package gemproto is the frame protocol between the GCI test stand-in's libgcits (C) and
// its gem processes (test/standin/gem), in Go: the gem uses it, and so do tests that drive a
// real stand-in gem without the C library (test/contract). test/standin/README.md is the
// protocol's description; test/standin/session.c and api.c are its C end.
//
// Every frame is: uint8 type, three zero bytes, uint32 little-endian payload length, payload.
// Strings inside payloads are a uint32 length and the bytes.
package gemproto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Frame types.
const (
	TypeLogin   = 'L' // library → gem: the login parameters (a string list, LoginParams)
	TypePerform = 'P' // library → gem: receiver class name, selector, arguments
	TypeExecute = 'E' // library → gem: source text
	TypeBreak   = 'B' // library → gem: one byte, 1 = hard
	TypeQuit    = 'Q' // library → gem: log out and exit
	TypeHello   = 'H' // gem → library: login accepted: int32 session, int32 pid
	TypeResult  = 'R' // gem → library: a call's result
	TypeError   = 'X' // gem → library: a call's (or the login's) GemStone error
)

const (
	headerSize = 8
	// MaxFrame is the largest payload either end accepts.
	MaxFrame = 1 << 30
)

// OOPs the gem names (gci-ts.md section 4).
const (
	OopNil         = 0x14
	OopFalse       = 0x0C
	OopTrue        = 0x10C
	OopClassString = 74753
)

// Kinds of results and arguments.
const (
	KindBytes   = 0 // a byte object: uint64 class OOP, then the bytes
	KindSpecial = 1 // an immediate OOP (SmallInteger, nil, true, false, Character)
)

// Error frame flags.
const (
	ErrFatal      = 1
	ErrHasContext = 2 // the error left a suspended GsProcess (breaks, Smalltalk errors)
)

// Frame is one frame.
type Frame struct {
	Type    byte
	Payload []byte
}

// ReadFrame reads one whole frame.
func ReadFrame(r io.Reader) (Frame, error) {
	var hdr [headerSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return Frame{}, err
	}
	n := binary.LittleEndian.Uint32(hdr[4:])
	if n > MaxFrame {
		return Frame{}, fmt.Errorf("frame of %d bytes exceeds the %d byte limit", n, MaxFrame)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return Frame{}, fmt.Errorf("reading a %d byte %q frame: %w", n, hdr[0], err)
	}
	return Frame{Type: hdr[0], Payload: payload}, nil
}

// WriteFrame writes one frame in a single Write.
func WriteFrame(w io.Writer, typ byte, payload []byte) error {
	buf := make([]byte, headerSize, headerSize+len(payload))
	buf[0] = typ
	binary.LittleEndian.PutUint32(buf[4:], uint32(len(payload)))
	_, err := w.Write(append(buf, payload...))
	return err
}

// ErrShortPayload says a payload ended before its fields did.
var ErrShortPayload = errors.New("frame payload ends early")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.err = ErrShortPayload
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) u8() byte {
	if b := d.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) bytes() []byte { return d.take(int(d.u32())) }

func appendBytes(b, data []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// Arg is one perform argument: an immediate OOP, or a byte object's class and bytes.
type Arg struct {
	Special bool
	Oop     uint64
	Class   uint64
	Bytes   []byte
}

// StringArg is a String argument holding s.
func StringArg(s string) Arg { return Arg{Class: OopClassString, Bytes: []byte(s)} }

// SmallIntegerArg is a SmallInteger argument.
func SmallIntegerArg(v int64) Arg { return Arg{Special: true, Oop: uint64(v)<<3 | 2} }

// IsSmallInteger says the argument is an immediate SmallInteger.
func (a Arg) IsSmallInteger() bool { return a.Special && a.Oop&7 == 2 }

// SmallInteger is the argument's SmallInteger value.
func (a Arg) SmallInteger() int64 { return int64(a.Oop) >> 3 }

// PerformCall is a perform frame's content.
type PerformCall struct {
	Receiver string
	Selector string
	Args     []Arg
}

// Encode is the perform frame's payload.
func (p PerformCall) Encode() []byte {
	var b []byte
	b = appendBytes(b, []byte(p.Receiver))
	b = appendBytes(b, []byte(p.Selector))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.Args)))
	for _, a := range p.Args {
		if a.Special {
			b = append(b, KindSpecial)
			b = binary.LittleEndian.AppendUint64(b, a.Oop)
			continue
		}
		b = append(b, KindBytes)
		b = binary.LittleEndian.AppendUint64(b, a.Class)
		b = appendBytes(b, a.Bytes)
	}
	return b
}

// DecodePerform reads a perform frame's payload.
func DecodePerform(payload []byte) (PerformCall, error) {
	d := &decoder{b: payload}
	p := PerformCall{Receiver: string(d.bytes()), Selector: string(d.bytes())}
	n := d.u32()
	for i := uint32(0); i < n && d.err == nil; i++ {
		switch d.u8() {
		case KindBytes:
			a := Arg{Class: d.u64()}
			a.Bytes = d.bytes()
			p.Args = append(p.Args, a)
		case KindSpecial:
			p.Args = append(p.Args, Arg{Special: true, Oop: d.u64()})
		default:
			return p, fmt.Errorf("perform argument %d has an unknown kind", i+1)
		}
	}
	if d.err != nil {
		return p, fmt.Errorf("decoding a perform frame: %w", d.err)
	}
	return p, nil
}

// EncodeStrings is a string-list payload (the login frame's).
func EncodeStrings(list ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(list)))
	for _, s := range list {
		b = appendBytes(b, []byte(s))
	}
	return b
}

// DecodeStrings reads a string-list payload.
func DecodeStrings(payload []byte) ([]string, error) {
	d := &decoder{b: payload}
	n := d.u32()
	var out []string
	for i := uint32(0); i < n && d.err == nil; i++ {
		out = append(out, string(d.bytes()))
	}
	if d.err != nil {
		return nil, fmt.Errorf("decoding a string list: %w", d.err)
	}
	return out, nil
}

// LoginParams is the login frame's content, in frame order.
type LoginParams struct {
	StoneNRS   string
	GemNRS     string
	User       string
	Password   string
	HostUser   string
	Flags      uint32
	SessionDir string
}

// Encode is the login frame's payload.
func (p LoginParams) Encode() []byte {
	return EncodeStrings(p.StoneNRS, p.GemNRS, p.User, p.Password, p.HostUser, fmt.Sprint(p.Flags), p.SessionDir)
}

// DecodeLogin reads a login frame's payload.
func DecodeLogin(payload []byte) (LoginParams, error) {
	list, err := DecodeStrings(payload)
	if err != nil {
		return LoginParams{}, err
	}
	if len(list) != 7 {
		return LoginParams{}, fmt.Errorf("a login frame holds 7 strings, not %d", len(list))
	}
	var flags uint32
	if _, err := fmt.Sscan(list[5], &flags); err != nil {
		return LoginParams{}, fmt.Errorf("login flags %q: %w", list[5], err)
	}
	return LoginParams{list[0], list[1], list[2], list[3], list[4], flags, list[6]}, nil
}

// Hello is the hello frame's content.
type Hello struct {
	Session int32
	Pid     int32
}

// Encode is the hello frame's payload.
func (h Hello) Encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(h.Session))
	return binary.LittleEndian.AppendUint32(b, uint32(h.Pid))
}

// DecodeHello reads a hello frame's payload.
func DecodeHello(payload []byte) (Hello, error) {
	if len(payload) != 8 {
		return Hello{}, fmt.Errorf("a hello frame holds 8 bytes, not %d", len(payload))
	}
	return Hello{int32(binary.LittleEndian.Uint32(payload)), int32(binary.LittleEndian.Uint32(payload[4:]))}, nil
}

// Answer is what a call answers: a byte object, an immediate OOP, or a GemStone error.
type Answer struct {
	Err     *GemError
	Special bool
	Oop     uint64
	Class   uint64
	Bytes   []byte
}

// GemError is a GemStone error as a gem reports it; the library adds the category.
type GemError struct {
	Number     uint32
	Fatal      bool
	HasContext bool
	Message    string
}

func (e *GemError) Error() string { return fmt.Sprintf("error %d: %s", e.Number, e.Message) }

// Frame is the answer's result or error frame.
func (a Answer) Frame() (byte, []byte) {
	if a.Err != nil {
		return TypeError, a.Err.Encode()
	}
	if a.Special {
		return TypeResult, binary.LittleEndian.AppendUint64([]byte{KindSpecial}, a.Oop)
	}
	b := make([]byte, 0, 9+len(a.Bytes))
	b = append(b, KindBytes)
	b = binary.LittleEndian.AppendUint64(b, a.Class)
	return TypeResult, append(b, a.Bytes...)
}

// DecodeAnswer reads a result or error frame.
func DecodeAnswer(f Frame) (Answer, error) {
	switch f.Type {
	case TypeError:
		e, err := DecodeError(f.Payload)
		return Answer{Err: e}, err
	case TypeResult:
		d := &decoder{b: f.Payload}
		switch d.u8() {
		case KindSpecial:
			a := Answer{Special: true, Oop: d.u64()}
			return a, d.err
		case KindBytes:
			a := Answer{Class: d.u64()}
			a.Bytes = d.b
			return a, d.err
		}
		return Answer{}, errors.New("a result frame of unknown kind")
	}
	return Answer{}, fmt.Errorf("a %q frame is no answer", f.Type)
}

// Encode is the error frame's payload: uint32 number, uint8 flags, message string.
func (e *GemError) Encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, e.Number)
	var flags byte
	if e.Fatal {
		flags |= ErrFatal
	}
	if e.HasContext {
		flags |= ErrHasContext
	}
	return appendBytes(append(b, flags), []byte(e.Message))
}

// DecodeError reads an error frame's payload.
func DecodeError(payload []byte) (*GemError, error) {
	d := &decoder{b: payload}
	e := &GemError{Number: d.u32()}
	flags := d.u8()
	e.Message = string(d.bytes())
	e.Fatal = flags&ErrFatal != 0
	e.HasContext = flags&ErrHasContext != 0
	return e, d.err
}
