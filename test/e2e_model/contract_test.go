package e2e_model

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/test/contract"
)

// The contract fixtures of test/contract sent through the HTTP front end to the Smalltalk
// McpServer, as test/realstone sends them to a real stone: the protocol cases (cases/) and the
// one scenario per toolset (realstone/), each scenario in one session, in name order.

const contractDir = "../contract"

// placeholders fill the fixtures for the Smalltalk worker: execute_code has one required
// string argument, code.
var placeholders = contract.Placeholders{"WORKER_CLASS": "McpServer", "ARGS_TOOL": "execute_code", "ARGS_TOOL_ARG": "code"}

// send posts raw bytes on the session (an initialize opens a session of its own) and answers
// the JSON-RPC payload, or nothing for a 202.
func (ss *session) send(body []byte) []byte {
	ss.t.Helper()
	a, err := ss.s.post(ss.id, body)
	if err != nil {
		ss.t.Fatal(err)
	}
	if a.Status == http.StatusAccepted {
		return nil
	}
	if a.Message == nil {
		return a.Body // not one JSON-RPC object: a batch's array, or no JSON at all
	}
	return a.Message
}

func TestContractProtocolCasesThroughTheServer(t *testing.T) {
	cases, err := contract.Load(filepath.Join(contractDir, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	s := start(t)
	ss := s.open(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			target := &session{t: t, s: s, id: ss.id}
			if strings.HasPrefix(c.Name, "initialize") {
				target = &session{t: t, s: s} // no session: the initialize opens one
			}
			reply := target.send(c.Request(placeholders))
			if err := c.Check(reply); err != nil {
				t.Errorf("%s: %v", c.Description, err)
			}
		})
	}
}

func TestContractToolScenariosOnePerToolsetThroughTheServer(t *testing.T) {
	s := start(t)
	steps := 0
	contract.Scenarios(t, contractDir, func(t *testing.T, cases []contract.Case) {
		ss := s.open(t)
		defer ss.call("abort", map[string]any{}) // leave the stone as it was, whatever failed
		for _, c := range cases {
			steps++
			if err := c.Check(ss.send(c.Request(placeholders))); err != nil {
				t.Errorf("%s (%s): %v", c.Name, c.Description, err)
			}
		}
	})
	if steps != 80 {
		t.Errorf("ran %d scenario steps, want the 80 of test/contract/realstone", steps)
	}
}
