// The persistent runner (server/src/sim/serve.ts over sim-core/cli/serve.h): its summaries are
// `tcpsim run`'s to the bit, bad input leaves the process serving, and a run over its time limit,
// aborted, or whose process dies, ends alone: the runs behind it run in a new process.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ServeEngine, ServeProcess } from '../src/sim/serve.js';
import { addressSpaceMb, findPrlimit, spawnSimulator } from '../src/sim/spawn.js';
import type { RunOutcome } from '../src/sim/engine.js';
import { preset, runNative, tcpsim, validateError } from './helpers/native.js';
import { flood } from './helpers/scenarios.js';

const serve = new ServeProcess(tcpsim);
after(() => serve.close());

function summaryOf(outcome: RunOutcome): Record<string, unknown> {
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome.summary;
}

// Long enough (tens of seconds of simulation) never to finish within the limits below.
const endless = { ...preset('dumbbell-bulk'), durationS: 3000 };

test('summaries are tcpsim run\'s to the bit, for several presets, seeds and trace levels', async () => {
  const cases: Array<[Record<string, unknown>, number | undefined, 'none' | 'summary']> = [
    [preset('scheme-etcp'), 7, 'none'],
    [preset('scheme-etcp'), 8, 'none'],
    [preset('scheme-etcp'), 7, 'summary'],
    [preset('spand-single-30k'), undefined, 'summary'],
    [{ ...preset('dumbbell-bulk'), durationS: 2 }, 3, 'none'],
  ];
  // All queued at once: each waits in the process's input for the one before.
  const outcomes = await Promise.all(cases.map(([scenario, seed, trace]) => serve.run(JSON.stringify(scenario), { seed, trace, timeoutMs: 60_000 })));
  cases.forEach(([scenario, seed, trace], i) => {
    const args = ['--trace', trace, ...(seed === undefined ? [] : ['--seed', String(seed)])];
    assert.deepEqual(summaryOf(outcomes[i]), runNative(scenario, args), `case ${i}`);
  });
  assert.equal(serve.starts, 1, 'one process ran them all');
});

test('runs of one scenario queued together go as one request and are answered one by one; one aborted among them stops only itself', async () => {
  const p = new ServeProcess(tcpsim);
  try {
    const scenario = preset('scheme-etcp');
    const stop = new AbortController();
    const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
    const outcomes = seeds.map((seed) => p.run(JSON.stringify(scenario), { seed, trace: 'none', timeoutMs: 60_000, signal: seed === 20 ? stop.signal : undefined }));
    // Written by now (one "runs" request): the aborted run stops the process when its turn comes,
    // and the runs behind it go to a new one.
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    const done = await Promise.all(outcomes);
    assert.deepEqual(done[19], { ok: false, kind: 'aborted', message: 'the run was cancelled' });
    for (const seed of [1, 19, 21, 40]) {
      const outcome = done[seed - 1];
      assert.ok(outcome.ok && outcome.summaryText !== undefined, `seed ${seed}: the summary as text`);
      assert.deepEqual(summaryOf(outcome), runNative(scenario, ['--seed', String(seed), '--trace', 'none']), `seed ${seed}`);
    }
    assert.ok(done.every((o, i) => i === 19 || o.ok));
    assert.equal(p.starts, 2, 'the aborted run ended the first process, the rest ran in a second');
  } finally {
    await p.close();
  }
});

// A stand-in for tcpsim serve that answers the runs it is sent four at a time, in one write, as
// serve answers short runs (sim-core/cli/serve.h), and logs how many runs each request held.
const fakeServe = `#!${process.execPath}
const { appendFileSync } = require('node:fs');
const [log] = process.argv.slice(3);
let partial = '';
let pending = [];
const answer = (id) => JSON.stringify({ id, ok: true, wallSeconds: 0, events: 0, summary: { resultHash: String(id) } }) + '\\n';
const write = (n) => process.stdout.write(pending.splice(0, n).map(answer).join(''));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (partial + chunk).split('\\n');
  partial = lines.pop();
  for (const line of lines) {
    const request = JSON.parse(line);
    const ids = request.runs ? request.runs.map((r) => r.id) : [request.id];
    appendFileSync(log, ids.length + '\\n');
    pending.push(...ids);
  }
  while (pending.length >= 4) write(4);
});
process.stdin.on('end', () => write(pending.length));
`;

test('the runs that take the places of a batch of answers go to the process as one request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tcblab-fake-serve-'));
  const program = join(dir, 'fake-serve.cjs');
  const log = join(dir, 'requests');
  // ServeProcess starts `<path> serve`: a wrapper passes the log's path after it.
  writeFileSync(program, fakeServe);
  const wrapper = join(dir, 'tcpsim');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(program)} "$1" ${JSON.stringify(log)}\n`);
  chmodSync(program, 0o755);
  chmodSync(wrapper, 0o755);
  const p = new ServeProcess(wrapper, 8);
  try {
    const outcomes = await Promise.all(Array.from({ length: 32 }, (_, i) => p.run('{}', { seed: i, trace: 'none', timeoutMs: 60_000 })));
    assert.ok(outcomes.every((o) => o.ok));
    const requests = readFileSync(log, 'utf8').trim().split('\n').map(Number);
    assert.equal(requests.reduce((a, b) => a + b, 0), 32);
    assert.equal(requests[0], 8, 'the first request fills the process\'s depth');
    // Answers come four to a write: each chunk's places are refilled at once, not a run per answer.
    assert.ok(requests.every((n) => n % 4 === 0), `runs per request: ${requests.join(' ')}`);
  } finally {
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a scenario error answers with tcpsim\'s path and words, and the process serves on', async () => {
  const bad = { ...preset('scheme-etcp'), durationS: -1 };
  const pid = serve.pid;
  const outcome = await serve.run(JSON.stringify(bad), { trace: 'none', timeoutMs: 10_000 });
  assert.equal(outcome.ok, false);
  assert.ok(!outcome.ok && outcome.kind === 'scenario');
  assert.equal(`${outcome.path}: ${outcome.problem}`, validateError(bad));
  summaryOf(await serve.run(JSON.stringify(preset('scheme-etcp')), { trace: 'none', timeoutMs: 10_000 }));
  assert.equal(serve.pid, pid, 'the same process');
});

test('a run over its time limit is stopped by replacing the process; the run behind it runs', async () => {
  const p = new ServeProcess(tcpsim);
  try {
    const scenario = preset('scheme-etcp');
    const [slow, next] = await Promise.all([
      p.run(JSON.stringify(endless), { trace: 'none', timeoutMs: 300 }),
      p.run(JSON.stringify(scenario), { seed: 5, trace: 'none', timeoutMs: 60_000 }),
    ]);
    assert.deepEqual(slow, { ok: false, kind: 'timeout', message: 'the run exceeded its time limit of 0.3 s' });
    assert.deepEqual(summaryOf(next), runNative(scenario, ['--seed', '5', '--trace', 'none']));
    assert.equal(p.starts, 2, 'a new process ran the second run');
  } finally {
    await p.close();
  }
});

test('aborting a running run or one waiting behind it; a process killed from outside fails only its run', async () => {
  const p = new ServeProcess(tcpsim);
  try {
    const scenario = JSON.stringify(preset('scheme-etcp'));
    const running = new AbortController();
    const waiting = new AbortController();
    const first = p.run(JSON.stringify(endless), { trace: 'none', timeoutMs: 60_000, signal: running.signal });
    const second = p.run(JSON.stringify(endless), { trace: 'none', timeoutMs: 60_000, signal: waiting.signal });
    const third = p.run(scenario, { seed: 2, trace: 'none', timeoutMs: 60_000 });
    waiting.abort();
    assert.equal((await second).ok, false);
    running.abort();
    assert.deepEqual(await first, { ok: false, kind: 'aborted', message: 'the run was cancelled' });
    assert.deepEqual(summaryOf(await third), runNative(preset('scheme-etcp'), ['--seed', '2', '--trace', 'none']));

    const doomed = p.run(JSON.stringify(endless), { trace: 'none', timeoutMs: 60_000 });
    const after = p.run(scenario, { seed: 3, trace: 'none', timeoutMs: 60_000 });
    process.kill(p.pid!, 'SIGKILL');
    const died = await doomed;
    assert.ok(!died.ok && died.kind === 'internal' && /killed by SIGKILL/.test(died.message), JSON.stringify(died));
    assert.deepEqual(summaryOf(await after), runNative(preset('scheme-etcp'), ['--seed', '3', '--trace', 'none']));
  } finally {
    await p.close();
  }
});

test('the engine spreads runs over its processes, the least loaded first', async () => {
  const engine = new ServeEngine(tcpsim, 2);
  try {
    const scenario = preset('scheme-etcp');
    const outcomes = await Promise.all([1, 2, 3, 4].map((seed) => engine.run(JSON.stringify(scenario), { seed, trace: 'none', timeoutMs: 60_000 })));
    outcomes.forEach((o, i) => assert.equal(summaryOf(o).resultHash, runNative(scenario, ['--seed', String(i + 1), '--trace', 'none']).resultHash));
    assert.equal(engine.pipelined, true);
  } finally {
    await engine.close();
  }
});

// sim-core/cli/serve.h: an answer reaches the caller at most the flush interval after its run ended,
// also while the run after it goes on. Both requests arrive together, so serve has input waiting when
// the first run ends and leaves its answer to the writer; it held the answer back until the long run
// ended before, and wrote both answers together. (Nothing here measures time: the long run takes
// tens of seconds, and its answer must not have come with the first.)
test('serve answers a finished run while a long run after it goes on', async () => {
  const child = spawnSimulator(tcpsim, 'serve', [], { memoryMb: 256 });
  try {
    const short = { id: 'short', trace: 'none', scenario: { ...preset('spand-single-30k'), durationS: 1 } };
    const long = { id: 'long', trace: 'none', scenario: endless };
    child.stdin.write(`${JSON.stringify(short)}\n${JSON.stringify(long)}\n`);
    let text = '';
    child.stdout.setEncoding('utf8');
    for await (const chunk of child.stdout) {
      text += chunk;
      if (text.includes('\n')) break;
    }
    const lines = text.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, 'the short run\'s answer came alone, before the long run ended');
    const answer = JSON.parse(lines[0]);
    assert.equal(answer.id, 'short');
    assert.equal(answer.ok, true);
  } finally {
    child.kill('SIGKILL');
  }
});

// Every simulator the service starts runs under an address-space limit (RLIMIT_AS, set by prlimit
// before tcpsim starts: sim/spawn.ts) besides its own memory account.
test('a simulator runs under the address-space limit that goes with its memory limit', { skip: !findPrlimit() && 'no prlimit' }, async () => {
  const child = spawnSimulator(tcpsim, 'serve', [], { memoryMb: 100 });
  try {
    // Wait for the process to be tcpsim itself (prlimit execs it).
    const limits = await new Promise<string>((resolve) => {
      const look = () => {
        const text = readFileSync(`/proc/${child.pid}/limits`, 'utf8');
        if (readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim() === 'tcpsim') resolve(text);
        else setTimeout(look, 10);
      };
      look();
    });
    const line = limits.split('\n').find((l) => l.startsWith('Max address space'))!;
    const expected = String(addressSpaceMb(100) * 1024 * 1024);
    assert.deepEqual(line.split(/\s{2,}/).slice(1, 3), [expected, expected]);
  } finally {
    child.kill('SIGKILL');
  }
});

// What the memory account misses still meets the address-space limit: here serve's account is set
// far above the address space (a stand-in that starts tcpsim serve so), and a flood into a queue
// without a cap grows until an allocation fails. That is the run's memory (a run that died of its
// limit fails and is not retried, queue/run-task.ts), not a fault of the simulator, and the
// process, or its replacement, serves on.
test('a run that outgrows the address space before its account is a memory outcome', { skip: !findPrlimit() && 'no prlimit' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tcblab-unaccounted-'));
  const wrapper = join(dir, 'tcpsim');
  writeFileSync(wrapper, `#!/bin/sh\nexec '${tcpsim}' serve --max-memory-mb 65536 --parent-pid ${process.pid}\n`);
  chmodSync(wrapper, 0o755);
  // Under the address space of a 64 MiB run: 384 MiB.
  const p = new ServeProcess(wrapper, 64, { memoryMb: 64 });
  try {
    const outcome = await p.run(JSON.stringify(flood(60, 100_000_000)), { trace: 'none', timeoutMs: 120_000 });
    assert.ok(!outcome.ok && outcome.kind === 'memory', JSON.stringify(outcome));
    assert.doesNotMatch(outcome.message, /memory limit of/, 'not the account\'s error');
    const scenario = preset('scheme-etcp');
    assert.deepEqual(summaryOf(await p.run(JSON.stringify(scenario), { seed: 4, trace: 'none', timeoutMs: 60_000 })), runNative(scenario, ['--seed', '4', '--trace', 'none']));
  } finally {
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
