// Saved experiments (share links): a scenario, the result the service computed for it and its hash,
// and a result a client submitted, kept beside the service's until the service has checked it
// (migrations/0006_experiment-verification.sql).
import type { Pool, PoolClient } from '../db/pool.js';
import { newId } from '../ids.js';
import type { Experiment, Verification } from '../schemas/experiments.js';
import { addJobs } from '../queue/jobs.js';
import { experimentVerificationJobSpec } from '../queue/experiment-verification.js';

/** A saved experiment as stored; the API adds its url. */
export type ExperimentView = Omit<Experiment, 'url'>;

export interface NewExperiment {
  title: string | null;
  scenario: Record<string, unknown>;
  /** The service's result, when it ran the scenario here. */
  result: Record<string, unknown> | null;
  /** The client's result, when it submitted one that the service has not checked yet. */
  claimedResult: Record<string, unknown> | null;
  verification: Verification;
  verificationError?: string | null;
  /** Who asked (the client's address), and what the queued run costs in work units (sim/cost.ts; 0 when none is queued). */
  client: string;
  cost: number;
}

interface Row {
  id: string;
  title: string | null;
  scenario: Record<string, unknown>;
  result: Record<string, unknown> | null;
  result_hash: string | null;
  claimed_result: Record<string, unknown> | null;
  verified: boolean;
  verification: Verification;
  verification_error: string | null;
  created_at: Date;
}

/** What the service found when it ran a pending experiment on the queue. */
export type VerificationOutcome =
  | { verification: 'verified'; result: Record<string, unknown> }
  | { verification: 'differs'; result: Record<string, unknown>; error: string }
  | { verification: 'failed'; error: string };

const hashOf = (result: Record<string, unknown> | null) => (result ? String(result.resultHash) : null);

export class ExperimentRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Stores the experiment; one that is pending is queued for its run in the same transaction (a
   * job of experiment-verification.ts).
   */
  async create(experiment: NewExperiment): Promise<string> {
    const id = newId();
    const client: PoolClient = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO experiments (id, title, scenario, result, result_hash, claimed_result, verified, verification, verification_error, client, cost)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          id, experiment.title, experiment.scenario, experiment.result, hashOf(experiment.result), experiment.claimedResult,
          experiment.verification === 'verified', experiment.verification, experiment.verificationError ?? null,
          experiment.client, experiment.cost,
        ],
      );
      if (experiment.verification === 'pending') await addJobs(client, [experimentVerificationJobSpec(id)]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    return id;
  }

  async get(id: string): Promise<ExperimentView | null> {
    const r = await this.pool.query<Row>(
      `SELECT id, title, scenario, result, result_hash, claimed_result, verified, verification, verification_error, created_at
       FROM experiments WHERE id = $1`,
      [id],
    );
    const row = r.rows[0];
    if (!row) return null;
    return {
      id: row.id,
      title: row.title,
      scenario: row.scenario,
      result: row.result,
      resultHash: row.result_hash,
      verified: row.verified,
      verification: row.verification,
      verificationError: row.verification_error,
      claimedResult: row.claimed_result,
      createdAt: row.created_at.toISOString(),
    };
  }

  /** The scenario and claim of a pending experiment (null when it is not pending). */
  async pending(id: string): Promise<{ scenario: Record<string, unknown>; claimedResult: Record<string, unknown> | null } | null> {
    const r = await this.pool.query<{ scenario: Record<string, unknown>; claimed_result: Record<string, unknown> | null }>(
      "SELECT scenario, claimed_result FROM experiments WHERE id = $1 AND verification = 'pending'",
      [id],
    );
    const row = r.rows[0];
    return row ? { scenario: row.scenario, claimedResult: row.claimed_result } : null;
  }

  /**
   * Records what the run found, once (a retried job finds the experiment no longer pending). A claim
   * that agreed is no longer kept: the result is the service's, and the same.
   */
  async settle(id: string, outcome: VerificationOutcome): Promise<boolean> {
    const result = outcome.verification === 'failed' ? null : outcome.result;
    const r = await this.pool.query(
      `UPDATE experiments SET result = $2, result_hash = $3, verified = $4, verification = $5, verification_error = $6,
              claimed_result = CASE WHEN $4 THEN NULL ELSE claimed_result END
       WHERE id = $1 AND verification = 'pending'`,
      [id, result, hashOf(result), outcome.verification === 'verified', outcome.verification, outcome.verification === 'verified' ? null : outcome.error],
    );
    return r.rowCount === 1;
  }
}
