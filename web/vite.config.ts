// Vite builds the dashboard into dist/ (which the server serves, see docs/ARCHITECTURE.md), and
// imports the scenario schema straight from sim-core (the one source of truth) through @schema, and
// the reproduction documents from docs/ through @docs.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The simulator's .wasm is fetched by the page's first request for a scenario, after the whole
// bundle has run; a preload lets the browser fetch it beside the bundle (the first plot comes
// sooner). `fetch` with crossorigin matches the fetch that @tcb-lab/sim makes, which reuses it.
function preloadWasm(): Plugin {
  return {
    name: 'tcb-preload-wasm',
    apply: 'build',
    transformIndexHtml(html, ctx) {
      const wasm = Object.keys(ctx.bundle ?? {}).filter((f) => f.endsWith('.wasm'));
      return wasm.map((f) => ({
        tag: 'link',
        attrs: { rel: 'preload', href: `/${f}`, as: 'fetch', type: 'application/wasm', crossorigin: 'anonymous' },
        injectTo: 'head' as const,
      }));
    },
  };
}

const schemaDir = fileURLToPath(new URL('../sim-core/scenario/schema', import.meta.url));
// The reproduction documents, shown beside the experiments they report (pages/ReproducePage.tsx).
const docsDir = fileURLToPath(new URL('../docs', import.meta.url));
// The built-in web pages, whose sizes the reuse view shows (data/reuse.ts).
const pagesDir = fileURLToPath(new URL('../sim-core/scenario/pages', import.meta.url));

export default defineConfig({
  plugins: [react(), preloadWasm()],
  resolve: { alias: { '@schema': schemaDir, '@docs': docsDir, '@pages': pagesDir } },
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 2000 },
  server: {
    fs: { allow: ['..'] },
    proxy: { '/api': process.env.TCB_API ?? 'http://127.0.0.1:3000' },
  },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
