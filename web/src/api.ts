// The REST API (see the contract in the server's docs): experiments, batches, reproductions, health. Every call
// rejects with ApiError; status 0 means the server could not be reached.
import type { ExperimentReport, Result, Scenario } from '@tcb-lab/sim';

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

export interface SavedExperiment {
  id: string;
  url: string;
  title?: string | null;
  scenario: Scenario;
  result?: Result | null;
  resultHash?: string | null;
  createdAt: string;
}

export interface Stats {
  n: number;
  mean: number | null;
  sd: number | null;
  ci95: [number, number] | null;
}

export type BatchStatus = 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';

export interface Batch {
  id: string;
  url: string;
  title?: string | null;
  status: BatchStatus;
  createdAt: string;
  finishedAt?: string | null;
  scenario: Scenario;
  grid: Record<string, unknown[]>;
  replications: number;
  counts: { total: number; done: number; failed: number; cancelled: number; pending: number };
  metrics: { name: string; label: string; unit: string }[];
  points: { params: Record<string, unknown>; runs: number; stats: Record<string, Stats> }[];
}

/** One run of a batch (GET /api/batches/:id/results?summary=true). */
export interface BatchRun {
  point: number;
  params: Record<string, unknown>;
  replication: number;
  seed: number;
  status: 'pending' | 'running' | 'done' | 'failed' | 'cancelled';
  resultHash: string | null;
  error: string | null;
  summary: Result | null;
}

export type ReproductionStatus = 'queued' | 'running' | 'reporting' | 'completed' | 'cancelled' | 'failed';

/** A reproduction on the server (GET /api/reproductions/:id). */
export interface Reproduction {
  id: string;
  url: string;
  experiment: string;
  title: string;
  mode: 'full' | 'quick';
  status: ReproductionStatus;
  createdAt: string;
  finishedAt: string | null;
  counts: { total: number; done: number; failed: number; cancelled: number; pending: number; running: number };
  error: string | null;
  /** When every run is recorded: the report `tcpsim reproduce --json` prints. */
  report?: ExperimentReport;
}

export interface Health {
  status: 'ok' | 'degraded';
}

export const api = {
  health: () => request<Health>('GET', '/api/health'),
  saveExperiment: (body: { scenario: Scenario; result?: Result; title?: string }) =>
    request<{ id: string; url: string }>('POST', '/api/experiments', body),
  getExperiment: (id: string) => request<SavedExperiment>('GET', `/api/experiments/${encodeURIComponent(id)}`),
  createBatch: (body: { scenario: Scenario; grid: Record<string, unknown[]>; replications: number; title?: string; trace?: 'none' | 'summary' }, idempotencyKey: string) =>
    request<{ id: string; url: string; runs: number }>('POST', '/api/batches', body, { 'Idempotency-Key': idempotencyKey }),
  getBatch: (id: string) => request<Batch>('GET', `/api/batches/${encodeURIComponent(id)}`),
  /** Every run of a batch with its stored summary, in point and replication order. */
  getBatchRuns: (id: string) => request<BatchRun[]>('GET', `/api/batches/${encodeURIComponent(id)}/results?summary=true`),
  cancelBatch: (id: string) => request<Batch>('DELETE', `/api/batches/${encodeURIComponent(id)}`),
  createReproduction: (body: { experiment: string; mode: 'full' | 'quick' }) =>
    request<{ id: string; url: string; runs: number }>('POST', '/api/reproductions', body),
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
