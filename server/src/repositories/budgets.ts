// The work budgets, checked before a batch, a reproduction or a saved experiment that runs on the
// queue is accepted, with its cost in work units (sim/cost.ts):
// - CLIENT_BUDGET: what one client (address) may ask for within CLIENT_BUDGET_WINDOW_S, counting
//   everything it submitted in that window (finished, cancelled or not);
// - QUEUE_BUDGET: the work queued from everyone and not yet done.
// A request that alone costs more than a budget is a 413 naming it (it can never fit); one that
// does not fit now is a 429 with Retry-After: when enough of the client's window will have passed,
// or, for the queue, a minute (the queue drains as the workers run).
import type { Pool } from '../db/pool.js';
import { RequestError } from '../responses.js';

export interface BudgetLimits {
  /** CLIENT_BUDGET, work units per window. */
  client: number;
  /** CLIENT_BUDGET_WINDOW_S. */
  windowS: number;
  /** QUEUE_BUDGET, work units. */
  queue: number;
}

/** Retry-After for a full queue: it drains as workers run, at a pace the service does not predict. */
export const queueRetryAfterS = 60;

/** Work units as people read them: "3.2e+08". */
const units = (n: number) => (n >= 1e6 ? n.toExponential(2) : String(Math.round(n)));

/**
 * The work of the runs not yet finished: each batch's and reproduction's cost in proportion to its
 * unfinished runs (found through their queue jobs, as health counts them), and the experiments
 * whose run is queued.
 */
export const queuedWorkSql = `
  SELECT coalesce((SELECT sum(b.cost * u.n / b.total_runs)
                   FROM (SELECT r.batch_id AS id, count(*) AS n FROM graphile_worker.jobs j JOIN runs r ON r.job_id = j.id
                         WHERE r.status IN ('pending', 'running') GROUP BY r.batch_id) u
                   JOIN batches b ON b.id = u.id), 0)
       + coalesce((SELECT sum(p.cost * u.n / p.total_runs)
                   FROM (SELECT r.reproduction_id AS id, count(*) AS n FROM graphile_worker.jobs j JOIN reproduction_runs r ON r.job_id = j.id
                         WHERE r.status IN ('pending', 'running') GROUP BY r.reproduction_id) u
                   JOIN reproductions p ON p.id = u.id), 0)
       + coalesce((SELECT sum(cost) FROM experiments WHERE verification = 'pending'), 0) AS work`;

export class WorkBudget {
  constructor(
    private readonly pool: Pool,
    readonly limits: BudgetLimits,
  ) {}

  /** What `client` submitted within the window: each request's time (ms since the epoch) and cost, oldest first. */
  async spent(client: string): Promise<Array<{ at: number; cost: number }>> {
    const r = await this.pool.query<{ at: Date; cost: number }>(
      `SELECT created_at AS at, cost FROM batches WHERE client = $1 AND created_at > now() - make_interval(secs => $2)
       UNION ALL SELECT created_at, cost FROM reproductions WHERE client = $1 AND created_at > now() - make_interval(secs => $2)
       UNION ALL SELECT created_at, cost FROM experiments WHERE client = $1 AND created_at > now() - make_interval(secs => $2)
       ORDER BY at`,
      [client, this.limits.windowS],
    );
    return r.rows.map((row) => ({ at: row.at.getTime(), cost: Number(row.cost) }));
  }

  async queued(): Promise<number> {
    const r = await this.pool.query<{ work: number }>(queuedWorkSql);
    return Number(r.rows[0]?.work ?? 0);
  }

  /**
   * Refuses a request of `cost` work units from `client`, naming the budget: 413 when it alone
   * exceeds one, 429 with `retryAfterS` when it does not fit now. `what` names the request.
   */
  async check(client: string, cost: number, what: string): Promise<void> {
    const { limits } = this;
    for (const [limit, value] of [['CLIENT_BUDGET', limits.client], ['QUEUE_BUDGET', limits.queue]] as const) {
      if (cost > value) {
        throw new RequestError(413, `${what} costs ${units(cost)} work units, more than ${limit} = ${units(value)}; ask for fewer or shorter runs (docs/API.md, "Budgets")`, {
          limit,
          value,
          size: cost,
        });
      }
    }
    const spent = await this.spent(client);
    const total = spent.reduce((sum, s) => sum + s.cost, 0);
    if (total + cost > limits.client) {
      // The client's requests leave the window oldest first: wait until enough have.
      let left = total + cost - limits.client;
      let until = Date.now();
      for (const s of spent) {
        left -= s.cost;
        until = s.at + limits.windowS * 1000;
        if (left <= 0) break;
      }
      const retryAfterS = Math.max(1, Math.ceil((until - Date.now()) / 1000));
      throw new RequestError(
        429,
        `${what} costs ${units(cost)} work units; with the ${units(total)} this client asked for in the last ${limits.windowS} s that is more than CLIENT_BUDGET = ${units(limits.client)}; retry in ${retryAfterS} s`,
        { limit: 'CLIENT_BUDGET', value: limits.client, size: cost, used: total, retryAfterS },
      );
    }
    const queued = await this.queued();
    if (queued + cost > limits.queue) {
      throw new RequestError(
        429,
        `${what} costs ${units(cost)} work units; with the ${units(queued)} queued that is more than QUEUE_BUDGET = ${units(limits.queue)}; retry in ${queueRetryAfterS} s`,
        { limit: 'QUEUE_BUDGET', value: limits.queue, size: cost, used: queued, retryAfterS: queueRetryAfterS },
      );
    }
  }
}
