// A PostgreSQL for a test file: an embedded cluster on a free loopback port in a temporary
// directory (stopped and removed at the end), or, when DATABASE_URL is set, a fresh database on
// that server (dropped at the end). The embedded cluster can also listen on other test hosts'
// links (helpers/netns.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';

export interface TestDatabase {
  url: string;
  /** Only with the embedded cluster: stop and start it (a PostgreSQL outage). */
  embedded?: EmbeddedDatabase;
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<T>>;
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Embedded cluster only: addresses to listen on besides loopback (other test hosts' links). */
  listenAddresses?: string[];
  /** Embedded cluster only: networks (CIDR) allowed to connect besides loopback. */
  allowNetworks?: string[];
}

export async function startTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  let url: string;
  let embedded: EmbeddedDatabase | undefined;
  let cleanup: () => Promise<void>;
  if (process.env.DATABASE_URL) {
    const name = `tcblab_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    cleanup = async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'tcblab-pg-'));
    embedded = await startEmbeddedPostgres({
      dir,
      database: 'tcblab_test',
      listenAddresses: ['127.0.0.1', ...(options.listenAddresses ?? [])],
      allowNetworks: options.allowNetworks,
    });
    url = embedded.url;
    const e = embedded;
    cleanup = async () => {
      await e.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    url,
    embedded,
    query: (text, values) => pool.query(text, values),
    async close() {
      await pool.end().catch(() => {});
      await cleanup();
    },
  };
}
