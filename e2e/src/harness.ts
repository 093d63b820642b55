// The e2e harness: the real server (server/dist/src/main.js, as `npm start` runs it) on a fresh
// embedded PostgreSQL in a temporary data directory, and Debian's Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const artifacts = join(repoRoot, 'e2e/artifacts');

export interface Server {
  url: string;
  stop(): Promise<void>;
  log(): string;
}

/** Starts the server with one local worker on a free port; resolves once it listens. */
export async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tcb-e2e-'));
  // Run as root, the embedded PostgreSQL drops to its own user, which must reach its directory.
  await chmod(dataDir, 0o755);
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'server/dist/src/main.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WORKERS: '1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    url,
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timeout = new Promise((resolve) => setTimeout(resolve, 20_000, 'timeout'));
        if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium; every context it makes starts from an empty profile. */
export async function launchBrowser(): Promise<Browser> {
  await mkdir(artifacts, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      // E2E_CHROMIUM_FLAGS replaces --disable-gpu, e.g. to compare WebGL through SwiftShader's flags.
      ...(process.env.E2E_CHROMIUM_FLAGS ?? '--disable-gpu').split(' ').filter(Boolean),
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Collects into `errors` what must not happen on a page: an uncaught error, and any breach of the
 * app's Content-Security-Policy (an inline style or script it refused, docs/SECURITY.md), as the
 * page's `securitypolicyviolation` events and Chromium's console report them.
 */
export async function watchErrors(page: Page, errors: string[]): Promise<void> {
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|securitypolicyviolation/.test(m.text())) errors.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`securitypolicyviolation: ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} ${e.sample}`);
    });
  });
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page as it is now, prints every violation it finds (with the number of rules
 * that pass), and returns the serious and critical ones as `label: impact rule at target`. The
 * app's Content-Security-Policy forbids inline scripts, as it should: the page's context must be
 * opened with `bypassCSP` for axe to come in.
 */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ passes: unknown[]; violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return { passes: r.passes.length, list: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0]?.target.join(' ') })) };
  });
  console.log(`# axe ${label}: ${violations.passes} rules pass; ${violations.list.length ? violations.list.map((v) => `${v.impact} ${v.id} (${v.nodes}, e.g. ${v.first})`).join('; ') : 'no violations'}`);
  return violations.list.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${label}: ${v.impact} ${v.id} at ${v.first}`);
}
