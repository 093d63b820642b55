// Errors the simulation API rejects with. Aborts reject with the AbortSignal's reason instead.

/** The scenario is invalid: the same JSON path and problem as `tcpsim` prints ("error: <path>: <problem>"). */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

/** The run needed more memory than the module may grow to; the worker was replaced. */
export class OutOfMemoryError extends Error {
  override name = 'OutOfMemoryError';
}

/** The module failed (an internal error of sim-core, a trap, or a worker that died); the worker was replaced. */
export class SimulationError extends Error {
  override name = 'SimulationError';
}
