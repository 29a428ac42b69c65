package router_test

import "github.com/gemstone-mcp/mcp-gemstone/router/internal/session"

func sessionReason(kind string) session.Reason { return session.Reason{Kind: kind} }
