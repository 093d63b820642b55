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
  return expected;
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

// The presets above are cut before their transfers resume (path-geo-satellite's at 30 and 60 s),
// so a resumed transfer of each of today's reuse schemes is compared here, whole: a path preset's
// first two transfers with the server's scheme set, over CUBIC and over BBR (the rate-based
// resumption). Each run must show that the second connection used what the first one left.
type Group = Record<string, Record<string, number>>;
const kResumptions: { scheme: string; preset: string; flavor: 'cubic' | 'bbr'; options?: object; resumed: (g: Group) => number }[] = [
  { scheme: 'careful-resume', preset: 'path-geo-satellite', flavor: 'cubic', resumed: (g) => g.carefulResume.validated },
  { scheme: 'careful-resume', preset: 'path-geo-satellite', flavor: 'bbr', resumed: (g) => g.carefulResume.validated },
  { scheme: 'bdp-resume', preset: 'path-geo-satellite', flavor: 'cubic', resumed: (g) => g.bdpResume.resumed },
  { scheme: 'bdp-resume', preset: 'path-geo-satellite', flavor: 'bbr', resumed: (g) => g.bdpResume.resumed },
  // Over CUBIC on the geo path the cached RTT is no longer than the handshake's, so nothing is
  // seeded there; the mobile path's losses leave an ssthresh to restore.
  {
    scheme: 'linux-tcp-metrics',
    preset: 'path-mobile',
    flavor: 'cubic',
    options: { noSsthreshMetricsSave: false },
    resumed: (g) => g.tcpMetrics.restoredSsthresh,
  },
  { scheme: 'linux-tcp-metrics', preset: 'path-geo-satellite', flavor: 'bbr', resumed: (g) => g.tcpMetrics.seededRto },
];

test('a resumed transfer under each reuse scheme gives the native summary and resultHash', async (t) => {
  for (const { scheme, preset, flavor, options, resumed } of kResumptions) {
    await t.test(`${scheme} on ${preset} over ${flavor}`, async () => {
      const scenario = await simulator.getPreset(preset);
      const [file] = scenario.traffic as unknown as Record<string, unknown>[];
      const times = file.atS as number[];
      Object.assign(scenario, {
        tcp: { ...scenario.tcp, flavor },
        hosts: { server: { sharing: { scheme, ...options } } },
        traffic: [{ ...file, atS: times.slice(0, 2) }],
        durationS: times[1] + 10,
      });
      const summary = await assertSameAsNative(scenario);
      assert.ok(resumed(summary.groups[0]) >= 1, JSON.stringify(summary.groups[0]));
    });
  }
});

// Linux's CUBIC (tcp.cubic.rules 'linux') is integer arithmetic throughout; the CUBIC presets run
// under it must give the native numbers to the bit as well.
test("the CUBIC presets under Linux's rules give the native summary and resultHash", async (t) => {
  for (const name of ['flavor-cubic', 'modern-bulk-cubic', 'dumbbell-bulk']) {
    await t.test(name, async () => {
      const scenario = await simulator.getPreset(name);
      scenario.durationS = Math.min(scenario.durationS ?? kMaxDurationS, kMaxDurationS);
      const tcp = (scenario.tcp ?? {}) as Record<string, unknown>;
      scenario.tcp = { ...tcp, flavor: 'cubic', cubic: { ...(tcp.cubic as object), rules: 'linux' } } as Scenario['tcp'];
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
