// Schemas shared by the routes. Scenario and Result stand for sim-core's JSON Schemas: requests
// only check that they are objects here, and the simulator validates scenarios itself (so that an
// error carries its JSON path and words); the OpenAPI document replaces them with the real schemas
// (see openapi.ts).
import { Type, type Static } from 'typebox';

export const Scenario = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  title: 'Scenario',
  description: 'A scenario document (sim-core/scenario/schema/scenario.schema.json; also GET /api/schemas/scenario).',
});

export const Result = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  title: 'Result',
  description: 'A result summary as `tcpsim run` prints it (sim-core/scenario/schema/result.schema.json).',
});

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What is wrong, starting with the JSON path when there is one.' }),
    path: Type.Optional(Type.String({ description: "JSON path into the request body, e.g. $.scenario.traffic[0].to" })),
    problem: Type.Optional(Type.String({ description: 'The problem without the path (for scenarios: the words of tcpsim).' })),
    limit: Type.Optional(Type.String({ description: 'The configuration variable of the limit that was exceeded.' })),
    value: Type.Optional(Type.Number({ description: "The limit's value." })),
    size: Type.Optional(Type.Number({ description: "The request's size in the limit's unit (runs, bytes), where it has one." })),
    used: Type.Optional(Type.Number({ description: "For a storage budget: what is stored now, in the limit's unit." })),
  },
  { title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: '22 characters of base64url; any other string is simply not found' }) });

export const errorResponses = {
  400: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
} as const;

/** A metric value or statistic: null where a run had no value (e.g. no page finished). */
export const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
