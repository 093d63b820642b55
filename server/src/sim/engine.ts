// The simulator as the service uses it: the native `tcpsim` binary (a child process per call), or
// the WebAssembly build (@tcb-lab/sim, worker threads) when the binary is missing. Both validate
// with sim-core's own parser, so errors carry the CLI's JSON path and words.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
// Types only: the package itself is loaded at run time, when the WASM engine is chosen.
import type * as Sim from '@tcb-lab/sim';
import type { GridPlan, Paper } from '@tcb-lab/sim';
import type { Trace as TraceLevel } from '../schemas/batches.js';
import { spawnSimulator, type SimulatorLimits } from './spawn.js';

export type { GridPlan, Paper, TraceLevel };

export type EngineKind = 'native' | 'wasm';

export type Validation =
  | { valid: true; scenario: Record<string, unknown> }
  | { valid: false; path: string; problem: string };

/** A sweep's plan as `tcpsim grid` prints it (sim-core/experiment/grid.h), or the request's error. */
export type GridPlanning =
  | { ok: true; plan: GridPlan }
  | { ok: false; path: string; problem: string };

export type RunOutcome =
  /** `summaryText`, when the engine has it: the summary as the simulator printed it (JSON). */
  | {
      ok: true;
      summary: Record<string, unknown>;
      summaryText?: string;
      wallSeconds: number;
      /** The summary's values at the request's `values` pointers (null where none), when the engine read them. */
      values?: unknown[];
    }
  | { ok: false; kind: 'scenario'; path: string; problem: string }
  | { ok: false; kind: 'timeout'; message: string }
  /** The run needed more memory than its limit (its own account, or the process's address space). */
  | { ok: false; kind: 'memory'; message: string }
  | { ok: false; kind: 'aborted'; message: string }
  | { ok: false; kind: 'internal'; message: string };

export interface RunRequest {
  seed?: number;
  trace: TraceLevel;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * JSON pointers into the summary whose values the caller needs: an engine that reads them where
   * the summary is made (tcpsim serve) returns them as the outcome's `values`, so that the caller
   * need not parse the summary; others leave them to the caller.
   */
  values?: readonly string[];
}

export interface Engine {
  readonly kind: EngineKind;
  /**
   * Whether run() may be called for the next run before the current one has ended: the engine
   * then queues it and starts it, and its time limit, when a simulator is free. Otherwise each call
   * starts at once and its time limit runs from the call.
   */
  readonly pipelined: boolean;
  validate(scenarioText: string): Promise<Validation>;
  /** Plans a sweep {scenario, grid, replications} with sim-core's rules (PlanGrid). */
  planGrid(requestText: string): Promise<GridPlanning>;
  run(scenarioText: string, request: RunRequest): Promise<RunOutcome>;
  presets(): Promise<string[]>;
  /** The scenario of a preset (an experiment's base scenario too), or null for an unknown name. */
  preset(name: string): Promise<Record<string, unknown> | null>;
  /** Built-in experiments (papers' tables and figures). */
  experiments(): Promise<string[]>;
  experiment(name: string): Promise<Record<string, unknown> | null>;
  /** The paper catalogue that presets' and experiments' `paper.id` refer to. */
  papers(): Promise<Paper[]>;
  close(): Promise<void>;
}

/** "error: $.traffic[0].to: unknown node ..." → path and problem. */
export function parseCliError(stderr: string): { path: string; problem: string } | undefined {
  const line = stderr.split('\n').find((l) => l.startsWith('error: '));
  if (!line) return undefined;
  const text = line.slice('error: '.length);
  const colon = text.indexOf(': ');
  if (!text.startsWith('$') || colon < 0) return { path: '$', problem: text };
  return { path: text.slice(0, colon), problem: text.slice(colon + 2) };
}

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

function runChild(
  file: string, command: string, args: string[], input: string, timeoutMs: number, limits: SimulatorLimits, signal?: AbortSignal,
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawnSimulator(file, command, args, limits);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let aborted = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({
        code,
        signal: sig,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
        aborted,
      });
    });
    // The child may exit before reading everything (e.g. on a parse error): ignore EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

const listTimeoutMs = 30_000;

/** tcpsim's exit code for a run over its memory limit (sim-core/cli/cli_common.h kResourceLimit). */
const memoryExitCode = 3;

/**
 * The native engine: a tcpsim process per call. `limits` bound every process it starts (its runs'
 * memory account and the address space that goes with it, sim/spawn.ts).
 */
export class NativeEngine implements Engine {
  readonly kind = 'native' as const;
  readonly pipelined: boolean = false;
  constructor(
    readonly tcpsimPath: string,
    readonly limits: SimulatorLimits = {},
  ) {}

  async validate(scenarioText: string): Promise<Validation> {
    const r = await this.#check('validate', scenarioText);
    return r.ok ? { valid: true, scenario: r.value as Record<string, unknown> } : { valid: false, path: r.path, problem: r.problem };
  }

  async planGrid(requestText: string): Promise<GridPlanning> {
    const r = await this.#check('grid', requestText);
    return r.ok ? { ok: true, plan: r.value as GridPlan } : r;
  }

  /** `tcpsim <command> -` on `input`: what it prints, or the input's error (exit 2, path and problem). */
  async #check(command: 'validate' | 'grid', input: string): Promise<{ ok: true; value: unknown } | { ok: false; path: string; problem: string }> {
    const r = await runChild(this.tcpsimPath, command, ['-'], input, listTimeoutMs, this.limits);
    if (r.code === 0) return { ok: true, value: JSON.parse(r.stdout) };
    const error = parseCliError(r.stderr);
    if (r.code === 2 && error) return { ok: false, ...error };
    throw new Error(`tcpsim ${command} failed (exit ${r.code ?? r.signal}): ${r.stderr.trim()}`);
  }

  async run(scenarioText: string, request: RunRequest): Promise<RunOutcome> {
    const args = ['-', '--trace', request.trace, '--stats'];
    if (request.seed !== undefined) args.push('--seed', String(request.seed));
    const r = await runChild(this.tcpsimPath, 'run', args, scenarioText, request.timeoutMs, this.limits, request.signal);
    if (r.aborted) return { ok: false, kind: 'aborted', message: 'the run was cancelled' };
    if (r.timedOut) return { ok: false, kind: 'timeout', message: `the run exceeded its time limit of ${request.timeoutMs / 1000} s` };
    if (r.code === 0) {
      const stats = r.stderr.split('\n').findLast((line) => line.startsWith('{'));
      const wallSeconds = stats ? Number(JSON.parse(stats).wallSeconds) : NaN;
      return { ok: true, summary: JSON.parse(r.stdout), wallSeconds };
    }
    const error = parseCliError(r.stderr);
    if (r.code === 2 && error) return { ok: false, kind: 'scenario', ...error };
    if (r.code === memoryExitCode) {
      const line = r.stderr.split('\n').find((l) => l.startsWith('error: memory: ')) ?? 'error: memory: out of memory';
      return { ok: false, kind: 'memory', message: line.slice('error: memory: '.length) };
    }
    const reason = r.code === null ? `killed by ${r.signal}` : `exit code ${r.code}`;
    return { ok: false, kind: 'internal', message: `tcpsim failed (${reason}): ${r.stderr.trim().split('\n').pop() ?? ''}` };
  }

  async #lines(args: string[]): Promise<string[]> {
    const r = await runChild(this.tcpsimPath, args[0], args.slice(1), '', listTimeoutMs, this.limits);
    if (r.code !== 0) throw new Error(`tcpsim ${args.join(' ')} failed: ${r.stderr.trim()}`);
    return r.stdout.split('\n').filter((line) => line !== '');
  }

  async #document(args: string[]): Promise<Record<string, unknown> | null> {
    const r = await runChild(this.tcpsimPath, args[0], args.slice(1), '', listTimeoutMs, this.limits);
    if (r.code === 0) return JSON.parse(r.stdout);
    if (r.code === 2) return null;
    throw new Error(`tcpsim ${args.join(' ')} failed: ${r.stderr.trim()}`);
  }

  presets() {
    return this.#lines(['presets']);
  }
  preset(name: string) {
    return this.#document(['preset', name]);
  }
  experiments() {
    return this.#lines(['experiments']);
  }
  experiment(name: string) {
    return this.#document(['experiment', name]);
  }
  async papers(): Promise<Paper[]> {
    const r = await runChild(this.tcpsimPath, 'papers', [], '', listTimeoutMs, this.limits);
    if (r.code !== 0) throw new Error(`tcpsim papers failed: ${r.stderr.trim()}`);
    return (JSON.parse(r.stdout) as { papers: Paper[] }).papers;
  }
  async close() {}
}

type SimPackage = typeof Sim;

/** A document of sim-core's, typed by its schema in @tcb-lab/sim, as the service handles it: JSON it stores and serves. */
function asDocument(value: object): Record<string, unknown> {
  return value as Record<string, unknown>;
}

/** A built-in document by name, or null when there is none of that name (the module's RangeError). */
async function documentOrNull(document: Promise<object>): Promise<Record<string, unknown> | null> {
  try {
    return asDocument(await document);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

type SimSimulator = ReturnType<SimPackage['createSimulator']>;

const require = createRequire(import.meta.url);

/** Where @tcb-lab/sim's Node entry is, if it has been built. */
export function wasmPackagePath(): string | undefined {
  try {
    const path = require.resolve('@tcb-lab/sim');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export class WasmEngine implements Engine {
  readonly kind = 'wasm' as const;
  readonly pipelined = false;
  readonly #simulator: SimSimulator;
  readonly #ScenarioError: SimPackage['ScenarioError'];
  readonly #OutOfMemoryError: SimPackage['OutOfMemoryError'];

  private constructor(pkg: SimPackage, maxWorkers: number) {
    this.#simulator = pkg.createSimulator({ maxWorkers });
    this.#ScenarioError = pkg.ScenarioError;
    this.#OutOfMemoryError = pkg.OutOfMemoryError;
  }

  static async create(maxWorkers: number): Promise<WasmEngine> {
    const pkg: SimPackage = await import('@tcb-lab/sim');
    return new WasmEngine(pkg, maxWorkers);
  }

  async validate(scenarioText: string): Promise<Validation> {
    const v = await this.#simulator.validateScenario(scenarioText);
    return v.valid
      ? { valid: true, scenario: asDocument(v.scenario) }
      : { valid: false, path: v.error.path, problem: v.error.problem };
  }

  async planGrid(requestText: string): Promise<GridPlanning> {
    try {
      return { ok: true, plan: await this.#simulator.planGrid(requestText) };
    } catch (error) {
      if (error instanceof this.#ScenarioError) return { ok: false, path: error.path, problem: error.problem };
      throw error;
    }
  }

  async run(scenarioText: string, request: RunRequest): Promise<RunOutcome> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    try {
      const result = await this.#simulator.runScenario(scenarioText, { trace: request.trace, seed: request.seed, signal });
      return { ok: true, summary: asDocument(result.summary), wallSeconds: result.wallSeconds };
    } catch (error) {
      if (error instanceof this.#ScenarioError) return { ok: false, kind: 'scenario', path: error.path, problem: error.problem };
      if (timeout.aborted) return { ok: false, kind: 'timeout', message: `the run exceeded its time limit of ${request.timeoutMs / 1000} s` };
      if (request.signal?.aborted) return { ok: false, kind: 'aborted', message: 'the run was cancelled' };
      // The module's own maximum memory bounds a WASM run (wasm/: 1 GB).
      if (error instanceof this.#OutOfMemoryError) return { ok: false, kind: 'memory', message: `the run needs more than the WebAssembly module's memory: ${error.message}` };
      return { ok: false, kind: 'internal', message: `the WASM engine failed: ${(error as Error).message}` };
    }
  }

  presets() {
    return this.#simulator.listPresets();
  }
  preset(name: string) {
    return documentOrNull(this.#simulator.getPreset(name));
  }
  experiments() {
    return this.#simulator.listExperiments();
  }
  experiment(name: string) {
    return documentOrNull(this.#simulator.getExperiment(name));
  }
  papers() {
    return this.#simulator.listPapers();
  }
  async close() {
    await this.#simulator.close?.();
  }
}

/** The native engine when the binary exists, else the WASM one; an error when neither is built. */
export async function createRunEngine(tcpsimPath: string, maxWasmWorkers: number, limits: SimulatorLimits = {}): Promise<Engine> {
  if (existsSync(tcpsimPath)) return new NativeEngine(tcpsimPath, limits);
  if (wasmPackagePath()) return WasmEngine.create(maxWasmWorkers);
  throw new Error(
    `no simulator: neither ${tcpsimPath} (scripts/build-sim-core release) nor the WASM package (scripts/build-wasm) is built`,
  );
}

/**
 * The engine that validates request bodies in the API process: the WASM build when it is there
 * (no process per validation, which matters for grids of many points), else the native one.
 */
export async function createValidationEngine(tcpsimPath: string, limits: SimulatorLimits = {}): Promise<Engine> {
  if (wasmPackagePath()) return WasmEngine.create(1);
  if (existsSync(tcpsimPath)) return new NativeEngine(tcpsimPath, limits);
  throw new Error(
    `no simulator: neither ${tcpsimPath} (scripts/build-sim-core release) nor the WASM package (scripts/build-wasm) is built`,
  );
}
