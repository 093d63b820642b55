// The graphile-worker tasks of reproductions. A run's task claims the run, asks sim-core's
// ExperimentSession (WASM) for the run's scenario and seed, runs it with the worker's engine (the
// native tcpsim), reads the run's record from the summary with sim-core's RecordRun and stores it
// under the claim; the report's task builds the report from the records in run order with
// sim-core's BuildReport. As for a batch's runs, a cancelled reproduction's runs are aborted, and a
// run stopped by this worker's shutdown fails its job so that the queue gives it to another worker.
import type { JobHelpers, Task, TaskList } from 'graphile-worker';
import type { ReproductionRepository } from '../repositories/reproductions.js';
import type { Engine } from '../sim/engine.js';
import { ExperimentEngine, ExperimentEngineMissing } from '../sim/experiment-engine.js';
import type { CancellationListener } from './cancellation.js';
import { maxRunAttempts } from './names.js';
import { parseReproductionReportPayload, parseReproductionRunPayload, reproductionReportTask, reproductionRunTask } from './reproduction-jobs.js';
import { shutdownRetryMessage } from './run-task.js';

export interface ReproductionTaskOptions {
  workerId: string;
  reproductions: ReproductionRepository;
  /** Runs each run's scenario (the native tcpsim when it is built). */
  engine: Engine;
  cancellation: CancellationListener;
  runTimeoutMs: number;
}

export interface ReproductionTasks {
  tasks: TaskList;
  /** Stops the WASM worker, if one was started. */
  close(): void;
}

export function makeReproductionTasks(options: ReproductionTaskOptions): ReproductionTasks {
  const { reproductions, engine, cancellation } = options;
  // Started by the first reproduction job: a worker that only runs batches never loads the module.
  let experiments: Promise<ExperimentEngine> | undefined;
  const experimentEngine = () => {
    experiments ??= ExperimentEngine.create();
    experiments.catch(() => (experiments = undefined));
    return experiments;
  };

  const runTask: Task = async (payload, helpers: JobHelpers) => {
    const { reproduction, run } = parseReproductionRunPayload(payload);
    const claimed = await reproductions.claim(reproduction, run, options.workerId, engine.kind);
    if (!claimed) return; // Recorded, failed, or cancelled: nothing to do.
    if (claimed.attempt > maxRunAttempts) {
      await reproductions.fail(claimed, `the run was started ${maxRunAttempts} times and its worker stopped each time`);
      return;
    }
    const controller = cancellation.track(reproduction);
    const onShutdown = () => controller.abort();
    helpers.abortSignal?.addEventListener('abort', onShutdown, { once: true });
    try {
      const sim = await experimentEngine().catch(async (error: Error) => {
        if (!(error instanceof ExperimentEngineMissing)) throw error;
        await reproductions.fail(claimed, error.message);
        return null;
      });
      if (!sim) return;
      const scenario = await sim.runScenario(claimed.source, claimed.mode, claimed.index);
      // Trace level 'summary': the complete summary, which the experiment's metrics read (per link,
      // per item); the resultHash is that of any level.
      const outcome = await engine.run(scenario, { trace: 'summary', timeoutMs: options.runTimeoutMs, signal: controller.signal });
      if (outcome.ok) {
        const record = await sim.record(claimed.source, claimed.mode, outcome.summary);
        await reproductions.complete(claimed, record, outcome.wallSeconds);
      } else if (outcome.kind === 'aborted') {
        // Cancelled: the run is already marked. Shut down: the job fails and runs again later.
        if (helpers.abortSignal?.aborted) throw new Error(shutdownRetryMessage);
      } else if (outcome.kind === 'scenario') {
        await reproductions.fail(claimed, `${outcome.path}: ${outcome.problem}`);
      } else if (outcome.kind === 'timeout') {
        await reproductions.fail(claimed, `${outcome.message} (RUN_TIMEOUT_S)`);
      } else {
        await reproductions.fail(claimed, outcome.message);
      }
    } finally {
      helpers.abortSignal?.removeEventListener('abort', onShutdown);
      cancellation.release(reproduction, controller);
    }
  };

  const reportTask: Task = async (payload) => {
    const { reproduction } = parseReproductionReportPayload(payload);
    const input = await reproductions.recordsForReport(reproduction);
    if (!input) return; // Built already, or not every run is recorded.
    let outcome;
    try {
      outcome = await (await experimentEngine()).report(input.source, input.mode, input.records);
    } catch (error) {
      // The same records give the same failure: it is stored, not retried.
      await reproductions.storeReportError(reproduction, `building the report failed: ${(error as Error).message}`);
      return;
    }
    await reproductions.storeReport(reproduction, outcome.json, outcome.text);
  };

  return {
    tasks: { [reproductionRunTask]: runTask, [reproductionReportTask]: reportTask },
    close() {
      experiments?.then((e) => e.close(), () => {});
    },
  };
}
