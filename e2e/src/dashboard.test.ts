// The dashboard in a browser against the real server on embedded PostgreSQL: explorer and plots,
// scheme change, save and share, field validation, a small batch, working offline, unknown ids.
// Load-to-first-plot time and the frame rate while zooming a large trace are printed, not asserted.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { artifacts, launchBrowser, startServer, type Server } from './harness.js';

let server: Server;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const PRESET = 'etcp-fig4-fair';

async function newPage(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors, close: () => context.close() };
}

const hashOf = (page: Page) => page.locator('[data-testid=result-hash]').textContent();

/** Waits until the explorer shows a result for the scenario as it is now. */
async function settled(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid=run-status]')?.textContent === 'up to date' && !!document.querySelector('[data-testid=result-hash]'),
    null,
    { timeout: 60_000 },
  );
}

/** The TCP connections that carry data, as the native simulator (POST /api/runs) reports them. */
async function nativeRun(scenario: unknown) {
  const response = await fetch(`${server.url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as { resultHash: string; flows: { protocol: string; bytes: number; dataSegmentsSent: number }[] };
}

async function presetScenario(name: string) {
  const response = await fetch(`${server.url}/api/presets/${name}`);
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

test('explorer: a preset runs in the browser and its plots show every connection', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    const tsq = page.locator('figure[data-plot="time-sequence"]');
    await tsq.waitFor({ timeout: 60_000 });
    await settled(page);
    const native = await nativeRun(await presetScenario(PRESET));
    const connections = native.flows.filter((f) => f.protocol === 'tcp' && f.bytes > 0).length;
    assert.equal(connections, 3, 'etcp-fig4-fair has three transfers');
    assert.equal(await tsq.getAttribute('data-connections'), String(connections));
    assert.equal(Number(await tsq.getAttribute('data-segments')), native.flows.reduce((n, f) => n + f.dataSegmentsSent, 0));
    assert.ok(Number(await tsq.getAttribute('data-frames')) >= 1, 'the time–sequence canvas was drawn');
    const cwnd = page.locator('figure[data-plot="cwnd"]');
    assert.equal(await cwnd.getAttribute('data-connections'), String(connections));
    assert.ok(Number(await cwnd.getAttribute('data-frames')) >= 1);
    const ensemble = page.locator('figure[data-plot="ensemble"]');
    assert.equal(await ensemble.getAttribute('data-members'), String(connections));
    assert.equal(await ensemble.getAttribute('data-scheme'), 'etcp');
    // E-TCP paces the ensemble once its members are half-closed (§4.2): every member shows a rate.
    const pacing = page.locator('figure[data-plot="pacing"]');
    assert.equal(await pacing.getAttribute('data-connections'), String(connections));
    // The browser's run is the native run, to the bit.
    assert.equal(await hashOf(page), native.resultHash);
    await page.screenshot({ path: join(artifacts, 'explorer.png'), fullPage: true });
    await tsq.screenshot({ path: join(artifacts, 'time-sequence.png') });
    await cwnd.screenshot({ path: join(artifacts, 'cwnd.png') });
    await pacing.screenshot({ path: join(artifacts, 'pacing.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('changing the scheme changes the results; a saved link shows the same resultHash in a fresh browser context', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    const etcpHash = await hashOf(page);
    const etcpTime = await page.locator('[data-metric=meanCompletionTimeS]').getAttribute('data-value');

    await page.locator('#scheme').selectOption('independent');
    await page.waitForFunction((old) => document.querySelector('[data-testid=result-hash]')?.textContent !== old, etcpHash, { timeout: 60_000 });
    await settled(page);
    const independentHash = await hashOf(page);
    assert.notEqual(independentHash, etcpHash);
    assert.notEqual(await page.locator('[data-metric=meanCompletionTimeS]').getAttribute('data-value'), etcpTime);
    assert.equal(await page.locator('figure[data-plot="ensemble"]').count(), 0, 'independent connections form no ensemble');
    assert.equal(await page.locator('figure[data-plot="pacing"]').count(), 0, 'Reno does not pace');
    assert.equal(await page.locator('figure[data-plot="cwnd"]').getAttribute('data-connections'), '3');

    await page.locator('[aria-label="Experiment title"]').fill('fig4 without sharing');
    await page.locator('[data-testid=save]').click();
    const link = page.locator('[data-testid=share-link]');
    await link.waitFor({ timeout: 30_000 });
    const href = await link.getAttribute('href');
    assert.match(href ?? '', /^\/e\/[A-Za-z0-9_-]{16,}$/);
    const saved = (await (await fetch(`${server.url}/api${href!.replace('/e/', '/experiments/')}`)).json()) as { resultHash: string };
    assert.equal(saved.resultHash, independentHash);

    const fresh = await newPage();
    try {
      await fresh.page.goto(`${server.url}${href}`);
      const check = fresh.page.locator('[data-testid=hash-check]');
      await check.waitFor({ timeout: 60_000 });
      assert.equal(await check.getAttribute('class'), 'ok', await check.textContent() ?? '');
      assert.equal(await hashOf(fresh.page), independentHash);
      assert.equal(await fresh.page.locator('#scheme').inputValue(), 'independent');
      await fresh.page.screenshot({ path: join(artifacts, 'shared-link.png') });
      assert.deepEqual(fresh.errors, []);
    } finally {
      await fresh.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an invalid value shows its error at the field and nothing runs or is sent', async () => {
  const { page, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    const before = await hashOf(page);
    const runsBefore = await page.evaluate(() => performance.getEntriesByName('tcb:run-start').length);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/') && r.method() !== 'GET') sent.push(`${r.method()} ${r.url()}`);
    });

    const field = page.locator('[data-pointer="/topology/link/bandwidthMbps"]');
    await field.locator('input').fill('-0.8');
    await field.locator('[data-field-error]').waitFor();
    assert.match((await field.locator('[data-field-error]').textContent()) ?? '', /greater than 0|> 0/);
    assert.equal(await field.locator('input').getAttribute('aria-invalid'), 'true');
    // The simulator's validator names the same field.
    await page.locator('[data-testid=scenario-invalid]').waitFor();
    assert.match((await page.locator('[data-testid=scenario-invalid]').textContent()) ?? '', /\/topology\/link\/bandwidthMbps/);
    assert.equal(await page.locator('[data-testid=run]').isDisabled(), true);
    assert.equal(await page.locator('[data-testid=save]').isDisabled(), true);
    await page.getByRole('tab', { name: 'Batch' }).click();
    assert.equal(await page.locator('[data-testid=batch-submit]').isDisabled(), true);

    assert.deepEqual(sent, []);
    assert.equal(await page.evaluate(() => performance.getEntriesByName('tcb:run-start').length), runsBefore);
    await page.getByRole('tab', { name: 'Run' }).click();
    assert.equal(await hashOf(page), before);
    await page.screenshot({ path: join(artifacts, 'invalid-field.png') });
  } finally {
    await close();
  }
});

test('the JSON view round-trips with the form; compare mode shows small multiples and a difference table', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    await page.getByRole('tab', { name: 'JSON' }).click();
    const scenario = JSON.parse(await page.locator('#json').inputValue());
    assert.equal(scenario.name, PRESET);
    scenario.durationS = 12.5;
    await page.locator('#json').fill(JSON.stringify(scenario, null, 2));
    await page.getByRole('button', { name: 'Apply JSON' }).click();
    await page.getByRole('tab', { name: 'Form' }).click();
    assert.equal(await page.locator('[data-pointer="/durationS"] input').inputValue(), '12.5');
    await page.locator('[data-pointer="/durationS"] input').fill('30');
    await page.getByRole('tab', { name: 'JSON' }).click();
    assert.deepEqual(JSON.parse(await page.locator('#json').inputValue()), { ...scenario, durationS: 30 });
    await page.locator('#json').fill('{"schemaVersion": 1,');
    await page.getByRole('button', { name: 'Apply JSON' }).click();
    await page.locator('.json-view [role=alert]').first().waitFor();

    await page.getByRole('tab', { name: 'Compare' }).click();
    // independent and etcp (the preset's scheme) are ticked to begin with.
    await page.locator('[data-testid=compare-run]').click();
    const table = page.locator('[data-testid=difference-table]');
    await table.waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.multiple').count(), 2);
    assert.equal(await page.locator('.multiple figure[data-plot="time-sequence"]').count(), 2);
    assert.match((await table.textContent()) ?? '', /mean completion time/);
    await page.screenshot({ path: join(artifacts, 'compare.png'), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a small batch reaches 100 % and shows its chart and CSV', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    await page.locator('#scheme').waitFor();
    await settled(page);
    await page.getByRole('tab', { name: 'Batch' }).click();
    await page.locator('#bp-0').fill('/tcp/initialWindow');
    await page.locator('#bv-0').fill('1, 4');
    await page.locator('#reps').fill('2');
    assert.match((await page.locator('[data-testid=batch-run-count]').textContent()) ?? '', /^4 runs/);
    await page.locator('[data-testid=batch-submit]').click();
    await page.waitForURL(/\/b\/[A-Za-z0-9_-]+$/, { timeout: 30_000 });
    const id = page.url().split('/b/')[1];

    const percents = new Set<string>();
    const progress = page.locator('[data-testid=batch-progress]');
    await progress.waitFor();
    const deadline = Date.now() + 180_000;
    for (;;) {
      const status = await page.locator('[data-testid=batch-page]').getAttribute('data-status');
      percents.add((await progress.getAttribute('data-percent')) ?? '');
      if (status === 'completed' || status === 'failed' || status === 'cancelled') break;
      assert.ok(Date.now() < deadline, `batch still ${status}`);
      await page.waitForTimeout(200);
    }
    assert.equal(await page.locator('[data-testid=batch-page]').getAttribute('data-status'), 'completed');
    assert.equal(await progress.getAttribute('data-percent'), '100');
    console.log(`# batch progress seen: ${[...percents].join(', ')} %`);

    const chart = page.locator('figure[data-plot="sweep"]');
    await chart.waitFor();
    assert.equal(await chart.getAttribute('data-points'), '2');
    assert.equal(await page.locator('[data-testid=batch-table] tbody tr').count(), 2);

    const csvHref = await page.locator('[data-testid=batch-csv]').getAttribute('href');
    const csv = await (await fetch(`${server.url}${csvHref}`)).text();
    const lines = csv.trim().split(/\r?\n/);
    assert.equal(lines.length, 1 + 4, csv);
    assert.match(lines[0], /initialWindow/);
    assert.match(lines[0], /meanCompletionTimeS/);
    await page.screenshot({ path: join(artifacts, 'batch.png'), fullPage: true });
    assert.equal(id.length >= 16, true);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('with the server unreachable the explorer still runs and says so', async () => {
  const { page, close } = await newPage();
  try {
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.goto(`${server.url}/?preset=${PRESET}`);
    const banner = page.locator('[data-testid=server-banner]');
    await banner.waitFor({ timeout: 30_000 });
    assert.match((await banner.textContent()) ?? '', /Server unreachable/);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    assert.equal(await page.locator('[data-testid=save]').isDisabled(), true);
  } finally {
    await close();
  }
});

test('an unknown experiment id is reported', async () => {
  const { page, close } = await newPage();
  try {
    await page.goto(`${server.url}/e/AAAAAAAAAAAAAAAAAAAAAA`);
    const error = page.locator('[data-testid=experiment-error]');
    await error.waitFor({ timeout: 30_000 });
    assert.match((await error.textContent()) ?? '', /no saved experiment/);
  } finally {
    await close();
  }
});

test('measured (printed, not asserted): load to first plot, and frames per second while zooming a large trace', async () => {
  const loads: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { page, close } = await newPage();
    try {
      await page.goto(`${server.url}/`);
      await page.locator('figure[data-plot="time-sequence"][data-frames]').waitFor({ timeout: 60_000 });
      loads.push(await page.evaluate(() => performance.getEntriesByName('tcb:first-draw:Time–sequence graph')[0]?.startTime ?? NaN));
    } finally {
      await close();
    }
  }
  loads.sort((a, b) => a - b);
  console.log(`# load to first plot (default preset, from navigation start): ${loads.map((v) => v.toFixed(0)).join(', ')} ms; median ${loads[1].toFixed(0)} ms`);

  // dumbbell-bulk for 85 simulated seconds: about a million data segments.
  const { page, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=dumbbell-bulk`);
    await page.locator('#scheme').waitFor();
    await page.getByRole('tab', { name: 'JSON' }).click();
    const scenario = JSON.parse(await page.locator('#json').inputValue());
    scenario.durationS = Number(process.env.E2E_LARGE_DURATION_S ?? 85);
    await page.locator('#json').fill(JSON.stringify(scenario));
    const started = Date.now();
    await page.getByRole('button', { name: 'Apply JSON' }).click();
    await page.waitForFunction(
      (d) => {
        const f = document.querySelector('figure[data-plot="time-sequence"]');
        return !!f && document.querySelector('[data-testid=run-status]')?.textContent === 'up to date' && Number(f.getAttribute('data-segments')) > d;
      },
      100_000,
      { timeout: 300_000, polling: 500 },
    );
    const segments = Number(await page.locator('figure[data-plot="time-sequence"]').getAttribute('data-segments'));
    const ready = Date.now() - started;
    const fps = await page.evaluate(async () => {
      const fig = document.querySelector('figure[data-plot="time-sequence"]') as HTMLElement;
      const overlay = fig.querySelector('.plot-overlay') as HTMLElement;
      const r = overlay.getBoundingClientRect();
      const frames0 = Number(fig.dataset.frames);
      const t0 = performance.now();
      const draws: number[] = [];
      let i = 0;
      // Wheel events as a user zooming in and out, one per animation frame, for three seconds.
      while (performance.now() - t0 < 3000) {
        overlay.dispatchEvent(
          new WheelEvent('wheel', { deltaY: (Math.floor(i / 25) % 2 ? 1 : -1) * 80, clientX: r.left + r.width * 0.6, clientY: r.top + r.height / 2, bubbles: true, cancelable: true }),
        );
        i++;
        await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
        draws.push(Number(fig.dataset.drawMs));
      }
      const seconds = (performance.now() - t0) / 1000;
      draws.sort((a, b) => a - b);
      return { fps: (Number(fig.dataset.frames) - frames0) / seconds, median: draws[draws.length >> 1], p95: draws[Math.floor(draws.length * 0.95)] };
    });
    console.log(
      `# zooming a time–sequence graph of ${segments} segments: ${fps.fps.toFixed(1)} frames/s (draw median ${fps.median.toFixed(1)} ms, p95 ${fps.p95.toFixed(1)} ms); run and plots ready ${ready} ms after applying`,
    );
    await page.locator('figure[data-plot="time-sequence"]').screenshot({ path: join(artifacts, 'large-trace.png') });
  } finally {
    await close();
  }
});
