// The marks of the per-connection series plots (step lines of one or more columns per connection,
// state bands under them, CUBIC's K on the W_max line) and of the queue plot. Data in, levels of
// detail built once per scene, drawn from scales: the same in the plot worker and on the main thread.
import { lowerBound, upperBound } from '../../data/columns';
import { stepPyramid, type StepLevel } from '../../data/lod';
import { alertColor, colorOf } from '../../data/palette';
import type { Painter } from '../painter';
import { diamondGlyph, drawBands, drawOrder, drawStep, drawStepLevels, emphasis, type BandLane, type Frame, type Scale } from './primitives';

export interface SeriesLine {
  flow: number;
  t: Float64Array;
  /** One column per drawn series (FlowSeriesMarks.columns), NaN where there is no value. */
  values: Float64Array[];
}

export interface FlowSeriesMarks {
  kind: 'flow-series';
  lines: SeriesLine[];
  /** Per column: line width (before emphasis) and dash pattern ([] solid). */
  columns: { width: number; dash: number[] }[];
  tMax: number;
  /** A state column as a band per connection under the lines. */
  bands?: { lanes: BandLane[]; colors: string[]; names: string[] };
  /** CUBIC's K: where the curve reaches W_max, per connection. */
  kMarks?: { flow: number; t: Float64Array; y: Float64Array }[];
}

export interface FlowSeriesStyle {
  /** The flows shown (the others hidden), in drawing order. */
  visible: number[];
  hovered: number | null;
}

export interface FlowSeriesScene {
  marks: FlowSeriesMarks;
  levels: Map<number, StepLevel[][]>;
}

export function flowSeriesScene(marks: FlowSeriesMarks): FlowSeriesScene {
  return { marks, levels: new Map(marks.lines.map((l) => [l.flow, l.values.map((v) => stepPyramid(l.t, v, marks.tMax))])) };
}

/** The band's lanes that are drawn: those of the shown flows. */
export function shownLanes(marks: FlowSeriesMarks, visible: readonly number[]): BandLane[] {
  if (!marks.bands) return [];
  const shown = new Set(visible);
  return marks.bands.lanes.filter((l) => shown.has(l.flow));
}

export function drawFlowSeries(p: Painter, scene: FlowSeriesScene, style: FlowSeriesStyle, sx: Scale, sy: Scale, frame: Frame) {
  const { marks } = scene;
  const { hovered } = style;
  const shown = new Set(style.visible);
  const lines = marks.lines.filter((l) => shown.has(l.flow));
  for (const l of drawOrder(lines, (x) => x.flow, hovered)) {
    const e = emphasis(hovered, l.flow);
    p.globalAlpha = e.alpha;
    p.strokeStyle = colorOf(l.flow);
    const levels = scene.levels.get(l.flow)!;
    marks.columns.forEach((c, k) => {
      p.lineWidth = c.width * e.width;
      p.setLineDash(c.dash);
      drawStepLevels(p, levels[k], sx, sy);
    });
  }
  p.globalAlpha = 1;
  p.setLineDash([]);
  if (marks.kMarks) {
    // RFC 9438 §4.2: the cubic curve reaches W_max at t_epoch + K: a diamond on the W_max line.
    const [t0, t1] = sx.domain();
    let count = 0;
    for (const m of marks.kMarks) if (shown.has(m.flow)) count += upperBound(m.t, t1) - lowerBound(m.t, t0);
    p.font = '9px sans-serif';
    p.textAlign = 'left';
    p.textBaseline = 'bottom';
    for (const m of drawOrder(
      marks.kMarks.filter((x) => shown.has(x.flow)),
      (x) => x.flow,
      hovered,
    )) {
      const e = emphasis(hovered, m.flow);
      p.globalAlpha = e.alpha;
      p.strokeStyle = colorOf(m.flow);
      p.fillStyle = colorOf(m.flow);
      p.lineWidth = 1.5;
      p.beginPath();
      const i0 = lowerBound(m.t, t0);
      const i1 = upperBound(m.t, t1);
      let lastX = -Infinity;
      for (let i = i0; i < i1; i++) {
        const x = sx(m.t[i]);
        if (x - lastX < 3) continue;
        lastX = x;
        diamondGlyph(p, x, sy(m.y[i]));
      }
      p.stroke();
      // Named while they can be told apart.
      if (count <= 40) for (let i = i0; i < i1; i++) p.fillText('K', sx(m.t[i]) + 5, sy(m.y[i]) - 2);
    }
    p.globalAlpha = 1;
    p.lineWidth = 1;
  }
  if (marks.bands) {
    const b = marks.bands;
    drawBands(p, shownLanes(marks, style.visible), b.colors, b.names, colorOf, hovered, sx, frame, sy.range()[0]);
  }
}

export interface QueueMarks {
  kind: 'queue';
  queues: { t: Float64Array; packets: Float64Array; dropT: Float64Array }[];
}

export function drawQueues(p: Painter, marks: QueueMarks, sx: Scale, sy: Scale) {
  const [t0, t1] = sx.domain();
  marks.queues.forEach((q, i) => {
    p.strokeStyle = colorOf(i);
    p.lineWidth = 1.25;
    drawStep(p, q.t, q.packets, sx, sy);
    // Drops: a vermillion cross at the queue's length for each pixel column with drops on this link.
    const a = lowerBound(q.dropT, t0);
    const b = upperBound(q.dropT, t1);
    p.strokeStyle = alertColor;
    p.beginPath();
    let last = NaN;
    for (let k = a; k < b; k++) {
      const x = Math.round(sx(q.dropT[k]));
      if (x === last) continue;
      last = x;
      const j = upperBound(q.t, q.dropT[k]) - 1;
      const y = sy(j >= 0 ? q.packets[j] : 0);
      p.moveTo(x - 3, y - 3);
      p.lineTo(x + 3, y + 3);
      p.moveTo(x - 3, y + 3);
      p.lineTo(x + 3, y - 3);
    }
    p.stroke();
  });
}
