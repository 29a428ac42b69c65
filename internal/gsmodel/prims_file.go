package gsmodel

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// GsFile on the server, over the model process's own files (gemstone-smalltalk.md s4):
// openReadOnServer: answers nil when the file cannot be opened, as GemStone's does. A read file
// is read as it is consumed, never whole at open: public code reads a few bytes from a device
// that never ends (GemTalk/mcp_server McpRouter.gs randomSessionToken: openReadOnServer:
// '/dev/urandom', next: 16, close), and a read past maxFileRead ends the execution instead of
// the model's process.

type gsFile struct {
	stdout bool // GsFile stdout: the session's output (topaz's)
	read   *os.File
	in     *bufio.Reader
	write  *os.File
	closed bool
}

// maxFileRead bounds one contents or next: of a GsFile: larger reads are the model's resource
// limit (a runaway read ends the execution, not the process).
const maxFileRead = 64 << 20

// readUpTo answers up to n bytes, fewer at the end of the file.
func (s *Session) readUpTo(f *gsFile, n int) []byte {
	if f.in == nil {
		s.signalNew("ImproperOperation", 2717, "the GsFile was opened for writing", nil)
		return nil
	}
	if n > maxFileRead {
		s.resourceLimit(fmt.Sprintf("a GsFile read of %d bytes (the model reads at most %d at once)", n, maxFileRead))
		return nil
	}
	buf := make([]byte, n)
	got, err := io.ReadFull(f.in, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		s.signalNew("Error", 2718, "GsFile read: "+err.Error(), nil)
		return nil
	}
	return buf[:got]
}

// readRest answers the rest of the file, or ends the execution when it is longer than
// maxFileRead (a device such as /dev/urandom has no end).
func (s *Session) readRest(f *gsFile) []byte {
	if f.in == nil {
		s.signalNew("ImproperOperation", 2717, "the GsFile was opened for writing", nil)
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f.in, maxFileRead+1))
	if err != nil {
		s.signalNew("Error", 2718, "GsFile read: "+err.Error(), nil)
		return nil
	}
	if len(data) > maxFileRead {
		s.resourceLimit(fmt.Sprintf("the contents of a GsFile longer than %d bytes", maxFileRead))
		return nil
	}
	return data
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
		r, err := os.Open(s.argString(x[0]))
		if err != nil {
			return nil
		}
		return s.newFile(a, &gsFile{read: r, in: bufio.NewReader(r)}, nil)
	})
	// existsOnServer: and contentsOfDirectory:onClient: as GemTalk/mcp_server
	// src/grail/McpGrailToolset.gs uses them on a stone: true when the path exists (the caller
	// compares with == true, so anything else reads as absent); a directory's listing is its
	// entries as full paths, . and .. among them, and a file's listing is the file itself.
	img.prim(s, "GsFile class", "existsOnServer:", func(s *Session, a Value, x []Value) Value {
		_, err := os.Stat(s.argString(x[0]))
		return err == nil
	})
	img.prim(s, "GsFile class", "contentsOfDirectory:onClient:", func(s *Session, a Value, x []Value) Value {
		if x[1] != false {
			return s.refuse("contentsOfDirectory:onClient: true (the model has no client side)")
		}
		return s.directoryListing(s.argString(x[0]))
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
		return s.bytesString(s.readRest(s.fileOf(a)))
	})
	img.prim(s, "GsFile", "next:", func(s *Session, a Value, x []Value) Value {
		n := s.argInt(x[0])
		if n < 0 {
			return s.refuse("GsFile next: %d (a negative count)", n)
		}
		return s.bytesString(s.readUpTo(s.fileOf(a), n))
	})
	img.prim(s, "GsFile", "atEnd", func(s *Session, a Value, x []Value) Value {
		f := s.fileOf(a)
		if f.in == nil {
			return true
		}
		_, err := f.in.Peek(1)
		return err != nil
	})
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
		if f.read != nil {
			_ = f.read.Close()
		}
		return a
	})
}

// directoryListing answers the listing of path as contentsOfDirectory:onClient: does, or nil when
// it cannot be read.
func (s *Session) directoryListing(path string) Value {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if !info.IsDir() {
		return s.newArray([]Value{s.newString(path)})
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil
	}
	dir := strings.TrimSuffix(path, "/")
	vals := []Value{s.newString(dir + "/."), s.newString(dir + "/..")}
	for _, e := range entries {
		vals = append(vals, s.newString(dir+"/"+e.Name()))
	}
	return s.newArray(vals)
}
