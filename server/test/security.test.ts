// What docs/SECURITY.md guarantees about scenario text: no file path is read or written from it and
// no host is contacted. The simulator library opens no file, socket or process (only tcpsim's
// command line names files), every object of the scenario schema is closed, the one file name built
// from scenario text (tcpsim run -o DIR writes DIR/<link>.pcap) cannot leave DIR, and the service's
// engine runs tcpsim without -o, so a scenario asking for captures writes nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../src/config.js';
import { NativeEngine } from '../src/sim/engine.js';
import { preset, tcpsim, validateError } from './helpers/native.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(cc|h)$/.test(name) ? [path] : [];
  });
}

test('no source of the simulator library (sim-core outside cli/, and the WASM bindings) uses a file, socket or process API', () => {
  // The command line, the tests (golden files), their support (testing/, linked by test programs
  // only: sim-core/CMakeLists.txt) and the fuzzing harness may; the library may not.
  const allowed = /^sim-core\/(cli|tests|testing|fuzz|third_party)\/|_test\.cc$/;
  const forbidden = /#include <(fstream|filesystem|unistd\.h|fcntl\.h|sys\/socket\.h|netinet\/[a-z_]+\.h|spawn\.h)>|\bstd::(i|o)?fstream\b|\bstd::filesystem\b|\b(fopen|freopen|popen|socket|connect|execv|execvp|execve|fork|system)\s*\(/;
  const checked: string[] = [];
  for (const file of [...sources(join(repoRoot, 'sim-core')), ...sources(join(repoRoot, 'wasm/src'))]) {
    const path = relative(repoRoot, file);
    if (allowed.test(path)) continue;
    checked.push(path);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      assert.doesNotMatch(code, forbidden, `${path}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.ok(checked.some((p) => p.startsWith('sim-core/scenario/')) && checked.some((p) => p.startsWith('sim-core/output/')), 'the library was read');
});

test('every object of the scenario schema is closed: no unknown field, so no field the simulator does not know, is accepted', () => {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'sim-core/scenario/schema/scenario.schema.json'), 'utf8'));
  const open: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    const isObject = n.type === 'object' || (Array.isArray(n.type) && n.type.includes('object')) || 'properties' in n;
    // false, or a schema every extra member must satisfy (a map of names), never absent or true.
    if (isObject && (!('additionalProperties' in n) || n.additionalProperties === true)) open.push(at);
    for (const [key, value] of Object.entries(n)) if (key !== 'default') walk(value, `${at}/${key}`);
  };
  walk(schema, '#');
  assert.deepEqual(open, []);
});

test('a link name that could leave tcpsim run -o DIR (DIR/<link>.pcap) is refused', () => {
  for (const name of ['../evil', 'a/b', '/etc/passwd']) {
    const scenario = preset('single-reno-trace');
    scenario.record = { ...scenario.record, pcapLinks: [name] };
    assert.match(validateError(scenario), /^\$\.record\.pcapLinks\[0\]: /, name);
  }
});

test('a run through the service\'s engine of a scenario that asks for captures writes no file', async () => {
  const scenario = preset('single-reno-trace');
  assert.ok(scenario.record.pcapLinks.length > 0, 'the preset asks for a capture');
  const dir = mkdtempSync(join(tmpdir(), 'tcblab-cwd-'));
  const cwd = process.cwd();
  process.chdir(dir); // tcpsim inherits it: anything written relative to it would appear here.
  try {
    const outcome = await new NativeEngine(tcpsim).run(JSON.stringify(scenario), { trace: 'summary', timeoutMs: 60_000 });
    assert.equal(outcome.ok, true);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});
