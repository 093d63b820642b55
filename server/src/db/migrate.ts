// Brings a database up to date: our numbered SQL migrations (migrations/, run by node-pg-migrate,
// each in its own transaction, forward only) and graphile-worker's own schema. Every process that
// starts (server, worker) calls this; node-pg-migrate's advisory lock makes them take turns.
import { join } from 'node:path';
import { runner } from 'node-pg-migrate';
import { runMigrations } from 'graphile-worker';
import { repoRoot } from '../config.js';

export const migrationsDir = join(repoRoot, 'migrations');

export async function migrate(databaseUrl: string, log: (message: string) => void = () => {}): Promise<void> {
  const applied = await runner({
    databaseUrl,
    dir: migrationsDir,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    singleTransaction: false,
    checkOrder: true,
    advisoryLockMode: 'wait',
    log: () => {},
    logger: { debug: () => {}, info: () => {}, warn: (m: string) => log(m), error: (m: string) => log(m) },
  });
  for (const m of applied) log(`migration applied: ${m.name}`);
  await runMigrations({ connectionString: databaseUrl, logger: quietLogger });
}

import { Logger } from 'graphile-worker';

/** graphile-worker's logger, with only warnings and errors passed on. */
export function graphileLogger(log: (level: string, message: string) => void): Logger {
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(level, message);
  });
}

const quietLogger = graphileLogger((level, message) => console.error(`graphile-worker ${level}: ${message}`));
