// Saved experiments: POST stores a scenario and the result the service computes for it (here when
// the scenario is small enough, else by a run on the queue), and returns the share link. A result
// the client submits is checked number for number: here, a difference is a 400; on the queue, it is
// stored beside the service's, unverified.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, IdParams } from '../../../schemas/common.js';
import { Experiment, ExperimentBody, ExperimentCreated } from '../../../schemas/experiments.js';
import type { NewExperiment } from '../../../repositories/experiments.js';
import { onConnectionLost } from '../../../db/pool.js';
import { RequestError, scenarioError } from '../../../responses.js';
import { checkDuration } from '../../../sim/batch.js';
import type { RunOutcome } from '../../../sim/engine.js';
import { durationOf, runSync, syncDurationError, syncTimeoutError } from '../../../sim/sync.js';
import { claimDifference } from '../../../sim/verify.js';
import { runCost } from '../../../sim/cost.js';

// A saved experiment no longer changes once checked: its JSON is built once and kept (the most
// recent ones); a pending one is read afresh.
const cacheSize = 1000;

/** A submitted result must be the service's, number for number: a 400 naming the first difference. */
function checkClaim(claim: Record<string, unknown>, computed: Record<string, unknown>): void {
  const submitted = String(claim.resultHash);
  const hash = String(computed.resultHash);
  if (submitted !== hash) {
    throw new RequestError(
      400,
      `$.result.resultHash: ${submitted} does not match ${hash}, the hash of the result the server computed for this scenario`,
      { path: '$.result.resultHash', problem: 'does not match the server\'s result', submitted, computed: hash },
    );
  }
  const at = claimDifference(claim, computed);
  if (at !== undefined) {
    throw new RequestError(400, `${at}: differs from the result the server computed for this scenario (whose resultHash the result gives)`, {
      path: at,
      problem: "differs from the server's result",
    });
  }
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new Map<string, string>();
  // A check settled just before the database restarted may be lost with its commit (it runs again).
  onConnectionLost(app.db, () => cache.clear());
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
      const claim = request.body.result ?? null;
      if (claim !== null && typeof claim.resultHash !== 'string') {
        throw new RequestError(400, '$.result: missing required field "resultHash"', { path: '$.result', problem: 'missing required field "resultHash"' });
      }
      const duration = durationOf(scenario);
      let outcome: RunOutcome | undefined;
      if (duration <= app.config.limits.syncDurationS) {
        outcome = await runSync(app, scenario, 'summary', { returnMemoryOutcome: claim !== null });
        if (!outcome.ok && !claim) throw syncTimeoutError(app);
      } else {
        const v = await app.validator.validate(JSON.stringify(scenario));
        if (!v.valid) throw scenarioError('$.scenario', v.path, v.problem);
        // Too long to run here, and nothing to check: nothing to store.
        if (!claim) throw syncDurationError(app, duration);
      }
      let experiment: NewExperiment;
      if (outcome?.ok) {
        const computed = outcome.summary;
        if (claim) checkClaim(claim, computed);
        experiment = { title: title ?? null, scenario, result: computed, claimedResult: null, verification: 'verified', client: request.ip, cost: 0 };
      } else {
        // Too long or too large to run synchronously: stored as the client's claim while a run on
        // the queue computes the service's result (experiment-verification.ts), within the budgets.
        checkDuration({ durationS: duration }, app.config.limits.durationS, 'MAX_DURATION_S', '$.scenario.durationS');
        const cost = runCost(scenario);
        await app.budget.check(request.ip, cost, 'checking this experiment');
        experiment = { title: title ?? null, scenario, result: null, claimedResult: claim, verification: 'pending', client: request.ip, cost };
      }
      const id = await app.experiments.create(experiment);
      const resultHash = experiment.result ? String(experiment.result.resultHash) : null;
      return reply.status(201).send({ id, url: `/e/${id}`, resultHash, verified: experiment.verification === 'verified', verification: experiment.verification });
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
        if (experiment.verification === 'pending') {
          return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(body as never);
        }
        if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
        cache.set(id, body);
      }
      return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=3600, immutable').send(body as never);
    },
  );
};

export default routes;
