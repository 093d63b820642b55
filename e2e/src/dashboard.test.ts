// The dashboard in a browser against the real server on embedded PostgreSQL: explorer and plots,
// the shared connection highlight, scheme change, save and share (on the server and in the link),
// field validation, a small batch, working offline, unknown ids, the reproductions page against
// the CLI's reports (the quick size in the browser, the full size on the server's queue), SACK
// blocks and today's TCP's plots (CUBIC, BBR, Careful Resume), a walk through the explorer by
// keyboard alone, and axe-core on every page (a saved experiment and a finished batch among them). Load-to-first-plot time and the frame times while
// zooming a large trace, quiet and with one core busy, are printed, not asserted (the long
// measurements: npm run bench:render).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { artifacts, axeViolations, launchBrowser, repoRoot, startServer, watchErrors, type Server } from './harness.js';
import { describeZoom, firstPlotTimes, measureZoom, median, openLargeTrace, withLoad } from './measure.js';

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
  await watchErrors(page, errors);
  return { page, errors, close: () => context.close() };
}

/** Waits until every element `selector` matches has attribute `name` equal to `value`. */
async function attributeEverywhere(page: Page, selector: string, name: string, value: string) {
  await page.waitForFunction(
    ([sel, n, v]) => {
      const els = Array.from(document.querySelectorAll(sel));
      return els.length > 0 && els.every((e) => e.getAttribute(n) === v);
    },
    [selector, name, value] as const,
    { timeout: 10_000 },
  );
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
    // Plots beyond the first few are shown on demand.
    await page.locator('[data-plot-toggle=pacing]').click();
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

    // A link carrying an invalid scenario: its first run (which checks it, instead of a separate
    // validation) fails, and the simulator's validator then names the field.
    const scenario = await presetScenario(PRESET);
    (scenario.topology as { link: { bandwidthMbps: number } }).link.bandwidthMbps = -0.8;
    await page.goto(`${server.url}/?s=1.${deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString('base64url')}`);
    await page.locator('[data-testid=scenario-invalid]').waitFor({ timeout: 60_000 });
    assert.match((await page.locator('[data-testid=scenario-invalid]').textContent()) ?? '', /\/topology\/link\/bandwidthMbps/);
    await page.locator('[data-pointer="/topology/link/bandwidthMbps"] [data-field-error]').waitFor({ timeout: 30_000 });
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

test('a batch compares independent, etcp and careful-resume over a parameter from the form, and reads in words', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=scheme-etcp`);
    await page.locator('#scheme').waitFor();
    await settled(page);
    await page.getByRole('tab', { name: 'Batch' }).click();
    // JSON values are read whole: two sharing configurations are two values, not four.
    await page.locator('#bp-0').fill('/hosts/left0/sharing');
    await page.locator('#bv-0').fill('{"scheme": "independent"}, {"scheme": "etcp", "tickets": "content"}');
    await page.locator('#reps').fill('1');
    assert.match((await page.locator('[data-testid=batch-run-count]').textContent()) ?? '', /^2 runs/);
    // The starting point: the host's scheme (a scheme axis, sim-core/experiment/grid.h) against the bottleneck's rate.
    await page.locator('[data-testid=compare-schemes]').click();
    assert.equal(await page.locator('#bp-0').inputValue(), '/hosts/left0/sharing/scheme');
    assert.equal(await page.locator('#bv-0').inputValue(), 'independent, etcp, careful-resume');
    assert.equal(await page.locator('#bp-1').inputValue(), '/topology/bottleneck/bandwidthMbps');
    assert.match((await page.locator('[data-testid=grid-row] legend').nth(1).textContent()) ?? '', /bottleneck bandwidth \(Mb\/s\)/);
    assert.match((await page.locator('[data-testid=batch-run-count]').textContent()) ?? '', /^9 runs/);
    await page.locator('[data-testid=batch-submit]').click();
    await page.waitForURL(/\/b\/[A-Za-z0-9_-]+$/, { timeout: 30_000 });
    await page.locator('[data-testid=batch-page][data-status=completed]').waitFor({ timeout: 180_000 });
    const chart = page.locator('figure[data-plot="sweep"]');
    await chart.waitFor();
    // A line per scheme, named as the scheme is, against the rate in words.
    assert.equal(await chart.getAttribute('data-lines'), '3');
    for (const scheme of ['independent', 'etcp', 'careful-resume']) assert.equal(await chart.locator('.legend li', { hasText: new RegExp(`^${scheme}$`) }).count(), 1, scheme);
    const headers = await page.locator('[data-testid=batch-table] th').allTextContents();
    assert.equal(headers[0], "left0's sharing scheme");
    assert.match(headers[1], /bottleneck/);
    const cells = await page.locator('[data-testid=batch-table] tbody tr td:first-child').allTextContents();
    assert.deepEqual([...new Set(cells)], ['independent', 'etcp', 'careful-resume']);
    await page.screenshot({ path: join(artifacts, 'batch-schemes.png'), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an edit is kept in the address: away to Presets and back, and a reload, bring it back', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=single-reno-trace`);
    await page.locator('figure[data-plot="time-sequence"][data-frames]').waitFor({ timeout: 60_000 });
    await settled(page);
    const before = await page.locator('[data-testid=result-hash]').textContent();
    await page.locator('#f_seed').fill('11');
    // The scenario goes into the address (?s=, the versioned encoding) as it is edited.
    await page.waitForURL(/[?&]s=1\./, { timeout: 10_000 });
    assert.match(page.url(), /[?&]preset=single-reno-trace/);
    await page.waitForFunction((h) => {
      const status = document.querySelector('[data-testid=run-status]')?.textContent;
      return status === 'up to date' && document.querySelector('[data-testid=result-hash]')?.textContent !== h;
    }, before, { timeout: 60_000 });
    const edited = await page.locator('[data-testid=result-hash]').textContent();
    const check = async (how: string) => {
      await page.locator('#f_seed').waitFor({ timeout: 60_000 });
      assert.equal(await page.locator('#f_seed').inputValue(), '11', how);
      await page.waitForFunction((h) => document.querySelector('[data-testid=result-hash]')?.textContent === h, edited, { timeout: 60_000 });
    };
    await page.getByRole('link', { name: 'Presets' }).click();
    await page.waitForURL(/\/presets$/);
    await page.goBack();
    await check('back');
    await page.reload();
    await check('reload');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the gallery draws every thumbnail with no console error', async () => {
  const { page, errors, close } = await newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  try {
    await page.goto(`${server.url}/presets`);
    const thumbnails = page.locator('svg.thumbnail');
    await thumbnails.first().waitFor({ timeout: 30_000 });
    const n = await thumbnails.count();
    // A thumbnail runs when its card scrolls into view: every card in turn.
    for (let i = 0; i < n; i++) {
      await thumbnails.nth(i).scrollIntoViewIfNeeded();
      await page.waitForFunction((k) => document.querySelectorAll('svg.thumbnail')[k]?.getAttribute('data-thumbnail') !== 'waiting', i, { timeout: 120_000 });
    }
    const states = await thumbnails.evaluateAll((els) => els.map((e) => e.getAttribute('data-thumbnail')));
    assert.deepEqual(states.filter((s) => s !== 'drawn'), [], 'every thumbnail draws');
    const paths = await page.locator('svg.thumbnail path').evaluateAll((els) => els.map((e) => e.getAttribute('d') ?? ''));
    assert.ok(paths.length >= n, `${paths.length} lines in ${n} thumbnails`);
    assert.deepEqual(paths.filter((d) => d.includes('NaN')), []);
    console.log(`# gallery: ${n} thumbnails, ${paths.length} lines, ${consoleErrors.length} console errors`);
    assert.deepEqual(consoleErrors, []);
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

// docs/SECURITY.md: stored titles are rendered as text wherever the app shows them.
test('a title holding markup is shown as text on the experiment and batch pages', async () => {
  const title = '<img src=x onerror="window.__injected=1"><b>bold</b>';
  const scenario = await (await fetch(`${server.url}/api/presets/spand-single-30k`)).json();
  const postJson = async (path: string, body: unknown) =>
    (await (await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { id: string };
  const experiment = await postJson('/api/experiments', { scenario, title });
  const batch = await postJson('/api/batches', { scenario, grid: {}, replications: 1, title });
  const { page, errors, close } = await newPage();
  try {
    for (const path of [`/e/${experiment.id}`, `/b/${batch.id}`]) {
      await page.goto(`${server.url}${path}`);
      await page.getByText(title).first().waitFor({ timeout: 60_000 });
      assert.equal(await page.locator('img[src="x"]').count(), 0, `${path}: no element made from the title`);
      assert.equal(await page.locator('b', { hasText: 'bold' }).count(), 0, path);
      assert.equal(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected), undefined, path);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// docs/SECURITY.md: the Content-Security-Policy's style-src is 'self' alone. An inline style (a
// style attribute in markup, a <style> element) is refused and reported, which every test's
// watchErrors turns into a failure; a style set through the CSSOM, as React and D3 set theirs, is
// not restricted (CSP Level 3, "style-src").
test('the page refuses inline styles and reports them; styles set through the CSSOM apply', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    assert.deepEqual(errors, [], 'the app itself breaks no rule of the policy');
    const colours = await page.evaluate(() => {
      const host = document.createElement('div');
      document.body.append(host);
      host.innerHTML = '<span style="color: rgb(1, 2, 3)">markup</span>';
      const markup = getComputedStyle(host.firstElementChild!).color;
      const sheet = document.createElement('style');
      sheet.textContent = '#csp-probe { color: rgb(4, 5, 6) }';
      document.head.append(sheet);
      const probe = document.createElement('span');
      probe.id = 'csp-probe';
      host.append(probe);
      const element = getComputedStyle(probe).color;
      const cssom = document.createElement('span');
      host.append(cssom);
      cssom.style.color = 'rgb(7, 8, 9)';
      const result = { markup, element, cssom: getComputedStyle(cssom).color };
      host.remove();
      sheet.remove();
      return result;
    });
    assert.notEqual(colours.markup, 'rgb(1, 2, 3)', 'a style attribute in markup is refused');
    assert.notEqual(colours.element, 'rgb(4, 5, 6)', 'a <style> element is refused');
    assert.equal(colours.cssom, 'rgb(7, 8, 9)', 'element.style applies');
    // The reports arrive as console messages, after the evaluation.
    for (let i = 0; i < 50 && errors.length < 2; ++i) await page.waitForTimeout(100);
    assert.ok(errors.length >= 2 && errors.every((e) => /style-src|Content Security Policy/.test(e)), errors.join('\n'));
  } finally {
    await close();
  }
});

test('hovering a connection highlights it in every plot; a click isolates it; the keyboard does the same', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=scheme-etcp`);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    for (const k of ['inflight', 'rates', 'rtt']) await page.locator(`[data-plot-toggle=${k}]`).click();
    const perConnection = page.locator('figure[data-plot="time-sequence"], figure[data-plot="cwnd"], figure[data-plot="inflight"], figure[data-plot="rates"], figure[data-plot="rtt"]');
    assert.equal(await perConnection.count(), 5);
    // The legend is one grouped panel: content types first, the connections folded inside.
    const panel = page.locator('[data-testid=connection-panel]');
    assert.equal(await page.locator('figure .legend .legend-toggle').count(), 0, 'no per-plot connection legends');
    await panel.locator('summary', { hasText: 'html' }).click();
    const chip = panel.locator('details[open] button.conn-name').first();
    const flow = await chip.getAttribute('data-flow');
    const plotsSelector = ['time-sequence', 'cwnd', 'inflight', 'rates', 'rtt'].map((k) => `figure[data-plot="${k}"]`).join(', ');
    await chip.hover();
    await attributeEverywhere(page, plotsSelector, 'data-highlight', flow!);
    const framesBefore = Number(await page.locator('figure[data-plot="cwnd"]').getAttribute('data-frames'));
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.querySelector('figure[data-plot="cwnd"]')?.getAttribute('data-highlight') === '');
    assert.ok(Number(await page.locator('figure[data-plot="cwnd"]').getAttribute('data-frames')) > framesBefore, 'the highlight redraws the plot');
    // A click isolates the connection in every plot; "Show all" undoes it.
    const connections = Number(await page.locator('figure[data-plot="time-sequence"]').getAttribute('data-connections'));
    await chip.click();
    assert.equal(await page.locator('figure[data-plot="time-sequence"]').getAttribute('data-hidden'), String(connections - 1));
    await page.screenshot({ path: join(artifacts, 'isolated-connection.png') });
    await page.locator('[data-testid=show-all]').click();
    assert.equal(await page.locator('figure[data-plot="time-sequence"]').getAttribute('data-hidden'), '0');
    // Keyboard: focusing a connection highlights it, Enter isolates it.
    await chip.focus();
    await attributeEverywhere(page, plotsSelector, 'data-highlight', flow!);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('figure[data-plot="cwnd"]').getAttribute('data-hidden'), String(Number(await page.locator('figure[data-plot="cwnd"]').getAttribute('data-connections')) - 1));
    // Hovering a line in a plot does the same: the pointer over the time–sequence graph finds a
    // segment, and the other plots highlight its connection.
    await page.locator('[data-testid=show-all]').click();
    await page.mouse.move(0, 0);
    const overlay = page.locator('figure[data-plot="time-sequence"] .plot-overlay');
    const box = (await overlay.boundingBox())!;
    let hovered = '';
    for (let i = 0; i < 60 && !hovered; i++) {
      for (let j = 0; j < 24 && !hovered; j++) {
        await page.mouse.move(box.x + ((i + 0.5) / 60) * box.width, box.y + box.height - ((j + 0.5) / 24) * box.height);
        hovered = (await page.locator('figure[data-plot="time-sequence"]').getAttribute('data-highlight')) ?? '';
      }
    }
    assert.notEqual(hovered, '', 'a segment was found under the pointer');
    await attributeEverywhere(page, plotsSelector, 'data-highlight', hovered);
    await page.mouse.move(0, 0);
    // The search finds a connection by name, item or content type.
    await panel.getByLabel('Find a connection').fill('images3 #1');
    assert.ok((await panel.locator('.found button.conn-name').count()) >= 1);
    for (const name of await panel.locator('.found button.conn-name').allTextContents()) assert.match(name, /images3#1/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a scenario in the link opens on a copy of the app with no server and gives the same resultHash', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    await page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
    await settled(page);
    const hash = await hashOf(page);
    await page.locator('[data-testid=make-link]').click();
    const href = await page.locator('[data-testid=scenario-link]').getAttribute('href');
    assert.match(href ?? '', /\?s=1\.[A-Za-z0-9_-]+$/);
    const fresh = await newPage();
    try {
      // As on a static copy: no API at all.
      await fresh.page.route('**/api/**', (route) => route.abort('connectionrefused'));
      await fresh.page.goto(href!);
      await fresh.page.locator('figure[data-plot="time-sequence"]').waitFor({ timeout: 60_000 });
      await settled(fresh.page);
      assert.equal(await hashOf(fresh.page), hash);
      assert.deepEqual(fresh.errors, []);
    } finally {
      await fresh.close();
    }
    // A damaged link says so.
    await page.goto(`${href!.slice(0, -12)}`);
    await page.getByText(/cannot be read/).waitFor({ timeout: 30_000 });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

const run = promisify(execFile);
const tcpsim = join(repoRoot, 'build/release/tcpsim');

test('reproductions: the quick size runs in the browser and its report is the CLI’s, to the bit', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/reproduce`);
    await page.locator('[data-testid=reproductions] [data-experiment]').first().waitFor({ timeout: 60_000 });
    const listed = await page.locator('[data-testid=reproductions] [data-experiment]').evaluateAll((els) => els.map((e) => e.getAttribute('data-experiment')));
    const { stdout: names } = await run(tcpsim, ['experiments']);
    assert.deepEqual([...listed].sort(), names.trim().split('\n').sort());
    await page.screenshot({ path: join(artifacts, 'reproductions.png'), fullPage: true });
    for (const name of ['right-edge-recovery', 'etcp-fig5-realistic']) {
      await page.goto(`${server.url}/reproduce/${name}`);
      await page.locator('[data-testid=claims]').waitFor({ timeout: 120_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Report JSON' }).click()]);
      const browserReport = await readFile((await download.path())!, 'utf8');
      const { stdout: cliReport } = await run(tcpsim, ['reproduce', name, '--quick', '--json'], { maxBuffer: 1 << 26 });
      assert.equal(browserReport, cliReport, `${name}: the browser's report is the CLI's`);
      const report = JSON.parse(cliReport) as { claims: unknown[]; runsHash: string };
      assert.equal(await page.locator('[data-testid=reproduction]').getAttribute('data-runs-hash'), report.runsHash);
      assert.equal(await page.locator('[data-testid=claims] > li').count(), report.claims.length);
      assert.ok((await page.locator('figure[data-plot="bars"], figure[data-plot="sweep"], [data-testid=report-table]').count()) >= 1, 'the figure is rebuilt');
      await page.locator('[data-testid=doc-section]').waitFor();
      await page.screenshot({ path: join(artifacts, `reproduce-${name}.png`), fullPage: true });
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('reproductions: the full size runs on the server with live progress, and its stored report opens from its link', async () => {
  // E-TCP Fig. 6 (model): ten runs of a fraction of a second at full size, the cheapest full size.
  const name = 'etcp-fig6-model';
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/reproduce/${name}`);
    await page.locator('[data-testid=claims]').waitFor({ timeout: 120_000 });
    const { stdout: cliReport } = await run(tcpsim, ['reproduce', name, '--json'], { maxBuffer: 1 << 26 });
    const report = JSON.parse(cliReport) as { claims: unknown[]; runsHash: string; runs: number };
    await page.getByText(`${report.runs} runs go to the server’s queue`).waitFor();
    await page.getByTestId('run-full').click();
    await page.waitForURL(/\/r\/[A-Za-z0-9_-]{22}$/, { timeout: 30_000 });
    const link = page.url();
    await page.getByTestId('reproduction-progress').waitFor();
    await page.locator('[data-testid=reproduction-run][data-status=completed]').waitFor({ timeout: 120_000 });
    assert.equal(await page.getByTestId('reproduction-run').getAttribute('data-runs-hash'), report.runsHash);
    assert.equal(await page.locator('[data-testid=claims] > li').count(), report.claims.length);
    assert.ok((await page.locator('figure[data-plot="bars"], figure[data-plot="sweep"], [data-testid=report-table]').count()) >= 1, 'the figure is rebuilt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-json').click()]);
    assert.equal(await readFile((await download.path())!, 'utf8'), cliReport, 'the stored report is the CLI\'s, to the byte');
    await page.screenshot({ path: join(artifacts, `reproduce-${name}-full.png`), fullPage: true });

    // Whoever opens the link gets the stored report.
    const other = await newPage();
    try {
      await other.page.goto(link);
      await other.page.locator('[data-testid=reproduction-run][data-status=completed]').waitFor({ timeout: 30_000 });
      assert.equal(await other.page.getByTestId('reproduction-run').getAttribute('data-runs-hash'), report.runsHash);
      assert.equal(await other.page.locator('[data-testid=claims] > li').count(), report.claims.length);
      assert.deepEqual(other.errors, []);
    } finally {
      await other.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

/** Submits a reproduction through the API; returns its id. */
async function submitReproduction(experiment: string): Promise<string> {
  const response = await fetch(`${server.url}/api/reproductions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ experiment, mode: 'full' }),
  });
  assert.equal(response.status, 202, await response.clone().text());
  return ((await response.json()) as { id: string }).id;
}

test('axe-core finds no serious or critical violation on any page', async () => {
  // The app's Content-Security-Policy forbids inline scripts, as it should: axe comes in around it.
  const context = await browser.newContext({ viewport: { width: 1400, height: 1100 }, bypassCSP: true });
  const page = await context.newPage();
  const close = () => context.close();
  // A reproduction while its runs go through the queue (TCP-INT's SACK figure: 900 runs at full
  // size, cancelled below), and one finished.
  const finished = await submitReproduction('etcp-fig6-model');
  const running = await submitReproduction('tcpint-fig-sack');
  // A saved experiment and a batch of four short runs (queued behind the reproductions; the running
  // one is cancelled once its page is checked).
  const postJson = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.ok(response.status < 300, await response.clone().text());
    return (await response.json()) as { id: string };
  };
  const experiment = await postJson('/api/experiments', { scenario: await presetScenario(PRESET), title: 'fig4, saved' });
  const batch = await postJson('/api/batches', { scenario: await presetScenario('spand-single-30k'), grid: { '/tcp/initialWindow': [1, 4] }, replications: 2, title: 'initial window' });
  try {
    const pages: [string, string][] = [
      [`/r/${running}`, '[data-testid=reproduction-run] [data-testid=reproduction-progress]'],
      [`/r/${finished}`, '[data-testid=reproduction-run][data-status=completed] [data-testid=claims]'],
      ['/r/AAAAAAAAAAAAAAAAAAAAAA', '[data-testid=reproduction-error]'],
      ['/', 'figure[data-plot="time-sequence"][data-frames]'],
      ['/?preset=scheme-etcp&plots=seq,cwnd,ensemble,pacing,queue,rates,rtt', 'figure[data-plot="rtt"][data-frames]'],
      ['/?preset=etcp-fig4-fair&mode=compare&schemes=independent,etcp', '[data-testid=difference-table]'],
      ['/presets', '.cards'],
      ['/reproduce', '[data-testid=reproductions]'],
      ['/reproduce/savoric-table2', '[data-testid=claims]'],
      ['/reproduce/spand-fig10', 'figure[data-plot="sweep"]'],
      ['/e/AAAAAAAAAAAAAAAAAAAAAA', '[data-testid=experiment-error]'],
      [`/e/${experiment.id}`, '[data-testid=hash-check]'],
      [`/b/${batch.id}`, '[data-testid=batch-page][data-status=completed] figure[data-plot="sweep"]'],
      ['/?preset=flavor-bbr', 'figure[data-plot="bbr-state"][data-frames]'],
    ];
    const found: string[] = [];
    for (const [path, ready] of pages) {
      await page.goto(`${server.url}${path}`);
      await page.locator(ready).first().waitFor({ timeout: 120_000 });
      found.push(...(await axeViolations(page, path)));
      // Checked while running: its runs need not keep the one worker busy any longer.
      if (path === `/r/${running}`) await fetch(`${server.url}/api/reproductions/${running}`, { method: 'DELETE' });
    }
    assert.deepEqual(found, []);
  } finally {
    await fetch(`${server.url}/api/reproductions/${running}`, { method: 'DELETE' });
    await close();
  }
});

test('the landing view asks four questions; the first opens compare mode with its plots (the fourth, its own view: reuse.test.ts)', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/`);
    const questions = page.locator('[data-testid=landing] a.question');
    assert.equal(await questions.count(), 4);
    await questions.first().click();
    await page.locator('[data-testid=difference-table]').waitFor({ timeout: 120_000 });
    assert.ok((await page.locator('.multiple').count()) >= 3);
    // The web question is answered with the page's time, first thing, and its windows.
    assert.equal(await page.locator('[data-testid=compare-answer]').getAttribute('data-metric'), 'meanTotalTimeS');
    assert.match((await page.locator('[data-testid=compare-answer]').textContent()) ?? '', /mean page time: independent [\d.]+ s; etcp [\d.]+ s \(-\d+ %\)/);
    assert.equal(await page.locator('.multiple figure[data-plot="time-sequence"]').count(), 0, 'the question asks for the windows only');
    assert.ok((await page.locator('.multiple figure[data-plot="ensemble"]').count()) >= 2, 'E-TCP and TCP-INT draw their group windows');
    // The second question: RFC 9040's temporal sharing gives independent's numbers, and says why.
    await page.goto(`${server.url}/`);
    await questions.nth(1).click();
    await page.locator('[data-testid=difference-table]').waitFor({ timeout: 120_000 });
    const identical = page.locator('[data-testid=compare-identical]');
    if ((await identical.count()) > 0) assert.match((await identical.first().textContent()) ?? '', /gives exactly the numbers independent gives: .+/);
    await page.screenshot({ path: join(artifacts, 'question-compare.png'), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('SACK blocks: each ACK’s first block is drawn at the ACK’s time, as many as the native trace holds', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=flavor-sack`);
    const tsq = page.locator('figure[data-plot="time-sequence"]');
    await tsq.waitFor({ timeout: 60_000 });
    await settled(page);
    // The native trace: ACK rows of the data's connection (from the receiver) that carry SACK blocks.
    const out = await mkdtemp(join(tmpdir(), 'tcb-sack-'));
    try {
      await run(tcpsim, ['run', '--preset', 'flavor-sack', '-o', out], { maxBuffer: 1 << 26 });
      const [header, ...rows] = (await readFile(join(out, 'trace.csv'), 'utf8')).trim().split('\n');
      const columns = header.split(',');
      const at = (name: string) => columns.indexOf(name);
      assert.ok(at('sack_blocks') > 0 && at('sack_start') > 0 && at('sack_end') > 0, header);
      const sackAcks = rows.map((r) => r.split(',')).filter((r) => r[at('event')] === 'ack' && Number(r[at('sack_blocks')]) > 0);
      assert.ok(sackAcks.length > 0, 'flavor-sack loses segments, and its receiver SACKs what arrives beyond them');
      for (const r of sackAcks) assert.ok(Number(r[at('sack_start')]) > Number(r[at('ack')]) && Number(r[at('sack_end')]) > Number(r[at('sack_start')]));
      assert.equal(Number(await tsq.getAttribute('data-sacks')), sackAcks.length);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
    assert.equal(await tsq.locator('.legend li', { hasText: 'SACK block' }).count(), 1);
    // The graph's CSV is what it draws: the SACK blocks among the segments.
    const [download] = await Promise.all([page.waitForEvent('download'), tsq.getByRole('button', { name: 'CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    assert.equal(csv.split(/\r?\n/).filter((l) => l.includes(',sack,')).length, Number(await tsq.getAttribute('data-sacks')));
    // Zoomed in (the wheel, at the first SACK block's time) on the first loss: the blocks above the
    // flat ACK line, and hovering one names it.
    const firstSack = csv.split(/\r?\n/).find((l) => l.includes(',sack,'))!.split(',');
    const t = Number(firstSack[0]);
    const overlay = tsq.locator('.plot-overlay');
    const box = (await overlay.boundingBox())!;
    // The time axis spans the run: flavor-sack's duration.
    const end = (await presetScenario('flavor-sack')).durationS as number;
    await page.mouse.move(box.x + (box.width * t) / end, box.y + box.height / 2);
    for (let i = 0; i < 18; i++) {
      const frames = Number(await tsq.getAttribute('data-frames'));
      await page.mouse.wheel(0, -300);
      await page.waitForFunction((f) => Number(document.querySelector('figure[data-plot="time-sequence"]')?.getAttribute('data-frames')) > f, frames);
    }
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await tsq.screenshot({ path: join(artifacts, 'sack-time-sequence.png') });
    console.log(`# flavor-sack: ${Number(await tsq.getAttribute('data-sacks'))} SACK blocks drawn, the first at ${t} s`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('today’s TCP: CUBIC’s W_max and K on the cwnd plot, BBR’s state and pacing gain, Careful Resume’s phases', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=flavor-cubic`);
    const cwnd = page.locator('figure[data-plot="cwnd"][data-frames]');
    await cwnd.waitFor({ timeout: 60_000 });
    await settled(page);
    assert.match((await cwnd.getAttribute('data-columns')) ?? '', /\bwMaxBytes\b/);
    assert.ok(Number(await cwnd.getAttribute('data-k-marks')) >= 1, 'the cubic curve reaches W_max at least once in 30 s');
    assert.equal(await cwnd.locator('.legend li', { hasText: 'W_max (dotted)' }).count(), 1);
    await cwnd.screenshot({ path: join(artifacts, 'cubic-cwnd.png') });

    await page.goto(`${server.url}/?preset=flavor-bbr`);
    const bbr = page.locator('figure[data-plot="bbr-state"][data-frames]');
    await bbr.waitFor({ timeout: 60_000 });
    await settled(page);
    // Startup, Drain, ProbeBW's cycle, and ProbeRTT after 10 s without a lower RTT.
    assert.equal(await bbr.getAttribute('data-bands'), 'Startup,Drain,ProbeBW,ProbeRTT');
    assert.equal(await bbr.getAttribute('data-columns'), 'bbrPacingGainMilli');
    for (const state of ['Startup', 'Drain', 'ProbeBW', 'ProbeRTT']) assert.equal(await bbr.locator('.legend li', { hasText: state }).count(), 1, state);
    await bbr.screenshot({ path: join(artifacts, 'bbr-state.png') });

    await page.goto(`${server.url}/?preset=scheme-careful-resume`);
    const cr = page.locator('figure[data-plot="cwnd"][data-frames]');
    await cr.waitFor({ timeout: 60_000 });
    await settled(page);
    const phases = ((await cr.getAttribute('data-bands')) ?? '').split(',');
    for (const phase of ['Reconnaissance', 'Unvalidated']) assert.ok(phases.includes(phase), `${phase} in ${phases}`);
    await cr.screenshot({ path: join(artifacts, 'careful-resume-cwnd.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

/** Presses Tab (Shift+Tab backwards) until the focused element matches `selector`; fails after `max` presses. */
async function tabTo(page: Page, selector: string, max = 600, backwards = false): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), selector)) return i;
  }
  throw new Error(`${selector} not reached with ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

test('keyboard only: Tab reaches the explorer’s controls, and the run button, the legend, the connection picker, a plot toggle and a plot work from the keyboard', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/?preset=scheme-etcp`);
    await page.locator('figure[data-plot="time-sequence"][data-frames]').waitFor({ timeout: 60_000 });
    await settled(page);
    const seq = page.locator('figure[data-plot="time-sequence"]');
    const connections = Number(await seq.getAttribute('data-connections'));
    // From the top of the page: the form's first choice, then the run button. Tabbing through
    // the form's fields changes nothing (nothing is checked or run again).
    const runs = await page.evaluate(() => performance.getEntriesByName('tcb:run-start').length);
    const toScheme = await tabTo(page, '#scheme');
    const toRun = await tabTo(page, '[data-testid=run]');
    assert.equal(await page.locator('[data-testid=run-status]').textContent(), 'up to date');
    assert.equal(await page.evaluate(() => performance.getEntriesByName('tcb:run-start').length), runs);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => performance.getEntriesByName('tcb:run-start').length > n, runs);
    await settled(page);
    // The legend (the connection panel, one for every plot): open a group, focus a connection (it
    // is highlighted in every plot), isolate it with Enter, then "Show all".
    const toPanel = await tabTo(page, '[data-testid=connection-panel] summary');
    await page.keyboard.press('Enter');
    await tabTo(page, '[data-testid=connection-panel] details[open] button.conn-name', 20);
    const flow = await page.evaluate(() => document.activeElement!.getAttribute('data-flow'));
    await attributeEverywhere(page, 'figure[data-plot="time-sequence"], figure[data-plot="cwnd"]', 'data-highlight', flow!);
    await page.keyboard.press('Enter');
    assert.equal(await seq.getAttribute('data-hidden'), String(connections - 1));
    await tabTo(page, '[data-testid=show-all]', 60, true);
    await page.keyboard.press('Enter');
    assert.equal(await seq.getAttribute('data-hidden'), '0');
    // The connection picker: type into the search, Tab to what it found, Enter isolates it.
    await tabTo(page, '[data-testid=connection-panel] input[type=search]', 10);
    await page.keyboard.type('images3 #1');
    await tabTo(page, '[data-testid=connection-panel] .found button.conn-name', 10);
    assert.match((await page.evaluate(() => document.activeElement!.textContent)) ?? '', /images3#1/);
    await page.keyboard.press('Enter');
    assert.equal(await seq.getAttribute('data-hidden'), String(connections - 1));
    // A plot toggle: Space shows the queue plot.
    const toToggle = await tabTo(page, '[data-plot-toggle=queue]');
    assert.equal(await page.locator('[data-plot-toggle=queue]').getAttribute('aria-pressed'), 'false');
    await page.keyboard.press('Space');
    await page.locator('figure[data-plot="queue"][data-frames]').waitFor();
    assert.equal(await page.locator('[data-plot-toggle=queue]').getAttribute('aria-pressed'), 'true');
    // A plot: + zooms in (a redraw), 0 resets.
    await tabTo(page, 'figure[data-plot="time-sequence"] .plot-overlay', 40);
    const frames = Number(await seq.getAttribute('data-frames'));
    await page.keyboard.press('+');
    await page.waitForFunction((f) => Number(document.querySelector('figure[data-plot="time-sequence"]')?.getAttribute('data-frames')) > f, frames);
    await page.keyboard.press('0');
    await page.locator('[data-testid=connection-panel]').screenshot({ path: join(artifacts, 'keyboard-legend.png') });
    // The form's hundreds of fields come before the run in the page: a skip link jumps over them.
    await page.goto(`${server.url}/?preset=scheme-etcp`);
    await settled(page);
    const toSkip = await tabTo(page, 'a[href="#workspace"]', 10);
    await page.keyboard.press('Enter');
    // Skip links move focus, not only the view (WCAG 2.4.1).
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'workspace');
    const skipToRun = await tabTo(page, '[data-testid=run]', 10);
    // The page's own skip link, the first stop of Tab, moves focus to the content.
    await page.goto(`${server.url}/presets`);
    await page.locator('.gallery h2').waitFor({ timeout: 30_000 });
    await tabTo(page, 'a[href="#content"]', 3);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'content');
    console.log(
      `# keyboard: the scheme field after ${toScheme} presses of Tab, the run button ${toRun} more through the form (${toSkip} + ${skipToRun} with the skip link), the legend ${toPanel} more, the queue toggle ${toToggle} after the search`,
    );
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('on a 390 px wide screen the plots come first and the form folds away', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/?preset=${PRESET}`);
    const plot = page.locator('figure[data-plot="time-sequence"]');
    await plot.waitFor({ timeout: 60_000 });
    const form = page.locator('.builder');
    assert.ok((await plot.boundingBox())!.y < (await form.boundingBox())!.y, 'the plot is above the form');
    assert.equal(await page.locator('.builder-fold').getAttribute('open'), null, 'the form is folded');
    await page.screenshot({ path: join(artifacts, 'explorer-390.png') });
  } finally {
    await context.close();
  }
});

test('measured (printed, not asserted): first plot and zooming a million-segment graph, quiet and with one core busy', async () => {
  for (const load of [false, true]) {
    const times = await withLoad(load, () => firstPlotTimes(browser, `${server.url}/`, 3));
    console.log(`# first plot (default preset, ${load ? 'one core busy' : 'quiet'}): ${times.map((v) => v.toFixed(0)).join(', ')} ms; median ${median(times).toFixed(0)} ms`);
  }
  // dumbbell-bulk for 85 simulated seconds: about a million data segments.
  const { page, readyMs, close } = await openLargeTrace(browser, server.url, Number(process.env.E2E_LARGE_DURATION_S ?? 85));
  try {
    console.log(`# large trace: run and plots ready ${readyMs} ms after applying`);
    for (const load of [false, true]) {
      const z = await withLoad(load, () => measureZoom(page, 3));
      console.log(`# zooming (${load ? 'one core busy' : 'quiet'}): ${describeZoom(z)}`);
    }
    await page.locator('figure[data-plot="time-sequence"]').screenshot({ path: join(artifacts, 'large-trace.png') });
  } finally {
    await close();
  }
});
