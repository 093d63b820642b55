// The plot worker: it owns the dense plots' canvases (transferred with transferControlToOffscreen)
// and their data with its levels of detail, and draws a plot when its view or style changes, in a
// task after the messages already queued (a burst of zoom steps draws once; the canvas commits
// its frame when the task ends). Zooming and panning on the page only send the view; rasterising
// a million-segment graph never blocks the page's input, layout or axes. The painter is WebGL2
// where the GPU accelerates it, else PixelPainter (docs/ARCHITECTURE.md, "Large traces").
import { scaleLinear } from 'd3-scale';
import { GlPainter, webgl2Renderer } from './glPainter';
import { buildScene, drawScene, type MarksStyle, type Scene } from './marks';
import type { Painter as PainterInterface } from './painter';
import { PixelPainter } from './pixelPainter';
import type { FromWorker, Painter, ToWorker, View } from './plotProtocol';

interface WorkerScope {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker): void;
}
const scope = self as unknown as WorkerScope;

interface PlotState {
  canvas: OffscreenCanvas;
  painterName: Exclude<Painter, 'auto'>;
  draw: (view: View, style: MarksStyle, scene: Scene) => void;
  scene?: Scene;
  view?: View;
  style?: MarksStyle;
  frames: number;
  dirty: boolean;
}

const plots = new Map<number, PlotState>();

// WebGL2 only where a GPU accelerates it: a software rasteriser (SwiftShader, llvmpipe) draws the
// dense plots slower than PixelPainter (measured: docs/PERFORMANCE.md, "Drawing a million segments").
let accelerated: boolean | undefined;
function glAccelerated(): boolean {
  if (accelerated === undefined) {
    const r = webgl2Renderer();
    accelerated = r !== null && !r.software;
  }
  return accelerated;
}

function painterFor(asked: Painter, canvas: OffscreenCanvas, overlay: OffscreenCanvas): Pick<PlotState, 'painterName' | 'draw'> {
  const name: Exclude<Painter, 'auto'> = asked === 'auto' ? (glAccelerated() ? 'webgl2' : 'pixels') : asked;
  const size = (view: View) => {
    for (const c of [canvas, overlay]) {
      const w = Math.max(1, Math.round(view.width * view.dpr));
      const h = Math.max(1, Math.round(view.height * view.dpr));
      if (c.width !== w || c.height !== h) {
        c.width = w;
        c.height = h;
      }
    }
  };
  const scales = (view: View) => ({
    sx: scaleLinear().domain(view.x).range([0, view.width]),
    sy: scaleLinear().domain(view.y).range([view.yBottom, 0]),
  });
  if (name === 'webgl2') {
    let gl: GlPainter | null = null;
    return {
      painterName: name,
      draw(view, style, scene) {
        size(view);
        gl ??= new GlPainter(canvas, overlay);
        const { sx, sy } = scales(view);
        gl.begin(view.width, view.height, view.dpr);
        drawScene(gl, scene, style, sx, sy, view);
        gl.end();
      },
    };
  }
  if (name === 'pixels') {
    let px: PixelPainter | null = null;
    return {
      painterName: name,
      draw(view, style, scene) {
        size(view);
        px ??= new PixelPainter(canvas.getContext('2d', { alpha: false })!);
        const { sx, sy } = scales(view);
        px.begin(view.width, view.height, view.dpr);
        drawScene(px, scene, style, sx, sy, view);
        px.end();
      },
    };
  }
  return {
    painterName: name,
    draw(view, style, scene) {
      size(view);
      const ctx = canvas.getContext('2d', { alpha: false })!;
      const { sx, sy } = scales(view);
      ctx.setTransform(view.dpr, 0, 0, view.dpr, 0, 0);
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, view.width, view.height);
      drawScene(ctx as unknown as PainterInterface, scene, style, sx, sy, view);
    },
  };
}

/**
 * A 2D canvas's first pixels and text in this thread, drawn on a canvas nobody sees while the page
 * waits for its first run: what a thread does once (fonts, the canvas machinery) is then not done
 * in the first plot's frame.
 */
function warmUp() {
  const ctx = new OffscreenCanvas(64, 16).getContext('2d', { alpha: false });
  if (!ctx) return;
  ctx.putImageData(new ImageData(64, 16), 0, 0);
  ctx.font = '10px sans-serif';
  ctx.fillText('R SYN 1.25×', 2, 12);
}

let scheduled = false;
// A task after the messages already queued: the views of a burst of steps are all read, then drawn
// once. Drawing at the worker's own requestAnimationFrame instead added up to a frame of latency
// and, measured zooming the million-segment graph with one core busy, a p95 frame of 32-41 ms
// against 23-27 ms this way (docs/PERFORMANCE.md, "The plot worker against the page's thread").
const channel = new MessageChannel();
let pending: (() => void) | null = null;
channel.port1.onmessage = () => {
  const run = pending;
  pending = null;
  run?.();
};
const nextFrame = (callback: () => void) => {
  pending = callback;
  channel.port2.postMessage(null);
};

function drawDirty() {
  scheduled = false;
  for (const [id, plot] of plots) {
    if (!plot.dirty || !plot.scene || !plot.view || !plot.style) continue;
    plot.dirty = false;
    const started = performance.now();
    try {
      plot.draw(plot.view, plot.style, plot.scene);
    } catch (e) {
      scope.postMessage({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });
      continue;
    }
    plot.frames++;
    const now = performance.now();
    scope.postMessage({ type: 'drawn', id, frame: plot.frames, drawMs: now - started, at: performance.timeOrigin + now, painter: plot.painterName });
  }
}

function schedule(plot: PlotState) {
  plot.dirty = true;
  if (scheduled) return;
  scheduled = true;
  nextFrame(drawDirty);
}

scope.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  try {
    switch (m.type) {
      case 'prepare':
        if (m.painter === 'auto') glAccelerated();
        warmUp();
        break;
      case 'attach':
        plots.set(m.id, { canvas: m.canvas, ...painterFor(m.painter, m.canvas, m.overlay), frames: 0, dirty: false });
        break;
      case 'marks': {
        const plot = plots.get(m.id);
        if (!plot) break;
        plot.scene = buildScene(m.marks);
        if (plot.view) schedule(plot);
        break;
      }
      case 'frame': {
        const plot = plots.get(m.id);
        if (!plot) break;
        plot.view = m.view;
        plot.style = m.style;
        if (plot.scene) schedule(plot);
        break;
      }
      case 'detach':
        plots.delete(m.id);
        break;
    }
  } catch (err) {
    scope.postMessage({ type: 'error', id: m.id, message: err instanceof Error ? err.message : String(err) });
  }
};
