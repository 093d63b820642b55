// Batches: a base scenario swept over a grid of JSON Pointer values with replications. POST plans
// and validates every grid point, then stores the batch and queues one job per run in one
// transaction; GET reports progress and per-point statistics; DELETE cancels.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toCsvText } from '@tcb-lab/sim/csv';
import { errorResponses, ErrorBody, IdParams } from '../../../schemas/common.js';
import { Batch, batchBody, BatchCreated, ResultsQuery, RunResult } from '../../../schemas/batches.js';
import { planBatch, RequestError } from '../../../sim/batch.js';
import { metricDefinitions, metricInfos } from '../../../sim/metrics.js';
import type { BatchView } from '../../../repositories/batches.js';

const maxReplications = 10_000;

function present(batch: BatchView) {
  return { ...batch, url: `/b/${batch.id}`, metrics: metricInfos() };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '',
    {
      schema: {
        summary: 'Submit a batch: a scenario, a grid of values by JSON Pointer, and replications',
        body: batchBody(maxReplications),
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
      await app.storage.check(size, idempotencyKey);
      const outcome = await app.batches.create(
        { title: request.body.title ?? null, scenario, grid, replications, trace, idempotencyKey },
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
    async (request) => {
      const batch = await app.batches.get(request.params.id);
      if (!batch) throw new RequestError(404, `no batch ${request.params.id}`);
      return present(batch);
    },
  );

  app.get(
    '/:id/results',
    {
      schema: {
        summary: 'Every run of a batch (JSON, or CSV with ?format=csv)',
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
      const results = await app.batches.results(request.params.id, !csv && request.query.summary === 'true');
      if (!results) throw new RequestError(404, `no batch ${request.params.id}`);
      if (!csv) return results.runs;
      const header = ['point', ...results.pointers, 'replication', 'seed', 'status', ...metricDefinitions.map((m) => m.name), 'resultHash', 'error'];
      const rows = results.runs.map((r) => [
        r.point,
        ...results.pointers.map((p) => r.params[p]),
        r.replication,
        r.seed,
        r.status,
        ...metricDefinitions.map((m) => r.metrics[m.name]),
        r.resultHash,
        r.error,
      ]);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="batch-${request.params.id}.csv"`)
        .serializer((payload: string) => payload)
        .send(toCsvText([header, ...rows]) as never);
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
    async (request) => {
      const outcome = await app.batches.cancel(request.params.id);
      if (outcome === 'missing') throw new RequestError(404, `no batch ${request.params.id}`);
      const batch = await app.batches.get(request.params.id);
      if (!batch) throw new RequestError(404, `no batch ${request.params.id}`);
      if (outcome === 'finished') throw new RequestError(409, `batch ${batch.id} has already finished (${batch.status}); there is nothing to cancel`);
      return present(batch);
    },
  );
};

export default routes;
