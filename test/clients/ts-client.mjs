// ts-client.mjs drives an MCP server with the official TypeScript SDK's
// StreamableHTTPClientTransport, as a real client would: connect (initialize, initialized, the
// SDK's own GET stream), tools/list, tools/call echo and unicode, then DELETE. It prints one JSON
// object on stdout saying what it saw, for test/clients to assert; any failure exits 1.
//
//   node ts-client.mjs URL TEXT
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, text] = process.argv.slice(2);
if (!url || text === undefined) {
  console.error('usage: node ts-client.mjs URL TEXT');
  process.exit(2);
}

// Every HTTP exchange the transport makes, in order: verb, JSON-RPC method, status, content type.
const exchanges = [];
async function recordingFetch(input, init = {}) {
  const verb = init.method || 'GET';
  let method = '';
  if (typeof init.body === 'string') {
    try { method = JSON.parse(init.body).method || '(response)'; } catch { method = '(unparsed)'; }
  }
  const res = await fetch(input, init);
  exchanges.push({ verb, method, status: res.status, contentType: res.headers.get('content-type') || '' });
  return res;
}

async function waitFor(cond, ms) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const timer = setTimeout(() => { console.error('ts-client: gave up after 30 s'); process.exit(1); }, 30_000);
try {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch });
  const client = new Client({ name: 'mcp-gemstone-ts-client-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  const protocolVersion = transport.protocolVersion;
  const server = client.getServerVersion();
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const echo = await client.callTool({ name: 'echo', arguments: { text } });
  const unicode = await client.callTool({ name: 'unicode', arguments: { text } });
  // A call whose worker speaks while it runs: the answer is an SSE stream carrying the
  // progress notifications before the result.
  const progress = [];
  const withProgress = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined,
    { onprogress: (p) => progress.push(p.progress) });
  // The SDK opens its GET stream on its own after notifications/initialized; wait until it has.
  const streamOpened = await waitFor(() => exchanges.some((e) => e.verb === 'GET'), 5000);
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify({
    sessionId, protocolVersion, server, tools,
    echo: echo.content.map((c) => c.text), echoIsError: echo.isError === true,
    unicode: unicode.content.map((c) => c.text), unicodeIsError: unicode.isError === true,
    progress, progressIsError: withProgress.isError === true,
    streamOpened, exchanges,
  }));
  clearTimeout(timer);
} catch (err) {
  console.error('ts-client:', err && err.stack ? err.stack : err);
  process.exit(1);
}
