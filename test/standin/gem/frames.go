package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Frame types; test/standin/README.md is the protocol's description and gcits.c its other end.
const (
	frameLogin   = 'L' // library → gem: the login parameters (a string list)
	framePerform = 'P' // library → gem: receiver name, selector, arguments
	frameExecute = 'E' // library → gem: source text
	frameBreak   = 'B' // library → gem: one byte, 1 = hard
	frameQuit    = 'Q' // library → gem: log out, exit
	frameHello   = 'H' // gem → library: login accepted: int32 session, int32 pid
	frameResult  = 'R' // gem → library: a call's result
	frameError   = 'X' // gem → library: a call's (or the login's) GemStone error
)

const (
	headerSize   = 8
	maxFrameSize = 1 << 30
)

// OOPs and classes the gem names in results (gci-ts.md section 4).
const (
	oopNil         = 0x14
	oopFalse       = 0x0C
	oopTrue        = 0x10C
	oopClassString = 74753
)

// Result and argument kinds inside frames.
const (
	kindBytes   = 0 // a byte object: uint64 class, then the bytes
	kindSpecial = 1 // an immediate OOP (SmallInteger, nil, true, false, Character)
)

// Error frame flags.
const (
	errFatal      = 1
	errHasContext = 2 // the error left a suspended GsProcess (breaks, Smalltalk errors)
)

type frame struct {
	kind    byte
	payload []byte
}

// readFrame reads one frame: uint8 type, three zero bytes, uint32 little-endian payload
// length, payload.
func readFrame(r io.Reader) (frame, error) {
	var hdr [headerSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return frame{}, err
	}
	n := binary.LittleEndian.Uint32(hdr[4:])
	if n > maxFrameSize {
		return frame{}, fmt.Errorf("frame of %d bytes exceeds the %d byte limit", n, maxFrameSize)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return frame{}, fmt.Errorf("reading a %d byte %q frame: %w", n, hdr[0], err)
	}
	return frame{kind: hdr[0], payload: payload}, nil
}

func writeFrame(w io.Writer, kind byte, payload []byte) error {
	buf := make([]byte, headerSize, headerSize+len(payload))
	buf[0] = kind
	binary.LittleEndian.PutUint32(buf[4:], uint32(len(payload)))
	_, err := w.Write(append(buf, payload...))
	return err
}

// decoder reads the fields of a payload in order.
type decoder struct {
	b   []byte
	err error
}

var errShortPayload = errors.New("frame payload ends early")

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.err = errShortPayload
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) u8() byte {
	b := d.take(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (d *decoder) u32() uint32 {
	b := d.take(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (d *decoder) u64() uint64 {
	b := d.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

func (d *decoder) bytes() []byte { return d.take(int(d.u32())) }

func (d *decoder) str() string { return string(d.bytes()) }

// arg is one perform argument as the library sent it.
type arg struct {
	special bool
	oop     uint64 // the immediate OOP when special
	class   uint64 // the class OOP of a byte object
	bytes   []byte
}

func (a arg) isSmallInteger() bool { return a.special && a.oop&7 == 2 }

func (a arg) smallInteger() int64 { return int64(a.oop) >> 3 }

type performCall struct {
	receiver string
	selector string
	args     []arg
}

func decodePerform(payload []byte) (performCall, error) {
	d := &decoder{b: payload}
	p := performCall{receiver: d.str(), selector: d.str()}
	n := d.u32()
	for i := uint32(0); i < n && d.err == nil; i++ {
		switch d.u8() {
		case kindBytes:
			a := arg{class: d.u64()}
			a.bytes = d.bytes()
			p.args = append(p.args, a)
		case kindSpecial:
			p.args = append(p.args, arg{special: true, oop: d.u64()})
		default:
			return p, fmt.Errorf("perform argument %d has an unknown kind", i+1)
		}
	}
	if d.err != nil {
		return p, fmt.Errorf("decoding a perform frame: %w", d.err)
	}
	return p, nil
}

func decodeStrings(payload []byte) ([]string, error) {
	d := &decoder{b: payload}
	n := d.u32()
	var out []string
	for i := uint32(0); i < n && d.err == nil; i++ {
		out = append(out, d.str())
	}
	if d.err != nil {
		return nil, fmt.Errorf("decoding a string list: %w", d.err)
	}
	return out, nil
}

// encodePerform and encodeStrings are the library's side, here for the gem's tests.
func encodePerform(p performCall) []byte {
	var b []byte
	b = appendBytes(b, []byte(p.receiver))
	b = appendBytes(b, []byte(p.selector))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.args)))
	for _, a := range p.args {
		if a.special {
			b = append(b, kindSpecial)
			b = binary.LittleEndian.AppendUint64(b, a.oop)
			continue
		}
		b = append(b, kindBytes)
		b = binary.LittleEndian.AppendUint64(b, a.class)
		b = appendBytes(b, a.bytes)
	}
	return b
}

func encodeStrings(list ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(list)))
	for _, s := range list {
		b = appendBytes(b, []byte(s))
	}
	return b
}

func appendBytes(b, data []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// result is what a call answers: a byte object, an immediate OOP, or a GemStone error.
type result struct {
	err     *gemError
	special bool
	oop     uint64
	class   uint64
	bytes   []byte
}

func stringResult(s []byte) result { return result{class: oopClassString, bytes: s} }

func specialResult(oop uint64) result { return result{special: true, oop: oop} }

func boolResult(b bool) result {
	if b {
		return specialResult(oopTrue)
	}
	return specialResult(oopFalse)
}

func smallIntegerResult(v int64) result { return specialResult(uint64(v)<<3 | 2) }

// gemError is a GemStone error as the gem reports it; the library adds the category.
type gemError struct {
	number     uint32
	fatal      bool
	hasContext bool
	message    string
}

func (e *gemError) Error() string { return fmt.Sprintf("error %d: %s", e.number, e.message) }

func errorResult(number uint32, message string) result {
	return result{err: &gemError{number: number, message: message + " (GCI TEST STAND-IN, not GemStone)"}}
}

func (r result) frame() (byte, []byte) {
	if r.err != nil {
		return frameError, encodeError(r.err)
	}
	if r.special {
		return frameResult, binary.LittleEndian.AppendUint64([]byte{kindSpecial}, r.oop)
	}
	b := make([]byte, 0, 9+len(r.bytes))
	b = append(b, kindBytes)
	b = binary.LittleEndian.AppendUint64(b, r.class)
	return frameResult, append(b, r.bytes...)
}

func encodeError(e *gemError) []byte {
	b := binary.LittleEndian.AppendUint32(nil, e.number)
	var flags byte
	if e.fatal {
		flags |= errFatal
	}
	if e.hasContext {
		flags |= errHasContext
	}
	b = append(b, flags)
	return appendBytes(b, []byte(e.message))
}
