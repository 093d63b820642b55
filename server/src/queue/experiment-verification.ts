// The run that checks a saved experiment too long to run synchronously: a job queued with the
// experiment (ExperimentRepository.create), whose worker runs the scenario with the limits of a
// batch's run and stores the service's result beside the client's claim, verified only when every
// number agrees (sim/verify.ts). A run stopped by this worker's shutdown goes back to the queue; one
// over its time or memory limit leaves the experiment failed (it would fail anywhere).
import type { AddJobsJobSpec, Task } from 'graphile-worker';
import type { ExperimentRepository, VerificationOutcome } from '../repositories/experiments.js';
import type { Engine } from '../sim/engine.js';
import { claimDifference } from '../sim/verify.js';
import { jobMaxAttempts } from './jobs.js';
import { simulationJobFlag } from './names.js';
import { shutdownRetryMessage } from './run-task.js';

/** Runs a pending experiment's scenario; payload `{experiment: <id>}`. */
export const experimentVerificationTask = 'tcb_lab_experiment_verification';

export function experimentVerificationJobSpec(id: string): AddJobsJobSpec {
  return { identifier: experimentVerificationTask, payload: { experiment: id }, maxAttempts: jobMaxAttempts, flags: [simulationJobFlag] };
}

export function parseExperimentVerificationPayload(payload: unknown): { experiment: string } {
  const id = (payload as { experiment?: unknown } | null)?.experiment;
  if (typeof id !== 'string') throw new Error(`bad payload ${JSON.stringify(payload)}`);
  return { experiment: id };
}

export interface ExperimentVerificationOptions {
  experiments: ExperimentRepository;
  engine: Engine;
  runTimeoutMs: number;
}

export function makeExperimentVerificationTask(options: ExperimentVerificationOptions): Task {
  return async (payload, helpers) => {
    const { experiment } = parseExperimentVerificationPayload(payload);
    const pending = await options.experiments.pending(experiment);
    if (!pending) return; // Settled by an earlier attempt.
    const outcome = await options.engine.run(JSON.stringify(pending.scenario), {
      trace: 'summary',
      timeoutMs: options.runTimeoutMs,
      signal: helpers.abortSignal,
    });
    let settled: VerificationOutcome;
    if (outcome.ok) {
      const difference = pending.claimedResult ? claimDifference(pending.claimedResult, outcome.summary, '$.claimedResult') : undefined;
      settled = difference === undefined
        ? { verification: 'verified', result: outcome.summary }
        : { verification: 'differs', result: outcome.summary, error: `${difference}: the claimed result differs from the service's here` };
    } else if (outcome.kind === 'aborted') {
      throw new Error(shutdownRetryMessage);
    } else if (outcome.kind === 'scenario') {
      settled = { verification: 'failed', error: `${outcome.path}: ${outcome.problem}` };
    } else if (outcome.kind === 'timeout') {
      settled = { verification: 'failed', error: `${outcome.message} (RUN_TIMEOUT_S)` };
    } else if (outcome.kind === 'memory') {
      settled = { verification: 'failed', error: `${outcome.message} (MAX_RUN_MEMORY_MB)` };
    } else {
      settled = { verification: 'failed', error: outcome.message };
    }
    await options.experiments.settle(experiment, settled);
  };
}
