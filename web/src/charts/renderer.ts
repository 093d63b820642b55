// Which painter draws the dense plots (time–sequence, windows, queues), and where. Painters:
// 'pixels' (PixelPainter: strokes rasterised into an ImageData, no anti-aliasing), 'canvas2d' (the
// canvas's own paths), 'webgl2' (GlPainter); 'auto' is WebGL2 where a GPU accelerates it and
// PixelPainter otherwise (a software WebGL, such as SwiftShader in headless Chromium, is the
// slowest of the three). Threads: 'worker' draws in the plot worker on an OffscreenCanvas
// (plotWorker.ts), 'main' on the page's own thread (where the browser has no OffscreenCanvas). The
// defaults were measured on a busy 2-core machine without a GPU (docs/PERFORMANCE.md, "The
// dashboard"); ?renderer=pixels|canvas2d|webgl2 and ?thread=main in the address override them for
// the page load.
import { webgl2Renderer } from './glPainter';
import type { Painter } from './plotProtocol';

export type Renderer = Painter;
export type Thread = 'worker' | 'main';

let chosen: Renderer | undefined;

/** The painter asked for: the address's ?renderer=, else 'auto'. */
export function preferredRenderer(): Renderer {
  if (chosen) return chosen;
  const asked = new URLSearchParams(window.location.search).get('renderer');
  chosen = asked === 'canvas2d' || asked === 'webgl2' || asked === 'pixels' ? asked : 'auto';
  return chosen;
}

let mainPainter: Exclude<Renderer, 'auto'> | undefined;

/** The painter on the main thread: as asked, 'auto' resolved as the worker resolves it. */
export function mainThreadPainter(): Exclude<Renderer, 'auto'> {
  if (mainPainter) return mainPainter;
  const asked = preferredRenderer();
  if (asked === 'webgl2') mainPainter = webgl2Renderer() ? 'webgl2' : 'canvas2d';
  else if (asked === 'auto') {
    const gl = webgl2Renderer();
    mainPainter = gl && !gl.software ? 'webgl2' : 'pixels';
  } else mainPainter = asked;
  return mainPainter;
}

/** Whether this browser can hand a canvas to a worker (HTMLCanvasElement.transferControlToOffscreen). */
export function offscreenAvailable(): boolean {
  return typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof HTMLCanvasElement !== 'undefined' && 'transferControlToOffscreen' in HTMLCanvasElement.prototype;
}

/** The thread the dense plots draw on: the worker unless ?thread=main or the browser cannot. */
export function preferredThread(): Thread {
  const asked = new URLSearchParams(window.location.search).get('thread');
  return asked !== 'main' && offscreenAvailable() ? 'worker' : 'main';
}
