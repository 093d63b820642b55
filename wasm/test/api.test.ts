// The simulation API in Node: progress, cancellation, memory across runs, bad input, a run that
// records too much, the module's memory under a long trace, failures inside a worker, and the
// series and trace columns.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { after, describe, test } from 'node:test';
import {
  createSimulator,
  getPreset,
  planGrid,
  gridPointCount,
  gridRunCount,
  summarizeSamples,
  listPresets,
  OutOfMemoryError,
  runScenario,
  ScenarioError,
  SimulationError,
  Simulator,
  validateScenario,
  type Progress,
  type Scenario,
  type WorkerHost,
} from '@tcb-lab/sim';
import { tcpsim } from './native.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A Simulator with one worker of its own, closed afterwards, so that a test sees its workers only.
async function withOwnWorker(body: (simulator: Simulator) => Promise<void>) {
  const simulator = createSimulator({ maxWorkers: 1 });
  try {
    await body(simulator);
  } finally {
    simulator.close();
  }
}

// Waits until every worker the simulator terminated has exited and freed its memory.
async function allExited(simulator: Simulator) {
  for (let i = 0; i < 500 && simulator.stats().exiting > 0; i++) await sleep(10);
  assert.equal(simulator.stats().exiting, 0, 'the terminated workers exited');
}

// dumbbell-bulk takes a few hundred milliseconds of wall time: long enough to watch.
async function longScenario(durationS = 60): Promise<Scenario> {
  const scenario = await getPreset('dumbbell-bulk');
  scenario.durationS = durationS;
  return scenario;
}

describe('progress', () => {
  // No wall-clock bounds here (the machines are shared): the checks are about order and content.
  test('rises monotonically to 1 with the final report last, and the main thread stays free', async () => {
    const scenario = await longScenario(300);
    const seen: Progress[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const result = await runScenario(scenario, { trace: 'none', onProgress: (progress) => seen.push(progress) });
      assert.ok(seen.length >= 2, `${seen.length} progress reports`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].simulatedS >= seen[i - 1].simulatedS);
      assert.ok(seen[0].fraction < 1, 'a report came before the end');
      assert.deepEqual(seen.at(-1), { simulatedS: 300, durationS: 300, fraction: 1 });
      assert.equal(result.summary.simulatedTimeS, 300);
      // The run happened elsewhere: this thread's timers fired while it went on.
      assert.ok(ticks > 0, `${ticks} timer ticks during the run`);
    } finally {
      clearInterval(ticker);
    }
  });
});

describe('cancellation', () => {
  test('aborting mid-run rejects with the reason, terminates the worker, and the next run is unaffected', () =>
    withOwnWorker(async (simulator) => {
      const scenario = await longScenario(180);
      const controller = new AbortController();
      let aborted = false;
      const run = simulator.runScenario(scenario, {
        signal: controller.signal,
        onProgress: ({ fraction }) => {
          if (fraction > 0.1 && !aborted) {
            aborted = true;
            controller.abort();
          }
        },
      });
      await assert.rejects(run, (e: Error) => e.name === 'AbortError');
      assert.ok(aborted, 'progress was reported before the abort');
      // The worker is told to stop; it exits on a later turn of the event loop.
      assert.deepEqual(simulator.stats(), { workers: 0, busy: 0, queued: 0, exiting: 1 });

      const short = await getPreset('scheme-etcp');
      const [again, reference] = await Promise.all([
        simulator.runScenario(short),
        tcpsim(['run', '-'], JSON.stringify(short)),
      ]);
      assert.equal(again.summary.resultHash, JSON.parse(reference.stdout).resultHash);
    }));

  test('an aborted run frees its memory', () =>
    withOwnWorker(async (simulator) => {
      // Aborting terminates the worker, which frees what the run held: its module and the typed
      // arrays of the rows copied out so far. Node's allocator (glibc) keeps freed memory in
      // per-thread arenas rather than return it to the system, and a new worker thread may take a
      // fresh arena, so a run or two's worth can stay mapped; memory that is not freed grows with
      // every run. So: after three more aborted runs, less than two runs' worth more is held.
      const scenario = await longScenario(600);
      const abortedRun = async () => {
        const controller = new AbortController();
        const memory = { before: process.memoryUsage().rss, during: 0, after: 0 };
        const run = simulator.runScenario(scenario, {
          trace: 'full',
          signal: controller.signal,
          onProgress: ({ fraction }) => {
            if (fraction > 0.2 && !controller.signal.aborted) {
              memory.during = process.memoryUsage().rss;
              controller.abort();
            }
          },
        });
        await assert.rejects(run, (e: Error) => e.name === 'AbortError');
        await allExited(simulator);
        memory.after = process.memoryUsage().rss;
        return memory;
      };
      const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
      const first = await abortedRun();
      const footprint = first.during - first.before;
      assert.ok(footprint > 200e6, `a full trace of 120 s takes memory (${mb(footprint)})`);
      let last = first;
      for (let i = 0; i < 3; i++) last = await abortedRun();
      const held = last.after - first.after;
      assert.ok(held < 2 * footprint, `${mb(held)} more held after three more aborted runs of ${mb(footprint)} each`);
    }));

  test('a run after an aborted one waits until the aborted worker has exited', () =>
    withOwnWorker(async (simulator) => {
      // With maxWorkers 1 at most one worker holds memory, also while an aborted one is torn down.
      const [long, short] = [await longScenario(180), await getPreset('scheme-etcp')];
      const controller = new AbortController();
      const aborted = simulator.runScenario(long, {
        signal: controller.signal,
        onProgress: () => controller.abort(),
      });
      await assert.rejects(aborted, (e: Error) => e.name === 'AbortError');
      // Nothing but promise reactions ran since the abort: the worker's exit comes on a later turn.
      const next = simulator.runScenario(short);
      assert.deepEqual(simulator.stats(), { workers: 0, busy: 0, queued: 1, exiting: 1 });
      const [result, reference] = await Promise.all([next, tcpsim(['run', '-'], JSON.stringify(short))]);
      assert.equal(result.summary.resultHash, JSON.parse(reference.stdout).resultHash);
      assert.deepEqual(simulator.stats(), { workers: 1, busy: 0, queued: 0, exiting: 0 });
    }));

  test('a signal aborted before the call rejects without running', () =>
    withOwnWorker(async (simulator) => {
      const reason = new Error('changed my mind');
      await assert.rejects(simulator.runScenario(await longScenario(), { signal: AbortSignal.abort(reason) }), reason);
      assert.deepEqual(simulator.stats(), { workers: 0, busy: 0, queued: 0, exiting: 0 });
    }));

  test('aborting a queued run leaves the running one alone', () =>
    withOwnWorker(async (simulator) => {
      const scenario = await longScenario(20);
      await simulator.listPresets(); // A worker is up, so the first run starts at once.
      const controller = new AbortController();
      const first = simulator.runScenario(scenario);
      const second = simulator.runScenario(scenario, { signal: controller.signal });
      assert.equal(simulator.stats().queued, 1);
      controller.abort();
      await assert.rejects(second, (e: Error) => e.name === 'AbortError');
      assert.equal((await first).summary.simulatedTimeS, 20);
      assert.deepEqual(simulator.stats(), { workers: 1, busy: 0, queued: 0, exiting: 0 });
    }));
});

test('many sequential runs in one worker do not grow its memory', () =>
  withOwnWorker(async (simulator) => {
    const scenario = await getPreset('scheme-etcp');
    const first = await simulator.runScenario(scenario, { trace: 'full' });
    const baseline = await simulator.heapStats();
    for (let i = 0; i < 40; i++) {
      const result = await simulator.runScenario(scenario, { trace: 'full' });
      assert.equal(result.summary.resultHash, first.summary.resultHash);
      assert.ok(result.trace!.timeNs.length > 1000);
    }
    const end = await simulator.heapStats();
    assert.equal(end.allocatedBytes, baseline.allocatedBytes, 'bytes still allocated after a run');
    assert.equal(end.memoryBytes, baseline.memoryBytes, 'linear memory');
    assert.deepEqual(simulator.stats(), { workers: 1, busy: 0, queued: 0, exiting: 0 });
  }));

describe('invalid input', () => {
  const base = JSON.stringify({
    schemaVersion: 1,
    topology: {
      kind: 'dumbbell',
      pairs: 1,
      bottleneck: { bandwidthMbps: 1, delayMs: 10 },
      access: { bandwidthMbps: 10, delayMs: 1 },
    },
    traffic: [{ type: 'bulk', from: 'left0', to: 'right0', bytes: 10000 }],
  });
  const broken: Record<string, string> = {
    'not JSON': '{"schemaVersion": 1,',
    'not an object': '[1, 2]',
    'an unknown field': base.replace('"schemaVersion":1', '"schemaVersion":1,"colour":"red"'),
    'a wrong schema version': base.replace('"schemaVersion":1', '"schemaVersion":2'),
    'an unknown topology': base.replace('"dumbbell"', '"ring"'),
    'a negative bandwidth': base.replace('"bandwidthMbps":1,', '"bandwidthMbps":-1,'),
    'an unknown node': base.replace('"right0"', '"right7"'),
    'no traffic': base.replace(/"traffic":\[.*\]/, '"traffic":[]'),
    'a bad host name': base.replace('"traffic"', '"hosts":{"a b":{}},"traffic"'),
    'an unknown sharing scheme': base.replace('"traffic"', '"hosts":{"*":{"sharing":{"scheme":"magic"}}},"traffic"'),
  };

  for (const [what, text] of Object.entries(broken)) {
    test(`${what}: the CLI's path and problem, from runScenario and validateScenario`, async () => {
      const native = await tcpsim(['validate', '-'], text);
      assert.equal(native.code, 2);
      const line = native.stderr.trim();
      assert.match(line, /^error: \$.*: .+/);
      const nativeRun = await tcpsim(['run', '-'], text);
      assert.equal(nativeRun.stderr.trim(), line);

      const validation = await validateScenario(text);
      assert.equal(validation.valid, false);
      assert.ok(!validation.valid);
      assert.equal(`error: ${validation.error.message}`, line);
      assert.equal(`error: ${validation.error.path}: ${validation.error.problem}`, line);

      await assert.rejects(runScenario(text), (e: unknown) => {
        assert.ok(e instanceof ScenarioError);
        assert.equal(`error: ${e.message}`, line);
        return true;
      });
    });
  }

  test('a valid scenario validates to what tcpsim validate prints', async () => {
    const native = await tcpsim(['validate', '-'], base);
    assert.equal(native.code, 0);
    assert.deepEqual(await validateScenario(base), { valid: true, scenario: JSON.parse(native.stdout) });
  });

  test("a sweep's plan is what tcpsim grid prints, its order the grid's, its errors the CLI's", async () => {
    const request = {
      scenario: JSON.parse(base),
      grid: { '/topology/bottleneck/delayMs': [20, 5, 10], '/durationS': [1, 2] },
      replications: 2,
    };
    const native = await tcpsim(['grid', '-'], JSON.stringify(request));
    assert.equal(native.code, 0, native.stderr);
    const plan = await planGrid(request);
    assert.deepEqual(plan, JSON.parse(native.stdout));
    assert.deepEqual(
      plan.points.map((p) => Object.values(p.params)),
      [[20, 1], [20, 2], [5, 1], [5, 2], [10, 1], [10, 2]],
    );
    // The counts the service and the dashboard take before planning are the plan's.
    assert.equal(gridPointCount(request.grid), plan.points.length);
    assert.equal(gridRunCount(request.grid, request.replications), plan.points.length * request.replications);
    assert.equal(gridPointCount({}), (await planGrid({ scenario: request.scenario })).points.length);

    const bad = { ...request, grid: { '/durationS': [1, -1] } };
    const nativeBad = await tcpsim(['grid', '-'], JSON.stringify(bad));
    assert.equal(nativeBad.code, 2);
    await assert.rejects(planGrid(bad), (e: unknown) => {
      assert.ok(e instanceof ScenarioError);
      assert.equal(e.path, "$.grid['/durationS'][1]");
      assert.equal(`error: ${e.message}`, nativeBad.stderr.trim());
      return true;
    });
  });

  test("summarizeSamples gives sim-core's mean, sample sd and Student-t half-width, and refuses a bad level", async () => {
    const [none, one, two, five] = await summarizeSamples([[], [4], [1, 3], [2, 4, 4, 4, 5]]);
    assert.deepEqual(none, { n: 0, mean: null, sd: null, halfWidth: null });
    assert.deepEqual(one, { n: 1, mean: 4, sd: null, halfWidth: null });
    assert.equal(two.mean, 2);
    assert.equal(two.sd, Math.SQRT2);
    // t(0.975; 1) = 12.7062047361747 and t(0.975; 4) = 2.77644510519779 (Abramowitz and Stegun,
    // Table 26.10): half-width t * sd / sqrt(n).
    assert.ok(Math.abs(two.halfWidth! - 12.706204736174698) < 1e-9, String(two.halfWidth));
    assert.equal(five.mean, 3.8);
    assert.ok(Math.abs(five.halfWidth! - 1.3601747613165138) < 1e-9, String(five.halfWidth));
    const [ninety] = await summarizeSamples([[2, 4, 4, 4, 5]], 0.9);
    assert.ok(ninety.halfWidth! < five.halfWidth!);
    await assert.rejects(summarizeSamples([[1, 2]], 1), (e: unknown) => e instanceof ScenarioError && e.path === '$.level');
  });

  test('a bad seed or trace level is bad input too', async () => {
    await assert.rejects(runScenario(base, { seed: -1 }), ScenarioError);
    await assert.rejects(runScenario(base, { seed: 1.5 }), ScenarioError);
    await assert.rejects(
      runScenario(base, { trace: 'everything' as never }),
      /trace: must be none, summary, series or full/,
    );
  });

  test('presets and schemas are those of tcpsim', async () => {
    const names = (await tcpsim(['presets'])).stdout.trim().split('\n');
    assert.deepEqual(await listPresets(), names);
    assert.deepEqual(await getPreset(names[0]), JSON.parse((await tcpsim(['preset', names[0]])).stdout));
    await assert.rejects(getPreset('no-such-preset'), /unknown preset "no-such-preset"/);
    await withOwnWorker(async (simulator) => {
      assert.deepEqual(await simulator.getSchema('scenario'), JSON.parse((await tcpsim(['schema'])).stdout));
      assert.deepEqual(await simulator.getSchema('result'), JSON.parse((await tcpsim(['schema', '--result'])).stdout));
    });
  });
});

describe('failures', () => {
  test('a run that records more than maxRecordedBytes rejects with OutOfMemoryError and the worker is replaced', () =>
    withOwnWorker(async (simulator) => {
      // A full trace of 1000 simulated seconds is several GB of typed arrays; 64 MiB is reached early.
      const huge = await longScenario(1000);
      await assert.rejects(simulator.runScenario(huge, { trace: 'full', maxRecordedBytes: 64 << 20 }), (e: unknown) => {
        assert.ok(e instanceof OutOfMemoryError);
        assert.equal(e.message, "out of memory: the run's series and packet trace need more than 64 MiB (maxRecordedBytes)");
        return true;
      });
      await allExited(simulator);
      assert.deepEqual(simulator.stats(), { workers: 0, busy: 0, queued: 0, exiting: 0 });
      const after = await simulator.runScenario(await getPreset('scheme-etcp'));
      assert.match(after.summary.resultHash, /^[0-9a-f]{64}$/);
      assert.equal((await simulator.heapStats()).memoryBytes < 64 << 20, true, 'the new worker starts small');
    }));

  test('the series and trace leave the module as they are recorded: its memory does not grow with them', () =>
    withOwnWorker(async (simulator) => {
      await simulator.listPresets();
      const before = await simulator.heapStats();
      const result = await simulator.runScenario(await longScenario(60), { trace: 'full' });
      const rows = result.trace!.timeNs.length + result.series!.queue.timeNs.length + result.series!.tcp.timeNs.length;
      const bytes = Object.values({ ...result.trace!, ...result.series!.queue, ...result.series!.tcp })
        .filter((a): a is Float64Array | Int32Array | Uint8Array => ArrayBuffer.isView(a))
        .reduce((n, a) => n + a.byteLength, 0);
      assert.ok(bytes > 100e6, `${rows} rows, ${(bytes / 1e6).toFixed(0)} MB of columns`);
      const grown = (await simulator.heapStats()).memoryBytes - before.memoryBytes;
      // Without blocks the module held every row (about 140 bytes a row at its peak); now one block
      // per table (65536 rows).
      assert.ok(grown < 32 << 20, `the module grew by ${(grown / 2 ** 20).toFixed(0)} MiB for ${(bytes / 2 ** 20).toFixed(0)} MiB of columns`);
    }));

  test('a failure inside the module rejects with SimulationError and the worker is replaced', () =>
    withOwnWorker(async (simulator) => {
      await simulator.listPresets();
      // A JavaScript caller passing a trace level that is no string: embind throws inside the call.
      await assert.rejects(
        simulator.runScenario(await getPreset('scheme-etcp'), { trace: 5 as never }),
        (e: unknown) => {
          assert.ok(e instanceof SimulationError);
          assert.match(e.message, /^the simulation module failed: /);
          return true;
        },
      );
      assert.equal(simulator.stats().workers, 0);
      assert.ok((await simulator.listPresets()).length > 0);
    }));

  test('a worker that dies rejects its request, and the next request gets a new worker', async () => {
    let spawned = 0;
    const dying: WorkerHost = {
      loadModule: () => WebAssembly.compile(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])),
      spawn(onReply, onFailure) {
        spawned++;
        const worker = new Worker(new URL('./fixtures/dying-worker.js', import.meta.url));
        worker.on('message', onReply);
        worker.on('exit', (code) => onFailure(new Error(`worker exited with code ${code}`)));
        return { post: (m) => worker.postMessage(m), terminate: () => worker.terminate().then(() => undefined), setBusy: () => {} };
      },
      defaultMaxWorkers: () => 1,
    };
    const simulator = new Simulator(dying);
    try {
      for (let i = 1; i <= 2; i++) {
        await assert.rejects(
          simulator.listPresets(),
          new SimulationError('the simulation worker failed: worker exited with code 3'),
        );
        assert.equal(spawned, i);
        await allExited(simulator);
        assert.deepEqual(simulator.stats(), { workers: 0, busy: 0, queued: 0, exiting: 0 });
      }
    } finally {
      simulator.close();
    }
  });
});

describe('series and trace', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  test('the typed-array columns hold what tcpsim writes to series.json and trace.csv', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tcbsim-'));
    dirs.push(dir);
    // A sharing scheme, so that group series exist too.
    const scenario = await getPreset('scheme-etcp');
    scenario.durationS = 5;
    const text = JSON.stringify(scenario);
    const [native, result] = await Promise.all([
      tcpsim(['run', '-', '--trace', 'full', '-o', dir], text),
      runScenario(text, { trace: 'full' }),
    ]);
    assert.equal(native.code, 0, native.stderr);

    const series = JSON.parse(await readFile(join(dir, 'series.json'), 'utf8'));
    assert.deepEqual(result.flows, series.flows);
    assert.deepEqual(result.links, series.links);
    assert.deepEqual(result.groups, series.groups);
    assert.ok(
      result.series!.group.timeNs.length > 0 &&
        result.series!.tcp.timeNs.length > 0 &&
        result.series!.queue.timeNs.length > 0,
    );
    assert.ok(result.series!.tcp.pacingBps.some((v) => v > 0), 'E-TCP paces, so the pacing column is not all zeros');
    for (const table of ['tcp', 'queue', 'group'] as const) {
      assert.deepEqual(Object.keys(result.series![table]).sort(), Object.keys(series[table]).sort());
      for (const [column, values] of Object.entries(result.series![table])) {
        assert.deepEqual(Array.from(values as ArrayLike<number>), series[table][column], `${table}.${column}`);
      }
    }

    const [header, ...rows] = (await readFile(join(dir, 'trace.csv'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const trace = result.trace!;
    assert.equal(trace.timeNs.length, rows.length);
    // trace.csv's columns, each beside the value the typed arrays give for row i.
    const columns: [string, (i: number) => unknown][] = [
      ['time_ns', (i) => trace.timeNs[i]],
      ['event', (i) => trace.eventNames[trace.event[i]]],
      ['flow', (i) => trace.flow[i]],
      ['flow_name', (i) => (trace.flow[i] >= 0 ? result.flows[trace.flow[i]] : '')],
      ['from_initiator', (i) => trace.fromInitiator[i]],
      ['link', (i) => (trace.link[i] >= 0 ? result.links[trace.link[i]] : '')],
      ['seq', (i) => trace.seq[i]],
      ['payload', (i) => trace.payload[i]],
      ['ack', (i) => trace.ack[i]],
      ['window', (i) => trace.window[i]],
      ['flags', (i) => trace.flags[i]],
      ['sack_blocks', (i) => trace.sackBlocks[i]],
      ['sack_start', (i) => trace.sackStart[i]],
      ['sack_end', (i) => trace.sackEnd[i]],
      ['uid', (i) => trace.uid[i]],
    ];
    assert.deepEqual(columns.map(([name]) => name).sort(), [...header].sort());
    rows.forEach((row, i) => {
      for (const [name, value] of columns) assert.equal(String(value(i)), row[header.indexOf(name)], `trace row ${i}, ${name}`);
    });
  });

  test('lower trace levels leave out what they do not record', async () => {
    const scenario = await getPreset('single-reno-trace');
    const none = await runScenario(scenario, { trace: 'none' });
    const summary = await runScenario(scenario, { trace: 'summary' });
    const series = await runScenario(scenario, { trace: 'series' });
    assert.equal(none.summary.flows, undefined);
    assert.ok(summary.summary.flows!.length > 0);
    assert.equal(summary.series, undefined);
    assert.ok(series.series && !series.trace);
    assert.equal(new Set([none, summary, series].map((r) => r.summary.resultHash)).size, 1);
  });
});
