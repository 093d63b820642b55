// The reuse view ("What would reuse give my traffic?", /reuse) in a browser against the real
// server: reached from the landing screen by keyboard, a small sweep run in the browser's workers,
// the same sweep as a server batch (the native tcpsim) giving the same numbers and the same run
// hashes, bad input shown at its field, axe-core on the page, and a 390 px screen.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { artifacts, axeViolations, launchBrowser, startServer, watchErrors, type Server } from './harness.js';

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

// Three schemes, one size, two idle times, two replications (12 runs of 30 kB downloads on the
// scheme presets' 2 Mb/s dumbbell, with the competitor): seconds in the browser and on one worker.
const SMALL = '/reuse?path=scheme-independent&workload=download&sizes=30k&idle=1,20&schemes=independent,careful-resume,bdp-resume&competitor=1&reps=2';

async function newPage(width = 1400, height = 1100): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: false });
  const page = await context.newPage();
  const errors: string[] = [];
  await watchErrors(page, errors);
  return { page, errors, close: () => context.close() };
}

/** The table's numbers (every cell's statistics and its runs' resultHashes) once results from `source` show. */
async function numbers(page: Page, source: 'browser' | 'server') {
  await page.locator(`[data-testid=reuse-results][data-source=${source}]`).waitFor({ timeout: 180_000 });
  return JSON.parse((await page.locator('[data-testid=reuse-numbers]').textContent()) ?? 'null') as {
    scheme: string;
    idle: number;
    runs: number;
    resultHashes: string[];
    stats: Record<string, { n: number; mean: number | null; ci95: [number, number] | null }>;
  }[];
}

test('the landing screen’s reuse question opens the reuse view; the keyboard reaches it from every page', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}/`);
    const question = page.locator('[data-testid=landing] a.question', { hasText: 'What would reuse give my traffic?' });
    await question.click({ timeout: 60_000 });
    const view = page.locator('[data-testid=reuse] h2', { hasText: 'What would reuse give my traffic?' });
    await view.waitFor({ timeout: 30_000 });
    // One click answers: the default question runs at once, and the address keeps only the form.
    await page.locator('[data-testid=reuse-results]').waitFor({ timeout: 120_000 });
    assert.match(page.url(), /\/reuse\?path=/);
    assert.doesNotMatch(page.url(), /run=1/);
    // The path picker offers the path presets, described from their topology.
    assert.ok((await page.locator('#reuse-path option').count()) >= 2);
    await page.locator('#reuse-path-about', { hasText: '50 Mb/s, 600 ms RTT' }).waitFor({ timeout: 30_000 });

    // By keyboard: the main navigation's "Reuse", a few Tabs from the top of any page.
    await page.goto(`${server.url}/presets`);
    const nav = page.locator('nav[aria-label=Main] a', { hasText: 'Reuse' });
    await nav.waitFor({ timeout: 30_000 });
    let focused = false;
    for (let i = 0; i < 10 && !focused; i++) {
      await page.keyboard.press('Tab');
      focused = await nav.evaluate((el) => el === document.activeElement);
    }
    assert.ok(focused, 'Tab reaches the navigation’s Reuse link');
    await page.keyboard.press('Enter');
    await view.waitFor({ timeout: 30_000 });
    // and every field of the form in turn, in reading order.
    const order: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('name') || document.activeElement?.tagName || ''));
    }
    for (const id of ['reuse-path', 'reuse-workload', 'reuse-sizes', 'reuse-idle']) assert.ok(order.includes(id), `${id} is reached by Tab (${order.join(', ')})`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a small sweep runs in the browser, and the same sweep as a server batch gives the same numbers', async () => {
  const { page, errors, close } = await newPage();
  try {
    await page.goto(`${server.url}${SMALL}`);
    const size = page.locator('[data-testid=reuse-size]');
    await page.locator('#reuse-path-about', { hasText: 'Mb/s' }).waitFor({ timeout: 60_000 });
    assert.equal(await size.getAttribute('data-runs'), '12');
    await page.locator('[data-testid=reuse-run]', { hasText: 'Run in this browser' }).click();
    const inBrowser = await numbers(page, 'browser');
    assert.equal(inBrowser.length, 6, 'three schemes at two idle times');
    for (const cell of inBrowser) {
      assert.equal(cell.runs, 2);
      assert.equal(cell.stats.completionS.n, 2);
      assert.ok(cell.stats.completionS.mean! > 0);
      assert.ok(cell.stats.competitorS.n === 2, 'the competitor made its repeat visit');
    }
    assert.equal(await page.locator('figure[data-plot=sweep]').count(), 2, 'completion time against the idle time and against the size');
    assert.equal(await page.locator('[data-testid=reuse-table] tbody tr').count(), 3);
    await page.screenshot({ path: join(artifacts, 'reuse-browser.png'), fullPage: true });

    await page.locator('[data-testid=reuse-run-server]').click();
    await page.waitForURL(/batch=/, { timeout: 30_000 });
    const onServer = await numbers(page, 'server');
    // The server's runs (native tcpsim) are the browser's (WASM), bit for bit, and so is the table.
    assert.deepEqual(onServer, inBrowser);
    const batch = new URL(page.url()).searchParams.get('batch');
    assert.ok(batch && batch.length >= 16);
    assert.equal(await page.locator(`[data-testid=reuse-source] a[href="/b/${batch}"]`).count(), 1);

    // The link reopens the same question and its batch.
    const again = await newPage();
    try {
      await again.page.goto(page.url());
      assert.deepEqual(await numbers(again.page, 'server'), inBrowser);
    } finally {
      await again.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a size of 0 or a negative idle time shows its message at the field, and nothing runs', async () => {
  const { page, close } = await newPage();
  try {
    await page.goto(`${server.url}/reuse`);
    await page.locator('#reuse-path-about', { hasText: 'Mb/s' }).waitFor({ timeout: 60_000 });
    await page.locator('#reuse-sizes').fill('100k, 0');
    await page.locator('#reuse-idle').fill('10, -5');
    assert.equal(await page.locator('#reuse-sizes-error').textContent(), 'a size must be at least 1 byte (got 0)');
    assert.equal(await page.locator('#reuse-idle-error').textContent(), 'an idle time cannot be negative (got -5 s)');
    assert.equal(await page.locator('#reuse-sizes').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('[data-testid=reuse-run]').isDisabled(), true);
    // Fixed, the messages go and the sweep may run.
    await page.locator('#reuse-sizes').fill('100k');
    await page.locator('#reuse-idle').fill('10');
    assert.equal(await page.locator('.field-error').count(), 0);
    assert.equal(await page.locator('[data-testid=reuse-run]').isDisabled(), false);
  } finally {
    await close();
  }
});

test('axe-core finds no serious or critical violation on the reuse view, with its results, wide and at 390 px', async () => {
  const found: string[] = [];
  for (const [width, height] of [
    [1400, 1100],
    [390, 844],
  ]) {
    // The app's Content-Security-Policy forbids inline scripts, as it should: axe comes in around it.
    const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${SMALL.replace('reps=2', 'reps=1')}`);
      await page.locator('#reuse-path-about', { hasText: 'Mb/s' }).waitFor({ timeout: 60_000 });
      found.push(...(await axeViolations(page, `/reuse (form, ${width} px)`)));
      await page.locator('[data-testid=reuse-run]').click();
      await page.locator('[data-testid=reuse-results]').waitFor({ timeout: 120_000 });
      await page.locator('.reuse-all > summary').click();
      found.push(...(await axeViolations(page, `/reuse (results, ${width} px)`)));
      if (width === 390) {
        // Readable on a phone: nothing wider than the screen but the tables, which scroll in their box.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
        await page.screenshot({ path: join(artifacts, 'reuse-390.png'), fullPage: true });
      }
    } finally {
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});
