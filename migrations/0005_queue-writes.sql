-- Up Migration
-- What the database does per run, made smaller: on a machine whose cores the simulators use, every
-- microsecond PostgreSQL spends per run is taken from them, and a fleet of workers shares one
-- database. Measured on a batch of short runs (bench/server.mjs): 0.16 ms of PostgreSQL's processor
-- time per run before, 0.11 after.

-- A run's summary is stored as the text the simulator printed, and PostgreSQL no longer reads
-- inside it: its input as jsonb cost some 20 µs per 1.2 kB summary. The worker stores the result
-- hash and the metric columns beside it, as tcpsim serve read them from the summary it printed
-- (server/src/repositories/runs.ts, recordedValues); results stream the text out as it is.
ALTER TABLE run_summaries ALTER COLUMN summary TYPE text USING summary::text;

-- A run's two updates (its claim, its result) change its status. While status was in an index,
-- each update wrote a new version of the row into every index of runs; without it, and with room
-- left on each page for the new versions, they are heap-only (HOT) updates that touch no index.
-- The per-batch queries (progress counts, statistics, cancellation, results) read a batch's runs
-- through the index of UNIQUE (batch_id, point_index, replication); health counts the unfinished
-- runs through their jobs (runs_job_idx: job_id changes only when runs are handed to a new job).
DROP INDEX runs_batch_status_idx;
DROP INDEX runs_unfinished_idx;
CREATE INDEX runs_job_idx ON runs (job_id);
ALTER TABLE runs SET (fillfactor = 50);
