// Types of the Emscripten module that scripts/build-sim-core wasm writes to dist/engine/tcbsim.mjs
// (the embind functions of src/bindings.cc). Only the worker loads it.

export interface EngineError {
  kind: 'scenario' | 'memory' | 'internal';
  message: string;
  path?: string;
  problem?: string;
}

export interface EngineRunOutput {
  summary: string;
  flows: string[];
  links: string[];
  groups: string[];
  series?: unknown;
  trace?: unknown;
  wallSeconds: number;
}

/** An experiment parsed and expanded once (src/bindings.cc); embind objects must be deleted. */
export interface EngineExperimentSession {
  status(): { runs: number; experiment: string; maxDurationS: number; replications: number } | { error: EngineError };
  runScenario(index: number): { scenario: string } | { error: EngineError };
  record(summary: string): { metrics: (number | null)[]; resultHash: string } | { error: EngineError };
  runRange(
    from: number,
    to: number,
    progress: (done: number) => void,
  ): { records: { metrics: (number | null)[]; resultHash: string }[] } | { error: EngineError };
  report(records: { metrics: (number | null)[]; resultHash: string }[]): { report: string; text: string } | { error: EngineError };
  delete(): void;
}

export interface TcbsimEngine {
  experimentNames(): string[];
  experimentText(name: string): string | null;
  experimentSchema(): string;
  reportSchema(): string;
  ExperimentSession: new (source: string, quick: boolean) => EngineExperimentSession;
  validate(text: string): { scenario: string } | { error: EngineError };
  planGrid(text: string): { plan: string } | { error: EngineError };
  summarizeSamples(text: string): { stats: string } | { error: EngineError };
  run(
    text: string,
    options: { seed?: number; trace?: string; progressEveryEvents?: number; maxRecordedBytes?: number },
    progress: (simulatedS: number, durationS: number) => void,
  ): EngineRunOutput | { error: EngineError };
  presetNames(): string[];
  presetText(name: string): string | null;
  papers(): string;
  scenarioSchema(): string;
  resultSchema(): string;
  heapStats(): { memoryBytes: number; allocatedBytes: number };
}

export interface EngineModuleOptions {
  instantiateWasm(
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ): object;
}

export default function createTcbsimModule(options: EngineModuleOptions): Promise<TcbsimEngine>;
