// Experiments in the WASM module give the native CLI's report to the bit: `runExperiment(name,
// {quick: true})` against `tcpsim reproduce <name> --quick --json`, with the runs spread over
// several workers, and the same report when each run's scenario is run by the native tcpsim (as the
// service's queue does) and recorded and reported by the module; a bad experiment names its path as
// the CLI does; an abort stops every worker.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createSimulator, ScenarioError, type Experiment } from '@tcb-lab/sim';
import { tcpsim } from './native.js';

const simulator = createSimulator({ maxWorkers: 2 });
after(() => simulator.close());

for (const name of ['right-edge-recovery', 'etcp-fig5-realistic']) {
  test(`${name} --quick: the report is the CLI's, to the bit`, async () => {
    const progress: number[] = [];
    const [native, wasm] = await Promise.all([
      tcpsim(['reproduce', name, '--quick', '--json', '--jobs', '1']),
      simulator.runExperiment(name, { quick: true, onProgress: (p) => progress.push(p.done) }),
    ]);
    assert.equal(native.code, 0, native.stderr);
    assert.equal(wasm.json, native.stdout);
    assert.deepEqual(wasm.report, JSON.parse(native.stdout));
    assert.equal(wasm.report.mode, 'quick');
    assert.ok(wasm.report.claims.length > 0);
    assert.ok(wasm.text.includes(wasm.report.title));
    // Progress counts runs, ends with all of them, and never goes back.
    assert.equal(progress.at(-1), wasm.report.runs);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b));
  });
}

test('runs executed elsewhere: each run\'s scenario through `tcpsim run --trace summary`, recorded and reported by the module, give the CLI\'s report', async () => {
  const name = 'etcp-fig5-model';
  const plan = await simulator.planExperiment(name, { quick: true });
  assert.equal(plan.experiment.name, name);
  assert.ok(plan.maxDurationS > 0);
  const records = [];
  for (let i = 0; i < plan.runs; i++) {
    const scenario = await simulator.experimentRunScenario(name, i, { quick: true });
    const run = await tcpsim(['run', '-', '--trace', 'summary'], JSON.stringify(scenario));
    assert.equal(run.code, 0, run.stderr);
    records.push(await simulator.recordExperimentRun(name, run.stdout, { quick: true }));
  }
  const native = await tcpsim(['reproduce', name, '--quick', '--json', '--jobs', '1']);
  const outcome = await simulator.experimentReport(name, records, { quick: true });
  assert.equal(outcome.json, native.stdout);
  // The plan's replications are the report's (the service groups a point's runs by them).
  assert.equal(plan.replications, JSON.parse(native.stdout).replications);
  assert.equal((await simulator.planExperiment('right-edge-recovery', { quick: true })).replications,
    JSON.parse((await tcpsim(['reproduce', 'right-edge-recovery', '--quick', '--json'])).stdout).replications);
  // The validated document expands to the same plan as the name (the service stores the document).
  const again = await simulator.experimentReport(JSON.stringify(plan.experiment), records, { quick: true });
  assert.equal(again.json, native.stdout);
  await assert.rejects(simulator.experimentRunScenario(name, plan.runs, { quick: true }), /no run/);
});

test('the experiment list and documents are the CLI\'s', async () => {
  const native = await tcpsim(['experiments']);
  assert.deepEqual(await simulator.listExperiments(), native.stdout.trim().split('\n'));
  const doc = await simulator.getExperiment('right-edge-recovery');
  assert.deepEqual(doc, JSON.parse((await tcpsim(['experiment', 'right-edge-recovery'])).stdout));
  await assert.rejects(simulator.getExperiment('no-such-experiment'), RangeError);
});

test('a bad experiment document is rejected with the CLI\'s path and problem', async () => {
  const doc = (await simulator.getExperiment('right-edge-recovery')) as Experiment & { variants: { set: Record<string, unknown> }[] };
  doc.variants[1].set = { '/tcp/mssBytes': -5 };
  const text = JSON.stringify(doc);
  const native = await tcpsim(['reproduce', '-', '--quick'], text);
  assert.equal(native.code, 2);
  const error = await simulator.runExperiment(doc, { quick: true }).then(
    () => assert.fail('the experiment ran'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ScenarioError);
  assert.equal(`error: ${error.message}\n`, native.stderr);
});

test('aborting an experiment rejects with the reason and leaves the simulator usable', async () => {
  const controller = new AbortController();
  const running = simulator.runExperiment('etcp-fig5-realistic', {
    quick: true,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.done > 0) controller.abort(new Error('enough'));
    },
  });
  await assert.rejects(running, /enough/);
  const report = await simulator.runExperiment('right-edge-recovery', { quick: true });
  assert.equal(report.report.experiment, 'right-edge-recovery');
});
