// The graphile-worker task that runs one run of a batch: claim it, run the simulator, record the
// result or the failure. A run cancelled meanwhile is left as the API marked it; a run stopped by
// this worker's shutdown fails its job, so that the queue gives it to another worker.
import type { Task } from 'graphile-worker';
import type { RunRepository } from '../repositories/runs.js';
import type { Engine } from '../sim/engine.js';
import type { CancellationListener } from './cancellation.js';
import { parseRunJobPayload } from './jobs.js';
import { maxRunAttempts } from './names.js';

/** The error a run's job fails with when its worker stops: the queue runs it again elsewhere. */
export const shutdownRetryMessage = 'worker shutting down; the run will be retried';

export interface RunTaskOptions {
  workerId: string;
  runs: RunRepository;
  engine: Engine;
  cancellation: CancellationListener;
  runTimeoutMs: number;
}

export function makeRunTask(options: RunTaskOptions): Task {
  const { runs, engine, cancellation } = options;
  return async (payload, helpers) => {
    const { run } = parseRunJobPayload(payload);
    const claimed = await runs.claim(run, options.workerId, engine.kind);
    if (!claimed) return; // Finished, or cancelled: nothing to do.
    if (claimed.attempt > maxRunAttempts) {
      await runs.fail(claimed, `the run was started ${maxRunAttempts} times and its worker stopped each time`);
      return;
    }
    const controller = cancellation.track(claimed.batchId);
    const onShutdown = () => controller.abort();
    helpers.abortSignal?.addEventListener('abort', onShutdown, { once: true });
    try {
      const outcome = await engine.run(JSON.stringify(claimed.scenario), {
        seed: claimed.seed,
        trace: claimed.trace,
        timeoutMs: options.runTimeoutMs,
        signal: controller.signal,
      });
      if (outcome.ok) {
        await runs.complete(claimed, outcome.summary, outcome.wallSeconds);
      } else if (outcome.kind === 'aborted') {
        // Cancelled: the run is already marked. Shut down: the job fails and runs again later.
        if (helpers.abortSignal?.aborted) throw new Error(shutdownRetryMessage);
      } else if (outcome.kind === 'scenario') {
        await runs.fail(claimed, `${outcome.path}: ${outcome.problem}`);
      } else if (outcome.kind === 'timeout') {
        await runs.fail(claimed, `${outcome.message} (RUN_TIMEOUT_S)`);
      } else {
        await runs.fail(claimed, outcome.message);
      }
    } finally {
      helpers.abortSignal?.removeEventListener('abort', onShutdown);
      cancellation.release(claimed.batchId, controller);
    }
  };
}
