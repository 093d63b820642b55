// Screenshots of the explorer with a realistic workload (preset scheme-etcp: 41 connections), for
// comparing the dashboard before and after a change: `node e2e/dist/screenshots.js <label>` writes
// e2e/artifacts/<label>-explorer-{full,viewport,390}.png and prints the page's height.
import { join } from 'node:path';
import { artifacts, launchBrowser, startServer } from './harness.js';

const label = process.argv[2] ?? 'current';
const preset = process.argv[3] ?? 'scheme-etcp';

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [name, viewport] of [
    ['viewport', { width: 1400, height: 1100 }],
    ['390', { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${server.url}/?preset=${preset}`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=run-status]')?.textContent === 'up to date' && !!document.querySelector('[data-testid=result-hash]'),
      null,
      { timeout: 120_000 },
    );
    await page.waitForTimeout(500);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`${label} ${name}: page height ${height} px at ${viewport.width} px wide`);
    await page.screenshot({ path: join(artifacts, `${label}-explorer-${name}.png`) });
    if (name === 'viewport') await page.screenshot({ path: join(artifacts, `${label}-explorer-full.png`), fullPage: true });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
