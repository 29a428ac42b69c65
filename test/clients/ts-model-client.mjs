// ts-model-client.mjs drives the real tools of the Smalltalk McpServer (served over the
// executable model of GemStone) with the official TypeScript SDK, as two clients at once:
// both list the tools and compile every schema they list with a strict Ajv (the SDK's own
// validator, made strict, also checks every structured result against its outputSchema);
// client A runs the compile -> test -> commit loop that fixes the sample's failing test while
// client B holds a view from before the commit; then both change the same method and commit.
// It prints one JSON object on stdout saying what each saw, for test/clients to assert; any
// failure exits 1.
//
//   node ts-model-client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
// Ajv is the SDK's own dependency, pinned in package-lock.json; MCP's default dialect is 2020-12.
import Ajv2020 from 'ajv/dist/2020.js';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: node ts-model-client.mjs URL');
  process.exit(2);
}

// Strict where strictness is about validity: every schema is validated against its meta-schema,
// an unknown keyword or format is an error. Ajv's strictRequired and strictTypes are style lints
// (a required member declared beside an anyOf rather than inside it is valid JSON Schema).
const strictAjv = () => new Ajv2020({
  strictSchema: true, strictNumbers: true, strictTuples: true, strictTypes: false, strictRequired: false,
  validateSchema: true, validateFormats: true, allErrors: true,
});

async function connect(name) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name, version: '1.0.0' },
    { capabilities: {}, jsonSchemaValidator: new AjvJsonSchemaValidator(strictAjv()) });
  await client.connect(transport);
  return { client, transport };
}

const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const outcome = (r) => ({ text: text(r), isError: r.isError === true, kind: r.structuredContent?.error?.kind ?? '' });

// Every schema listed compiles under strict Ajv; the arguments this client sends are held to them.
function schemasOf(tools) {
  const ajv = strictAjv();
  const validators = {};
  const problems = [];
  for (const t of tools) {
    for (const [which, schema] of [['inputSchema', t.inputSchema], ['outputSchema', t.outputSchema]]) {
      if (schema === undefined) continue;
      try {
        const v = ajv.compile(schema);
        if (which === 'inputSchema') validators[t.name] = v;
      } catch (err) {
        problems.push(`${t.name} ${which}: ${err.message}`);
      }
    }
  }
  return { validators, problems };
}

const timer = setTimeout(() => { console.error('ts-model-client: gave up after 90 s'); process.exit(1); }, 90_000);
try {
  const a = await connect('mcp-gemstone-ts-model-client-a');
  const b = await connect('mcp-gemstone-ts-model-client-b');
  const listed = (await a.client.listTools()).tools;
  await b.client.listTools(); // B's SDK caches the output schemas it validates results against
  const { validators, problems } = schemasOf(listed);
  const argumentProblems = [];
  const call = async (who, name, args) => {
    const v = validators[name];
    if (v && !v(args)) argumentProblems.push(`${name} ${JSON.stringify(args)}: ${JSON.stringify(v.errors)}`);
    return outcome(await who.client.callTool({ name, arguments: args }));
  };
  const method = { className: 'SampleSavingsAccount', selector: 'addInterest' };
  const tests = { className: 'SampleAccountTest' };
  const fix = 'addInterest\n  self deposit: (self balance * self ratePercent + 99) // 100';
  const undeclared = validators.compile_method ? !validators.compile_method({ ...method, source: fix, bogus: 1 }) : false;

  // A tool with an outputSchema: the SDK holds its structuredContent to the schema.
  const listing = await a.client.callTool({ name: 'list_classes', arguments: { dictionaryName: 'Sample' } });
  const sampleClasses = { items: (listing.structuredContent?.items ?? []).map((item) => item.name), isError: listing.isError === true,
    hasOutputSchema: listed.some((t) => t.name === 'list_classes' && t.outputSchema !== undefined) };

  const bBefore = await call(b, 'get_method_source', method);
  const loop = {
    testsBefore: await call(a, 'run_test_class', tests),
    read: await call(a, 'get_method_source', method),
    compile: await call(a, 'compile_method', { className: method.className, source: fix }),
    testsAfter: await call(a, 'run_test_class', tests),
    commit: await call(a, 'commit', {}),
  };
  const second = {
    before: bBefore,
    beforeRefresh: await call(b, 'get_method_source', method),
    refresh: await call(b, 'refresh', {}),
    afterRefresh: await call(b, 'get_method_source', method),
    tests: await call(b, 'run_test_class', tests),
  };
  // Both sessions now stand on the commit; each changes the same method its own way.
  await call(a, 'get_method_source', method);
  const conflict = {
    compileA: await call(a, 'compile_method', { className: method.className, source: 'addInterest\n  self deposit: 1' }),
    compileB: await call(b, 'compile_method', { className: method.className, source: 'addInterest\n  self deposit: 2' }),
    commitA: await call(a, 'commit', {}),
    commitB: await call(b, 'commit', {}),
    abortB: await call(b, 'abort', {}),
    afterAbortB: await call(b, 'get_method_source', method),
  };
  const sessions = [a.transport.sessionId, b.transport.sessionId];
  for (const c of [a, b]) {
    await c.transport.terminateSession();
    await c.client.close();
  }
  console.log(JSON.stringify({
    sessions, tools: listed.map((t) => t.name), schemaProblems: problems, argumentProblems,
    undeclaredRefused: undeclared, sampleClasses, loop, second, conflict,
  }));
  clearTimeout(timer);
} catch (err) {
  console.error('ts-model-client:', err && err.stack ? err.stack : err);
  process.exit(1);
}
