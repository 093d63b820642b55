// The Fastify application: external plugins (helmet, rate limit, OpenAPI), the service's state
// (database pool, simulator engines, repositories, presets), the API routes and the web app.
// main.ts builds it with real PostgreSQL and listens; the tests build it the same way.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import type { Engine } from './sim/engine.js';
import type { PresetCatalog } from './presets.js';
import { BatchRepository } from './repositories/batches.js';
import { ExperimentRepository } from './repositories/experiments.js';
import { StorageBudget } from './repositories/storage.js';
import { WorkBudget } from './repositories/budgets.js';
import { jsonDepth } from './json-depth.js';
import { Gate } from './sim/gate.js';
import { jsonPathChild, pointerToJsonPath } from '@tcb-lab/sim/json-pointer';
import { examplePreset, openapiTransform } from './openapi.js';
import { documentCommonResponses, frameworkErrors, maxParamLength, RequestError } from './responses.js';
import experimentRoutes from './routes/api/experiments/index.js';
import batchRoutes from './routes/api/batches/index.js';
import reproductionRoutes from './routes/api/reproductions/index.js';
import runRoutes from './routes/api/runs/index.js';
import presetRoutes from './routes/api/presets/index.js';
import healthRoutes from './routes/api/health/index.js';
import schemaRoutes from './routes/api/schemas/index.js';
import webRoutes from './routes/web.js';

export interface AppOptions {
  config: Config;
  pool: Pool;
  /** Validates request scenarios (the WASM build when present: no process per call). */
  validator: Engine;
  /** Runs synchronous runs (the native binary when present). */
  runner: Engine;
  /** Streams results out; the API's pool when not given (config.exports sizes it in main.ts). */
  exportsPool?: Pool;
  presets: PresetCatalog;
  logger?: boolean | { level: string };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Pool;
    validator: Engine;
    runner: Engine;
    presets: PresetCatalog;
    experiments: ExperimentRepository;
    batches: BatchRepository;
    storage: StorageBudget;
    budget: WorkBudget;
    syncRuns: Gate;
    /** The pool results are streamed out of (its own, small: slow readers cannot take the API's). */
    exportsDb: Pool;
  }
}


interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** The first schema error of a request, in the words and paths tcpsim uses for scenarios. */
export function describeValidation(errors: AjvError[], context: string, data: unknown): { path: string; problem: string } {
  const e = errors[0];
  let path = pointerToJsonPath(data, e.instancePath);
  let problem = e.message ?? 'is invalid';
  if (e.keyword === 'required') {
    problem = `missing required field "${String(e.params.missingProperty)}"`;
  } else if (e.keyword === 'additionalProperties') {
    const field = String(e.params.additionalProperty);
    path = jsonPathChild(path, field);
    problem = `unknown field "${field}"`;
  }
  if (context === 'querystring') path = path.replace(/^\$/, '$query');
  else if (context === 'params') path = path.replace(/^\$/, '$params');
  else if (context === 'headers') path = path.replace(/^\$/, '$headers');
  return { path, problem };
}

/**
 * The JSON path of the first string in `value`, member name or value, that holds a NUL character
 * (U+0000), which PostgreSQL cannot store in text or jsonb; undefined when there is none.
 */
export function findNul(value: unknown, path = '$'): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; ++i) {
      const found = findNul(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      const at = jsonPathChild(path, key);
      if (key.includes('\u0000')) return at;
      const found = findNul(member, at);
      if (found) return found;
    }
  }
  return undefined;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.limits.bodyBytes,
    // Unknown fields are errors and types are not coerced: a request means what it says.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    // No "Fastify" banners, no stack traces: errors leave through the handler below only.
    return503OnClosing: true,
    // "/api/batches/" is "/api/batches".
    routerOptions: { ignoreTrailingSlash: true, maxParamLength },
    // URLs the router refuses get the service's error body too.
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every route documents the statuses any route can answer (before the OpenAPI plugin reads them).
  app.addHook('onRoute', documentCommonResponses);

  app.decorate('config', config);
  app.decorate('db', options.pool);
  app.decorate('validator', options.validator);
  app.decorate('runner', options.runner);
  app.decorate('presets', options.presets);
  app.decorate('experiments', new ExperimentRepository(options.pool));
  app.decorate('batches', new BatchRepository(options.pool, options.config.batchJobRuns));
  app.decorate('storage', new StorageBudget(options.pool, { storedRuns: config.limits.storedRuns, databaseBytes: config.limits.databaseBytes }));
  app.decorate('budget', new WorkBudget(options.pool, config.budgets));
  app.decorate('exportsDb', options.exportsPool ?? options.pool);
  // A client refused for a full gate may try again once a synchronous run can have ended.
  app.decorate('syncRuns', new Gate(Math.max(1, Math.min(4, config.workers || 1)), 16, Math.ceil(config.limits.syncTimeoutS)));

  // JSON bodies nested deeper than any document of the service are refused before they are parsed
  // (what walks a parsed body, validation and the NUL check below, recurses): a 400 at "$".
  // Fastify's own parser behind it, with its defaults (prototype and constructor poisoning are errors).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepth(text, config.limits.jsonDepth) > config.limits.jsonDepth) {
      const problem = `nests arrays and objects more than MAX_JSON_DEPTH = ${config.limits.jsonDepth} levels deep`;
      done(new RequestError(400, `$: ${problem}`, { path: '$', problem, limit: 'MAX_JSON_DEPTH', value: config.limits.jsonDepth }), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  // Text the database cannot store is bad input, named where it is, before anything is run or stored.
  app.addHook('preValidation', async (request) => {
    const at = findNul(request.body) ?? findNul(request.query, '$query') ?? findNul(request.params, '$params');
    if (at) {
      const problem = 'contains the NUL character (U+0000), which the service cannot store';
      throw new RequestError(400, `${at}: ${problem}`, { path: at, problem });
    }
  });

  app.setErrorHandler((error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request, reply) => {
    if (error instanceof RequestError) {
      const { retryAfterS, ...body } = error.body as { retryAfterS?: number };
      // Every 429 says when to come back.
      if (error.statusCode === 429) reply.header('retry-after', String(retryAfterS ?? 1));
      return reply.status(error.statusCode).send({ error: error.message, ...body });
    }
    if (error.validation && error.validation.length > 0) {
      const context = error.validationContext ?? 'body';
      const data = { body: request.body, querystring: request.query, params: request.params, headers: request.headers }[context];
      const { path, problem } = describeValidation(error.validation, context, data);
      return reply.status(400).send({ error: `${path}: ${problem}`, path, problem });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({
        error: `the request body is larger than BODY_LIMIT_BYTES = ${config.limits.bodyBytes} bytes`,
        limit: 'BODY_LIMIT_BYTES',
        value: config.limits.bodyBytes,
      });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return reply.status(400).send({ error: `$: invalid JSON: ${error.message}`, path: '$', problem: `invalid JSON: ${error.message}` });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      const limited = error as unknown as { error?: string; limit?: string; value?: number };
      // @fastify/rate-limit sets Retry-After itself; anything else limited says a second.
      if (!reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      return reply.status(429).send({ error: limited.error ?? error.message, limit: limited.limit, value: limited.value });
    }
    if (status >= 400 && status < 500) return reply.status(status).send({ error: error.message });
    request.log.error({ err: error }, 'request failed');
    if ((error as { code?: string }).code === 'ECONNREFUSED' || /database|connect|terminat/i.test(error.message)) {
      return reply.status(503).send({ error: 'the database is unavailable; try again shortly' });
    }
    return reply.status(500).send({ error: 'internal error' });
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        // The web app compiles the simulator's WebAssembly in a module Web Worker.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'worker-src': ["'self'", 'blob:'],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        // No 'unsafe-inline': the app's styles are files, and React sets an element's style through
        // the CSSOM (element.style), which CSP does not restrict (docs/SECURITY.md).
        'style-src': ["'self'"],
        // Served over plain HTTP (npm start listens on loopback); TLS belongs to a proxy in front.
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    errorResponseBuilder: (_request, context) => {
      const limit = context.max === config.rateLimit.max ? 'RATE_LIMIT_MAX' : 'RATE_LIMIT_RUNS_MAX';
      return {
        statusCode: 429,
        error: `rate limit exceeded: at most ${context.max} such requests per ${config.rateLimit.windowMs / 1000} s from one address (${limit}); retry in ${context.after}`,
        message: `rate limit exceeded (${limit} = ${context.max})`,
        limit,
        value: context.max,
      };
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tcb-lab simulation service',
        description: "Saved experiments, batches of simulation runs (parameter grids with replications), reproductions of the seed papers' experiments and synchronous runs of the tcb-lab TCP control block sharing simulator. See docs/API.md.",
        version: '1.0.0',
      },
    },
    transformObject: openapiTransform(options.presets.scenario(examplePreset)) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  await app.register(experimentRoutes, { prefix: '/api/experiments' });
  await app.register(batchRoutes, { prefix: '/api/batches' });
  await app.register(reproductionRoutes, { prefix: '/api/reproductions' });
  await app.register(runRoutes, { prefix: '/api/runs' });
  await app.register(presetRoutes, { prefix: '/api/presets' });
  await app.register(schemaRoutes, { prefix: '/api/schemas' });
  await app.register(healthRoutes, { prefix: '/api/health' });
  await app.register(webRoutes);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
