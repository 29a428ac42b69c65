import asyncio, os

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

URL = os.environ.get("MCP_URL", "http://127.0.0.1:8000/mcp")


async def main():
    # Leaving the block sends the DELETE that frees the session's slot.
    async with streamablehttp_client(URL) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            for tool in tools:
                print(f"{tool.name}: {tool.title}")
            # A tool that only reads and needs no argument: the annotations say which.
            safe = next(t for t in tools
                        if t.annotations and t.annotations.readOnlyHint
                        and not t.inputSchema.get("required"))
            result = await session.call_tool(safe.name, {})
            print(safe.name, "failed:", result.isError)


asyncio.run(main())
