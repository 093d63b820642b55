// Names shared by the API (which queues and cancels) and the workers (which run and listen).

/** The graphile-worker task that runs a group of a batch's runs; its payload is queue/jobs.ts's RunJobPayload. */
export const runTask = 'tcb_lab_run';

/** NOTIFY channel on which a cancelled batch's id is announced, so workers stop its runs at once. */
export const cancelChannel = 'tcb_lab_batch_cancelled';

/** A run whose worker died this many times while running it fails instead of being tried again. */
export const maxRunAttempts = 3;

/**
 * The flag of the jobs that run simulations (a batch's runs, a reproduction's run). A worker keeps
 * a job queued behind the one its simulator runs only while their runs are short; otherwise it
 * declines these jobs for the moment (graphile-worker's forbiddenFlags), and a free worker takes
 * them (queue/worker.ts).
 */
export const simulationJobFlag = 'simulation';
