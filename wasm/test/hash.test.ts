// The WASM module and the native CLI agree to the bit: for every preset and for random scenarios,
// the same summary (and so the same resultHash).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createSimulator, type Scenario } from '@tcb-lab/sim';
import { tcpsim } from './native.js';
import { randomScenario } from './random-scenario.js';

const simulator = createSimulator();
after(() => simulator.close());

// Long presets are cut to this many simulated seconds, for both builds alike.
const kMaxDurationS = 10;
const kRandomScenarios = 40;

async function assertSameAsNative(scenario: Scenario) {
  const text = JSON.stringify(scenario);
  const [native, wasm] = await Promise.all([
    tcpsim(['run', '-', '--trace', 'summary'], text),
    simulator.runScenario(text, { trace: 'summary' }),
  ]);
  assert.equal(native.code, 0, native.stderr);
  const expected = JSON.parse(native.stdout);
  assert.match(wasm.summary.resultHash, /^[0-9a-f]{64}$/);
  assert.equal(wasm.summary.resultHash, expected.resultHash);
  assert.deepEqual(wasm.summary, expected);
}

test('every preset gives the native summary and resultHash', async (t) => {
  const presets = await simulator.listPresets();
  assert.ok(presets.length > 0);
  for (const name of presets) {
    await t.test(name, async () => {
      const scenario = await simulator.getPreset(name);
      scenario.durationS = Math.min(scenario.durationS ?? kMaxDurationS, kMaxDurationS);
      await assertSameAsNative(scenario);
    });
  }
});

test(`${kRandomScenarios} random scenarios give the native summary and resultHash`, async (t) => {
  for (let seed = 1; seed <= kRandomScenarios; seed++) {
    await t.test(`random scenario ${seed}`, () => assertSameAsNative(randomScenario(seed)));
  }
});

test('a seed override gives the native result of tcpsim --seed', async () => {
  const text = JSON.stringify(await simulator.getPreset('scheme-etcp'));
  const [native, wasm] = await Promise.all([
    tcpsim(['run', '-', '--trace', 'none', '--seed', '7'], text),
    simulator.runScenario(text, { trace: 'none', seed: 7 }),
  ]);
  assert.equal(native.code, 0, native.stderr);
  assert.deepEqual(wasm.summary, JSON.parse(native.stdout));
});
