// Brings a database up to date: our numbered SQL migrations (migrations/, run by node-pg-migrate,
// each in its own transaction, forward only) and graphile-worker's own schema. Every process that
// starts (server, worker) calls this; node-pg-migrate's advisory lock makes them take turns. A
// process whose checkout lacks migrations the database has (a worker host left on an older commit)
// stops: it would not know the tables and jobs the newer code writes.
import { readdirSync } from 'node:fs';
import { join, parse } from 'node:path';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { runMigrations } from 'graphile-worker';
import { ConfigError, repoRoot } from '../config.js';

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
  await refuseNewerDatabase(databaseUrl);
  await runMigrations({ connectionString: databaseUrl, logger: quietLogger });
}

async function refuseNewerDatabase(databaseUrl: string): Promise<void> {
  const known = new Set(readdirSync(migrationsDir).map((file) => parse(file).name));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await client.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY run_on, id');
    const unknown = r.rows.map((row) => row.name).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new ConfigError(
        `the database has migrations this checkout does not (${unknown.join(', ')}): it was migrated by a newer commit; run that commit here (docs/DEPLOY.md)`,
      );
    }
  } finally {
    await client.end().catch(() => {});
  }
}

import { Logger } from 'graphile-worker';

/** graphile-worker's logger, with only warnings and errors passed on. */
export function graphileLogger(log: (level: string, message: string) => void): Logger {
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(level, message);
  });
}

const quietLogger = graphileLogger((level, message) => console.error(`graphile-worker ${level}: ${message}`));
