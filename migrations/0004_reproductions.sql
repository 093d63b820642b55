-- Up Migration
-- Reproductions: a seed paper's experiment (sim-core/scenario/experiments/, or a document) run on
-- the queue at full (or quick) size, one row per run of its plan, and the report sim-core builds
-- from the runs' records in run order. Forward-only, in one transaction.

-- A reproduction. `source` is the experiment document as sim-core validated it (defaults filled in),
-- which the workers expand again (sim-core's Expand) to find each run's scenario: a later change to
-- a built-in experiment does not change a reproduction already queued. Its status is derived from
-- its runs when read, except for cancellation; the report is stored once, by the job that builds it.
CREATE TABLE reproductions (
  id             text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
  experiment     text NOT NULL,
  title          text NOT NULL,
  source         text NOT NULL,
  mode           text NOT NULL CHECK (mode IN ('full', 'quick')),
  total_runs     integer NOT NULL CHECK (total_runs >= 1),
  created_at     timestamptz NOT NULL DEFAULT now(),
  cancelled_at   timestamptz,
  -- The job that builds the report, queued once by the worker that records the last run.
  report_job_id  bigint,
  -- The report exactly as `tcpsim reproduce --json` prints it, and its tables as text.
  report_json    text,
  report_text    text,
  report_error   text,
  finished_at    timestamptz
);

-- One run of a reproduction's plan, by its index in run order (variant, point, replication).
-- attempts is the fencing token, as for a batch's runs: the record is written only while the run is
-- still 'running' with the attempt its worker claimed, so a run retried after its worker died is
-- recorded exactly once.
CREATE TABLE reproduction_runs (
  reproduction_id text NOT NULL REFERENCES reproductions (id) ON DELETE CASCADE,
  run_index       integer NOT NULL CHECK (run_index >= 0),
  status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
  attempts        integer NOT NULL DEFAULT 0,
  job_id          bigint,
  worker_id       text,
  engine          text,
  error           text,
  started_at      timestamptz,
  finished_at     timestamptz,
  wall_seconds    double precision,
  -- The run's record (sim-core's RunRecord): each metric's value (null where the summary has none)
  -- in the experiment's metric order, and the run's resultHash.
  metrics         double precision[],
  result_hash     text,
  PRIMARY KEY (reproduction_id, run_index)
);

CREATE INDEX reproduction_runs_status_idx ON reproduction_runs (reproduction_id, status);
