// PostgreSQL connections: one pg Pool per process. A pool survives the database going away: failed
// queries reject, idle connections that break are dropped (their 'error' is logged, not thrown),
// and the next query connects again.
import pg from 'pg';

// 64-bit integers (counts, run and job ids) as numbers: every one the service stores is far below
// 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export function createPool(
  connectionString: string,
  options: {
    max?: number;
    onError?: (error: Error) => void;
    synchronousCommit?: boolean;
    /** PostgreSQL ends a session of this pool left inside a transaction this long (and its locks go). */
    idleInTransactionTimeoutMs?: number;
    /** PostgreSQL cancels a statement of this pool that runs this long. */
    statementTimeoutMs?: number;
  } = {},
): pg.Pool {
  const settings = [
    ...(options.synchronousCommit === false ? ['-c synchronous_commit=off'] : []),
    ...(options.idleInTransactionTimeoutMs ? [`-c idle_in_transaction_session_timeout=${Math.round(options.idleInTransactionTimeoutMs)}`] : []),
    ...(options.statementTimeoutMs ? [`-c statement_timeout=${Math.round(options.statementTimeoutMs)}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString,
    ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (error) => options.onError?.(error));
  // A checked-out connection that breaks reports on the client too (graphile-worker checks for this).
  pool.on('connect', (client) => client.on('error', (error) => options.onError?.(error)));
  return pool;
}

/**
 * Calls `lost` whenever a connection of the pool breaks (idle or checked out): the database may have
 * restarted, and answers kept from before may be of commits it lost (a worker commits without
 * waiting for the disk, queue/worker.ts): a keeper of answers forgets them then.
 */
export function onConnectionLost(pool: pg.Pool, lost: () => void): void {
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
}

/**
 * Ends the pool once its connections are closed, not merely asked to close (pg's end() resolves
 * then): a PostgreSQL stopped right after would otherwise terminate them first, and each would
 * report a lost connection. Bounded by `timeoutMs`.
 */
export async function endPool(pool: pg.Pool, timeoutMs = 5000): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  let timer: NodeJS.Timeout | undefined;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => ++closed >= open && resolve());
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await pool.end();
    await allClosed;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A PostgreSQL array literal of integers (`{1,2,3}`), for a parameter cast to `bigint[]` or
 * `int[]`. node-postgres writes an array parameter element by element, escaping each, while the
 * API's event loop answers nothing (health included): for the 100,000 runs of a large batch, most of
 * that time (docs/PERFORMANCE.md, "A batch of 100,000 runs, submitted and cancelled"). Only for
 * integers (numbers, or the decimal text of a bigint).
 */
export function integerArray(values: ReadonlyArray<number | string>): string {
  return `{${values.join(',')}}`;
}

/** Runs `fn` in a transaction on one connection of `pool`. */
export async function transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
