import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.env.MCP_URL ?? "http://127.0.0.1:8000/mcp");
const transport = new StreamableHTTPClientTransport(url);
const client = new Client({ name: "my-client", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
console.log(tools.map((t) => `${t.name}: ${t.title ?? ""}`).join("\n"));
// A tool that only reads and needs no argument: the annotations say which.
const safe = tools.find((t) => t.annotations?.readOnlyHint && !t.inputSchema.required?.length);
const result = await client.callTool({ name: safe.name, arguments: {} });
console.log(safe.name, result.isError ? "failed" : "answered");
await transport.terminateSession(); // DELETE: the session's gem is logged out, its slot freed
await client.close();
