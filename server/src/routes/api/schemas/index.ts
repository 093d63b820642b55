// sim-core's JSON Schemas as the simulator uses them, for clients that build forms or validate.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { simSchemas } from '../../../sim/schemas.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const schemaResponse = { 200: Type.Object({}, { additionalProperties: true }) };
  app.get('/scenario', { schema: { summary: 'The JSON Schema of scenarios', response: schemaResponse } }, async () => simSchemas().scenario);
  app.get('/result', { schema: { summary: 'The JSON Schema of result summaries', response: schemaResponse } }, async () => simSchemas().result);
};

export default routes;
