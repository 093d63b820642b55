// What the charts draw with: the subset of CanvasRenderingContext2D that the marks use. The canvas
// implements it for the screen; SvgPainter records the same calls as SVG elements for export, so
// an exported SVG has the same (decimated) marks as vectors.
import { path as d3path, type Path } from 'd3-path';

export interface Painter {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  beginPath(): void;
  closePath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  arc(x: number, y: number, r: number, a0: number, a1: number): void;
  stroke(): void;
  fill(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  save(): void;
  restore(): void;
  setLineDash(segments: number[]): void;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const r2 = (v: number) => Math.round(v * 100) / 100;

export class SvgPainter implements Painter {
  fillStyle: string | CanvasGradient | CanvasPattern = '#000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  readonly parts: string[] = [];
  #path: Path = d3path();
  #dash: number[] = [];
  #stack: Partial<SvgPainter>[] = [];

  beginPath() {
    this.#path = d3path();
  }
  closePath() {
    this.#path.closePath();
  }
  moveTo(x: number, y: number) {
    this.#path.moveTo(r2(x), r2(y));
  }
  lineTo(x: number, y: number) {
    this.#path.lineTo(r2(x), r2(y));
  }
  rect(x: number, y: number, w: number, h: number) {
    this.#path.rect(r2(x), r2(y), r2(w), r2(h));
  }
  arc(x: number, y: number, r: number, a0: number, a1: number) {
    this.#path.arc(r2(x), r2(y), r, a0, a1);
  }
  stroke() {
    const d = this.#path.toString();
    if (!d) return;
    const dash = this.#dash.length ? ` stroke-dasharray="${this.#dash.join(' ')}"` : '';
    this.parts.push(
      `<path d="${d}" fill="none" stroke="${esc(String(this.strokeStyle))}" stroke-width="${this.lineWidth}"${dash}${this.#alpha()}/>`,
    );
  }
  fill() {
    const d = this.#path.toString();
    if (d) this.parts.push(`<path d="${d}" fill="${esc(String(this.fillStyle))}"${this.#alpha()}/>`);
  }
  fillRect(x: number, y: number, w: number, h: number) {
    this.parts.push(`<rect x="${r2(x)}" y="${r2(y)}" width="${r2(w)}" height="${r2(h)}" fill="${esc(String(this.fillStyle))}"${this.#alpha()}/>`);
  }
  fillText(text: string, x: number, y: number) {
    const anchor = this.textAlign === 'center' ? 'middle' : this.textAlign === 'right' || this.textAlign === 'end' ? 'end' : 'start';
    const baseline = this.textBaseline === 'middle' ? 'central' : this.textBaseline === 'top' ? 'hanging' : 'alphabetic';
    this.parts.push(
      `<text x="${r2(x)}" y="${r2(y)}" text-anchor="${anchor}" dominant-baseline="${baseline}" style="font:${esc(this.font)}" fill="${esc(String(this.fillStyle))}"${this.#alpha()}>${esc(text)}</text>`,
    );
  }
  save() {
    this.#stack.push({
      fillStyle: this.fillStyle, strokeStyle: this.strokeStyle, lineWidth: this.lineWidth, globalAlpha: this.globalAlpha,
      font: this.font, textAlign: this.textAlign, textBaseline: this.textBaseline,
    });
  }
  restore() {
    Object.assign(this, this.#stack.pop() ?? {});
  }
  setLineDash(segments: number[]) {
    this.#dash = segments;
  }
  #alpha() {
    return this.globalAlpha < 1 ? ` opacity="${this.globalAlpha}"` : '';
  }
}
