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

// session runs f on a gem logged in and prepared as the router does for each MCP session,
// and logs it out after; it prints why when it cannot log in.
func session(f func(ctx context.Context, s *gemstone.Session)) {
	ctx := context.Background()
	if s := login(ctx); s != nil {
		defer s.Close(ctx)
		f(ctx, s)
	}
}

// login opens the library, logs a gem in and prepares its worker. It prints why it could not
// and answers nil.
func login(ctx context.Context) *gemstone.Session {
	lib, err := gemstone.Open(gemstone.LibraryConfig{Home: standinHome})
	if err != nil {
		fmt.Println("open:", err)
		return nil
	}
	stone, _ := gemstone.StoneNRS("localhost", "gs64stone")
	gem, _ := gemstone.GemNRS("localhost", "gs64ldi", "")
	s, err := lib.Login(ctx, gemstone.LoginParams{StoneNRS: stone, GemNRS: gem, User: "DataCurator", Password: "swordfish"})
	if err != nil {
		fmt.Println("login:", err)
		return nil
	}
	if _, err := s.Perform(ctx, "McpServer", "mcpPrepare:", gemstone.String([]byte(prepareConfig))); err != nil {
		fmt.Println("mcpPrepare:", err)
		s.Close(ctx)
		return nil
	}
	return s
}

// echo is a tools/call of the stand-in's echo fixture.
func echo(id int, text string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, id, text)
}

// A session is one gem: log in, hand the worker a JSON-RPC message with Perform, read its JSON
// answer, log out with Close.
func Example() {
	session(func(ctx context.Context, s *gemstone.Session) {
		answer, err := s.Perform(ctx, "McpServer", "mcpHandle:", gemstone.String(echo(1, "hello")))
		fmt.Println(string(answer), err)
	})
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"hello","type":"text"}]}} <nil>
}

// A call whose context ends is broken: a soft break first, which a breakable call stops at. The
// error says how the call ended and is not fatal, so the session serves the next call.
func ExampleSession_Perform_cancelled() {
	session(func(ctx context.Context, s *gemstone.Session) {
		short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		sleep := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":30000}}}`
		_, err := s.Perform(short, "McpServer", "mcpHandle:", gemstone.String([]byte(sleep)))
		fmt.Println(gemstone.EndingOf(err), "| fatal:", gemstone.IsFatal(err))
		answer, err := s.Perform(ctx, "McpServer", "mcpHandle:", gemstone.String(echo(2, "still here")))
		fmt.Println(string(answer), err)
	})
	// Output:
	// ended by soft break | fatal: false
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"still here","type":"text"}]}} <nil>
}
