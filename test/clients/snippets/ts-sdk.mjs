import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = new URL(process.env.MCP_URL ?? "http://127.0.0.1:8000/mcp");
const client = new Client({ name: "my-client", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));
const { tools } = await client.listTools();
console.log(tools.map((t) => `${t.name}: ${t.title ?? ""}`).join("\n"));
// A GemStone session of your own: every call that passes its session runs in one transaction.
const opened = await client.callTool({ name: "open_session", arguments: {} });
const session = opened.structuredContent.session;
const call = async (name, args) => {
  const result = await client.callTool({ name, arguments: { ...args, session } });
  const text = result.content.map((c) => c.text ?? "").join("");
  if (result.isError) throw new Error(`${name}: ${text}`);
  return text;
};
await call("compile_class_definition", { className: "HelloMcp" });
await call("compile_method", { className: "HelloMcp", source: "greet\n  ^'Hello from GemStone'" });
console.log(await call("execute_code", { code: "HelloMcp new greet" }));
// Nothing is committed for you: call("commit", {}) would keep the class; closing discards it.
console.log(await call("close_session", {}));
await client.close();
