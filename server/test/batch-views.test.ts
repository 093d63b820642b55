// How GET /api/batches/:id keeps batches' views (routes/api/batches/batch-views.ts): a finished
// batch's once computed, a running batch's, once computed twice, until it is costFactor times as
// old as the least computing it took (at most maxAgeMs), one computation shared by the readers
// that wait for it, nothing kept across forget(), and at most maxBytes of answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchViews, type ComputedView } from '../src/routes/api/batches/batch-views.js';

/** A clock the test moves, and a computation that takes `costMs` of it and counts its calls. */
function setup(options: { costFactor?: number; maxAgeMs?: number; maxBytes?: number } = {}) {
  let now = 0;
  const views = new BatchViews({ costFactor: options.costFactor ?? 20, maxAgeMs: options.maxAgeMs ?? 5000, maxBytes: options.maxBytes ?? 1e6, now: () => now });
  let calls = 0;
  const computation = (body: string, final: boolean, costMs: number) => async (): Promise<ComputedView> => {
    calls += 1;
    now += costMs;
    return { body, final };
  };
  return {
    views,
    computation,
    advance: (ms: number) => (now += ms),
    get calls() {
      return calls;
    },
  };
}

test("a running batch's view is reused once computed twice, until it is costFactor times as old as the least computing it took, at most maxAgeMs", async () => {
  const s = setup();
  // A server just started takes long over its first computation: that alone keeps nothing.
  assert.equal(await s.views.get('b', s.computation('v1', false, 500)), 'v1');
  assert.equal(await s.views.get('b', s.computation('v2', false, 10)), 'v2', 'computed once: not reused');
  s.advance(199);
  assert.equal(await s.views.get('b', s.computation('v3', false, 10)), 'v2', '199 ms old, computed in 10 ms at least: kept');
  s.advance(1);
  assert.equal(await s.views.get('b', s.computation('v3', false, 300)), 'v3', '200 ms old: computed again');
  // That one took 300 ms (a busy moment); the least is still 10.
  s.advance(199);
  assert.equal(await s.views.get('b', s.computation('v4', false, 1)), 'v3');
  s.advance(1);
  assert.equal(await s.views.get('b', s.computation('v4', false, 1)), 'v4');
  assert.equal(s.calls, 4);

  // Computed in 300 ms at least: 20 x 300 = 6 s, capped at 5 s.
  await s.views.get('c', s.computation('c1', false, 300));
  await s.views.get('c', s.computation('c2', false, 300));
  s.advance(4999);
  assert.equal(await s.views.get('c', s.computation('c3', false, 300)), 'c2');
  s.advance(1);
  assert.equal(await s.views.get('c', s.computation('c3', false, 300)), 'c3');
});

test("a finished batch's view is computed once; a batch that does not exist is not kept", async () => {
  const s = setup();
  assert.equal(await s.views.get('b', s.computation('done', true, 1)), 'done');
  s.advance(3600e3);
  assert.equal(await s.views.get('b', s.computation('again', true, 1)), 'done');
  assert.equal(s.calls, 1);
  assert.equal(await s.views.get('missing', async () => null), null);
  assert.equal(await s.views.get('missing', s.computation('now there', false, 1)), 'now there');
});

test('readers that come while a view is computed share that computation', async () => {
  const s = setup();
  let release!: (v: ComputedView) => void;
  let calls = 0;
  const slow = () => {
    calls += 1;
    return new Promise<ComputedView>((resolve) => (release = resolve));
  };
  const readers = [s.views.get('b', slow), s.views.get('b', slow), s.views.get('b', slow)];
  release({ body: 'shared', final: false });
  assert.deepEqual(await Promise.all(readers), ['shared', 'shared', 'shared']);
  assert.equal(calls, 1);
  // A computation that fails fails its readers, and the next reader computes again.
  const failing = s.views.get('c', async () => {
    throw new Error('database gone');
  });
  await assert.rejects(failing, /database gone/);
  assert.equal(await s.views.get('c', s.computation('back', false, 1)), 'back');
});

test('forget() drops the kept view and keeps a computation under way from being kept', async () => {
  const s = setup();
  await s.views.get('b', s.computation('running', false, 100));
  s.views.forget('b');
  assert.equal(await s.views.get('b', s.computation('cancelled', true, 1)), 'cancelled', 'forgotten at once, however young');

  // A computation that started before the change ends after forget(): its readers get it, and
  // the next reader computes again rather than reusing it or joining it.
  let release!: (v: ComputedView) => void;
  const before = s.views.get('c', () => new Promise<ComputedView>((resolve) => (release = resolve)));
  s.views.forget('c');
  const after = s.views.get('c', s.computation('after', true, 1));
  release({ body: 'before', final: false });
  assert.equal(await before, 'before');
  assert.equal(await after, 'after');
  assert.equal(await s.views.get('c', s.computation('later', true, 1)), 'after');
});

test('answers beyond maxBytes drop the least recently used; one larger than maxBytes is not kept', async () => {
  const s = setup({ maxBytes: 10 });
  await s.views.get('a', s.computation('aaaa', true, 1));
  await s.views.get('b', s.computation('bbbb', true, 1));
  await s.views.get('a', s.computation('a2', true, 1)); // a used last
  await s.views.get('c', s.computation('cccc', true, 1)); // 12 > 10: b goes
  assert.equal(s.views.bytes, 8);
  assert.equal(await s.views.get('a', s.computation('a3', true, 1)), 'aaaa');
  assert.equal(await s.views.get('b', s.computation('b2', true, 1)), 'b2');
  assert.equal(await s.views.get('huge', s.computation('x'.repeat(11), true, 1)), 'x'.repeat(11));
  assert.equal(await s.views.get('huge', s.computation('small', true, 1)), 'small');
  assert.ok(s.views.bytes <= 10);
});
