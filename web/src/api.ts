// The REST API (see the contract in the server's docs): experiments, batches, reproductions, health. Every call
// rejects with ApiError; status 0 means the server could not be reached.
import type { ExperimentReport, Result, Scenario } from '@tcb-lab/sim';
import type { Batch as BatchSchema, BatchBody, BatchCreated, RunResult } from '../../server/src/schemas/batches';
import type { Experiment, ExperimentBody, ExperimentCreated } from '../../server/src/schemas/experiments';
import type { Health } from '../../server/src/schemas/health';
import type { Reproduction as ReproductionSchema, ReproductionBody, ReproductionCreated } from '../../server/src/schemas/reproductions';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get unreachable() {
    return this.status === 0;
  }
}

async function request<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. The explorer still runs in your browser; saving, shared links and batches need the server.');
  }
  const text = await response.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: a proxy's or the static server's page.
  }
  if (!response.ok) {
    const err = data as { error?: string; message?: string; path?: string } | undefined;
    const message = err?.error ?? err?.message ?? `HTTP ${response.status}`;
    // A gateway with no server behind it answers 502/503/504 without our JSON.
    if (data === undefined && [502, 503, 504].includes(response.status)) throw new ApiError(0, `The server cannot be reached (HTTP ${response.status}).`);
    throw new ApiError(response.status, message, err?.path);
  }
  if (data === undefined && text) throw new ApiError(0, 'The server answered something that is not JSON: is the API running behind this address?');
  return data as T;
}

// The API's shapes come from the server's TypeBox schemas (server/src/schemas/), the source of its
// OpenAPI document; only the documents the simulator defines (scenario, result, report) are typed
// here as @tcb-lab/sim's, where the service's schemas stand for them with a plain object.
type WithScenario<T> = Omit<T, 'scenario'> & { scenario: Scenario };

export type SavedExperiment = Omit<WithScenario<Experiment>, 'result'> & { result: Result | null };
export type Batch = WithScenario<BatchSchema>;
/** One run of a batch with its stored summary (GET /api/batches/:id/results?summary=true). */
export type BatchRun = Omit<RunResult, 'summary'> & { summary?: Result | null };
/** A reproduction on the server (GET /api/reproductions/:id). */
export type Reproduction = Omit<ReproductionSchema, 'report'> & {
  /** When every run is recorded: the report `tcpsim reproduce --json` prints. */
  report?: ExperimentReport;
};

export const api = {
  health: () => request<Health>('GET', '/api/health'),
  saveExperiment: (body: Omit<ExperimentBody, 'scenario' | 'result'> & { scenario: Scenario; result?: Result }) =>
    request<ExperimentCreated>('POST', '/api/experiments', body),
  getExperiment: (id: string) => request<SavedExperiment>('GET', `/api/experiments/${encodeURIComponent(id)}`),
  createBatch: (body: WithScenario<BatchBody>, idempotencyKey: string) =>
    request<BatchCreated>('POST', '/api/batches', body, { 'Idempotency-Key': idempotencyKey }),
  getBatch: (id: string) => request<Batch>('GET', `/api/batches/${encodeURIComponent(id)}`),
  /** Every run of a batch with its stored summary, in point and replication order. */
  getBatchRuns: (id: string) => request<BatchRun[]>('GET', `/api/batches/${encodeURIComponent(id)}/results?summary=true`),
  cancelBatch: (id: string) => request<Batch>('DELETE', `/api/batches/${encodeURIComponent(id)}`),
  createReproduction: (body: ReproductionBody) =>
    request<ReproductionCreated>('POST', '/api/reproductions', body),
  getReproduction: (id: string) => request<Reproduction>('GET', `/api/reproductions/${encodeURIComponent(id)}`),
  cancelReproduction: (id: string) => request<Reproduction>('DELETE', `/api/reproductions/${encodeURIComponent(id)}`),
  reproductionReportUrl: (id: string, format: 'json' | 'text') =>
    `/api/reproductions/${encodeURIComponent(id)}/report${format === 'text' ? '?format=text' : ''}`,
  batchResultsUrl: (id: string, format: 'csv' | 'json') =>
    `/api/batches/${encodeURIComponent(id)}/results${format === 'csv' ? '?format=csv' : ''}`,
};

/** True while the server answers; rechecked on demand. */
export async function serverReachable(): Promise<{ ok: boolean; message?: string }> {
  try {
    await api.health();
    return { ok: true };
  } catch (e) {
    if (e instanceof ApiError && e.status === 503) return { ok: true, message: 'The server reports a degraded state; batches may wait.' };
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
