// The service's answers that are errors: RequestError, which any layer under a route throws to
// answer with a status and a JSON body (app.ts's error handler sends it); the statuses any route
// can answer besides its own, added to every route's documented responses so that the OpenAPI
// document describes every status a route can return (Schemathesis checks it,
// server/test/fuzz-api.test.ts); and the answers to requests the router refuses before any route
// is chosen.
import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ErrorBody } from './schemas/common.js';

/** An answer with an HTTP status and a JSON body {error: message, ...body}. */
export class RequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A scenario error of the simulator, as a 400 whose path is in the request body's terms. */
export function scenarioError(bodyPath: string, cliPath: string, problem: string, context = ''): RequestError {
  const path = bodyPath + cliPath.slice(1);
  return new RequestError(400, `${path}: ${problem}${context}`, { path, problem });
}

const bodyMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Fastify's router refuses a path parameter longer than this (its maxParamLength) with a 414. */
export const maxParamLength = 100;

const described: Record<number, string> = {
  400: 'Bad input: the JSON path and the problem (also a malformed URL, or text holding the NUL character).',
  413: 'The request body is larger than BODY_LIMIT_BYTES.',
  414: `A path parameter is longer than ${maxParamLength} characters.`,
  415: 'The request body is not JSON (Content-Type application/json).',
  429: 'Rate limited (RATE_LIMIT_MAX, RATE_LIMIT_RUNS_MAX): the limit and its value.',
  500: 'Internal error (a bug): the body says only "internal error".',
  503: 'The database is unreachable, or the server is shutting down.',
};

function withDescription(status: number) {
  return { ...ErrorBody, description: described[status] };
}

/**
 * Adds to a route's response schemas the statuses every route can answer: 400 (a malformed URL,
 * NUL in the query), 429 unless the route is exempt from rate limiting, 500, 503 (the database,
 * or shutting down); 414 on routes with path parameters; 413 and 415 on methods with a body.
 * A status the route documents itself is left as it is.
 */
export function documentCommonResponses(route: RouteOptions): void {
  const schema = (route.schema ??= {});
  const response = ((schema as { response?: Record<string, unknown> }).response ??= {});
  const statuses = [400, 500, 503];
  if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit !== false) statuses.push(429);
  if (route.url.includes(':')) statuses.push(414);
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.some((m) => bodyMethods.has(m))) statuses.push(413, 415);
  for (const status of statuses) response[status] ??= withDescription(status);
}

/**
 * Fastify's own answers to URLs its router refuses (a malformed percent-encoding, an over-long
 * path parameter), in the service's error body instead of Fastify's.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0];
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send({ error: `${path}: a path parameter is longer than ${maxParamLength} characters` });
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send({ error: `${path}: not a valid URL (a malformed percent-encoding)` });
    return;
  }
  void reply.status(400).send({ error: 'the request could not be routed' });
}
