-- Up Migration
-- Saved experiments, batches (a base scenario swept over a grid of parameter values, with
-- replications) and one row per run of a batch. Forward-only: node-pg-migrate runs this file once,
-- in one transaction, and records it in pgmigrations.

-- A saved experiment: a share link (/e/<id>). Ids are 128 random bits in base64url.
CREATE TABLE experiments (
  id          text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
  title       text,
  scenario    jsonb NOT NULL,
  result      jsonb,
  result_hash text,
  -- true when the server ran the scenario and got result_hash itself.
  verified    boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- A batch. Its status is derived from its runs' statuses when read, except for cancellation.
CREATE TABLE batches (
  id              text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
  title           text,
  scenario        jsonb NOT NULL,
  -- The grid as submitted, and its JSON Pointers in submission order (jsonb does not keep key
  -- order; the first pointer varies slowest).
  grid            jsonb NOT NULL,
  pointers        text[] NOT NULL,
  replications    integer NOT NULL CHECK (replications >= 1),
  trace           text NOT NULL CHECK (trace IN ('none', 'summary')),
  total_runs      integer NOT NULL CHECK (total_runs >= 1),
  idempotency_key text UNIQUE,
  request_hash    text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  cancelled_at    timestamptz
);

-- One grid point of a batch: the values of the batch's pointers, and the scenario they make (the
-- batch's scenario with each value set at its pointer), which the point's runs run.
CREATE TABLE batch_points (
  batch_id    text NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  point_index integer NOT NULL CHECK (point_index >= 0),
  params      jsonb NOT NULL,
  scenario    jsonb NOT NULL,
  PRIMARY KEY (batch_id, point_index)
);

-- One run: a grid point and a replication. attempts is the fencing token: a worker writes the
-- result only while the run is still 'running' with the attempt it claimed, so a run retried after
-- its worker died is recorded exactly once.
CREATE TABLE runs (
  id             bigserial PRIMARY KEY,
  batch_id       text NOT NULL,
  point_index    integer NOT NULL,
  replication    integer NOT NULL CHECK (replication >= 0),
  seed           bigint NOT NULL,
  status         text NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
  attempts       integer NOT NULL DEFAULT 0,
  job_id         bigint,
  worker_id      text,
  engine         text,
  error          text,
  started_at     timestamptz,
  finished_at    timestamptz,
  wall_seconds   double precision,
  -- The key metrics, read from the summary (server/src/sim/metrics.ts names their pointers).
  mean_completion_time_s      double precision,
  jain_index                  double precision,
  retransmissions             bigint,
  timeouts                    bigint,
  mean_html_time_s            double precision,
  mean_total_time_s           double precision,
  retrieval_rate_bytes_per_s  double precision,
  events                      bigint,
  result_hash    text,
  summary        jsonb,
  UNIQUE (batch_id, point_index, replication),
  FOREIGN KEY (batch_id, point_index) REFERENCES batch_points (batch_id, point_index) ON DELETE CASCADE
);

-- Progress counts and aggregates read a batch's runs by status and by point.
CREATE INDEX runs_batch_status_idx ON runs (batch_id, status);
CREATE INDEX runs_batch_point_idx ON runs (batch_id, point_index, replication);
-- Health counts the runs still waiting or running over all batches.
CREATE INDEX runs_unfinished_idx ON runs (status) WHERE status IN ('pending', 'running');
