// The native CLI, run directly: what the service's answers are compared with.
import { spawnSync } from 'node:child_process';
import { loadConfig } from '../../src/config.js';

export const tcpsim = loadConfig().tcpsimPath;

export function preset(name: string): Record<string, any> {
  const r = spawnSync(tcpsim, ['preset', name], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

/** tcpsim's summary of a scenario (trace level and seed as given). */
export function runNative(scenario: unknown, args: string[] = []): Record<string, any> {
  const r = spawnSync(tcpsim, ['run', '-', ...args], { input: JSON.stringify(scenario), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

/** tcpsim validate's error line for a scenario: "$.path: problem". */
export function validateError(scenario: unknown): string {
  const r = spawnSync(tcpsim, ['validate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' });
  if (r.status !== 2) throw new Error(`expected exit code 2, got ${r.status}`);
  return r.stderr.trim().replace(/^error: /, '');
}
