// The page's side of the plot worker (plotWorker.ts): one worker for every dense plot of the page,
// started with the first plot (starting it with the page cost the first run CPU on a 2-core
// machine, and a small plot's first frame is drawn by the page anyway: Plot.tsx's handOver). A
// RemotePlot hands its canvases to the worker once, its data when it changes, and a view per
// frame. If the worker fails, every plot hears it and draws on the main thread instead.
import type { Marks, MarksStyle } from './marks';
import type { FromWorker, Painter, ToWorker, View } from './plotProtocol';

let worker: Worker | null = null;
let failed: string | null = null;
let nextId = 1;
const listeners = new Map<number, (m: FromWorker) => void>();

function fail(message: string) {
  failed = message;
  for (const [id, listen] of listeners) listen({ type: 'error', id, message });
}

function plotWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./plotWorker.ts', import.meta.url), { type: 'module', name: 'plots' });
    worker.onmessage = (e: MessageEvent<FromWorker>) => listeners.get(e.data.id)?.(e.data);
    worker.onerror = (e) => fail(e.message || 'the plot worker failed');
  }
  return worker;
}

/** Starts the worker and has it choose its painter and warm up; harmless to call again. */
function startPlotWorker(painter: Painter) {
  if (failed || worker) return;
  plotWorker().postMessage({ type: 'prepare', painter, id: 0 } satisfies ToWorker);
}

/** Why the worker cannot draw, or null. */
export const plotWorkerFailure = () => failed;

const post = (m: ToWorker, transfer: Transferable[] = []) => plotWorker().postMessage(m, transfer);

// A plot's canvases stay with the worker across an unmount that is followed at once by a mount of
// the same canvas (React's StrictMode does that): a canvas can be transferred only once.
const byCanvas = new WeakMap<HTMLCanvasElement, RemotePlot>();

export class RemotePlot {
  readonly id = nextId++;
  #release: ReturnType<typeof setTimeout> | undefined;
  #marks: Marks | null = null;
  #listener: (m: FromWorker) => void = () => {};

  private constructor(
    readonly canvas: HTMLCanvasElement,
    overlay: HTMLCanvasElement,
    painter: Painter,
  ) {
    listeners.set(this.id, (m) => this.#listener(m));
    startPlotWorker(painter);
    const main = canvas.transferControlToOffscreen();
    const over = overlay.transferControlToOffscreen();
    post({ type: 'attach', id: this.id, canvas: main, overlay: over, painter }, [main, over]);
  }

  /** The worker's plot for this canvas (made on first use). */
  static of(canvas: HTMLCanvasElement, overlay: HTMLCanvasElement, painter: Painter, listener: (m: FromWorker) => void): RemotePlot {
    let plot = byCanvas.get(canvas);
    if (!plot) {
      plot = new RemotePlot(canvas, overlay, painter);
      byCanvas.set(canvas, plot);
    }
    clearTimeout(plot.#release);
    plot.#listener = listener;
    if (failed) queueMicrotask(() => listener({ type: 'error', id: plot.id, message: failed! }));
    return plot;
  }

  /**
   * The plot's data (copied to the worker when it is another object than last time). The copy is
   * made in a task of its own after the one that set the marks (React's commit of the new plots:
   * a large run's time–sequence marks take about 100 ms to copy); frames asked for meanwhile follow
   * it, the last one only.
   */
  setMarks(marks: Marks) {
    if (marks === this.#marks) return;
    this.#marks = marks;
    if (failed) return;
    const scheduled = this.#pending !== null;
    this.#pending = { marks, frame: this.#pending?.frame ?? null };
    if (!scheduled) setTimeout(() => this.#sendMarks(), 0);
  }

  #pending: { marks: Marks; frame: { view: View; style: MarksStyle } | null } | null = null;

  #sendMarks() {
    const pending = this.#pending;
    this.#pending = null;
    if (!pending || failed) return;
    const { copy, transfer } = transferableCopy(pending.marks);
    post({ type: 'marks', id: this.id, marks: copy }, transfer);
    if (pending.frame) this.frame(pending.frame.view, pending.frame.style);
  }

  frame(view: View, style: MarksStyle) {
    if (failed) return;
    if (this.#pending) this.#pending.frame = { view, style };
    else post({ type: 'frame', id: this.id, view, style });
  }

  /** Gives the canvas up, unless the same canvas is mounted again at once. */
  release() {
    clearTimeout(this.#release);
    this.#release = setTimeout(() => {
      byCanvas.delete(this.canvas);
      listeners.delete(this.id);
      if (!failed) post({ type: 'detach', id: this.id });
    }, 0);
  }
}

/**
 * A copy of plain data whose typed arrays are fresh copies, with their buffers to transfer: one
 * memcpy per array on the page's thread, where structured cloning serialises every array and the
 * worker deserialises it again (measured on the 2-core machine, the page's thread was blocked
 * 345 ms instead of 886 ms handing over the 400 s trace's graph). An array referenced twice is copied once.
 */
export function transferableCopy<T>(value: T): { copy: T; transfer: ArrayBuffer[] } {
  const copies = new Map<ArrayBufferView, ArrayBufferView>();
  const transfer: ArrayBuffer[] = [];
  const walk = (v: unknown): unknown => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      let c = copies.get(v);
      if (!c) {
        c = (v as unknown as { slice(): ArrayBufferView }).slice();
        copies.set(v, c);
        transfer.push(c.buffer as ArrayBuffer);
      }
      return c;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { copy: walk(value) as T, transfer };
}
