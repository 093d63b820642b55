// Saved experiments (share links): a scenario, its result summary and the result's hash.
import type { Pool } from '../db/pool.js';
import { newId } from '../ids.js';
import type { Experiment } from '../schemas/experiments.js';

/** A saved experiment as stored; the API adds its url. */
export type ExperimentView = Omit<Experiment, 'url'>;
export type NewExperiment = Omit<ExperimentView, 'id' | 'createdAt'>;

interface Row {
  id: string;
  title: string | null;
  scenario: Record<string, unknown>;
  result: Record<string, unknown> | null;
  result_hash: string | null;
  verified: boolean;
  created_at: Date;
}

export class ExperimentRepository {
  constructor(private readonly pool: Pool) {}

  async create(experiment: NewExperiment): Promise<string> {
    const id = newId();
    await this.pool.query(
      'INSERT INTO experiments (id, title, scenario, result, result_hash, verified) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, experiment.title, experiment.scenario, experiment.result, experiment.resultHash, experiment.verified],
    );
    return id;
  }

  async get(id: string): Promise<ExperimentView | null> {
    const r = await this.pool.query<Row>(
      'SELECT id, title, scenario, result, result_hash, verified, created_at FROM experiments WHERE id = $1',
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
      createdAt: row.created_at.toISOString(),
    };
  }
}
