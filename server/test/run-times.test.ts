// How a worker sizes its claims (queue/run-task.ts RunTimes): a point's expected run time is its
// mean on this worker; a point not seen yet is expected to take unseenPointFactor times the
// longest point mean of its batch, as those means are now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunTimes, runPoint, unseenPointFactor } from '../src/queue/run-task.js';

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
