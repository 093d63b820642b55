// What both entry points (node.ts, browser.ts) export: the types, the errors, the Simulator, and
// functions that use one Simulator shared by the whole process or page.
import { Simulator, type SimulatorOptions, type WorkerHost } from './simulator.js';
import type { Experiment, ExperimentOptions, ExperimentStepOptions, GridRequest, RunOptions, Scenario, SchemaName } from './types.js';

export * from './types.js';
export { columnInfo } from './generated/columns.js';
export * from './errors.js';
export * from './json-pointer.js';
export * from './grid.js';
export {
  Simulator,
  type SimulatorOptions,
  type SimulatorStats,
  type WorkerHost,
  type WorkerPort,
} from './simulator.js';
export type { Reply, RunRecord, WorkerMessage } from './protocol.js';

export function defaultFunctions(host: WorkerHost) {
  let shared: Simulator | undefined;
  const simulator = () => (shared ??= new Simulator(host));
  return {
    /** A Simulator of one's own: its own workers, e.g. `{ maxWorkers: 1 }`. */
    createSimulator: (options?: SimulatorOptions) => new Simulator(host, options),
    runScenario: (scenario: Scenario | string, options?: RunOptions) => simulator().runScenario(scenario, options),
    validateScenario: (scenario: Scenario | string) => simulator().validateScenario(scenario),
    planGrid: (request: GridRequest | string) => simulator().planGrid(request),
    summarizeSamples: (samples: number[][], level?: number) => simulator().summarizeSamples(samples, level),
    listPresets: () => simulator().listPresets(),
    getPreset: (name: string) => simulator().getPreset(name),
    listPapers: () => simulator().listPapers(),
    getSchema: (which: SchemaName) => simulator().getSchema(which),
    listExperiments: () => simulator().listExperiments(),
    getExperiment: (name: string) => simulator().getExperiment(name),
    runExperiment: (experiment: string | Experiment, options?: ExperimentOptions) => simulator().runExperiment(experiment, options),
    planExperiment: (experiment: string | Experiment, options?: ExperimentStepOptions) => simulator().planExperiment(experiment, options),
  };
}
