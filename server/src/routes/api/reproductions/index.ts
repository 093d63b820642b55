// Reproductions: a seed paper's experiment (a built-in name or a document) run on the queue at full
// size. POST validates and expands it with sim-core (the path of an error is in the document, as
// `tcpsim reproduce` prints it), then stores it with one row and one job per run in one
// transaction; GET reports progress and, once every run is recorded, the report sim-core built from
// the records in run order (`tcpsim reproduce <name> --json`'s, runsHash included); /report gives
// its exact text; DELETE cancels.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, ErrorBody, IdParams } from '../../../schemas/common.js';
import { ReportQuery, Reproduction, ReproductionBody, ReproductionCreated } from '../../../schemas/reproductions.js';
import { ReproductionRepository, type ReproductionView } from '../../../repositories/reproductions.js';
import { RequestError, scenarioError } from '../../../responses.js';
import { ExperimentEngine, ExperimentEngineMissing } from '../../../sim/experiment-engine.js';
import { runCost } from '../../../sim/cost.js';
import { reproductionRunBytes } from '../../../repositories/storage.js';

function present(view: ReproductionView) {
  const { reportJson, ...rest } = view;
  return { ...rest, url: `/r/${view.id}`, ...(reportJson !== null ? { report: JSON.parse(reportJson) as Record<string, unknown> } : {}) };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const repository = new ReproductionRepository(app.db, app.config.batchJobRuns);
  // The WASM module loads with the first reproduction submitted.
  let engine: Promise<ExperimentEngine> | undefined;
  const experiments = async () => {
    engine ??= ExperimentEngine.create();
    try {
      return await engine;
    } catch (error) {
      engine = undefined;
      if (error instanceof ExperimentEngineMissing) throw new RequestError(503, error.message);
      throw error;
    }
  };
  app.addHook('onClose', async () => {
    await engine?.then((e) => e.close(), () => {});
  });

  const missing = (id: string) => new RequestError(404, `no reproduction ${id}`);

  app.post(
    '',
    {
      schema: {
        summary: "Run a seed paper's experiment on the queue: a built-in experiment's name or an experiment document, at full (default) or quick size",
        body: ReproductionBody,
        response: { 202: ReproductionCreated, 503: ErrorBody, ...errorResponses },
      },
      config: { rateLimit: { max: app.config.rateLimit.runsMax } },
    },
    async (request, reply) => {
      const sim = await experiments();
      const { experiment } = request.body;
      const mode = request.body.mode ?? 'full';
      let source: string;
      if (typeof experiment === 'string') {
        const document = await sim.builtIn(experiment);
        if (!document) {
          const problem = `unknown experiment "${experiment}" (see \`tcpsim experiments\`)`;
          throw new RequestError(400, `$.experiment: ${problem}`, { path: '$.experiment', problem });
        }
        source = JSON.stringify(document);
      } else {
        source = JSON.stringify(experiment);
      }
      // sim-core validates and expands (ParseExperiment, Expand): an error's path is in the document.
      const planning = await sim.plan(source, mode);
      if (!planning.ok) throw scenarioError('$.experiment', planning.path, planning.problem);
      const { plan } = planning;
      const { limits } = app.config;
      if (plan.runs > limits.batchRuns) {
        throw new RequestError(413, `$.experiment: ${plan.runs} runs is more than MAX_BATCH_RUNS = ${limits.batchRuns}`, {
          path: '$.experiment',
          limit: 'MAX_BATCH_RUNS',
          value: limits.batchRuns,
        });
      }
      if (plan.maxDurationS > limits.durationS) {
        throw new RequestError(413, `$.experiment: a run of ${plan.maxDurationS} simulated seconds is more than MAX_DURATION_S = ${limits.durationS}`, {
          path: '$.experiment',
          limit: 'MAX_DURATION_S',
          value: limits.durationS,
        });
      }
      // Each point's runs run one scenario: its cost, from the point's first run's scenario. The
      // points are bounded as a batch's are, so that costing them is too.
      const points = plan.runs / plan.replications;
      if (points > limits.gridPoints) {
        throw new RequestError(413, `$.experiment: ${points} points (variants x axis values) is more than MAX_GRID_POINTS = ${limits.gridPoints}`, {
          path: '$.experiment',
          limit: 'MAX_GRID_POINTS',
          value: limits.gridPoints,
          size: points,
        });
      }
      const validated = JSON.stringify(plan.experiment);
      let cost = 0;
      for (let point = 0; point < points; ++point) {
        cost += runCost(JSON.parse(await sim.runScenario(validated, mode, point * plan.replications)) as Record<string, unknown>) * plan.replications;
      }
      await app.storage.check({ runs: plan.runs, bytes: plan.runs * reproductionRunBytes + Buffer.byteLength(validated) }, null, 'this reproduction');
      await app.budget.check(request.ip, cost, `this reproduction (${plan.runs} runs)`);
      const name = plan.experiment.name;
      const id = await repository.create({
        client: request.ip,
        cost,
        experiment: name,
        title: plan.experiment.title ?? name,
        // The document as validated: what the workers expand again, whatever later becomes of a built-in.
        source: validated,
        mode,
        runs: plan.runs,
        replications: plan.replications,
      });
      return reply.status(202).send({ id, url: `/r/${id}`, runs: plan.runs });
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'A reproduction: status, progress counts and, when every run is recorded, the report',
        params: IdParams,
        response: { 200: Reproduction, ...errorResponses },
      },
    },
    async (request) => {
      const view = await repository.get(request.params.id);
      if (!view) throw missing(request.params.id);
      return present(view);
    },
  );

  app.get(
    '/:id/report',
    {
      schema: {
        summary: "A finished reproduction's report, exactly as `tcpsim reproduce --json` prints it (or its tables with ?format=text)",
        params: IdParams,
        querystring: ReportQuery,
        response: { 200: Type.String(), 409: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'json';
      const text = await repository.report(request.params.id, format);
      if (text === null) throw missing(request.params.id);
      if (text === undefined) {
        const view = await repository.get(request.params.id);
        throw new RequestError(409, `reproduction ${request.params.id} has no report (${view?.status ?? 'unknown'})`);
      }
      return reply
        .type(format === 'json' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8')
        .serializer((payload: string) => payload)
        .send(text);
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Cancel a reproduction: its unfinished runs are cancelled and their jobs removed',
        params: IdParams,
        response: { 200: Reproduction, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const outcome = await repository.cancel(request.params.id);
      if (outcome === 'missing') throw missing(request.params.id);
      const view = await repository.get(request.params.id);
      if (!view) throw missing(request.params.id);
      if (outcome === 'finished') throw new RequestError(409, `reproduction ${view.id} has already finished (${view.status}); there is nothing to cancel`);
      return present(view);
    },
  );
};

export default routes;
