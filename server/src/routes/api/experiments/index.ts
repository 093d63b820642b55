// Saved experiments: POST stores a scenario and its result (computed here, or the browser's,
// checked against a run here when the scenario is small enough) and returns the share link.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, IdParams } from '../../../schemas/common.js';
import { Experiment, ExperimentBody, ExperimentCreated } from '../../../schemas/experiments.js';
import { RequestError, scenarioError } from '../../../responses.js';
import { durationOf, runSync, syncDurationError, syncTimeoutError } from '../../../sim/sync.js';

// Saved experiments never change: their JSON is built once and kept (the most recent ones).
const cacheSize = 1000;

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new Map<string, string>();
  app.post(
    '',
    {
      schema: {
        summary: 'Save an experiment (a scenario and its result) and get its share link',
        body: ExperimentBody,
        response: { 201: ExperimentCreated, ...errorResponses },
      },
      config: { rateLimit: { max: app.config.rateLimit.runsMax } },
    },
    async (request, reply) => {
      const { scenario, title } = request.body;
      const given = request.body.result ?? null;
      if (given !== null && typeof given.resultHash !== 'string') {
        throw new RequestError(400, '$.result: missing required field "resultHash"', { path: '$.result', problem: 'missing required field "resultHash"' });
      }
      let result = given;
      let resultHash = given ? (given.resultHash as string) : null;
      let verified = false;
      const duration = durationOf(scenario);
      if (duration <= app.config.limits.syncDurationS) {
        const outcome = await runSync(app, scenario, 'summary');
        if (outcome.ok) {
          const computed = String(outcome.summary.resultHash);
          if (given && computed !== resultHash) {
            throw new RequestError(
              400,
              `$.result.resultHash: ${resultHash} does not match ${computed}, the hash of the result the server computed for this scenario`,
              { path: '$.result.resultHash', problem: 'does not match the server\'s result', submitted: resultHash, computed },
            );
          }
          result ??= outcome.summary;
          resultHash = computed;
          verified = true;
        } else if (!given) {
          throw syncTimeoutError(app);
        }
      } else {
        // Too long to run here: a given result is stored unverified; without one there is nothing to store.
        const v = await app.validator.validate(JSON.stringify(scenario));
        if (!v.valid) throw scenarioError('$.scenario', v.path, v.problem);
        if (!given) throw syncDurationError(app, duration);
      }
      const id = await app.experiments.create({ title: title ?? null, scenario, result, resultHash, verified });
      return reply.status(201).send({ id, url: `/e/${id}`, resultHash, verified });
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'Load a saved experiment',
        params: IdParams,
        response: { 200: Experiment, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      let body = cache.get(id);
      if (body === undefined) {
        const experiment = await app.experiments.get(id);
        if (!experiment) throw new RequestError(404, `no experiment ${id}`);
        body = JSON.stringify({ ...experiment, url: `/e/${experiment.id}` });
        if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
        cache.set(id, body);
      }
      return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=3600, immutable').send(body as never);
    },
  );
};

export default routes;
