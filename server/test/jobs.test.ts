// How a batch's or a reproduction's runs are cut into jobs (queue/jobs.ts jobSizes): BATCH_JOB_RUNS
// each, and smaller towards the end, so that the workers of a fleet run out of work together.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutIntoJobs, jobSizes } from '../src/queue/jobs.js';

test('runs go in jobs of BATCH_JOB_RUNS, then in jobs of an eighth of the runs left, down to an eighth of BATCH_JOB_RUNS', () => {
  assert.deepEqual(jobSizes(0, 32), []);
  assert.deepEqual(jobSizes(3, 32), [3]);
  assert.deepEqual(jobSizes(40, 32), [5, 5, 4, 4, 4, 4, 4, 4, 4, 2]);
  assert.deepEqual(jobSizes(10, 1), Array.from({ length: 10 }, () => 1));
  for (const jobRuns of [1, 7, 32, 100]) {
    for (const total of [1, 31, 32, 33, 250, 1000, 100_000]) {
      const sizes = jobSizes(total, jobRuns);
      const where = `${total} runs, BATCH_JOB_RUNS ${jobRuns}: ${sizes.length} jobs`;
      assert.equal(sizes.reduce((a, b) => a + b, 0), total, where);
      let left = total;
      sizes.forEach((size, j) => {
        assert.ok(size >= 1 && size <= jobRuns, where);
        if (j > 0) assert.ok(size <= sizes[j - 1], `${where}: sizes do not grow`);
        // Full jobs while eight of them are left; then an eighth of what is left, or the smallest.
        if (left >= 8 * jobRuns) assert.equal(size, jobRuns, where);
        else assert.equal(size, Math.min(left, Math.max(Math.ceil(jobRuns / 8), Math.ceil(left / 8))), where);
        left -= size;
      });
      // Beyond equal jobs, about eight jobs per halving of the runs left, and the smallest ones.
      assert.ok(sizes.length <= Math.ceil(total / jobRuns) + 8 * Math.log2(8) + 8, where);
    }
  }
  assert.equal(jobSizes(100_000, 32).length, Math.ceil((100_000 - 256) / 32) + 23);
  assert.deepEqual(cutIntoJobs(['a', 'b', 'c', 'd', 'e'], 2), [['a'], ['b'], ['c'], ['d'], ['e']]);
  assert.deepEqual(cutIntoJobs(Array.from({ length: 40 }, (_, i) => i), 32).map((job) => job[0]), [0, 5, 10, 14, 18, 22, 26, 30, 34, 38]);
});

// Workers that each take the next job when they have finished theirs (as graphile-worker hands them
// out), on runs that take equal time: when the last one finishes, how long the first has waited.
function idleAtEnd(sizes: number[], workers: number): number {
  const busyUntil = Array.from({ length: workers }, () => 0);
  for (const size of sizes) {
    const next = busyUntil.indexOf(Math.min(...busyUntil));
    busyUntil[next] += size;
  }
  return Math.max(...busyUntil) - Math.min(...busyUntil);
}

test('the workers of a fleet finish within a smallest job of each other, where equal jobs leave one a whole job behind', () => {
  for (const workers of [2, 3, 4, 8]) {
    for (const total of [40, 100, 1000, 1016, 4321, 100_000]) {
      const equal = Array.from({ length: Math.ceil(total / 32) }, (_, j) => Math.min(32, total - 32 * j));
      const tapered = jobSizes(total, 32);
      assert.ok(idleAtEnd(tapered, workers) <= 4, `${workers} workers, ${total} runs: ${idleAtEnd(tapered, workers)} runs apart (equal jobs: ${idleAtEnd(equal, workers)})`);
    }
  }
  // 1000 runs on two workers: 16 equal jobs for one, 15 and the last 8 runs for the other.
  assert.equal(idleAtEnd(Array.from({ length: 32 }, (_, j) => Math.min(32, 1000 - 32 * j)), 2), 24);
});
