package gemstone_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
)

// standinHome is where the examples find their library: the GCI test stand-in that `make
// standin` builds (test/standin), laid out like a GemStone product directory. It is not
// GemStone; its gems are processes serving fixture tools. A program against a real stone opens
// gemstone.LibraryConfigFromEnv(nil) instead, which reads GCI_LIBRARY or GEMSTONE.
var standinHome = cmp.Or(os.Getenv("GEMSTONE_STANDIN"), filepath.Join("..", "build", "standin"))

// prepareConfig is the worker contract's prepare config (docs/worker-contract.md), sent once
// after login.
const prepareConfig = `{"contract":1,"workerClass":"McpServer","protocolVersions":["2025-06-18"],` +
	`"cacheName":"McpServer:example:00000000","resultCap":0,` +
	`"frontEnd":{"name":"gemstone-example","version":"0","routerId":"example"}}`

// login opens the library, logs a gem in and prepares its worker: what the router does for
// each MCP session.
func login(ctx context.Context) (*gemstone.Session, error) {
	lib, err := gemstone.Open(gemstone.LibraryConfig{Home: standinHome})
	if err != nil {
		return nil, err
	}
	stone, err := gemstone.StoneNRS("localhost", "gs64stone")
	if err != nil {
		return nil, err
	}
	gem, err := gemstone.GemNRS("localhost", "gs64ldi", "")
	if err != nil {
		return nil, err
	}
	s, err := lib.Login(ctx, gemstone.LoginParams{StoneNRS: stone, GemNRS: gem, User: "DataCurator", Password: "swordfish"})
	if err != nil {
		return nil, err
	}
	if _, err := s.Perform(ctx, "McpServer", "mcpPrepare:", gemstone.String([]byte(prepareConfig))); err != nil {
		s.Close(ctx)
		return nil, err
	}
	return s, nil
}

// A session is one gem: log in, hand the worker a JSON-RPC message with Perform, read its JSON
// answer, log out with Close.
func Example() {
	ctx := context.Background()
	s, err := login(ctx)
	if err != nil {
		fmt.Println("login:", err)
		return
	}
	defer s.Close(ctx)
	request := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`
	answer, err := s.Perform(ctx, "McpServer", "mcpHandle:", gemstone.String([]byte(request)))
	if err != nil {
		fmt.Println("mcpHandle:", err)
		return
	}
	fmt.Println(string(answer))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"hello","type":"text"}]}}
}

// A call whose context ends is broken: a soft break first, which a breakable call stops at. The
// error says how the call ended and is not fatal, so the session serves the next call.
func ExampleSession_Perform_cancelled() {
	ctx := context.Background()
	s, err := login(ctx)
	if err != nil {
		fmt.Println("login:", err)
		return
	}
	defer s.Close(ctx)
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	sleep := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":30000}}}`
	_, err = s.Perform(short, "McpServer", "mcpHandle:", gemstone.String([]byte(sleep)))
	fmt.Println(gemstone.EndingOf(err), "| fatal:", gemstone.IsFatal(err))
	answer, err := s.Perform(ctx, "McpServer", "mcpHandle:", gemstone.String([]byte(
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`)))
	fmt.Println(string(answer), err)
	// Output:
	// ended by soft break | fatal: false
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"still here","type":"text"}]}} <nil>
}
