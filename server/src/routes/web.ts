// The built web app (web/dist) and its client-side routes: any GET outside /api and /docs that is
// not a file is answered with index.html. Without a build, a page says how to make one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

const missingPage = (dir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tcb-lab</title></head>
<body><h1>tcb-lab</h1>
<p>The web app is not built: <code>${dir}</code> is missing. Build it with
<code>npm run build --workspace web</code> and reload.</p>
<p>The REST API is at <a href="/api/presets">/api</a>; its documentation is at <a href="/docs">/docs</a>.</p>
</body></html>
`;

const routes: FastifyPluginAsync = async (app) => {
  const dist = app.config.webDist;
  const index = join(dist, 'index.html');
  const built = existsSync(index);
  if (built) {
    await app.register(fastifyStatic, { root: dist, prefix: '/', wildcard: true, index: ['index.html'] });
  }
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const path = request.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/api' || path.startsWith('/docs')) {
      return reply.status(404).send({ error: `no route ${request.method} ${path}` });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ error: `no route ${request.method} ${path}` });
    }
    if (!built) return reply.status(404).type('text/html; charset=utf-8').send(missingPage(dist));
    return reply.sendFile('index.html');
  });
};

// Registered at the root (fastify-plugin), so that its not-found handler answers every path.
export default fp(routes, { name: 'web' });
