// report.mjs reads the per-check results one conformance run wrote (-o DIR) and holds them
// against baseline.yml: it prints every check that did not succeed with its id and message,
// and exits 1 on a failure the baseline does not name, on a baseline entry that now passes, on
// a baseline entry without a reason, and on a protocol or transport scenario in the baseline.
//
//   node report.mjs <results dir> <baseline.yml> <label> <expected scenario count>
//
// The suite itself also gets --expected-failures; this report exists because the suite prints
// no check detail in suite mode, and because it cannot tell a reason from a bare name.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

// Scenarios that pass on any correct server with no fixtures: a failure here is a router bug.
const mustPass = new Set([
  'server-initialize', 'server-session-lifecycle', 'server-session-id-visible-ascii', 'ping',
  'tools-list', 'server-sse-multiple-streams', 'server-sse-polling', 'dns-rebinding-protection',
]);
const classes = new Set(['fixture', 'capability', 'channel']);

const [dir, baselinePath, label, expectedCount, requirementsPath] = process.argv.slice(2);
// CONFORMANCE_VERBOSE=1 also prints the failures the baseline expects.
const verbose = process.env.CONFORMANCE_VERBOSE === '1';
if (!dir || !baselinePath || !label) {
  console.error('usage: node report.mjs <results dir> <baseline.yml> <label> [expected scenario count]');
  process.exit(2);
}

let problems = 0;
function problem(text) {
  problems++;
  console.log(`  PROBLEM ${text}`);
}

// The baseline: "  - scenario  # class: why" lines under "server:".
const baseline = new Map();
for (const [n, line] of readFileSync(baselinePath, 'utf8').split('\n').entries()) {
  const m = line.match(/^\s*-\s*([\w.-]+)\s*(?:#\s*(.*))?$/);
  if (!m) continue;
  const [, name, comment = ''] = m;
  const cm = comment.match(/^(\w+):\s*(\S.*)$/);
  if (!cm || !classes.has(cm[1])) {
    problem(`baseline line ${n + 1}: ${name} has no "# <${[...classes].join('|')}>: <why>" reason`);
  }
  if (mustPass.has(name)) {
    problem(`baseline line ${n + 1}: ${name} is a protocol/transport scenario; it must pass, not be excused`);
  }
  baseline.set(name, comment);
}

// Results: DIR/server-<scenario>-<ISO timestamp>/checks.json.
const results = new Map();
for (const entry of existsSync(dir) ? readdirSync(dir) : []) {
  const m = entry.match(/^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/);
  const file = join(dir, entry, 'checks.json');
  if (!m || !existsSync(file)) continue;
  results.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
}
// A requirement set (--requirements) scores the scenarios of its top-level server: list; the
// rest it runs for visibility only (extensions, pending). Those are reported, never judged.
if (requirementsPath) {
  const scored = new Set();
  let inServer = false;
  for (const line of readFileSync(requirementsPath, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inServer = line.startsWith('server:');
    const m = inServer && line.match(/^\s+-\s+([\w./-]+)\s*$/);
    if (m) scored.add(m[1]);
  }
  const unscored = [...results.keys()].filter((s) => !scored.has(s)).sort();
  const failing = unscored.filter((s) => results.get(s).some((c) => c.status === 'FAILURE'));
  console.log(`  not scored by the requirement set: ${unscored.length} scenarios, ${failing.length} failing (${failing.join(', ') || 'none'})`);
  for (const s of unscored) results.delete(s);
  if (scored.size === 0) problem(`${requirementsPath}: no server: scenarios found`);
}
if (expectedCount && !requirementsPath && results.size !== Number(expectedCount)) {
  problem(`${results.size} scenarios wrote results, the suite listed ${expectedCount} (did it crash?)`);
}

let passed = 0, failed = 0, excused = 0;
for (const [scenario, checks] of [...results].sort()) {
  const bad = checks.filter((c) => c.status === 'FAILURE');
  passed += checks.filter((c) => c.status === 'SUCCESS').length;
  failed += bad.length;
  const listed = baseline.has(scenario);
  for (const c of checks) {
    if (c.status === 'SUCCESS') continue;
    const tag = c.status !== 'FAILURE' ? c.status : listed ? 'expected FAILURE' : 'NEW FAILURE';
    const msg = (c.errorMessage || (c.details && c.details.message) || '').replace(/\s+/g, ' ').slice(0, 240);
    if (c.status === 'WARNING' || (c.status === 'FAILURE' && (!listed || verbose))) {
      console.log(`  ${tag.padEnd(16)} ${scenario} [${c.id}] ${msg}`);
    }
  }
  if (bad.length > 0 && listed) excused++;
  if (bad.length > 0 && !listed) {
    problem(`${scenario}: failed and is not in the baseline${mustPass.has(scenario) ? ' (protocol/transport: a router bug)' : ''}`);
  }
  if (bad.length === 0 && listed) {
    problem(`${scenario}: passes now but the baseline expects it to fail; delete its line (stale baseline)`);
  }
}
console.log(`${label}: ${results.size} scenarios, ${passed} checks passed, ${failed} failed ` +
  `(${excused} scenarios excused by the baseline), ${problems} problems`);
process.exit(problems === 0 ? 0 : 1);
