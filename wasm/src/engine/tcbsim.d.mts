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

export interface TcbsimEngine {
  validate(text: string): { scenario: string } | { error: EngineError };
  run(
    text: string,
    options: { seed?: number; trace?: string; progressEveryEvents?: number },
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
