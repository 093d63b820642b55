// The native simulator kept running: `tcpsim serve` (sim-core/cli/serve.h) reads JSON requests,
// one per line, and answers each run with one line, in order, so a worker starts tcpsim once and
// feeds it many runs instead of paying a process start (4-5 ms) per run. A run's summary is the
// one `tcpsim run` prints at the same trace level, to the bit.
//
// A ServeProcess keeps up to `depth` runs in the process's input, so that the simulator never
// waits for this process between runs; consecutive runs of one scenario go as one request line
// (serve's "runs"), and serve answers a queue of short runs in batches (at least every 20 ms), so
// that this process wakes up once per batch of runs rather than once per run, and refills the
// places of a batch's runs with one request. A run's time limit
// starts when the answer before it arrives (up to serve's flush interval after the run began); a
// run over its limit, or aborted while it runs, is stopped by killing the process, and the runs
// written behind it are sent again to a new process. An aborted run that has not started yet is
// dropped (or, if already written, stops the process when its turn comes, rather than running for
// nothing).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRunEngine, NativeEngine, type Engine, type RunOutcome, type RunRequest } from './engine.js';
import { spawnSimulator, type SimulatorLimits } from './spawn.js';

interface Request {
  id: number;
  seed?: number;
  trace: string;
  /** The scenario as JSON text on one line. */
  scenario: string;
  /** The pointers of the values asked for, as a JSON array's text ('' for none). */
  values: string;
  timeoutMs: number;
  signal?: AbortSignal;
  resolve: (outcome: RunOutcome) => void;
  onAbort?: () => void;
  settled: boolean;
  /** Why the process was killed while this request ran. */
  stopped?: 'timeout' | 'aborted';
}

/** The JSON text of a request's value pointers, written once per list (callers reuse theirs). */
const valuesTexts = new WeakMap<readonly string[], string>();
function valuesText(values: readonly string[] | undefined): string {
  if (!values || values.length === 0) return '';
  let text = valuesTexts.get(values);
  if (text === undefined) valuesTexts.set(values, (text = JSON.stringify(values)));
  return text;
}

const abortedOutcome: RunOutcome = { ok: false, kind: 'aborted', message: 'the run was cancelled' };

function timeoutOutcome(timeoutMs: number): RunOutcome {
  return { ok: false, kind: 'timeout', message: `the run exceeded its time limit of ${timeoutMs / 1000} s` };
}

interface Answer {
  id?: unknown;
  ok: boolean;
  /** A successful run's summary, as JSON text. */
  summaryText?: string;
  wallSeconds?: number;
  values?: unknown[];
  error?: { kind: string; message: string; path?: string; problem?: string };
}

/**
 * One of serve's answer lines: a successful run's summary closes its line (sim-core/cli/serve.h),
 * so it is taken as text, and only the few fields before it are parsed here.
 */
export function readAnswer(line: string): Answer {
  try {
    const at = line.indexOf(',"summary":');
    if (at > 0 && line.startsWith('{"id":') && line.endsWith('}')) {
      const head = JSON.parse(`${line.slice(0, at)}}`) as Answer;
      if (head.ok === true) {
        head.summaryText = line.slice(at + ',"summary":'.length, -1);
        return head;
      }
    }
    const answer = JSON.parse(line) as Answer & { summary?: unknown };
    return answer.summary === undefined ? answer : { ...answer, summaryText: JSON.stringify(answer.summary) };
  } catch {
    return { ok: false, error: { kind: 'internal', message: `unreadable answer: ${line.slice(0, 200)}` } };
  }
}

/** serve's answer as a run outcome (the shapes of sim-core/cli/serve.h); the summary parsed when first read. */
export function serveOutcome(answer: Answer): RunOutcome {
  if (answer.ok) {
    const summaryText = answer.summaryText ?? '{}';
    let summary: Record<string, unknown> | undefined;
    return {
      ok: true,
      summaryText,
      wallSeconds: Number(answer.wallSeconds),
      values: Array.isArray(answer.values) ? answer.values : undefined,
      get summary() {
        return (summary ??= JSON.parse(summaryText) as Record<string, unknown>);
      },
    };
  }
  const error = answer.error ?? { kind: 'internal', message: 'tcpsim serve answered without an error' };
  if (error.kind === 'scenario' && error.path !== undefined && error.problem !== undefined) {
    return { ok: false, kind: 'scenario', path: error.path, problem: error.problem };
  }
  if (error.kind === 'memory') return { ok: false, kind: 'memory', message: error.message };
  return { ok: false, kind: 'internal', message: `tcpsim serve: ${error.kind}: ${error.message}` };
}

export class ServeProcess {
  #child: ChildProcessWithoutNullStreams | undefined;
  /** Not yet written to the process. */
  readonly #waiting: Request[] = [];
  /** Written, in order; the first is running. */
  #written: Request[] = [];
  /** When the running run's time limit ends (performance.now(), ms); Infinity while none runs. */
  #deadline = Infinity;
  /** One timer for runs one after the other, and when it fires (not re-armed at every run). */
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #nextId = 1;
  #stderr = '';
  #closed = false;
  #pumpQueued = false;
  /** The process is being killed: answers it still sends are not taken (its runs go to the next). */
  #killing = false;
  /** The last scenario text run, and it on one line. */
  #scenarioText = '';
  #scenarioLine = '';
  /** Processes started so far (1 + replacements). */
  starts = 0;

  constructor(
    readonly tcpsimPath: string,
    /** Runs written to the process ahead of their turn (the one running included). */
    readonly depth = 64,
    /** Each run's memory limit and the process's address space (sim/spawn.ts). */
    readonly limits: SimulatorLimits = {},
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
      // break in JSON text can only be white space, and the request must be one line. (A group's
      // runs share one scenario text: it is looked at once.)
      if (scenarioText !== this.#scenarioText) {
        this.#scenarioText = scenarioText;
        this.#scenarioLine = /[\r\n]/.test(scenarioText) ? scenarioText.replace(/[\r\n]/g, ' ') : scenarioText;
      }
      const scenario = this.#scenarioLine;
      const r: Request = { id, seed: request.seed, trace: request.trace, scenario, values: valuesText(request.values), timeoutMs: request.timeoutMs, signal: request.signal, resolve, settled: false };
      if (request.signal) {
        r.onAbort = () => this.#abort(r);
        request.signal.addEventListener('abort', r.onAbort, { once: true });
      }
      this.#waiting.push(r);
      // Runs asked for together (a claimed group) are written together, as one request.
      this.#pumpSoon();
    });
  }

  /** Writes the waiting runs once the current task is done: those it adds go with them, as one request. */
  #pumpSoon(): void {
    if (this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMicrotask(() => {
      this.#pumpQueued = false;
      this.#pump();
    });
  }

  /** Ends the process (its input closes); requests still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#disarm();
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
    const child = spawnSimulator(this.tcpsimPath, 'serve', [], this.limits);
    this.starts += 1;
    this.#killing = false;
    this.#stderr = '';
    child.stdin.on('error', () => {}); // EPIPE when it dies; its exit is handled below.
    child.stderr.on('data', (chunk: Buffer) => void (this.#stderr = (this.#stderr + chunk.toString()).slice(-2000)));
    // Answer lines, split here (each is a run's whole summary: readline's expression scan of every
    // chunk cost more than the rest of a worker's work per run).
    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      let end = chunk.indexOf('\n');
      if (end < 0) {
        partial += chunk;
        return;
      }
      this.#answer(child, partial + chunk.slice(0, end));
      let start = end + 1;
      while ((end = chunk.indexOf('\n', start)) >= 0) {
        this.#answer(child, chunk.slice(start, end));
        start = end + 1;
      }
      partial = chunk.slice(start);
    });
    child.on('error', (error) => this.#died(child, `cannot start ${this.tcpsimPath}: ${error.message}`));
    child.on('exit', (code, signal) => this.#died(child, signal ? `killed by ${signal}` : `exit code ${code}`));
    return child;
  }

  #pump(): void {
    if (this.#closed) return;
    let lines = '';
    const wasIdle = this.#written.length === 0;
    while (this.#waiting.length > 0 && this.#written.length < this.depth) {
      // The waiting runs of the first one's scenario and trace level, as one request.
      const first = this.#waiting[0];
      let n = 1;
      while (n < this.#waiting.length && this.#written.length + n < this.depth && this.#waiting[n].scenario === first.scenario && this.#waiting[n].trace === first.trace && this.#waiting[n].values === first.values) n += 1;
      const group = this.#waiting.splice(0, n);
      this.#written.push(...group);
      const seed = (r: Request) => (r.seed === undefined ? '' : `,"seed":${r.seed}`);
      const values = first.values === '' ? '' : `,"values":${first.values}`;
      lines +=
        group.length === 1
          ? `{"id":${first.id}${seed(first)},"trace":"${first.trace}"${values},"scenario":${first.scenario}}\n`
          : `{"runs":[${group.map((r) => `{"id":${r.id}${seed(r)}}`).join(',')}],"trace":"${first.trace}"${values},"scenario":${first.scenario}}\n`;
    }
    if (lines === '') return;
    this.#child ??= this.#spawn();
    this.#child.stdin.write(lines);
    if (wasIdle) this.#startHead();
  }

  /** The first written request is now running: start its time limit. */
  #startHead(): void {
    const head = this.#written[0];
    this.#deadline = Infinity;
    if (!head) return;
    if (head.settled) {
      // Aborted while it waited in the process's input: do not let it run.
      head.stopped = 'aborted';
      this.#kill();
      return;
    }
    this.#deadline = performance.now() + head.timeoutMs;
    if (this.#deadline < this.#timerAt) this.#arm();
  }

  /** Arms the timer for the running run's limit; when it fires early (a run that ended), again. */
  #arm(): void {
    this.#disarm();
    this.#timerAt = this.#deadline;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      const head = this.#written[0];
      if (!head || this.#deadline === Infinity) return;
      if (performance.now() < this.#deadline) return this.#arm();
      head.stopped = 'timeout';
      this.#kill();
    }, Math.max(0, this.#deadline - performance.now()));
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  #kill(): void {
    this.#disarm();
    if (!this.#child) return;
    this.#killing = true;
    this.#child.kill('SIGKILL');
  }

  #answer(child: ChildProcessWithoutNullStreams, line: string): void {
    if (child !== this.#child || this.#killing) return;
    const head = this.#written[0];
    const answer = readAnswer(line);
    // Answers come in request order (an unreadable request is answered with id null); anything
    // else means the process is not ours to trust.
    if (!head || (answer.id !== head.id && answer.id !== null)) {
      if (head) this.#settle(head, { ok: false, kind: 'internal', message: `tcpsim serve answered request ${String(answer.id)} while running ${head.id}` });
      this.#kill();
      return;
    }
    this.#written.shift();
    this.#settle(head, serveOutcome(answer));
    this.#startHead();
    // The runs that take the answered ones' places in the process's input go as one request, after
    // every answer of the chunk read (serve writes its answers in batches).
    this.#pumpSoon();
  }

  #died(child: ChildProcessWithoutNullStreams, reason: string): void {
    if (child !== this.#child) return;
    this.#disarm();
    this.#child = undefined;
    const [head, ...behind] = this.#written;
    this.#written = [];
    if (head) {
      if (head.stopped === 'timeout') this.#settle(head, timeoutOutcome(head.timeoutMs));
      else if (head.stopped === 'aborted') this.#settle(head, abortedOutcome);
      else {
        const detail = this.#stderr.trim().split('\n').pop() ?? '';
        const message = `tcpsim serve failed (${reason})${detail ? `: ${detail}` : ''}`;
        // Out of address space where the allocator could not say so (the stack, a thread): the
        // run's memory, not a fault of the simulator to look into.
        this.#settle(head, /std::bad_alloc|out of memory|Cannot allocate memory/.test(detail) ? { ok: false, kind: 'memory', message } : { ok: false, kind: 'internal', message });
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

  constructor(tcpsimPath: string, processes: number, limits: SimulatorLimits = {}) {
    super(tcpsimPath, limits);
    this.#processes = Array.from({ length: processes }, () => new ServeProcess(tcpsimPath, 64, limits));
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
export async function createWorkerEngine(tcpsimPath: string, concurrency: number, runner: 'serve' | 'spawn', limits: SimulatorLimits = {}): Promise<Engine> {
  if (existsSync(tcpsimPath)) return runner === 'serve' ? new ServeEngine(tcpsimPath, concurrency, limits) : new NativeEngine(tcpsimPath, limits);
  return createRunEngine(tcpsimPath, concurrency, limits);
}
