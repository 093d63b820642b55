// How large a sweep is before it is planned: its points and runs, counted from the grid alone.
// sim-core plans the points themselves (sim-core/experiment/grid.h, through planGrid); the service
// checks its limits with these counts before planning, and the dashboard shows them as the user types.

/** Points of a grid {pointer: values}: every combination of one value per pointer (1 without pointers). */
export function gridPointCount(grid: Readonly<Record<string, readonly unknown[]>>): number {
  return Object.values(grid).reduce((n, values) => n * values.length, 1);
}

/** Runs of a batch: its grid's points times the replications of each. */
export function gridRunCount(grid: Readonly<Record<string, readonly unknown[]>>, replications: number): number {
  return gridPointCount(grid) * replications;
}
