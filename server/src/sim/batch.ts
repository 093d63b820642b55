// A batch's plan: the grid points (every combination of the grid's values, the first pointer
// varying slowest), each point's scenario (the base scenario with the point's values set at their
// JSON Pointers) and its seed, as sim-core plans a sweep (`tcpsim grid`), checked here against the
// service's limits. Every point is validated by the simulator before anything is queued, and an
// error names the grid entry that broke the scenario.
import type { GridPoint, Scenario } from '@tcb-lab/sim';
import { gridPointCount } from '@tcb-lab/sim/grid';
import { jsonPathChild } from '@tcb-lab/sim/json-pointer';
import { RequestError } from '../responses.js';
import type { Engine } from './engine.js';

/** A grid point as the batch stores it: sim-core's plan of it without its duration. */
export type PlannedPoint = Pick<GridPoint, 'params' | 'scenario' | 'seed'>;

export interface Plan {
  pointers: string[];
  points: PlannedPoint[];
  /** The base scenario with every default filled in. */
  normalised: Scenario;
  /** What its runs cost in work units (sim/cost.ts), once the budgets have been asked. */
  cost?: number;
}

export interface PlanLimits {
  gridPoints: number;
  batchRuns: number;
  durationS: number;
}

function tooLarge(message: string, limit: string, value: number, size: number): RequestError {
  return new RequestError(413, message, { limit, value, size });
}

/** Checks a normalised scenario against the duration limit; `path` names what set the duration. */
export function checkDuration(normalised: { durationS?: number }, limitS: number, limitName: string, path: string): void {
  const duration = Number(normalised.durationS);
  if (duration > limitS) {
    throw new RequestError(413, `${path}: ${duration} simulated seconds is more than ${limitName} = ${limitS}`, {
      path,
      limit: limitName,
      value: limitS,
    });
  }
}

export async function planBatch(
  engine: Engine,
  scenario: Record<string, unknown>,
  grid: Record<string, unknown[]>,
  replications: number,
  limits: PlanLimits,
): Promise<Plan> {
  const pointers = Object.keys(grid);
  const pointCount = gridPointCount(grid);
  if (pointCount > limits.gridPoints) {
    throw tooLarge(`$.grid: ${pointCount} grid points is more than MAX_GRID_POINTS = ${limits.gridPoints}`, 'MAX_GRID_POINTS', limits.gridPoints, pointCount);
  }
  if (pointCount * replications > limits.batchRuns) {
    throw tooLarge(
      `$.grid: ${pointCount} grid points x ${replications} replications = ${pointCount * replications} runs is more than MAX_BATCH_RUNS = ${limits.batchRuns}`,
      'MAX_BATCH_RUNS',
      limits.batchRuns,
      pointCount * replications,
    );
  }

  // sim-core plans the sweep (sim-core/experiment/grid.h): the values, the combinations and the
  // seeds, with errors already in the request's terms.
  const planning = await engine.planGrid(JSON.stringify({ scenario, grid, replications }));
  if (!planning.ok) {
    throw new RequestError(400, `${planning.path}: ${planning.problem}`, { path: planning.path, problem: planning.problem });
  }
  const { plan } = planning;
  checkDuration(plan.normalised, limits.durationS, 'MAX_DURATION_S', '$.scenario.durationS');
  pointers.forEach((pointer, k) => {
    plan.valueDurationS[k].forEach((durationS, i) => {
      checkDuration({ durationS }, limits.durationS, 'MAX_DURATION_S', `${jsonPathChild('$.grid', pointer)}[${i}]`);
    });
  });
  for (const point of plan.points) checkDuration({ durationS: point.durationS }, limits.durationS, 'MAX_DURATION_S', '$.grid');
  return {
    pointers,
    points: plan.points.map(({ params, scenario, seed }) => ({ params, scenario, seed })),
    normalised: plan.normalised,
  };
}
