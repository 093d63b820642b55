// The graphile-worker tasks of reproductions. A run job's runs go through the JobRunner that runs
// batches' jobs (run-task.ts: claimed in groups while short, handed back when not), as a
// JobRunKind whose run asks sim-core's ExperimentSession (WASM) for the run's scenario and seed,
// runs it with the worker's engine (the native tcpsim), reads the run's record from the summary
// with sim-core's RecordRun and stores it under the claim; the report's task builds the report
// from the records in run order with sim-core's BuildReport. A run that fails fails the
// reproduction and stops its other runs, as `tcpsim reproduce` stops at its first failure.
import type { Task, TaskList } from 'graphile-worker';
import type { ResultWriter } from '../repositories/result-writer.js';
import type { ClaimedReproductionRun, CompletedRun, ReproductionRepository } from '../repositories/reproductions.js';
import type { Engine } from '../sim/engine.js';
import { ExperimentEngine, ExperimentEngineMissing } from '../sim/experiment-engine.js';
import { parseReproductionReportPayload, parseReproductionRunPayload, reproductionReportTask, reproductionRunTask } from './reproduction-jobs.js';
import { runPoint, type JobRunKind, type JobRunner } from './run-task.js';

export interface ReproductionTaskOptions {
  runner: JobRunner;
  workerId: string;
  reproductions: ReproductionRepository;
  /** Writes the runs' records several at a time (ReproductionRepository.completeMany). */
  records: ResultWriter<CompletedRun>;
  /** Runs each run's scenario (the native tcpsim when it is built). */
  engine: Engine;
  runTimeoutMs: number;
}

export interface ReproductionTasks {
  tasks: TaskList;
  /** Stops the WASM worker, if one was started. */
  close(): void;
}

export function makeReproductionTasks(options: ReproductionTaskOptions): ReproductionTasks {
  const { reproductions, records, engine, workerId } = options;
  // Started by the first reproduction job: a worker that only runs batches never loads the module.
  let experiments: Promise<ExperimentEngine> | undefined;
  const experimentEngine = () => {
    experiments ??= ExperimentEngine.create();
    experiments.catch(() => (experiments = undefined));
    return experiments;
  };

  const runTask: Task = async (payload, helpers) => {
    const { reproduction, runs, points } = parseReproductionRunPayload(payload);
    // Loaded before the runs, so that its start-up is not taken for the first run's time.
    const sim = await experimentEngine().catch((error: Error) => {
      if (error instanceof ExperimentEngineMissing) return error;
      throw error;
    });
    // Each run's point, from the payload (none in a one-run job of an earlier server).
    const pointOf = points && new Map(runs.map((index, i) => [index, points[i]]));
    const making = new Set<Promise<unknown>>();
    const kind: JobRunKind<ClaimedReproductionRun> = {
      claim: (ids, lock) => reproductions.claim(reproduction, ids, lock, workerId, engine.kind),
      handOff: (ids, lock) => reproductions.handOff(reproduction, ids, lock, pointOf && ((index) => pointOf.get(index)!)),
      unfinished: (ids, lock) => reproductions.unfinished(reproduction, ids, lock.jobId),
      owner: () => reproduction,
      // Without points (a one-run job of an earlier server), the reproduction's runs as one point.
      point: (run) => runPoint(reproduction, pointOf?.get(run.index) ?? 0),
      async start(run, signal) {
        if (sim instanceof Error) return { ok: false, kind: 'internal', message: sim.message };
        const scenario = await sim.runScenario(run.source, run.mode, run.index);
        // Trace level 'summary': the complete summary, which the experiment's metrics read (per
        // link, per item); the resultHash is that of any level.
        return engine.run(scenario, { trace: 'summary', timeoutMs: options.runTimeoutMs, signal });
      },
      record(run, result) {
        if (!result.ok) return reproductions.fail(run, result.error);
        // The summary as the engine printed it when it has the text: the module parses it once.
        const made = (sim as ExperimentEngine).record(run.source, run.mode, result.outcome.summaryText ?? result.outcome.summary);
        // Until its record is made, a run's write is not in the writer: a flush waits for it.
        making.add(made);
        void made.finally(() => making.delete(made)).catch(() => {});
        return made.then((record) => records.write({ run, record, wallSeconds: result.outcome.wallSeconds }));
      },
      // The job is ending: its records go at once, those still being made as soon as they are.
      flush: () => void Promise.allSettled([...making]).then(() => records.flush()),
    };
    await options.runner.run(kind, runs, runs.map((_, i) => (points ? runPoint(reproduction, points[i]) : undefined)), helpers);
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
