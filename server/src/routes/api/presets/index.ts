// The built-in scenarios of the simulator (tcpsim presets), with the experiments built on them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, Scenario } from '../../../schemas/common.js';
import { PresetInfo, PresetParams } from '../../../schemas/presets.js';
import { RequestError } from '../../../responses.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('', { schema: { summary: 'The built-in scenarios', response: { 200: Type.Array(PresetInfo) } } }, async () => app.presets.list);

  app.get(
    '/:name',
    { schema: { summary: 'A built-in scenario document', params: PresetParams, response: { 200: Scenario, ...errorResponses } } },
    async (request) => {
      const scenario = app.presets.scenario(request.params.name);
      if (!scenario) throw new RequestError(404, `no preset "${request.params.name}"`);
      return scenario;
    },
  );

  app.get(
    '/:name/experiment',
    {
      schema: {
        summary: 'The built-in experiment (a paper\'s table or figure) whose base scenario this preset is',
        params: PresetParams,
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'sim-core/scenario/schema/experiment.schema.json' }), ...errorResponses },
      },
    },
    async (request) => {
      const experiment = app.presets.experiment(request.params.name);
      if (!experiment) throw new RequestError(404, `no experiment "${request.params.name}"`);
      return experiment;
    },
  );
};

export default routes;
