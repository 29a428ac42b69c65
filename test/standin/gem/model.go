package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"sync"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gsmodel"
	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
)

// The gem in model mode: with GSMODEL_STONE naming the socket of a `gsmodel -stone`, the
// worker-class calls run the project's Smalltalk in the model's shared image instead of the
// fixture worker. The GCI side stays the stand-in's (frames, breaks, deaths); System calls and
// the control sources are still answered here.

// modelStoneEnv names the model stone's Unix socket.
const modelStoneEnv = "GSMODEL_STONE"

type modelLink struct {
	conn    net.Conn
	dec     *json.Decoder
	writeMu sync.Mutex
}

// dialModel logs in to the model stone as user.
func dialModel(path, user string) (*modelLink, error) {
	c, err := net.Dial("unix", path)
	if err != nil {
		return nil, fmt.Errorf("the model stone at %s is not reachable: %w", path, err)
	}
	m := &modelLink{conn: c, dec: json.NewDecoder(bufio.NewReaderSize(c, 1<<16))}
	if err := m.write(gsmodel.StoneRequest{Op: "login", User: user}); err != nil {
		c.Close()
		return nil, err
	}
	var a gsmodel.StoneAnswer
	if err := m.dec.Decode(&a); err != nil {
		c.Close()
		return nil, fmt.Errorf("the model stone did not answer the login: %w", err)
	}
	if !a.OK {
		c.Close()
		return nil, fmt.Errorf("the model stone refused the login: %s", a.Text)
	}
	return m, nil
}

func (m *modelLink) write(r gsmodel.StoneRequest) error {
	m.writeMu.Lock()
	defer m.writeMu.Unlock()
	return json.NewEncoder(m.conn).Encode(r)
}

// breakCall forwards a break to the call running in the model.
func (m *modelLink) breakCall(hard bool) { _ = m.write(gsmodel.StoneRequest{Op: "break", Hard: hard}) }

// perform runs a worker-class call in the model and answers it as a GCI result; an error means
// the stone is gone.
func (m *modelLink) perform(p gemproto.PerformCall) (gemproto.Answer, error) {
	req := gsmodel.StoneRequest{Op: "perform", Receiver: p.Receiver, Selector: p.Selector}
	for _, a := range p.Args {
		switch {
		case a.IsSmallInteger():
			v := a.SmallInteger()
			req.Args = append(req.Args, gsmodel.StoneArg{Int: &v})
		case a.Special && a.Oop == gemproto.OopTrue:
			req.Args = append(req.Args, gsmodel.StoneArg{Special: "true"})
		case a.Special && a.Oop == gemproto.OopFalse:
			req.Args = append(req.Args, gsmodel.StoneArg{Special: "false"})
		case a.Special:
			req.Args = append(req.Args, gsmodel.StoneArg{Special: "nil"})
		default:
			req.Args = append(req.Args, gsmodel.StoneArg{Bytes: a.Bytes})
		}
	}
	if err := m.write(req); err != nil {
		return gemproto.Answer{}, err
	}
	var a gsmodel.StoneAnswer
	if err := m.dec.Decode(&a); err != nil {
		return gemproto.Answer{}, err
	}
	switch a.Kind {
	case "bytes":
		return stringResult(a.Bytes), nil
	case "int":
		return smallIntegerResult(a.Int), nil
	case "special":
		switch a.Special {
		case "true":
			return boolResult(true), nil
		case "false":
			return boolResult(false), nil
		}
		return specialResult(gemproto.OopNil), nil
	}
	r := errorResult(uint32(a.Number), a.Text)
	r.Err.HasContext = a.Context
	return r, nil
}

// modelUser is the user the session logs in to the model as: the JWT subject when the login
// was by token, else the login's user.
func modelUser(info loginInfo) string {
	if info.JWTSub != "" {
		return info.JWTSub
	}
	return info.User
}
