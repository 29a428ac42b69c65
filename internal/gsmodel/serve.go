package gsmodel

import (
	"fmt"
	"io"
	"net"
	"os"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

// Stone is a model stone serving gems on a Unix socket, for tests and `gsmodel -stone`.
type Stone struct {
	Image *Image
	Sock  string
	ln    net.Listener
	done  chan error
}

// StartStone boots an image with opts, files in the topaz files (paths relative to root) as
// DataCurator, commits, and serves gems on sock. out receives the file-in's output.
func StartStone(root string, files []string, sock string, out io.Writer, opts Options) (*Stone, error) {
	inv, err := gscheck.LoadInventory()
	if err != nil {
		return nil, err
	}
	img, err := NewImageWith(inv, opts)
	if err != nil {
		return nil, err
	}
	s, err := img.Login("DataCurator")
	if err != nil {
		return nil, err
	}
	t := NewTopaz(s, out)
	t.Dir = root
	for _, f := range files {
		if err := t.RunFile(f); err != nil {
			return nil, err
		}
	}
	if t.Errors > 0 {
		return nil, fmt.Errorf("gsmodel: %d errors while filing in %v; not serving", t.Errors, files)
	}
	if !s.CommitNow() {
		return nil, fmt.Errorf("gsmodel: the file-in did not commit")
	}
	s.Logout()
	_ = os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	st := &Stone{Image: img, Sock: sock, ln: ln, done: make(chan error, 1)}
	go func() { st.done <- img.ServeStone(ln) }()
	return st, nil
}

// Stop closes the socket and waits for every gem's connection to end.
func (st *Stone) Stop() error {
	_ = st.ln.Close()
	err := <-st.done
	_ = os.Remove(st.Sock)
	return err
}
