// The messages between a plot (Plot.tsx, through plotThread.ts) and the plot worker (plotWorker.ts).
import type { Marks, MarksStyle } from './marks';

/** Which painter draws the marks (see renderer.ts); 'auto' lets the worker choose. */
export type Painter = 'auto' | 'pixels' | 'canvas2d' | 'webgl2';

/** What a frame shows: the scales' domains and the canvas size in CSS pixels. */
export interface View {
  x: [number, number];
  y: [number, number];
  /** The lines' area: y maps onto [yBottom, 0]; below it, to `height`, state bands. */
  yBottom: number;
  width: number;
  height: number;
  dpr: number;
}

export type ToWorker =
  /** The worker's first message: resolve 'auto' (WebGL2's renderer is looked up once) and warm up. */
  | { type: 'prepare'; painter: Painter; id: 0 }
  /** A plot's canvases, transferred (transferControlToOffscreen), and the painter asked for. */
  | { type: 'attach'; id: number; canvas: OffscreenCanvas; overlay: OffscreenCanvas; painter: Painter }
  /** The plot's data, copied once; the worker builds its levels of detail. */
  | { type: 'marks'; id: number; marks: Marks }
  /** Draw the plot for this view and style (at the worker's next animation frame). */
  | { type: 'frame'; id: number; view: View; style: MarksStyle }
  | { type: 'detach'; id: number };

export type FromWorker =
  /** A frame was drawn: its number, how long drawing took, when it finished (ms since the epoch). */
  | { type: 'drawn'; id: number; frame: number; drawMs: number; at: number; painter: Exclude<Painter, 'auto'> }
  | { type: 'error'; id: number; message: string };
