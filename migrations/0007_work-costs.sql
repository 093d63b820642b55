-- Up Migration
-- What each request asked the simulators to do, in work units (server/src/sim/cost.ts: a traffic
-- source simulated for one second at up to 10 Mb/s), and who asked (the client's address): the
-- service checks a new batch, reproduction or saved experiment against the client's budget over
-- the last window (CLIENT_BUDGET) and against the work still queued from everyone (QUEUE_BUDGET),
-- server/src/repositories/budgets.ts. Rows stored before this migration cost nothing.
ALTER TABLE batches ADD COLUMN client text, ADD COLUMN cost double precision NOT NULL DEFAULT 0;
ALTER TABLE reproductions ADD COLUMN client text, ADD COLUMN cost double precision NOT NULL DEFAULT 0;
ALTER TABLE experiments ADD COLUMN client text, ADD COLUMN cost double precision NOT NULL DEFAULT 0;

-- A client's spending over the window.
CREATE INDEX batches_client_idx ON batches (client, created_at) WHERE client IS NOT NULL;
CREATE INDEX reproductions_client_idx ON reproductions (client, created_at) WHERE client IS NOT NULL;
CREATE INDEX experiments_client_idx ON experiments (client, created_at) WHERE client IS NOT NULL;

-- The work queued: a reproduction's unfinished runs are found through their jobs, as a batch's are
-- (runs_job_idx, migrations/0005_queue-writes.sql), and the experiments whose run is queued.
CREATE INDEX reproduction_runs_job_idx ON reproduction_runs (job_id);
CREATE INDEX experiments_pending_idx ON experiments (created_at) WHERE verification = 'pending';
