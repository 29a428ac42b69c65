claude mcp add --transport http gemstone http://127.0.0.1:8000/mcp
