// The metrics a batch records per run (as typed columns of `runs`) and reports per grid point. The
// names are the API's; the values are read from each run's summary at the pointers below, and the
// units come from result.schema.json's x-unit at the same pointers.
import type { Metric } from '../schemas/batches.js';
import { simSchemas, subschemaAt } from './schemas.js';

export interface MetricDefinition {
  name: string;
  label: string;
  /** Where the value sits in a run summary (result.schema.json). */
  pointer: string;
  /** Column of the `runs` table. */
  column: string;
  integer: boolean;
}

export const metricDefinitions: readonly MetricDefinition[] = [
  { name: 'meanCompletionTimeS', label: 'Mean completion time', pointer: '/run/meanCompletionTimeS', column: 'mean_completion_time_s', integer: false },
  { name: 'jainIndex', label: "Jain's fairness index", pointer: '/run/fairness/jainIndex', column: 'jain_index', integer: false },
  { name: 'retransmissions', label: 'Retransmissions', pointer: '/run/retransmissions', column: 'retransmissions', integer: true },
  { name: 'timeouts', label: 'Retransmission timeouts', pointer: '/run/timeouts', column: 'timeouts', integer: true },
  { name: 'meanHtmlTimeS', label: 'Mean HTML time per page', pointer: '/run/pages/meanHtmlTimeS', column: 'mean_html_time_s', integer: false },
  { name: 'meanTotalTimeS', label: 'Mean total time per page', pointer: '/run/pages/meanTotalTimeS', column: 'mean_total_time_s', integer: false },
  { name: 'retrievalRateBytesPerS', label: 'Effective page retrieval rate', pointer: '/run/pages/retrievalRateBytesPerS', column: 'retrieval_rate_bytes_per_s', integer: false },
  { name: 'events', label: 'Events executed', pointer: '/run/events', column: 'events', integer: true },
];

let infos: Metric[] | undefined;

/** The metrics with their units and descriptions from result.schema.json. */
export function metricInfos(): Metric[] {
  infos ??= metricDefinitions.map((m) => {
    const schema = subschemaAt(simSchemas().result, m.pointer);
    if (!schema) throw new Error(`result.schema.json has no ${m.pointer} (metric ${m.name})`);
    const unit = typeof schema['x-unit'] === 'string' ? (schema['x-unit'] as string) : '';
    const description = typeof schema.description === 'string' ? (schema.description as string) : null;
    return { name: m.name, label: m.label, unit, description };
  });
  return infos;
}

/**
 * A metric's value as read at its pointer in a run summary: the number, or null where the summary
 * has none there (e.g. no pages finished). An integer metric is rounded by the statement that
 * stores it (its column is bigint).
 */
export function metricNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
