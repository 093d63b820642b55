// The browser path: the package's dist/ served as it is, loaded by headless Chromium, runs the
// engine in a module Web Worker and gives the native result.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tcpsim } from './native.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const types: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

let server: Server;
let browser: BrowserContext;
let page: Page;
let profile: string;

before(async () => {
  server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url!, 'http://x').pathname));
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>@tcb-lab/sim</title>');
      return;
    }
    try {
      const body = await readFile(join(packageRoot, 'dist', path));
      response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  profile = await mkdtemp(join(tmpdir(), 'tcbsim-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  assert.deepEqual(errors, []);
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (profile) await rm(profile, { recursive: true, force: true });
});

test('a preset run in a Web Worker gives the native resultHash, with series as typed arrays', async () => {
  const scenario = JSON.parse((await tcpsim(['preset', 'scheme-etcp'])).stdout);
  const native = JSON.parse((await tcpsim(['run', '-', '--trace', 'summary'], JSON.stringify(scenario))).stdout);
  const seen = await page.evaluate(async (scenario) => {
    const sim = await import('/browser.js' as string);
    let reports = 0;
    const result = await sim.runScenario(scenario, { trace: 'series', onProgress: () => reports++ });
    return {
      summary: result.summary,
      reports,
      cwndType: result.series.tcp.cwndBytes.constructor.name,
      rows: result.series.tcp.timeNs.length,
    };
  }, scenario);
  assert.equal(seen.summary.resultHash, native.resultHash);
  assert.deepEqual(seen.summary, native);
  assert.ok(seen.reports >= 1);
  assert.equal(seen.cwndType, 'Float64Array');
  assert.ok(seen.rows > 0);
});

test('in the browser, bad input rejects with the CLI message and an abort stops the run', async () => {
  const outcome = await page.evaluate(async () => {
    const sim = await import('/browser.js' as string);
    const bad = await sim.runScenario('{"schemaVersion": 1}').then(
      () => 'resolved',
      (e: Error) => `${e.name}: ${e.message}`,
    );
    const scenario = await sim.getPreset('dumbbell-bulk');
    scenario.durationS = 600;
    const controller = new AbortController();
    const aborted = await sim
      .runScenario(scenario, {
        signal: controller.signal,
        onProgress: (p: { fraction: number }) => p.fraction > 0.01 && controller.abort(),
      })
      .then(
        () => 'resolved',
        (e: Error) => e.name,
      );
    const after = await sim.listPresets();
    return { bad, aborted, presets: after.length };
  });
  const native = await tcpsim(['run', '-'], '{"schemaVersion": 1}');
  assert.equal(outcome.bad, `ScenarioError: ${native.stderr.trim().replace(/^error: /, '')}`);
  // Unaborted, 600 simulated seconds would run to the end and resolve.
  assert.equal(outcome.aborted, 'AbortError');
  assert.ok(outcome.presets > 0);
});
