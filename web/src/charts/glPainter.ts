// A Painter (painter.ts) that draws the strokes of a frame with WebGL2: every line segment of every
// path becomes an instance of one quad, all segments of a frame go to the GPU in one buffer, and
// each stroke() is one instanced draw with its colour, width, alpha and dash. Text, fills and
// rectangles (few per frame: "R", SYN/FIN, drop marks are strokes) go to a 2D canvas laid over the
// GL canvas. The draw functions of the charts are the same for the screen, this and SVG export. It
// draws on the page's canvases or, in the plot worker (plotWorker.ts), on OffscreenCanvases.
import type { Painter } from './painter';
import { parseColor, scratchContext, type Context2D } from './pixelPainter';

const VERTEX = `#version 300 es
in vec2 corner;      // x: 0 at the segment's start, 1 at its end; y: -1 or 1, the side
in vec4 segment;     // x0, y0, x1, y1 in CSS pixels
in float distance;   // length of the path before this segment, for dashes
uniform vec2 resolution;
uniform float halfWidth;
out float along;
void main() {
  vec2 a = segment.xy;
  vec2 b = segment.zw;
  vec2 d = b - a;
  float len = length(d);
  vec2 dir = len > 0.0 ? d / len : vec2(0.0, 1.0);
  vec2 normal = vec2(-dir.y, dir.x);
  // Square caps: half a width beyond each end, so that the segments of a path join without gaps.
  vec2 p = mix(a - dir * halfWidth, b + dir * halfWidth, corner.x) + normal * corner.y * halfWidth;
  along = distance + corner.x * (len + 2.0 * halfWidth) - halfWidth;
  vec2 clip = p / resolution * 2.0 - 1.0;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
}`;

const FRAGMENT = `#version 300 es
precision mediump float;
in float along;
uniform vec4 color;
uniform vec2 dash; // on, off (0, 0: solid)
out vec4 outColor;
void main() {
  if (dash.y > 0.0 && mod(along, dash.x + dash.y) > dash.x) discard;
  outColor = vec4(color.rgb * color.a, color.a);
}`;

/** CSS colours as RGBA in [0, 1]: parsed, or else read back from a 1×1 canvas; cached. */
const colorCache = new Map<string, [number, number, number, number]>();
let colorContext: Context2D | null = null;
function rgba(css: string): [number, number, number, number] {
  let c = colorCache.get(css);
  if (c) return c;
  const parsed = parseColor(css);
  if (parsed) {
    c = [parsed[0] / 255, parsed[1] / 255, parsed[2] / 255, parsed[3]];
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
  c = [d[0] / 255, d[1] / 255, d[2] / 255, d[3] / 255];
  colorCache.set(css, c);
  return c;
}

interface Stroke {
  first: number;
  count: number;
  color: [number, number, number, number];
  alpha: number;
  halfWidth: number;
  dash: [number, number];
}

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const s = gl.createShader(type)!;
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`WebGL2 shader: ${gl.getShaderInfoLog(s)}`);
  return s;
}

/**
 * The WebGL2 renderer this browser gives (on the page or, in a worker, offscreen), and whether it
 * rasterises in software: SwiftShader (headless Chromium without a GPU: "ANGLE (Google, Vulkan
 * 1.3.0 (SwiftShader Device (Subzero) ...)))"), Mesa's llvmpipe and softpipe, Microsoft's Basic
 * Render Driver. The unmasked name comes from WEBGL_debug_renderer_info where the browser offers
 * it, else from RENDERER (which Chromium now unmasks itself). Null without WebGL2.
 */
export function webgl2Renderer(): { name: string; software: boolean } | null {
  try {
    const canvas = typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
    const gl = canvas.getContext('webgl2') as WebGL2RenderingContext | null;
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { name, software: /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name) };
  } catch {
    return null;
  }
}

export class GlPainter implements Painter {
  fillStyle: string | CanvasGradient | CanvasPattern = '#000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';

  readonly #gl: WebGL2RenderingContext;
  readonly #overlay: Context2D;
  readonly #program: WebGLProgram;
  readonly #instances: WebGLBuffer;
  readonly #vao: WebGLVertexArrayObject;
  readonly #u: Record<'resolution' | 'halfWidth' | 'color' | 'dash', WebGLUniformLocation>;
  #segments = new Float32Array(4 * 4096);
  #distances = new Float32Array(4096);
  #count = 0;
  #pathStart = 0;
  #x = NaN;
  #y = NaN;
  #travelled = 0;
  #dash: [number, number] = [0, 0];
  #strokes: Stroke[] = [];
  #overlayUsed = false;
  #width = 0;
  #height = 0;
  #dpr = 1;

  /** `canvas` takes the WebGL2 context; `overlay` a 2D context for text and fills, laid over it. */
  constructor(canvas: HTMLCanvasElement | OffscreenCanvas, overlay: HTMLCanvasElement | OffscreenCanvas) {
    const gl = canvas.getContext('webgl2', { antialias: false, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: false }) as WebGL2RenderingContext | null;
    if (!gl) throw new Error('WebGL2 is not available');
    this.#gl = gl;
    this.#overlay = overlay.getContext('2d') as Context2D;
    const program = gl.createProgram()!;
    gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`WebGL2 program: ${gl.getProgramInfoLog(program)}`);
    this.#program = program;
    this.#vao = gl.createVertexArray()!;
    gl.bindVertexArray(this.#vao);
    const corners = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, corners);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, -1, 0, 1, 1, -1, 1, 1]), gl.STATIC_DRAW);
    const corner = gl.getAttribLocation(program, 'corner');
    gl.enableVertexAttribArray(corner);
    gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
    this.#instances = gl.createBuffer()!;
    gl.bindVertexArray(null);
    const u = (name: string) => gl.getUniformLocation(program, name)!;
    this.#u = { resolution: u('resolution'), halfWidth: u('halfWidth'), color: u('color'), dash: u('dash') };
  }

  /** Starts a frame of width × height CSS pixels at the device pixel ratio. */
  begin(width: number, height: number, dpr: number) {
    this.#width = width;
    this.#height = height;
    this.#dpr = dpr;
    this.#count = 0;
    this.#strokes = [];
    this.#x = this.#y = NaN;
    this.#pathStart = 0;
    if (this.#overlayUsed) {
      this.#overlay.setTransform(1, 0, 0, 1, 0, 0);
      this.#overlay.clearRect(0, 0, this.#overlay.canvas.width, this.#overlay.canvas.height);
      this.#overlayUsed = false;
    }
  }

  /** Uploads the frame's segments and draws every stroke, in order. */
  end() {
    const gl = this.#gl;
    gl.viewport(0, 0, Math.round(this.#width * this.#dpr), Math.round(this.#height * this.#dpr));
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    if (this.#count === 0) return;
    gl.useProgram(this.#program);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(this.#vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.#instances);
    const n = this.#count;
    const data = new Float32Array(n * 5);
    for (let i = 0; i < n; i++) {
      data[i * 5] = this.#segments[i * 4];
      data[i * 5 + 1] = this.#segments[i * 4 + 1];
      data[i * 5 + 2] = this.#segments[i * 4 + 2];
      data[i * 5 + 3] = this.#segments[i * 4 + 3];
      data[i * 5 + 4] = this.#distances[i];
    }
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STREAM_DRAW);
    const segment = gl.getAttribLocation(this.#program, 'segment');
    const distance = gl.getAttribLocation(this.#program, 'distance');
    gl.enableVertexAttribArray(segment);
    gl.enableVertexAttribArray(distance);
    gl.vertexAttribDivisor(segment, 1);
    gl.vertexAttribDivisor(distance, 1);
    gl.uniform2f(this.#u.resolution, this.#width, this.#height);
    for (const s of this.#strokes) {
      gl.vertexAttribPointer(segment, 4, gl.FLOAT, false, 20, s.first * 20);
      gl.vertexAttribPointer(distance, 1, gl.FLOAT, false, 20, s.first * 20 + 16);
      gl.uniform1f(this.#u.halfWidth, s.halfWidth);
      gl.uniform4f(this.#u.color, s.color[0], s.color[1], s.color[2], s.color[3] * s.alpha);
      gl.uniform2f(this.#u.dash, s.dash[0], s.dash[1]);
      gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, s.count);
    }
    gl.bindVertexArray(null);
  }

  #overlayContext(): Context2D {
    const ctx = this.#overlay;
    if (!this.#overlayUsed) {
      ctx.setTransform(this.#dpr, 0, 0, this.#dpr, 0, 0);
      this.#overlayUsed = true;
    }
    ctx.fillStyle = this.fillStyle;
    ctx.strokeStyle = this.strokeStyle;
    ctx.lineWidth = this.lineWidth;
    ctx.globalAlpha = this.globalAlpha;
    ctx.font = this.font;
    ctx.textAlign = this.textAlign;
    ctx.textBaseline = this.textBaseline;
    ctx.setLineDash(this.#dash[1] > 0 ? this.#dash : []);
    return ctx;
  }

  #push(x0: number, y0: number, x1: number, y1: number) {
    if (this.#count * 4 + 4 > this.#segments.length) {
      const grown = new Float32Array(this.#segments.length * 2);
      grown.set(this.#segments);
      this.#segments = grown;
      const d = new Float32Array(this.#distances.length * 2);
      d.set(this.#distances);
      this.#distances = d;
    }
    const k = this.#count * 4;
    this.#segments[k] = x0;
    this.#segments[k + 1] = y0;
    this.#segments[k + 2] = x1;
    this.#segments[k + 3] = y1;
    this.#distances[this.#count] = this.#travelled;
    this.#travelled += Math.hypot(x1 - x0, y1 - y0);
    this.#count++;
  }

  beginPath() {
    this.#pathStart = this.#count;
    this.#x = this.#y = NaN;
    this.#travelled = 0;
    this.#path2d = null;
  }
  moveTo(x: number, y: number) {
    this.#x = x;
    this.#y = y;
  }
  lineTo(x: number, y: number) {
    if (this.#x === this.#x) this.#push(this.#x, this.#y, x, y);
    this.#x = x;
    this.#y = y;
  }
  closePath() {}
  stroke() {
    const count = this.#count - this.#pathStart;
    if (count > 0)
      this.#strokes.push({
        first: this.#pathStart,
        count,
        color: rgba(String(this.strokeStyle)),
        alpha: this.globalAlpha,
        halfWidth: Math.max(0.5, this.lineWidth / 2),
        dash: this.#dash,
      });
    // A later stroke() of the same path draws it again, like a canvas.
  }

  // Fills go to the 2D overlay: the path's line segments and its rectangles and arcs, replayed there.
  #path2d: Path2D | null = null;
  rect(x: number, y: number, w: number, h: number) {
    this.#path2d ??= new Path2D();
    this.#path2d.rect(x, y, w, h);
  }
  arc(x: number, y: number, r: number, a0: number, a1: number) {
    this.#path2d ??= new Path2D();
    this.#path2d.arc(x, y, r, a0, a1);
  }
  fill() {
    const path = new Path2D();
    const seg = this.#segments;
    for (let i = this.#pathStart, k = i * 4; i < this.#count; i++, k += 4) {
      if (i === this.#pathStart || seg[k] !== seg[k - 2] || seg[k + 1] !== seg[k - 1]) path.moveTo(seg[k], seg[k + 1]);
      path.lineTo(seg[k + 2], seg[k + 3]);
    }
    if (this.#path2d) path.addPath(this.#path2d);
    this.#overlayContext().fill(path);
  }
  fillRect(x: number, y: number, w: number, h: number) {
    this.#overlayContext().fillRect(x, y, w, h);
  }
  fillText(text: string, x: number, y: number) {
    this.#overlayContext().fillText(text, x, y);
  }
  save() {}
  restore() {}
  setLineDash(segments: number[]) {
    this.#dash = segments.length >= 2 ? [segments[0], segments[1]] : [0, 0];
  }
}
