// The marks' building blocks, shared by every dense plot and by every place a plot is drawn (the
// plot worker, the main thread, SVG export): step lines from their levels of detail, tcptrace's
// glyphs, state bands, and the emphasis of the highlighted connection. Pure functions over a
// Painter and d3 scales; nothing here touches the DOM or React, so a Web Worker can import it.
import type { ScaleLinear } from 'd3-scale';
import { affineOf, decimateStepLevel, type LineColumns } from '../../data/decimate';
import { pickLevel, type StepLevel } from '../../data/lod';
import { lowerBound, upperBound } from '../../data/columns';
import type { Painter } from '../painter';

export type Scale = ScaleLinear<number, number>;

/** The drawing area in CSS pixels (the marks' canvas). */
export interface Frame {
  width: number;
  height: number;
}

/**
 * Drawing order and emphasis under a highlight: the hovered flow last and bold, the others faded
 * while one is hovered. `alpha` is 1 when nothing is hovered.
 */
export function emphasis(hovered: number | null, flow: number): { alpha: number; width: number } {
  if (hovered === null) return { alpha: 1, width: 1 };
  return flow === hovered ? { alpha: 1, width: 2.5 } : { alpha: 0.22, width: 1 };
}

/** Flows in drawing order: the hovered one last, so that it is on top. */
export function drawOrder<T>(items: T[], flowOf: (item: T) => number, hovered: number | null): T[] {
  if (hovered === null) return items;
  const rest = items.filter((i) => flowOf(i) !== hovered);
  return rest.length === items.length ? items : [...rest, ...items.filter((i) => flowOf(i) === hovered)];
}

/** The colour mixed halfway with white (the receive-window line beside the ACK line). */
export function lighten(hex: string): string {
  const v = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * 0.55);
  return `rgb(${mix(v >> 16)},${mix((v >> 8) & 255)},${mix(v & 255)})`;
}

/** Draws a step line (each value holds until the next time), decimated per pixel column. */
export function drawStep(p: Painter, t: ArrayLike<number>, y: ArrayLike<number>, sx: Scale, sy: Scale) {
  drawStepLevels(p, [{ bucketS: 0, t, first: y, min: y, max: y, last: y } as StepLevel], sx, sy);
}

// Columns reused by every step line drawn (a frame draws one line at a time), and the values one
// column's line passes through.
let stepColumns: LineColumns | undefined;
const through = new Float64Array(5);

/** Draws a step line from its levels of detail (lod.ts), the coarsest that keeps pixel accuracy. */
export function drawStepLevels(p: Painter, levels: StepLevel[], sx: Scale, sy: Scale, holdUntil = Infinity) {
  const [t0, t1] = sx.domain();
  const level = pickLevel(levels, (t1 - t0) / Math.max(1, sx.range()[1]));
  const d = decimateStepLevel(level, t0, t1, affineOf(sx), stepColumns);
  stepColumns = d;
  let open = false;
  let prev = NaN;
  p.beginPath();
  for (let k = 0; k < d.count; k++) {
    const x = d.x[k];
    if (Number.isNaN(d.first[k])) {
      open = false;
      prev = NaN;
      continue;
    }
    // In a column the line runs vertically through prev (the value entering it), first, min, max
    // and last; only the points where it turns are drawn (a rising ACK line needs two per column).
    let m = 0;
    if (open) through[m++] = prev;
    through[m++] = d.first[k];
    through[m++] = d.min[k];
    through[m++] = d.max[k];
    through[m++] = d.last[k];
    let a = through[0];
    if (!open) p.moveTo(x, sy(a));
    else p.lineTo(x, sy(a));
    for (let j = 1; j < m; j++) {
      const b = through[j];
      const c = j + 1 < m ? through[j + 1] : NaN;
      if (b === a || (c === c && (b - a) * (c - b) >= 0)) continue; // on the way from a to c
      p.lineTo(x, sy(b));
      a = b;
    }
    prev = d.last[k];
    open = true;
  }
  // The last value holds until holdUntil (the end of the line's own data: an ACK line stops at the
  // last ACK), or to the right edge.
  if (open) {
    const end = Math.min(sx.range()[1], holdUntil === Infinity ? Infinity : sx(holdUntil));
    if (end > d.x[d.count - 1]) p.lineTo(end, sy(prev));
  }
  p.stroke();
}

/**
 * A segment in xplot's glyph: a vertical line over its byte range with an arrowhead at each end
 * when the range is tall enough to show them, else a plain tick (at least a pixel tall).
 */
export function segmentGlyph(p: Painter, x: number, y0: number, y1: number) {
  p.moveTo(x, y0);
  p.lineTo(x, Math.min(y1, y0 - 1));
  if (y0 - y1 > 8) {
    p.moveTo(x - 2.5, y1 + 3);
    p.lineTo(x, y1);
    p.lineTo(x + 2.5, y1 + 3);
    p.moveTo(x - 2.5, y0 - 3);
    p.lineTo(x, y0);
    p.lineTo(x + 2.5, y0 - 3);
  }
}

/**
 * A SACK block as tcptrace draws it (its time–sequence graph: a selective ACK is a line at the
 * ACK's time over the SACKed bytes): here a vertical line with a short bar at each end, which
 * tells it from a segment's arrowheads.
 */
export function sackGlyph(p: Painter, x: number, y0: number, y1: number) {
  p.moveTo(x, y0);
  p.lineTo(x, Math.min(y1, y0 - 1));
  if (y0 - y1 > 4) {
    p.moveTo(x - 2, y0);
    p.lineTo(x + 2, y0);
    p.moveTo(x - 2, y1);
    p.lineTo(x + 2, y1);
  }
}

/** The mark of a dropped or lost segment, at the instant and sequence number it was dropped. */
export function dropGlyph(p: Painter, x: number, y: number) {
  p.moveTo(x - 3, y - 3);
  p.lineTo(x + 3, y + 3);
  p.moveTo(x - 3, y + 3);
  p.lineTo(x + 3, y - 3);
}

/** One connection's lane of a state band: runs [start, end) in state[i] (value 0 is not drawn). */
export interface BandLane {
  flow: number;
  start: Float64Array;
  end: Float64Array;
  state: Uint8Array;
}

/** Where the lanes of a band go: `count` lanes of `height` px from `top` (the bottom of the lines). */
export function bandLayout(lanes: number, top: number, frameHeight: number): { top: number; height: number } {
  const room = Math.max(0, frameHeight - top - 3);
  return { top: top + 3, height: lanes > 0 ? Math.min(12, room / lanes) : 0 };
}

/**
 * State bands under the lines: one lane per connection (a square in its colour at the left), each
 * run a rectangle in its state's colour, its name written in it where it fits.
 */
export function drawBands(
  p: Painter,
  lanes: BandLane[],
  colors: string[],
  names: string[],
  laneColor: (flow: number) => string,
  hovered: number | null,
  sx: Scale,
  frame: Frame,
  top: number,
) {
  const layout = bandLayout(lanes.length, top, frame.height);
  if (layout.height < 1) return;
  const [t0, t1] = sx.domain();
  const right = sx.range()[1];
  p.font = '9px sans-serif';
  p.textAlign = 'left';
  p.textBaseline = 'middle';
  lanes.forEach((lane, n) => {
    const y = layout.top + n * layout.height;
    const h = Math.max(1, layout.height - (layout.height >= 4 ? 1 : 0));
    p.globalAlpha = emphasis(hovered, lane.flow).alpha;
    const i0 = Math.max(0, upperBound(lane.end, t0));
    const i1 = Math.min(lane.start.length, lowerBound(lane.start, t1) + 1);
    let lastX = -Infinity;
    for (let i = i0; i < i1; i++) {
      const color = colors[lane.state[i]];
      if (!color) continue;
      const x0 = Math.max(0, sx(lane.start[i]));
      const x1 = Math.min(right, sx(lane.end[i]));
      // Runs narrower than a pixel that follow each other draw one pixel each, not one on another.
      if (x1 <= lastX) continue;
      const from = Math.max(x0, lastX);
      p.fillStyle = color;
      p.fillRect(from, y, Math.max(1, x1 - from), h);
      lastX = Math.max(from + 1, x1);
      if (h >= 9 && x1 - from > 6 * names[lane.state[i]].length + 6) {
        p.fillStyle = '#222';
        p.fillText(names[lane.state[i]], from + 3, y + h / 2);
      }
    }
    // The connection's colour at the lane's left edge.
    p.fillStyle = laneColor(lane.flow);
    p.fillRect(0, y, 3, h);
  });
  p.globalAlpha = 1;
}

/** A diamond (outline) centred at x, y: CUBIC's K on its W_max line. */
export function diamondGlyph(p: Painter, x: number, y: number, r = 4) {
  p.moveTo(x, y - r);
  p.lineTo(x + r, y);
  p.lineTo(x, y + r);
  p.lineTo(x - r, y);
  p.lineTo(x, y - r);
}
