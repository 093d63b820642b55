// The native simulator kept running: `tcpsim serve` (sim-core/cli/serve.h) reads one JSON request
// per line and answers each with one line, in order, so a worker starts tcpsim once and feeds it
// many runs instead of paying a process start (4-5 ms) per run. A run's summary is the one
// `tcpsim run` prints at the same trace level, to the bit.
//
// A ServeProcess holds up to `depth` requests in the process's input (the one running and the
// next, so that the simulator never waits for this process between runs). A run's time limit
// starts when the run does, i.e. when the answer before it arrives; a run over its limit, or
// aborted while it runs, is stopped by killing the process, and the requests written behind it
// are sent again to a new process. An aborted request that has not started yet is dropped (or,
// if already written, stops the process when its turn comes, rather than running for nothing).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRunEngine, NativeEngine, type Engine, type RunOutcome, type RunRequest } from './engine.js';

interface Request {
  id: number;
  /** The request line, without its line feed. */
  line: string;
  timeoutMs: number;
  signal?: AbortSignal;
  resolve: (outcome: RunOutcome) => void;
  onAbort?: () => void;
  settled: boolean;
  /** Why the process was killed while this request ran. */
  stopped?: 'timeout' | 'aborted';
}

const abortedOutcome: RunOutcome = { ok: false, kind: 'aborted', message: 'the run was cancelled' };

function timeoutOutcome(timeoutMs: number): RunOutcome {
  return { ok: false, kind: 'timeout', message: `the run exceeded its time limit of ${timeoutMs / 1000} s` };
}

/** serve's answer line as a run outcome (the shapes of sim-core/cli/serve.h). */
export function serveOutcome(answer: {
  ok: boolean;
  summary?: Record<string, unknown>;
  wallSeconds?: number;
  error?: { kind: string; message: string; path?: string; problem?: string };
}): RunOutcome {
  if (answer.ok) return { ok: true, summary: answer.summary ?? {}, wallSeconds: Number(answer.wallSeconds) };
  const error = answer.error ?? { kind: 'internal', message: 'tcpsim serve answered without an error' };
  if (error.kind === 'scenario' && error.path !== undefined && error.problem !== undefined) {
    return { ok: false, kind: 'scenario', path: error.path, problem: error.problem };
  }
  return { ok: false, kind: 'internal', message: `tcpsim serve: ${error.kind}: ${error.message}` };
}

export class ServeProcess {
  #child: ChildProcessWithoutNullStreams | undefined;
  /** Not yet written to the process. */
  readonly #waiting: Request[] = [];
  /** Written, in order; the first is running. */
  #written: Request[] = [];
  #timer: NodeJS.Timeout | undefined;
  #nextId = 1;
  #stderr = '';
  #closed = false;
  /** Processes started so far (1 + replacements). */
  starts = 0;

  constructor(
    readonly tcpsimPath: string,
    readonly depth = 2,
  ) {}

  /** Requests waiting or in the process. */
  get load(): number {
    return this.#waiting.length + this.#written.length;
  }

  /** The pid of the current process, if one runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  run(scenarioText: string, request: RunRequest): Promise<RunOutcome> {
    if (this.#closed) return Promise.resolve({ ok: false, kind: 'internal', message: 'the simulator was closed' });
    if (request.signal?.aborted) return Promise.resolve(abortedOutcome);
    return new Promise((resolve) => {
      const id = this.#nextId++;
      // The scenario is spliced in as it is (JSON text), not parsed and printed again; a line
      // break in JSON text can only be white space, and the request must be one line.
      const scenario = /[\r\n]/.test(scenarioText) ? scenarioText.replace(/[\r\n]/g, ' ') : scenarioText;
      const seed = request.seed === undefined ? '' : `,"seed":${request.seed}`;
      const line = `{"id":${id}${seed},"trace":"${request.trace}","scenario":${scenario}}`;
      const r: Request = { id, line, timeoutMs: request.timeoutMs, signal: request.signal, resolve, settled: false };
      if (request.signal) {
        r.onAbort = () => this.#abort(r);
        request.signal.addEventListener('abort', r.onAbort, { once: true });
      }
      this.#waiting.push(r);
      this.#pump();
    });
  }

  /** Ends the process (its input closes); requests still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const r of [...this.#waiting, ...this.#written]) this.#settle(r, { ok: false, kind: 'internal', message: 'the simulator was closed' });
    this.#waiting.length = 0;
    this.#written = [];
    const child = this.#child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  #settle(r: Request, outcome: RunOutcome): void {
    if (r.settled) return;
    r.settled = true;
    if (r.onAbort) r.signal?.removeEventListener('abort', r.onAbort);
    r.resolve(outcome);
  }

  #abort(r: Request): void {
    const waiting = this.#waiting.indexOf(r);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    else if (this.#written[0] === r) {
      r.stopped = 'aborted';
      this.#kill();
    }
    // Written behind the running one: it stops the process when its turn comes (#startHead).
    this.#settle(r, abortedOutcome);
  }

  #spawn(): ChildProcessWithoutNullStreams {
    const child = spawn(this.tcpsimPath, ['serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.starts += 1;
    this.#stderr = '';
    child.stdin.on('error', () => {}); // EPIPE when it dies; its exit is handled below.
    child.stderr.on('data', (chunk: Buffer) => void (this.#stderr = (this.#stderr + chunk.toString()).slice(-2000)));
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.#answer(child, line));
    child.on('error', (error) => this.#died(child, `cannot start ${this.tcpsimPath}: ${error.message}`));
    child.on('exit', (code, signal) => this.#died(child, signal ? `killed by ${signal}` : `exit code ${code}`));
    return child;
  }

  #pump(): void {
    if (this.#closed) return;
    while (this.#waiting.length > 0 && this.#written.length < this.depth) {
      this.#child ??= this.#spawn();
      const r = this.#waiting.shift()!;
      this.#written.push(r);
      this.#child.stdin.write(r.line + '\n');
      if (this.#written.length === 1) this.#startHead();
    }
  }

  /** The first written request is now running: start its time limit. */
  #startHead(): void {
    clearTimeout(this.#timer);
    const head = this.#written[0];
    if (!head) return;
    if (head.settled) {
      // Aborted while it waited in the process's input: do not let it run.
      head.stopped = 'aborted';
      this.#kill();
      return;
    }
    this.#timer = setTimeout(() => {
      head.stopped = 'timeout';
      this.#kill();
    }, head.timeoutMs);
  }

  #kill(): void {
    clearTimeout(this.#timer);
    this.#child?.kill('SIGKILL');
  }

  #answer(child: ChildProcessWithoutNullStreams, line: string): void {
    if (child !== this.#child) return;
    const head = this.#written[0];
    let answer: Parameters<typeof serveOutcome>[0] & { id?: unknown };
    try {
      answer = JSON.parse(line);
    } catch {
      answer = { ok: false, error: { kind: 'internal', message: `unreadable answer: ${line.slice(0, 200)}` } };
    }
    // Answers come in request order (an unreadable request is answered with id null); anything
    // else means the process is not ours to trust.
    if (!head || (answer.id !== head.id && answer.id !== null)) {
      if (head) this.#settle(head, { ok: false, kind: 'internal', message: `tcpsim serve answered request ${String(answer.id)} while running ${head.id}` });
      this.#kill();
      return;
    }
    clearTimeout(this.#timer);
    this.#written.shift();
    this.#settle(head, serveOutcome(answer));
    this.#startHead();
    this.#pump();
  }

  #died(child: ChildProcessWithoutNullStreams, reason: string): void {
    if (child !== this.#child) return;
    clearTimeout(this.#timer);
    this.#child = undefined;
    const [head, ...behind] = this.#written;
    this.#written = [];
    if (head) {
      if (head.stopped === 'timeout') this.#settle(head, timeoutOutcome(head.timeoutMs));
      else if (head.stopped === 'aborted') this.#settle(head, abortedOutcome);
      else {
        const detail = this.#stderr.trim().split('\n').pop() ?? '';
        this.#settle(head, { ok: false, kind: 'internal', message: `tcpsim serve failed (${reason})${detail ? `: ${detail}` : ''}` });
      }
    }
    // The requests behind the one that ended the process never ran: they go to the next one.
    this.#waiting.unshift(...behind.filter((r) => !r.settled));
    this.#pump();
  }
}

/**
 * The native engine for workers: runs go to `processes` persistent `tcpsim serve` processes (each
 * to the least loaded); everything else (validation, presets, grids) as NativeEngine does it.
 */
export class ServeEngine extends NativeEngine {
  override readonly pipelined = true;
  readonly #processes: ServeProcess[];

  constructor(tcpsimPath: string, processes: number) {
    super(tcpsimPath);
    this.#processes = Array.from({ length: processes }, () => new ServeProcess(tcpsimPath));
  }

  override run(scenarioText: string, request: RunRequest): Promise<RunOutcome> {
    const target = this.#processes.reduce((best, p) => (p.load < best.load ? p : best));
    return target.run(scenarioText, request);
  }

  override async close(): Promise<void> {
    await Promise.all(this.#processes.map((p) => p.close()));
  }
}

/**
 * A worker's engine: `concurrency` persistent tcpsim serve processes (runner 'serve') or a tcpsim
 * per run ('spawn'); without the native binary, the WASM build with `concurrency` threads.
 */
export async function createWorkerEngine(tcpsimPath: string, concurrency: number, runner: 'serve' | 'spawn'): Promise<Engine> {
  if (existsSync(tcpsimPath)) return runner === 'serve' ? new ServeEngine(tcpsimPath, concurrency) : new NativeEngine(tcpsimPath);
  return createRunEngine(tcpsimPath, concurrency);
}
