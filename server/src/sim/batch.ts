// A batch's plan: the grid points (every combination of the grid's values, the first pointer
// varying slowest, as sim-core's experiments expand their axes), each point's scenario (the base
// scenario with the point's values set at their JSON Pointers) and its seed. Every point is
// validated by the simulator before anything is queued, and an error names the grid entry that
// broke the scenario.
import type { Engine } from './engine.js';
import { memberPath, setAtPointer } from './pointer.js';

export class RequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A scenario error of the simulator, as a 400 whose path is in the request body's terms. */
export function scenarioError(bodyPath: string, cliPath: string, problem: string, context = ''): RequestError {
  const path = bodyPath + cliPath.slice(1);
  return new RequestError(400, `${path}: ${problem}${context}`, { path, problem });
}

export interface PlannedPoint {
  params: Record<string, unknown>;
  scenario: Record<string, unknown>;
  /** The point's scenario's seed (its default filled in); replication r runs with seed + r. */
  seed: number;
}

export interface Plan {
  pointers: string[];
  points: PlannedPoint[];
  /** The base scenario with every default filled in. */
  normalised: Record<string, unknown>;
}

export interface PlanLimits {
  gridPoints: number;
  batchRuns: number;
  durationS: number;
}

const clone = <T>(value: T): T => structuredClone(value);

export function countPoints(grid: Record<string, unknown[]>): number {
  return Object.values(grid).reduce((n, values) => n * values.length, 1);
}

function tooLarge(message: string, limit: string, value: number): RequestError {
  return new RequestError(413, message, { limit, value });
}

/** Checks a normalised scenario against the duration limit; `path` names what set the duration. */
export function checkDuration(normalised: Record<string, unknown>, limitS: number, limitName: string, path: string): void {
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
  const pointCount = countPoints(grid);
  if (pointCount > limits.gridPoints) {
    throw tooLarge(`$.grid: ${pointCount} grid points is more than MAX_GRID_POINTS = ${limits.gridPoints}`, 'MAX_GRID_POINTS', limits.gridPoints);
  }
  if (pointCount * replications > limits.batchRuns) {
    throw tooLarge(
      `$.grid: ${pointCount} grid points x ${replications} replications = ${pointCount * replications} runs is more than MAX_BATCH_RUNS = ${limits.batchRuns}`,
      'MAX_BATCH_RUNS',
      limits.batchRuns,
    );
  }

  const base = await engine.validate(JSON.stringify(scenario));
  if (!base.valid) throw scenarioError('$.scenario', base.path, base.problem);
  checkDuration(base.scenario, limits.durationS, 'MAX_DURATION_S', '$.scenario.durationS');

  // Each value on its own first, so that an error can name the value that broke the scenario.
  for (const pointer of pointers) {
    const at = memberPath('$.grid', pointer);
    for (const [i, value] of grid[pointer].entries()) {
      const doc = clone(scenario);
      const refused = setAtPointer(doc, pointer, clone(value));
      if (refused !== undefined) throw new RequestError(400, `${at}: ${refused}`, { path: at, problem: refused });
      const v = await engine.validate(JSON.stringify(doc));
      if (!v.valid) throw scenarioError(`${at}[${i}]`, '$', `makes ${'$.scenario' + v.path.slice(1)} invalid: ${v.problem}`);
      checkDuration(v.scenario, limits.durationS, 'MAX_DURATION_S', `${at}[${i}]`);
    }
  }

  const points: PlannedPoint[] = [];
  const index = pointers.map(() => 0);
  for (let p = 0; p < pointCount; ++p) {
    const params: Record<string, unknown> = {};
    const doc = clone(scenario);
    pointers.forEach((pointer, k) => {
      params[pointer] = grid[pointer][index[k]];
      setAtPointer(doc, pointer, clone(params[pointer]));
    });
    let seed: number;
    if (pointers.length === 0) {
      seed = Number(base.scenario.seed);
    } else {
      const v = await engine.validate(JSON.stringify(doc));
      if (!v.valid) {
        throw new RequestError(
          400,
          `$.grid: the point ${JSON.stringify(params)} makes ${'$.scenario' + v.path.slice(1)} invalid: ${v.problem}`,
          { path: '$.grid', problem: `the point ${JSON.stringify(params)} makes ${'$.scenario' + v.path.slice(1)} invalid: ${v.problem}` },
        );
      }
      checkDuration(v.scenario, limits.durationS, 'MAX_DURATION_S', '$.grid');
      seed = Number(v.scenario.seed);
    }
    if (seed + replications - 1 > Number.MAX_SAFE_INTEGER) {
      throw new RequestError(400, `$.replications: seed ${seed} + ${replications - 1} is beyond 2^53 - 1`, { path: '$.replications' });
    }
    points.push({ params, scenario: doc, seed });
    // Next combination: the last pointer varies fastest.
    for (let k = pointers.length - 1; k >= 0; --k) {
      if (++index[k] < grid[pointers[k]].length) break;
      index[k] = 0;
    }
  }
  return { pointers, points, normalised: base.scenario };
}
