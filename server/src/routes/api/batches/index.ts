// Batches: a base scenario swept over a grid of JSON Pointer values with replications. POST plans
// and validates every grid point, then stores the batch and queues its runs (a job per group of
// consecutive runs) in one transaction; GET reports progress and per-point statistics; the
// results stream out as JSON or CSV, whatever the batch's size; DELETE cancels.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { csvCell } from '@tcb-lab/sim/csv';
import { errorResponses, ErrorBody, IdParams } from '../../../schemas/common.js';
import { Batch, batchBody, BatchCreated, ResultsQuery, RunResult } from '../../../schemas/batches.js';
import { RequestError } from '../../../responses.js';
import { planBatch } from '../../../sim/batch.js';
import { runCost } from '../../../sim/cost.js';
import { metricDefinitions, metricInfos } from '../../../sim/metrics.js';
import { BatchRepository, type BatchView, type ResultRow } from '../../../repositories/batches.js';
import { BatchViews } from './batch-views.js';
import { onConnectionLost } from '../../../db/pool.js';

/** The text of a results download, a few tens of kilobytes per chunk. */
async function* chunked(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= 64 * 1024) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

async function* jsonResults(rows: AsyncIterable<ResultRow>, withSummary: boolean): AsyncGenerator<string> {
  yield '[';
  let separator = '';
  for await (const row of rows) {
    yield separator + BatchRepository.runResultJson(row, withSummary);
    separator = ',';
  }
  yield ']';
}

async function* csvResults(rows: AsyncIterable<ResultRow>, pointers: string[]): AsyncGenerator<string> {
  const line = (cells: unknown[]) => cells.map(csvCell).join(',') + '\n';
  yield line(['point', ...pointers, 'replication', 'seed', 'status', ...metricDefinitions.map((m) => m.name), 'resultHash', 'error']);
  for await (const row of rows) {
    const r = BatchRepository.runResult(row);
    yield line([r.point, ...pointers.map((p) => r.params[p]), r.replication, r.seed, r.status, ...metricDefinitions.map((m) => r.metrics[m.name]), r.resultHash, r.error]);
  }
}

function present(batch: BatchView) {
  return { ...batch, url: `/b/${batch.id}`, metrics: metricInfos() };
}

/** A batch in one of these is finished: none of its runs will change (see batch-views.ts). */
const finishedStatuses: ReadonlySet<BatchView['status']> = new Set(['completed', 'failed', 'cancelled']);

/**
 * The results downloads open now, per client and in all: at most EXPORTS_PER_CLIENT of one
 * client's, and no more than the exports' pool has connections (EXPORT_CONNECTIONS), so that a
 * download never waits for a connection while holding its client. Beyond either, a 429.
 */
class Downloads {
  readonly #byClient = new Map<string, number>();
  #open = 0;

  constructor(
    private readonly perClient: number,
    private readonly connections: number,
  ) {}

  /** Takes a place for `client`'s download; returns the function that frees it (once). */
  open(client: string): () => void {
    const mine = this.#byClient.get(client) ?? 0;
    if (mine >= this.perClient) {
      throw new RequestError(429, `this client has ${mine} results downloads open, the most EXPORTS_PER_CLIENT = ${this.perClient} allows; retry when one has ended`, {
        limit: 'EXPORTS_PER_CLIENT',
        value: this.perClient,
        retryAfterS: 5,
      });
    }
    if (this.#open >= this.connections) {
      throw new RequestError(429, `all ${this.connections} connections for results downloads are in use (EXPORT_CONNECTIONS); retry shortly`, {
        limit: 'EXPORT_CONNECTIONS',
        value: this.connections,
        retryAfterS: 5,
      });
    }
    this.#byClient.set(client, mine + 1);
    this.#open += 1;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.#open -= 1;
      const n = (this.#byClient.get(client) ?? 1) - 1;
      if (n === 0) this.#byClient.delete(client);
      else this.#byClient.set(client, n);
    };
  }
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const views = new BatchViews();
  // A finished batch's view is kept for good; a database that restarts may have lost the last
  // commits of its runs (they run again), so what was kept before is forgotten.
  onConnectionLost(app.db, () => views.forgetAll());
  const downloads = new Downloads(app.config.exports.perClient, app.config.exports.connections);
  /** Batch `id` as GET answers it, serialised by the route's schema (null: no such batch). */
  const view = (id: string, reply: FastifyReply) =>
    views.get(id, async () => {
      const batch = await app.batches.get(id);
      return batch && { body: reply.serialize(present(batch)) as string, final: finishedStatuses.has(batch.status) };
    });
  const json = 'application/json; charset=utf-8';

  app.post(
    '',
    {
      schema: {
        summary: 'Submit a batch: a scenario, a grid of values by JSON Pointer, and replications',
        body: batchBody(app.config.limits.batchRuns),
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Resubmitting the same body with the same key returns the same batch.' })),
        }),
        response: { 202: BatchCreated, 409: ErrorBody, ...errorResponses },
      },
      config: { rateLimit: { max: app.config.rateLimit.runsMax } },
    },
    async (request, reply) => {
      const { scenario, grid, replications } = request.body;
      const { limits } = app.config;
      const plan = await planBatch(app.validator, scenario, grid, replications, {
        gridPoints: limits.gridPoints,
        batchRuns: limits.batchRuns,
        durationS: limits.durationS,
      });
      const trace = request.body.trace ?? 'none';
      const idempotencyKey = request.headers['idempotency-key'] ?? null;
      const size = await app.storage.sizeOf(plan.points.length * replications, trace, Buffer.byteLength(JSON.stringify(plan.points)));
      // A resubmission (its Idempotency-Key stored) stores and runs nothing: no budget is asked.
      if (!(await app.storage.check(size, idempotencyKey))) {
        const cost = plan.points.reduce((sum, point) => sum + runCost(point.scenario), 0) * replications;
        await app.budget.check(request.ip, cost, `this batch (${size.runs} runs)`);
        plan.cost = cost;
      }
      const outcome = await app.batches.create(
        { title: request.body.title ?? null, scenario, grid, replications, trace, idempotencyKey, client: request.ip, cost: plan.cost ?? 0 },
        plan,
      );
      if (outcome.kind === 'conflict') {
        throw new RequestError(409, 'Idempotency-Key: this key was used for a different request body', { path: '$headers.idempotency-key' });
      }
      return reply.status(202).send({ id: outcome.id, url: `/b/${outcome.id}`, runs: outcome.runs });
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'A batch: status, progress counts and, per grid point, statistics of each metric',
        params: IdParams,
        response: { 200: Batch, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await view(request.params.id, reply);
      if (body === null) throw new RequestError(404, `no batch ${request.params.id}`);
      return reply.type(json).send(body as never);
    },
  );

  app.get(
    '/:id/results',
    {
      schema: {
        summary: 'Every run of a batch (JSON, or CSV with ?format=csv), streamed in point and replication order',
        params: IdParams,
        querystring: ResultsQuery,
        response: {
          200: {
            description: 'The runs in point and replication order: JSON, or with ?format=csv one CSV row per run',
            content: {
              'application/json': { schema: Type.Array(RunResult) },
              'text/csv': { schema: Type.String({ description: 'RFC 4180, formula cells neutralised (see docs/SECURITY.md)' }) },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const csv = request.query.format === 'csv';
      const withSummary = !csv && request.query.summary === 'true';
      const pointers = await app.batches.pointers(request.params.id);
      if (!pointers) throw new RequestError(404, `no batch ${request.params.id}`);
      const release = downloads.open(request.ip);
      let rows: AsyncIterable<ResultRow> & Readable;
      try {
        rows = (await app.batches.streamResults(request.params.id, withSummary, app.exportsDb)) as AsyncIterable<ResultRow> & Readable;
      } catch (error) {
        release();
        throw error;
      }
      const body = Readable.from(chunked(csv ? csvResults(rows, pointers) : jsonResults(rows, withSummary)));
      // A client that stops reading stalls the download (the cursor is read only as fast as the
      // client takes the rows): once its connection has been idle EXPORT_IDLE_TIMEOUT_S, the
      // download is cut, its database connection and its place given back. (PostgreSQL's own
      // statement_timeout, EXPORT_STATEMENT_TIMEOUT_S, bounds a download that goes on reading.)
      reply.raw.setTimeout(app.config.exports.idleTimeoutS * 1000, () => reply.raw.destroy());
      // Done: the connection may idle as any other (keep-alive) again.
      reply.raw.once('finish', () => reply.raw.setTimeout(0));
      // The client went away, or the download ended: stop reading the cursor (its connection goes
      // back to the pool) and free the client's place.
      body.once('close', () => {
        rows.destroy();
        release();
      });
      if (csv) {
        reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="batch-${request.params.id}.csv"`);
      } else {
        reply.type('application/json; charset=utf-8');
      }
      return reply.send(body as never);
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Cancel a batch: its unfinished runs are cancelled and their jobs removed',
        params: IdParams,
        response: { 200: Batch, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const outcome = await app.batches.cancel(id);
      if (outcome === 'missing') throw new RequestError(404, `no batch ${id}`);
      if (outcome === 'finished') {
        const batch = await app.batches.get(id);
        throw new RequestError(409, `batch ${id} has already finished (${batch?.status}); there is nothing to cancel`);
      }
      // The view kept from before the cancellation (or being computed) no longer holds.
      views.forget(id);
      const body = await view(id, reply);
      if (body === null) throw new RequestError(404, `no batch ${id}`);
      return reply.type(json).send(body as never);
    },
  );
};

export default routes;
