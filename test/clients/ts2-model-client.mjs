// ts2-model-client.mjs drives the real tools of the Smalltalk McpServer (over the executable
// model of GemStone) with the TypeScript client package @modelcontextprotocol/client 2.x in its
// automatic mode (it probes server/discover and speaks 2026-07-28, with no session) beside the
// TypeScript SDK 1.x (which stays on 2025-11-25, a session). Client A (2.x) calls open_session
// and passes the session it answers as the session argument of every later call, as a model
// threads it, so its compile -> test -> commit loop is one transaction; client B (1.x) holds a
// view from before the commit; a third 2.x client, without a session, reads from the pool. It prints one JSON object on stdout saying what each
// saw, for test/clients to assert; any failure exits 1.
//
//   node ts2-model-client.mjs URL
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: node ts2-model-client.mjs URL');
  process.exit(2);
}

async function connect2(name) {
  const client = new Client2({ name, version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  await client.connect(new Transport2(new URL(url)));
  return client;
}

const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const outcome = (r) => ({ text: text(r), isError: r.isError === true, kind: r.structuredContent?.error?.kind ?? '' });

const timer = setTimeout(() => { console.error('ts2-model-client: gave up after 90 s'); process.exit(1); }, 90_000);
try {
  const a = await connect2('mcp-gemstone-ts2-a');
  const plain = await connect2('mcp-gemstone-ts2-stateless');
  const bTransport = new Transport1(new URL(url));
  const b = new Client1({ name: 'mcp-gemstone-ts1-b', version: '1.0.0' }, { capabilities: {} });
  await b.connect(bTransport);

  const opened = await a.callTool({ name: 'open_session', arguments: {} });
  const session = opened.structuredContent?.session;
  if (typeof session !== 'string' || session === '') throw new Error('open_session answered ' + JSON.stringify(opened));
  const callA = async (name, args) => outcome(await a.callTool({ name, arguments: { ...args, session } }));
  const callB = async (name, args) => outcome(await b.callTool({ name, arguments: args }));
  const callPlain = async (name, args) => outcome(await plain.callTool({ name, arguments: args }));

  const method = { className: 'SampleSavingsAccount', selector: 'addInterest' };
  const tests = { className: 'SampleAccountTest' };
  const fix = 'addInterest\n  self deposit: (self balance * self ratePercent + 99) // 100';
  const tools = (await a.listTools()).tools.map((t) => t.name);

  const bBefore = await callB('get_method_source', method);
  const loop = {
    testsBefore: await callA('run_test_class', tests),
    read: await callA('get_method_source', method),
    compile: await callA('compile_method', { className: method.className, source: fix }),
  };
  const statelessBeforeCommit = await callPlain('get_method_source', method);
  const statelessWrite = await callPlain('compile_method', { className: method.className, source: 'addInterest\n  self deposit: 3' });
  loop.testsAfter = await callA('run_test_class', tests);
  loop.commit = await callA('commit', {});
  const statelessAfterCommit = await callPlain('get_method_source', method);
  const second = {
    before: bBefore,
    beforeRefresh: await callB('get_method_source', method),
    refresh: await callB('refresh', {}),
    afterRefresh: await callB('get_method_source', method),
    tests: await callB('run_test_class', tests),
  };
  await callA('get_method_source', method);
  const conflict = {
    compileA: await callA('compile_method', { className: method.className, source: 'addInterest\n  self deposit: 1' }),
    compileB: await callB('compile_method', { className: method.className, source: 'addInterest\n  self deposit: 2' }),
    commitA: await callA('commit', {}),
    commitB: await callB('commit', {}),
    abortB: await callB('abort', {}),
    afterAbortB: await callB('get_method_source', method),
  };
  const versions = { a: a.getNegotiatedProtocolVersion(), plain: plain.getNegotiatedProtocolVersion(), bSession: bTransport.sessionId ?? '' };
  await callA('close_session', {});
  await bTransport.terminateSession();
  for (const c of [a, plain, b]) await c.close();
  console.log(JSON.stringify({
    tools, versions, statelessBeforeCommit, statelessWrite, statelessAfterCommit, loop, second, conflict,
  }));
  clearTimeout(timer);
} catch (err) {
  console.error('ts2-model-client:', err && err.stack ? err.stack : err);
  process.exit(1);
}
