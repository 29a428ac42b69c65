package gsmodel

import (
	"os"
)

// GsFile on the server, over the model process's own files (gemstone-smalltalk.md s4):
// openReadOnServer: answers nil when the file cannot be opened, as GemStone's does; a read file
// is read whole at open.

type gsFile struct {
	stdout bool // GsFile stdout: the session's output (topaz's)
	data   []byte
	pos    int
	write  *os.File
	closed bool
}

func (s *Session) fileOf(v Value) *gsFile {
	if f, ok := s.argObj(v).ext.(*gsFile); ok && !f.closed {
		return f
	}
	s.signalNew("ImproperOperation", 2717, "the GsFile is closed", nil)
	return nil
}

func (s *Session) bytesString(b []byte) *Object {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return s.newBytes(s.img.k.String, r)
}

// newFile answers a GsFile (an instance of class) over f, or nil when opening it failed.
func (s *Session) newFile(class Value, f *gsFile, err error) Value {
	if err != nil {
		return nil
	}
	o := s.newObject(class.(*Object))
	o.ext = f
	return o
}

func (img *Image) filePrims(s *Session) {
	img.prim(s, "GsFile class", "openReadOnServer:", func(s *Session, a Value, x []Value) Value {
		data, err := os.ReadFile(s.argString(x[0]))
		return s.newFile(a, &gsFile{data: data}, err)
	})
	img.prim(s, "GsFile class", "openWriteOnServer:", func(s *Session, a Value, x []Value) Value {
		w, err := os.Create(s.argString(x[0]))
		return s.newFile(a, &gsFile{write: w}, err)
	})
	img.prim(s, "GsFile class", "stdout", func(s *Session, a Value, x []Value) Value {
		return s.newFile(a, &gsFile{stdout: true}, nil)
	})
	img.prim(s, "GsFile", "lf", func(s *Session, a Value, x []Value) Value {
		return s.send(a, "nextPutAll:", []Value{s.newString("\n")})
	})
	img.prim(s, "GsFile", "flush", func(s *Session, a Value, x []Value) Value { return a })
	img.prim(s, "GsFile", "contents", func(s *Session, a Value, x []Value) Value {
		f := s.fileOf(a)
		rest := f.data[f.pos:]
		f.pos = len(f.data)
		return s.bytesString(rest)
	})
	img.prim(s, "GsFile", "next:", func(s *Session, a Value, x []Value) Value {
		f := s.fileOf(a)
		n := s.argInt(x[0])
		if n > len(f.data)-f.pos {
			n = len(f.data) - f.pos
		}
		chunk := f.data[f.pos : f.pos+n]
		f.pos += n
		return s.bytesString(chunk)
	})
	img.prim(s, "GsFile", "atEnd", func(s *Session, a Value, x []Value) Value { return s.fileOf(a).pos >= len(s.fileOf(a).data) })
	img.prim(s, "GsFile", "nextPutAll:", func(s *Session, a Value, x []Value) Value {
		f := s.fileOf(a)
		if f.stdout {
			if s.out != nil {
				s.out(string(s.runes(x[0])))
			}
			return x[0]
		}
		if f.write == nil {
			return s.signalNew("ImproperOperation", 2717, "the GsFile was opened for reading", nil)
		}
		r := s.runes(x[0])
		b := make([]byte, 0, len(r))
		for _, c := range r {
			if c > 0xFF {
				return s.refuse("writing a wide string to a GsFile (GemStone writes UTF-16; encode first)")
			}
			b = append(b, byte(c))
		}
		if _, err := f.write.Write(b); err != nil {
			return s.signalNew("Error", 2718, "GsFile write: "+err.Error(), nil)
		}
		return x[0]
	})
	img.prim(s, "GsFile", "close", func(s *Session, a Value, x []Value) Value {
		f := s.fileOf(a)
		f.closed = true
		if f.write != nil {
			_ = f.write.Close()
		}
		return a
	})
}
