// Synchronous runs in the API process (POST /api/runs, and verifying a saved experiment's result):
// small runs only, limited in simulated and wall time, a few at a time.
import type { FastifyInstance } from 'fastify';
import { RequestError, scenarioError } from '../responses.js';
import type { RunOutcome, TraceLevel } from './engine.js';
import { simSchemas } from './schemas.js';

function defaultDurationS(): number {
  const properties = simSchemas().scenario.properties as Record<string, { default?: number }>;
  return Number(properties.durationS.default);
}

/** The scenario's simulated duration, with the schema's default when it gives none. */
export function durationOf(scenario: Record<string, unknown>): number {
  return typeof scenario.durationS === 'number' ? scenario.durationS : defaultDurationS();
}

export function syncDurationError(app: FastifyInstance, duration: number): RequestError {
  const limit = app.config.limits.syncDurationS;
  return new RequestError(
    413,
    `$.scenario.durationS: ${duration} simulated seconds is more than SYNC_MAX_DURATION_S = ${limit} for a synchronous run; submit a batch (POST /api/batches) instead`,
    { path: '$.scenario.durationS', limit: 'SYNC_MAX_DURATION_S', value: limit },
  );
}

/**
 * 422: the scenario is valid but takes longer to simulate than a synchronous run may (it is not the
 * body that is too large, nor the server that is busy); the same request as a batch will run.
 */
export function syncTimeoutError(app: FastifyInstance): RequestError {
  const limit = app.config.limits.syncTimeoutS;
  return new RequestError(
    422,
    `the run took more than SYNC_TIMEOUT_S = ${limit} s of wall time, the limit of a synchronous run; submit a batch (POST /api/batches) instead`,
    { limit: 'SYNC_TIMEOUT_S', value: limit },
  );
}

/**
 * 422: the scenario is valid but a run of it needs more memory than a synchronous run may hold; the
 * message is the simulator's, naming the part of the scenario that grew.
 */
export function syncMemoryError(app: FastifyInstance, message: string): RequestError {
  const limit = app.config.limits.syncMemoryMb;
  return new RequestError(422, `${message}; a synchronous run may hold SYNC_MAX_MEMORY_MB = ${limit} MiB`, {
    limit: 'SYNC_MAX_MEMORY_MB',
    value: limit,
  });
}

/**
 * Runs a scenario synchronously; scenario errors become 400s in the body's terms, and a run over its
 * memory limit a 422 (or, with `returnMemoryOutcome`, the outcome, as a run over its time limit is:
 * the caller may queue the run instead).
 */
export async function runSync(
  app: FastifyInstance, scenario: Record<string, unknown>, trace: TraceLevel, options: { returnMemoryOutcome?: boolean } = {},
): Promise<RunOutcome> {
  const outcome = await app.syncRuns.run(() =>
    app.runner.run(JSON.stringify(scenario), { trace, timeoutMs: app.config.limits.syncTimeoutS * 1000 }),
  );
  if (!outcome.ok && outcome.kind === 'scenario') throw scenarioError('$.scenario', outcome.path, outcome.problem);
  if (!outcome.ok && outcome.kind === 'memory' && !options.returnMemoryOutcome) throw syncMemoryError(app, outcome.message);
  if (!outcome.ok && outcome.kind === 'internal') throw new RequestError(500, `the simulator failed on this scenario: ${outcome.message}`);
  return outcome;
}
