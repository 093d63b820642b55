-- Up Migration
-- Worker processes, wherever they run, register here and refresh heartbeat_at. A worker whose
-- heartbeat is older than the dead-after limit has crashed or lost the database: whoever notices
-- (another worker, the server) hands its graphile-worker locks (lock_ids: its pool and worker ids)
-- to graphile_worker.force_unlock_workers, so its jobs run again elsewhere, and deletes the row.
CREATE TABLE workers (
  id           text PRIMARY KEY,
  hostname     text NOT NULL,
  pid          integer NOT NULL,
  engine       text NOT NULL,
  concurrency  integer NOT NULL,
  lock_ids     text[] NOT NULL DEFAULT '{}',
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workers_heartbeat_idx ON workers (heartbeat_at);
