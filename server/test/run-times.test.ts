// How a worker sizes its claims (queue/run-task.ts RunTimes): a point's expected run time is its
// mean on this worker; a point not seen yet is expected to take unseenPointFactor times the
// longest point mean of its batch, as those means are now; and what a run's time is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobHelpers } from 'graphile-worker';
import type { CancellationListener } from '../src/queue/cancellation.js';
import { JobRunner, RunTimes, runPoint, unseenPointFactor, type JobRunKind } from '../src/queue/run-task.js';
import type { RunOutcome } from '../src/sim/engine.js';

test('a point not seen yet is guessed from the longest current point mean of its batch, which an early slow run does not hold up', () => {
  const times = new RunTimes();
  const [p0, p1, p2] = [0, 1, 2].map((i) => runPoint('b1', i));
  assert.equal(times.expectedMs(p0), undefined, 'nothing of the batch has run here');
  // The batch's first run paid for something once (the reproduction's plan built in the module).
  times.add(p0, 300);
  assert.equal(times.expectedMs(p1), unseenPointFactor * 300);
  for (let i = 0; i < 99; ++i) times.add(p0, 3);
  const mean0 = (300 + 99 * 3) / 100;
  assert.equal(times.meanMs(p0), mean0);
  assert.equal(times.expectedMs(p1), unseenPointFactor * mean0, 'the guess follows the mean as it falls');
  times.add(p1, 10);
  assert.equal(times.expectedMs(p2), unseenPointFactor * 10, 'the longest of the points\' means');
  assert.equal(times.batchMeanMs(p2), (300 + 99 * 3 + 10) / 101);
  // Other batches keep their own.
  assert.equal(times.expectedMs(runPoint('b2', 0)), undefined);
});

// A pipelined engine (tcpsim serve) answers short runs in batches: the wait for a batch's first
// answer holds the whole batch's time, and the others' nothing. A sweep's points are one run each,
// so their means are those waits, and the longest of them, the guess for the points not yet run,
// was the batch interval: a worker claimed a few runs at a time. The engine's own time of each run
// is what sizes the claims.
test('a pipelined engine\'s runs count the time it measured, not the wait for its batched answers', async () => {
  const batchMs = 20;
  const runMs = 4;
  const queued: Array<() => void> = [];
  const flusher = setInterval(() => queued.splice(0, 5).forEach((answer) => answer()), batchMs);
  const claims: number[] = [];
  const kind: JobRunKind<{ id: number; attempt: number }> = {
    claim: async (ids) => {
      claims.push(ids.length);
      return { held: true, runs: ids.map((id) => ({ id, attempt: 1 })) };
    },
    handOff: async () => [],
    unfinished: async () => [],
    owner: () => 'sweep',
    point: (run) => runPoint('sweep', run.id),
    start: () => new Promise<RunOutcome>((resolve) => queued.push(() => resolve({ ok: true, summary: {}, wallSeconds: runMs / 1000 }))),
    record: async () => true,
  };
  const runner = new JobRunner({
    pipelined: true,
    jobHeld: async () => true,
    cancellation: { track: () => new AbortController(), release: () => {} } as unknown as CancellationListener,
    log: () => {},
  });
  const ids = Array.from({ length: 32 }, (_, i) => i);
  const helpers = { job: { id: '1', locked_by: 'worker', attempts: 1 } } as unknown as JobHelpers;
  try {
    await runner.run(kind, ids, ids.map((i) => runPoint('sweep', i)), helpers);
  } finally {
    clearInterval(flusher);
  }
  // The first run alone (nothing of the batch had run here), then every other point expected to take
  // unseenPointFactor x 4 ms: the rest of the job fits in the budget at once.
  assert.deepEqual(claims, [1, 31]);
});
