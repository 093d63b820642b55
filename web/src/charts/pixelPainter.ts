// A Painter (painter.ts) that rasterises strokes itself, xplot-style: every line one device pixel
// wide per unit of lineWidth, without anti-aliasing, written straight into an ImageData that is
// put on the canvas once per frame. The dense plots are almost all vertical and horizontal runs
// (segments, step lines), which cost a few array writes each here, where a software-rendered
// Canvas 2D path of a hundred thousand anti-aliased vertices costs tens of milliseconds a frame
// (measured: docs/PERFORMANCE.md, "Drawing a million segments"). Fills and text (few per frame) go to the 2D
// context after the strokes, in their order. Coordinates are CSS pixels, as with a canvas. It draws
// on the page's canvas or, in the plot worker (plotWorker.ts), on an OffscreenCanvas.
import type { Painter } from './painter';

/** A 2D context on the page's canvas or on an OffscreenCanvas (in the plot worker). */
export type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** A 1×1 2D context for reading colours back: on the page or, in a worker, offscreen. */
export function scratchContext(): Context2D {
  const ctx = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d', { willReadFrequently: true }) : new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('no 2D canvas context');
  return ctx;
}

/**
 * The colours the charts write (#rgb, #rrggbb, rgb(r, g, b), rgba(r, g, b, a)) as [r, g, b, a]
 * (bytes, alpha in [0, 1]); null for anything else. Parsed here because reading a colour back from
 * a canvas costs a 2D context, and the plot worker's first one took about 230 ms (measured on the
 * 2-core machine: the first plot waited for it).
 */
export function parseColor(css: string): [number, number, number, number] | null {
  const s = css.trim();
  let m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s);
  if (m) {
    const h = m[1].length === 3 ? m[1].replace(/./g, (x) => x + x) : m[1];
    const v = parseInt(h, 16);
    return [v >> 16, (v >> 8) & 255, v & 255, 1];
  }
  m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([\d.]+)\s*)?\)$/i.exec(s);
  if (m) {
    const [r, g, b] = [m[1], m[2], m[3]].map((x) => Math.min(255, Number(x)));
    return [r, g, b, m[4] === undefined ? 1 : Math.max(0, Math.min(1, Number(m[4])))];
  }
  return null;
}

/** CSS colours as [r, g, b] bytes: parsed, or else read back from a 1×1 canvas; cached. */
const colorCache = new Map<string, number>();
let colorContext: Context2D | null = null;
export function packedRgb(css: string): number {
  let c = colorCache.get(css);
  if (c !== undefined) return c;
  const parsed = parseColor(css);
  if (parsed) {
    c = (parsed[0] << 16) | (parsed[1] << 8) | parsed[2];
    colorCache.set(css, c);
    return c;
  }
  colorContext ??= scratchContext();
  const ctx = colorContext;
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = '#000';
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  c = (d[0] << 16) | (d[1] << 8) | d[2];
  colorCache.set(css, c);
  return c;
}

type Deferred = (ctx: Context2D) => void;

export class PixelPainter implements Painter {
  fillStyle: string | CanvasGradient | CanvasPattern = '#000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';

  readonly #ctx: Context2D;
  readonly #rgb: (css: string) => number;
  #image: ImageData | null = null;
  #pixels = new Uint32Array(0);
  #w = 0;
  #h = 0;
  #dpr = 1;
  #path: number[] = [];
  #x = NaN;
  #y = NaN;
  #dash: [number, number] = [0, 0];
  #deferred: Deferred[] = [];
  #shapes: Path2D | null = null;
  // Little-endian RGBA in a Uint32Array: 0xAABBGGRR.
  readonly #littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

  /** `rgb` parses a CSS colour to 0xRRGGBB (by default through a canvas). */
  constructor(ctx: Context2D, rgb: (css: string) => number = packedRgb) {
    this.#ctx = ctx;
    this.#rgb = rgb;
  }

  /** The canvas it draws on. */
  get canvas() {
    return this.#ctx.canvas;
  }

  /** Starts a frame of width × height CSS pixels, white. */
  begin(width: number, height: number, dpr: number) {
    this.#dpr = dpr;
    const w = Math.max(1, Math.round(width * dpr));
    const h = Math.max(1, Math.round(height * dpr));
    if (!this.#image || this.#image.width !== w || this.#image.height !== h) {
      this.#image = new ImageData(w, h);
      this.#pixels = new Uint32Array(this.#image.data.buffer);
    }
    this.#w = w;
    this.#h = h;
    this.#pixels.fill(0xffffffff);
    this.#deferred = [];
    this.#path = [];
  }

  /** Puts the strokes on the canvas, then draws the fills and text on top. */
  end() {
    const ctx = this.#ctx;
    ctx.putImageData(this.#image!, 0, 0);
    if (this.#deferred.length === 0) return;
    ctx.save();
    ctx.setTransform(this.#dpr, 0, 0, this.#dpr, 0, 0);
    for (const op of this.#deferred) op(ctx);
    ctx.restore();
  }

  beginPath() {
    this.#path = [];
    this.#shapes = null;
    this.#x = this.#y = NaN;
  }
  moveTo(x: number, y: number) {
    this.#x = x;
    this.#y = y;
  }
  lineTo(x: number, y: number) {
    if (this.#x === this.#x) this.#path.push(this.#x, this.#y, x, y);
    this.#x = x;
    this.#y = y;
  }
  closePath() {}

  stroke() {
    const rgb = this.#rgb(String(this.strokeStyle));
    const r = (rgb >> 16) & 255;
    const g = (rgb >> 8) & 255;
    const b = rgb & 255;
    const color = this.#littleEndian ? (0xff000000 | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 0xff) >>> 0;
    const alpha = Math.max(0, Math.min(1, this.globalAlpha));
    const width = Math.max(1, Math.round(this.lineWidth * this.#dpr));
    const [on, off] = this.#dash;
    const dashed = off > 0;
    const period = (on + off) * this.#dpr;
    const onPx = on * this.#dpr;
    const path = this.#path;
    const d = this.#dpr;
    let travelled = 0;
    for (let k = 0; k < path.length; k += 4) {
      const x0 = path[k] * d;
      const y0 = path[k + 1] * d;
      const x1 = path[k + 2] * d;
      const y1 = path[k + 3] * d;
      const len = Math.hypot(x1 - x0, y1 - y0);
      this.#segment(x0, y0, x1, y1, color, r, g, b, alpha, width, dashed ? travelled : -1, period, onPx);
      travelled += len;
    }
  }

  // One segment in device pixels: vertical and horizontal ones as runs, others by Bresenham; a
  // square brush `width` pixels wide. `start` ≥ 0: dashed, the path's length before this segment.
  #segment(x0: number, y0: number, x1: number, y1: number, color: number, r: number, g: number, b: number, alpha: number, width: number, start: number, period: number, on: number) {
    const px = this.#pixels;
    const w = this.#w;
    const h = this.#h;
    const half = (width - 1) >> 1;
    const plot = (x: number, y: number, along: number) => {
      if (start >= 0 && (start + along) % period >= on) return;
      for (let dy = -half; dy < width - half; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        const row = yy * w;
        for (let dx = -half; dx < width - half; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const i = row + xx;
          if (alpha >= 1) px[i] = color;
          else {
            const v = px[i];
            const a = alpha;
            const q = 1 - a;
            const vr = this.#littleEndian ? v & 255 : (v >>> 24) & 255;
            const vg = (v >>> (this.#littleEndian ? 8 : 16)) & 255;
            const vb = this.#littleEndian ? (v >>> 16) & 255 : (v >>> 8) & 255;
            const nr = (r * a + vr * q) | 0;
            const ng = (g * a + vg * q) | 0;
            const nb = (b * a + vb * q) | 0;
            px[i] = this.#littleEndian ? (0xff000000 | (nb << 16) | (ng << 8) | nr) >>> 0 : ((nr << 24) | (ng << 16) | (nb << 8) | 0xff) >>> 0;
          }
        }
      }
    };
    const ix0 = Math.floor(x0);
    const iy0 = Math.floor(y0);
    const ix1 = Math.floor(x1);
    const iy1 = Math.floor(y1);
    if (!Number.isFinite(x0 + y0 + x1 + y1)) return;
    // Entirely outside: nothing to do (the canvas clips the same way).
    if ((ix0 < -width && ix1 < -width) || (ix0 >= w + width && ix1 >= w + width) || (iy0 < -width && iy1 < -width) || (iy0 >= h + width && iy1 >= h + width)) return;
    const simple = width === 1 && alpha >= 1 && start < 0;
    if (simple && ix0 === ix1) {
      if (ix0 < 0 || ix0 >= w) return;
      const lo = Math.max(0, Math.min(iy0, iy1));
      const hi = Math.min(h - 1, Math.max(iy0, iy1));
      for (let y = lo, i = lo * w + ix0; y <= hi; y++, i += w) px[i] = color;
      return;
    }
    if (simple && iy0 === iy1) {
      if (iy0 < 0 || iy0 >= h) return;
      const lo = Math.max(0, Math.min(ix0, ix1));
      const hi = Math.min(w - 1, Math.max(ix0, ix1));
      px.fill(color, iy0 * w + lo, iy0 * w + hi + 1);
      return;
    }
    if (ix0 === ix1) {
      const lo = Math.max(-width, Math.min(iy0, iy1));
      const hi = Math.min(h + width, Math.max(iy0, iy1));
      for (let y = lo; y <= hi; y++) plot(ix0, y, Math.abs(y - iy0));
      return;
    }
    if (iy0 === iy1) {
      const lo = Math.max(-width, Math.min(ix0, ix1));
      const hi = Math.min(w + width, Math.max(ix0, ix1));
      for (let x = lo; x <= hi; x++) plot(x, iy0, Math.abs(x - ix0));
      return;
    }
    // Bresenham, clipped to the visible box by step count.
    const dx = Math.abs(ix1 - ix0);
    const dy = -Math.abs(iy1 - iy0);
    const sx = ix0 < ix1 ? 1 : -1;
    const sy = iy0 < iy1 ? 1 : -1;
    let err = dx + dy;
    let x = ix0;
    let y = iy0;
    const steps = Math.min(dx - dy, 4 * (w + h));
    for (let n = 0; n <= steps; n++) {
      if (x >= -width && x < w + width && y >= -width && y < h + width) plot(x, y, Math.hypot(x - ix0, y - iy0));
      if (x === ix1 && y === iy1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y += sy;
      }
    }
  }

  #state(): Deferred {
    const { fillStyle, strokeStyle, lineWidth, globalAlpha, font, textAlign, textBaseline } = this;
    return (ctx) => {
      ctx.fillStyle = fillStyle;
      ctx.strokeStyle = strokeStyle;
      ctx.lineWidth = lineWidth;
      ctx.globalAlpha = globalAlpha;
      ctx.font = font;
      ctx.textAlign = textAlign;
      ctx.textBaseline = textBaseline;
    };
  }

  rect(x: number, y: number, w: number, h: number) {
    this.#shapes ??= new Path2D();
    this.#shapes.rect(x, y, w, h);
  }
  arc(x: number, y: number, r: number, a0: number, a1: number) {
    this.#shapes ??= new Path2D();
    this.#shapes.arc(x, y, r, a0, a1);
  }
  fill() {
    const path = new Path2D();
    const p = this.#path;
    for (let k = 0; k < p.length; k += 4) {
      if (k === 0 || p[k] !== p[k - 2] || p[k + 1] !== p[k - 1]) path.moveTo(p[k], p[k + 1]);
      path.lineTo(p[k + 2], p[k + 3]);
    }
    if (this.#shapes) path.addPath(this.#shapes);
    const state = this.#state();
    this.#deferred.push((ctx) => {
      state(ctx);
      ctx.fill(path);
    });
  }
  fillRect(x: number, y: number, w: number, h: number) {
    const state = this.#state();
    this.#deferred.push((ctx) => {
      state(ctx);
      ctx.fillRect(x, y, w, h);
    });
  }
  fillText(text: string, x: number, y: number) {
    const state = this.#state();
    this.#deferred.push((ctx) => {
      state(ctx);
      ctx.fillText(text, x, y);
    });
  }
  save() {}
  restore() {}
  setLineDash(segments: number[]) {
    this.#dash = segments.length >= 2 ? [segments[0], segments[1]] : [0, 0];
  }
}
