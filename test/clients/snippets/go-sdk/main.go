// Command go-sdk is the Go SDK example of docs/clients.md: connect (v1.8.0 speaks 2026-07-28 to
// this server), list the tools, open a GemStone session, change code in it, and close it.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	url := "http://127.0.0.1:8000/mcp"
	if u := os.Getenv("MCP_URL"); u != "" {
		url = u
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "my-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools.Tools {
		fmt.Printf("%s: %s\n", t.Name, t.Title)
	}
	// A GemStone session of your own: every call that passes its session runs in one transaction.
	opened := call(ctx, cs, "open_session", map[string]any{})
	session := opened.StructuredContent.(map[string]any)["session"].(string)
	in := func(name string, args map[string]any) string {
		args["session"] = session
		return text(call(ctx, cs, name, args))
	}
	in("compile_class_definition", map[string]any{"className": "HelloMcp"})
	in("compile_method", map[string]any{"className": "HelloMcp", "source": "greet\n  ^'Hello from GemStone'"})
	fmt.Println(in("execute_code", map[string]any{"code": "HelloMcp new greet"}))
	// Nothing is committed for you: in("commit", ...) would keep the class; closing discards it.
	fmt.Println(in("close_session", map[string]any{}))
}

// call calls a tool and stops at the first that fails.
func call(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	result, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		log.Fatal(err)
	}
	if result.IsError {
		log.Fatalf("%s: %s", name, text(result))
	}
	return result
}

func text(result *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range result.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
