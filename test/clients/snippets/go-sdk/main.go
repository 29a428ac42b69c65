// Command go-sdk is the Go SDK example of docs/clients.md: connect, list the tools, call one,
// and close (a DELETE that frees the session's slot, when the client opened a session; v1.8.0
// speaks 2026-07-28 to this server, which needs none).
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	url := "http://127.0.0.1:8000/mcp"
	if u := os.Getenv("MCP_URL"); u != "" {
		url = u
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "my-client", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools.Tools {
		fmt.Printf("%s: %s\n", t.Name, t.Title)
	}
	// A tool that only reads and needs no argument: the annotations say which.
	for _, t := range tools.Tools {
		if t.Annotations == nil || !t.Annotations.ReadOnlyHint || len(requiredOf(t)) > 0 {
			continue
		}
		result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: t.Name, Arguments: map[string]any{}})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(t.Name, "failed:", result.IsError)
		return
	}
}

func requiredOf(t *mcp.Tool) []any {
	schema, _ := t.InputSchema.(map[string]any)
	required, _ := schema["required"].([]any)
	return required
}
