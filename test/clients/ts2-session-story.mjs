// ts2-session-story.mjs runs issue 24's story with the TypeScript client package
// @modelcontextprotocol/client 2.x in its automatic mode (it probes server/discover and speaks
// 2026-07-28), setting nothing a stock client does not: no _meta, no header. Over the real tools
// of the Smalltalk McpServer (the executable model of GemStone): a write without a session is
// refused; client A calls open_session and passes the session it answers as the session argument
// of every later call, defines a class and a TestCase subclass, compiles methods and runs the
// tests; client B's own session does not see the work until A commits and B refreshes; A closes
// its session and a call with it is refused. It prints one JSON object saying what each step saw,
// for test/clients to assert; any failure exits 1.
//
//   node ts2-session-story.mjs URL
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: node ts2-session-story.mjs URL');
  process.exit(2);
}

async function connect(name) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const outcome = (r) => ({ text: text(r), isError: r.isError === true, kind: r.structuredContent?.error?.kind ?? '' });

// A client that threads the session open_session answered into every later call.
function threaded(client) {
  let session = '';
  return {
    async call(name, args) {
      const r = await client.callTool({ name, arguments: session ? { ...args, session } : args });
      if (name === 'open_session' && typeof r.structuredContent?.session === 'string') session = r.structuredContent.session;
      return outcome(r);
    },
  };
}

const cls = 'R1Counter';
const testCls = 'R1CounterTest';
const timer = setTimeout(() => { console.error('ts2-session-story: gave up after 90 s'); process.exit(1); }, 90_000);
try {
  const ca = await connect('mcp-gemstone-ts2-story-a');
  const cb = await connect('mcp-gemstone-ts2-story-b');
  const listed = (await ca.listTools()).tools;
  const tools = listed.map((t) => t.name).sort();
  const sessionInEverySchema = listed.every((t) => ('session' in (t.inputSchema.properties ?? {})) === (t.name !== 'open_session'));
  const a = threaded(ca);
  const b = threaded(cb);
  const defineClass = { className: cls, superclassName: 'Object', instVarNames: ['count'], dictionary: 'UserGlobals' };
  const read = { className: cls };
  const story = { tools, sessionInEverySchema };
  story.noSessionWrite = await a.call('compile_class_definition', defineClass);
  story.openA = await a.call('open_session', {});
  story.defineClass = await a.call('compile_class_definition', defineClass);
  story.defineTest = await a.call('compile_class_definition', { className: testCls, superclassName: 'TestCase', dictionary: 'UserGlobals' });
  story.compileMethod = await a.call('compile_method', { className: cls, source: 'increment\n  count := (count ifNil: [0]) + 1.\n  ^count' });
  story.compileTest = await a.call('compile_method', { className: testCls, source: `testIncrement\n  self assert: ${cls} new increment = 1` });
  story.tests = await a.call('run_test_class', { className: testCls });
  story.openB = await b.call('open_session', {});
  story.bBefore = await b.call('get_class_definition', read);
  story.commit = await a.call('commit', {});
  story.bBeforeRefresh = await b.call('get_class_definition', read);
  story.refreshB = await b.call('refresh', {});
  story.bAfterRefresh = await b.call('get_class_definition', read);
  story.bTests = await b.call('run_test_class', { className: testCls });
  story.closeA = await a.call('close_session', {});
  story.afterClose = await a.call('get_class_definition', read);
  story.closeB = await b.call('close_session', {});
  story.version = ca.getNegotiatedProtocolVersion();
  for (const c of [ca, cb]) await c.close();
  console.log(JSON.stringify(story));
  clearTimeout(timer);
} catch (err) {
  console.error('ts2-session-story:', err && err.stack ? err.stack : err);
  process.exit(1);
}
