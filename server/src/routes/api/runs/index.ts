// One small synchronous run: the result summary, or a 4xx naming the limit it exceeded.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, Result } from '../../../schemas/common.js';
import { RunBody } from '../../../schemas/runs.js';
import { durationOf, runSync, syncDurationError, syncTimeoutError } from '../../../sim/sync.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '',
    {
      schema: {
        summary: 'Run a small scenario now and return its result summary',
        body: RunBody,
        response: { 200: Result, ...errorResponses },
      },
      config: { rateLimit: { max: app.config.rateLimit.runsMax } },
    },
    async (request) => {
      const { scenario } = request.body;
      const duration = durationOf(scenario);
      if (duration > app.config.limits.syncDurationS) {
        // Bad input first: an invalid scenario is a 400 whatever its duration.
        const v = await app.validator.validate(JSON.stringify(scenario));
        if (v.valid) throw syncDurationError(app, duration);
      }
      const outcome = await runSync(app, scenario, request.body.trace ?? 'summary');
      if (!outcome.ok) throw syncTimeoutError(app);
      return outcome.summary;
    },
  );
};

export default routes;
