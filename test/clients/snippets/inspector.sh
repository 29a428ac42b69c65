npx @modelcontextprotocol/inspector --cli http://127.0.0.1:8000/mcp --method tools/list
