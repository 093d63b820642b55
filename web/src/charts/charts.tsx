// The run's plots: time–sequence graph, congestion windows, ensemble windows, queues, rates, RTT,
// pacing rates.
// Each is a Plot with a draw function over decimated columns (see data/decimate.ts).
import { useCallback, useMemo, useRef } from 'react';
import { lowerBound, upperBound } from '../data/columns';
import { seriesCsv, toCsv } from '../data/csv';
import { affineOf, decimateMarks, decimatePoints, decimateStep, decimateStepLevel, decimateTicks, RangeExtent, type LineColumns, type TickColumns } from '../data/decimate';
import { pickLevel, stepPyramid, tickPyramid, type StepLevel } from '../data/lod';
import { alertColor, colorOf } from '../data/palette';
import { isClosedRow, windowColumn, windowViews, type FlowWindow, type GroupWindow, type QueueLine, type RateLine, type RttSamples, type WindowView } from '../data/series';
import type { TimeSequence } from '../data/timeseq';
import { drawOrder, emphasis, useFocus } from './focus';
import type { Painter } from './painter';
import { formatSi, Plot, type Domain, type Scale } from './Plot';

export interface TimeProps {
  xDomain: Domain;
  xFull: Domain;
  onXDomain: (d: Domain) => void;
}

const fmt = (v: number, digits = 6) => String(Number(v.toPrecision(digits)));

/** The time–sequence graph draws every receive-window edge up to this many connections shown. */
const WINDOW_EDGES_UP_TO = 8;

/** The colour mixed halfway with white (the receive-window line beside the ACK line). */
function lighten(hex: string): string {
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

export function extentOf(arrays: { t: ArrayLike<number>; y: ArrayLike<number> }[], x0: number, x1: number, floor0 = true): Domain {
  let lo = floor0 ? 0 : Infinity;
  let hi = -Infinity;
  for (const { t, y } of arrays) {
    const i0 = Math.max(0, lowerBound(t, x0) - 1);
    const i1 = Math.min(t.length, upperBound(t, x1) + 1);
    for (let i = i0; i < i1; i++) {
      const v = y[i];
      if (Number.isNaN(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!Number.isFinite(hi)) return [0, 1];
  return [Number.isFinite(lo) ? lo : 0, hi];
}

// ---------------------------------------------------------------------------------------------
// Time–sequence graph (tcptrace/xplot)

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

/** The mark of a dropped or lost segment, at the instant and sequence number it was dropped. */
export function dropGlyph(p: Painter, x: number, y: number) {
  p.moveTo(x - 3, y - 3);
  p.lineTo(x + 3, y + 3);
  p.moveTo(x - 3, y + 3);
  p.lineTo(x + 3, y - 3);
}

export function TimeSequenceChart({ ts, yShared, title, ...time }: { ts: TimeSequence; yShared?: (x0: number, x1: number) => Domain; title?: string } & TimeProps) {
  const buffer = useRef<TickColumns | undefined>(undefined);
  const tickOrder = useRef<Int32Array | undefined>(undefined);
  const n = ts.connections.length;
  const { focus, shown } = useFocus();
  // Per connection index: drawn or not (the shared focus is by flow).
  const visible = useMemo(() => Uint8Array.from(ts.connections, (c) => (shown(c.flow) ? 1 : 0)), [ts, shown]);
  const allVisible = visible.every((v) => v === 1);
  const shownCount = visible.reduce((a, b) => a + b, 0);
  const hoveredConn = useMemo(() => ts.connections.findIndex((c) => c.flow === focus.hovered), [ts, focus.hovered]);
  const extent = useMemo(() => new RangeExtent(ts.segments.lo, ts.segments.hi), [ts]);
  const levels = useMemo(() => tickPyramid(ts.segments, n, ts.tMax), [ts, n]);
  const ackLevels = useMemo(() => ts.acks.map((a) => stepPyramid(a.t, a.y, ts.tMax)), [ts]);
  const windowLevels = useMemo(() => ts.windows.map((a) => stepPyramid(a.t, a.y, ts.tMax)), [ts]);
  const yExtent = useCallback(
    (x0: number, x1: number): Domain => {
      const s = ts.segments;
      const i0 = lowerBound(s.t, x0);
      const i1 = upperBound(s.t, x1);
      if (i1 <= i0) return [0, Math.max(1, ts.seqMax)];
      if (allVisible) return extent.query(i0, i1);
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = i0; i < i1; i++) {
        if (!visible[s.conn[i]]) continue;
        if (s.lo[i] < lo) lo = s.lo[i];
        if (s.hi[i] > hi) hi = s.hi[i];
      }
      return Number.isFinite(hi) ? [lo, hi] : [0, 1];
    },
    [ts, extent, visible, allVisible],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      const [t0, t1] = sx.domain();
      const level = pickLevel(levels, (t1 - t0) / Math.max(1, sx.range()[1]));
      const d = decimateTicks(level.seg, n, t0, t1, affineOf(sx), buffer.current);
      buffer.current = d;
      // Per connection: segments in xplot's glyph; the hovered connection last, the others faded.
      // The ticks are put in connection order by a counting sort (no arrays per frame).
      const start = new Int32Array(n + 1);
      let retx = 0;
      for (let k = 0; k < d.count; k++) {
        if (!visible[d.conn[k]]) continue;
        if (d.retx[k]) retx++;
        else start[d.conn[k] + 1]++;
      }
      for (let c = 0; c < n; c++) start[c + 1] += start[c];
      if (!tickOrder.current || tickOrder.current.length < d.count) tickOrder.current = new Int32Array(d.count);
      const byConn = tickOrder.current;
      const fill = start.slice(0, n);
      for (let k = 0; k < d.count; k++) if (visible[d.conn[k]] && !d.retx[k]) byConn[fill[d.conn[k]]++] = k;
      const order = hoveredConn >= 0 ? [...Array.from({ length: n }, (_, c) => c).filter((c) => c !== hoveredConn), hoveredConn] : Array.from({ length: n }, (_, c) => c);
      for (const c of order) {
        if (!visible[c]) continue;
        const e = emphasis(focus, ts.connections[c].flow);
        const color = colorOf(ts.connections[c].flow);
        p.globalAlpha = e.alpha;
        p.strokeStyle = color;
        p.lineWidth = e.width;
        if (start[c + 1] > start[c]) {
          p.beginPath();
          for (let j = start[c]; j < start[c + 1]; j++) {
            const k = byConn[j];
            segmentGlyph(p, d.x[k] + 0.5, sy(d.lo[k]), sy(d.hi[k]));
          }
          p.stroke();
        }
        // The ACK line (solid) and the receive-window edge (thin, light) in the connection's colour;
        // no dashes, which cost the most to rasterise on a software canvas. With many connections
        // shown, only the highlighted one's window edge: dozens of them are clutter, and each is
        // another line to rasterise per frame.
        p.lineWidth = e.width;
        const last = ts.acks[c].t.length ? ts.acks[c].t[ts.acks[c].t.length - 1] : 0;
        drawStepLevels(p, ackLevels[c], sx, sy, last);
        if (shownCount <= WINDOW_EDGES_UP_TO || c === hoveredConn) {
          p.strokeStyle = lighten(color);
          p.lineWidth = 1;
          drawStepLevels(p, windowLevels[c], sx, sy, last);
        }
      }
      p.globalAlpha = 1;
      // Retransmissions: vermillion segments with an "R".
      p.strokeStyle = alertColor;
      p.fillStyle = alertColor;
      p.lineWidth = 1;
      p.font = 'bold 10px sans-serif';
      p.textAlign = 'center';
      p.textBaseline = 'bottom';
      p.beginPath();
      for (let k = 0; k < d.count; k++) {
        if (!d.retx[k] || !visible[d.conn[k]]) continue;
        segmentGlyph(p, d.x[k] + 0.5, sy(d.lo[k]), sy(d.hi[k]));
      }
      p.stroke();
      // The letters only while they can be told apart; the vermillion segments always.
      if (retx <= 300) for (let k = 0; k < d.count; k++) if (d.retx[k] && visible[d.conn[k]]) p.fillText('R', d.x[k] + 0.5, sy(d.hi[k]) - 1);
      // Drops: a vermillion cross at the instant and sequence number where the segment was lost,
      // one per 3-pixel cell (crosses on top of each other draw the same mark).
      const dr = ts.drops;
      const marks = decimateMarks(dr.t, dr.seq, t0, t1, affineOf(sx), affineOf(sy), sx.range()[1], sy.range()[0], 3, (i) => visible[dr.conn[i]] === 1);
      p.beginPath();
      for (let k = 0; k < marks.count; k++) dropGlyph(p, marks.x[k], marks.y[k]);
      p.lineWidth = 1.5;
      p.stroke();
      p.lineWidth = 1;
      // SYN and FIN.
      p.font = '10px sans-serif';
      p.textBaseline = 'middle';
      p.textAlign = 'left';
      for (const l of ts.labels) {
        if (l.t < t0 || l.t > t1 || !visible[l.conn]) continue;
        p.fillStyle = colorOf(ts.connections[l.conn].flow);
        p.fillText(l.text, sx(l.t) + 3, sy(l.seq));
      }
    },
    [ts, n, levels, ackLevels, windowLevels, visible, shownCount, focus, hoveredConn],
  );
  const hover = useCallback(
    (t: number, seq: number, sx: Scale, sy: Scale) => {
      const s = ts.segments;
      const dt = Math.abs(sx.invert(6) - sx.invert(0));
      const i0 = lowerBound(s.t, t - dt);
      const i1 = Math.min(upperBound(s.t, t + dt), i0 + 5000);
      let best = -1;
      let bestD = Infinity;
      for (let i = i0; i < i1; i++) {
        if (!visible[s.conn[i]]) continue;
        const dx = Math.abs(sx(s.t[i]) - sx(t));
        const mid = seq < s.lo[i] ? s.lo[i] : seq > s.hi[i] ? s.hi[i] : seq;
        const dy = Math.abs(sy(mid) - sy(seq));
        const dist = dx + dy;
        if (dist < bestD) {
          bestD = dist;
          best = i;
        }
      }
      if (best < 0 || bestD > 12) return null;
      const c = ts.connections[s.conn[best]];
      return {
        flow: c.flow,
        lines: [
          `${c.name}${s.retx[best] ? ' (retransmission)' : ''}`,
          `t = ${fmt(s.t[best])} s`,
          `seq ${s.lo[best]}–${s.hi[best]} (${s.hi[best] - s.lo[best]} B)`,
        ],
      };
    },
    [ts, visible],
  );
  const csv = useCallback(() => {
    const rows: (string | number)[][] = [];
    const s = ts.segments;
    for (let i = 0; i < s.t.length; i++) rows.push([s.t[i], ts.connections[s.conn[i]].name, s.retx[i] ? 'retransmit' : 'send', s.lo[i], s.hi[i]]);
    for (let i = 0; i < ts.drops.t.length; i++) rows.push([ts.drops.t[i], ts.connections[ts.drops.conn[i]].name, ts.drops.loss[i] ? 'loss' : 'drop', ts.drops.seq[i], '']);
    return toCsv({ columns: ['time_s', 'connection', 'event', 'seq', 'seq_end'], rows });
  }, [ts]);
  const retx = useMemo(() => ts.segments.retx.reduce((a, b) => a + b, 0), [ts]);
  return (
    <Plot
      title={title ?? 'Time–sequence graph'}
      xLabel="time (s)"
      yLabel="sequence number (B)"
      height={340}
      fast
      yExtent={yShared ?? yExtent}
      draw={draw}
      hover={hover}
      legend={[
        { name: 'segment (its byte range)', color: '#444', mark: '↕' },
        { name: 'ACK line', color: '#444' },
        { name: 'receive window', color: '#bbb' },
        { name: 'retransmission', color: alertColor, mark: 'R' },
        { name: 'drop', color: alertColor, mark: '×' },
      ]}
      caption="Look for: steep staircases (a connection sending at the bottleneck rate), flat stretches (waiting for ACKs or a timeout), R and × where losses cost time."
      csv={csv}
      data={{ plot: 'time-sequence', hidden: n - visible.reduce((a, b) => a + b, 0), connections: n, segments: ts.segments.t.length, retransmissions: retx, drops: ts.drops.t.length, highlight: hoveredConn >= 0 ? focus.hovered! : '' }}
      {...time}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Per-connection series (cwnd and ssthresh, bytes in flight, srtt, pacing rate, ...)

export function FlowSeriesChart({
  windows,
  view,
  yShared,
  title,
  plotKey,
  ...time
}: { windows: FlowWindow[]; view: WindowView; yShared?: (x0: number, x1: number) => Domain; title?: string; plotKey?: string } & TimeProps) {
  const { focus, shown } = useFocus();
  const columns = view.columns.map(windowColumn);
  const csvColumns = (view.csvColumns ?? view.columns).map(windowColumn);
  const visible = useMemo(() => windows.filter((w) => shown(w.flow)), [windows, shown]);
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf(visible.flatMap((w) => columns.map((c) => ({ t: w.t, y: c.values(w) }))), x0, x1),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [visible, view],
  );
  const levels = useMemo(() => {
    const tMax = Math.max(0, ...windows.map((w) => (w.t.length ? w.t[w.t.length - 1] : 0)));
    return new Map(windows.map((w) => [w.flow, columns.map((c) => stepPyramid(w.t, c.values(w), tMax))]));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [windows, view]);
  const hasHovered = windows.some((w) => w.flow === focus.hovered);
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      for (const w of drawOrder(visible, (x) => x.flow, focus)) {
        const e = emphasis(focus, w.flow);
        p.globalAlpha = e.alpha;
        p.strokeStyle = colorOf(w.flow);
        columns.forEach((c, k) => {
          p.lineWidth = (c.dashed ? 1 : 1.5) * e.width;
          p.setLineDash(c.dashed ? [5, 3] : []);
          drawStepLevels(p, levels.get(w.flow)![k], sx, sy);
        });
      }
      p.globalAlpha = 1;
      p.setLineDash([]);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [visible, levels, focus, view],
  );
  const hover = useCallback(
    (t: number, y: number, sx: Scale, sy: Scale) => {
      // The connection whose line is nearest the pointer, in pixels.
      let best: FlowWindow | null = null;
      let bestD = 10;
      for (const w of visible) {
        const i = upperBound(w.t, t) - 1;
        if (i < 0 || isClosedRow(w, i)) continue;
        for (const c of columns) {
          const v = c.values(w)[i];
          const dist = Math.abs(sy(v) - sy(y));
          if (dist < bestD) {
            bestD = dist;
            best = w;
          }
        }
      }
      const lines = [`t = ${fmt(t)} s`];
      const describe = (w: FlowWindow, i: number) =>
        isClosedRow(w, i) ? `${w.name}: closed` : `${w.name}: ${columns.map((c) => `${c.label} ${c.format(c.values(w)[i])}`).join(', ')}`;
      if (best) lines.push(describe(best, upperBound(best.t, t) - 1));
      else
        for (const w of visible.slice(0, 8)) {
          const i = upperBound(w.t, t) - 1;
          if (i >= 0) lines.push(describe(w, i));
        }
      return { lines, flow: best ? best.flow : null };
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [visible, view],
  );
  const csv = useCallback(() => {
    const rows: (string | number)[][] = [];
    for (const w of windows) {
      for (let i = 0; i < w.t.length; i++) {
        if (!isClosedRow(w, i)) rows.push([w.name, w.t[i], ...csvColumns.map((c) => c.csv(c.values(w)[i]))]);
      }
    }
    return toCsv({ columns: ['flow', 'time_s', ...csvColumns.map((c) => c.csvName)], rows });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [windows, view]);
  return (
    <Plot
      title={title ?? view.title}
      xLabel="time (s)"
      yLabel={view.yLabel}
      fast
      yExtent={yShared ?? yExtent}
      draw={draw}
      hover={hover}
      legend={columns.length > 1 ? columns.map((c) => ({ name: `${c.label}${c.dashed ? ' (dashed)' : ''}`, color: '#444', dash: c.dashed })) : undefined}
      caption={view.caption}
      csv={csv}
      data={{ plot: plotKey ?? view.key, connections: windows.length, hidden: windows.length - visible.length, highlight: hasHovered ? focus.hovered! : '' }}
      {...time}
    />
  );
}

/** The congestion window and ssthresh per connection (the window view of FlowSeriesChart). */
export function WindowChart(props: { windows: FlowWindow[]; yShared?: (x0: number, x1: number) => Domain; title?: string } & TimeProps) {
  return <FlowSeriesChart {...props} view={windowViews[0]} plotKey="cwnd" />;
}

export function EnsembleChart({ group, flowNames, ...time }: { group: GroupWindow; flowNames: string[] } & TimeProps) {
  const { focus, shown } = useFocus();
  const yExtent = useCallback(
    (x0: number, x1: number) =>
      extentOf([{ t: group.t, y: group.cwnd }, { t: group.t, y: group.ssthresh }, ...(group.y1.length ? [{ t: group.stackT, y: group.y1[group.y1.length - 1] }] : [])], x0, x1),
    [group],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      const [t0, t1] = sx.domain();
      // Members' shares as stacked step areas, decimated per pixel column.
      group.memberFlows.forEach((flow, m) => {
        const lower = decimateStep(group.stackT, group.y0[m], t0, t1, affineOf(sx));
        const upper = decimateStep(group.stackT, group.y1[m], t0, t1, affineOf(sx));
        if (upper.count === 0 || !shown(flow)) return;
        p.fillStyle = colorOf(flow);
        p.globalAlpha = focus.hovered === null ? 0.55 : focus.hovered === flow ? 0.9 : 0.15;
        p.beginPath();
        const right = sx.range()[1];
        for (let k = 0; k < upper.count; k++) {
          const x = Math.max(0, upper.x[k]);
          const xn = k + 1 < upper.count ? upper.x[k + 1] : right;
          if (k === 0) p.moveTo(x, sy(upper.first[k]));
          p.lineTo(x, sy(upper.first[k]));
          p.lineTo(x, sy(upper.max[k]));
          p.lineTo(x, sy(upper.last[k]));
          p.lineTo(xn, sy(upper.last[k]));
        }
        for (let k = lower.count - 1; k >= 0; k--) {
          const x = Math.max(0, lower.x[k]);
          const xn = k + 1 < lower.count ? lower.x[k + 1] : right;
          p.lineTo(xn, sy(lower.last[k]));
          p.lineTo(x, sy(lower.last[k]));
          p.lineTo(x, sy(lower.min[k]));
          p.lineTo(x, sy(lower.first[k]));
        }
        p.closePath();
        p.fill();
      });
      p.globalAlpha = 1;
      p.strokeStyle = '#000';
      p.lineWidth = 2;
      drawStep(p, group.t, group.cwnd, sx, sy);
      p.lineWidth = 1;
      p.setLineDash([5, 3]);
      drawStep(p, group.t, group.ssthresh, sx, sy);
      p.setLineDash([]);
    },
    [group, focus, shown],
  );
  const hover = useCallback(
    (t: number, y: number) => {
      const i = upperBound(group.t, t) - 1;
      const lines = [`t = ${fmt(t)} s`];
      if (i >= 0) lines.push(`aggregate cwnd ${formatSi(group.cwnd[i])}B, ${group.members[i]} members`);
      const j = upperBound(group.stackT, t) - 1;
      // The member whose layer the pointer is in.
      let flow: number | null = null;
      if (j >= 0)
        group.memberFlows.forEach((f, m) => {
          const v = group.y1[m][j] - group.y0[m][j];
          if (v > 0 && y >= group.y0[m][j] && y <= group.y1[m][j]) {
            flow = f;
            lines.push(`${flowNames[f] ?? f}: ${formatSi(v)}B ${group.share}`);
          }
        });
      return { lines, flow };
    },
    [group, flowNames],
  );
  const csv = useCallback(
    () =>
      seriesCsv(['series', 'time_s', 'bytes'], [
        { name: 'aggregate cwnd', x: group.t, y: group.cwnd },
        ...group.memberFlows.map((f, m) => ({
          name: `${flowNames[f] ?? f} ${group.share}`,
          x: group.stackT,
          y: group.y1[m].map((v, i) => v - group.y0[m][i]),
        })),
      ]),
    [group],
  );
  return (
    <Plot
      title={`Ensemble window: ${group.name} (${group.scheme})`}
      xLabel="time (s)"
      yLabel="window (B)"
      yExtent={yExtent}
      draw={draw}
      hover={hover}
      csv={csv}
      legend={[
        { name: 'aggregate cwnd', color: '#000' },
        { name: 'ssthresh (dashed)', color: '#000', dash: true },
        { name: `each member's ${group.share}, stacked in its colour`, color: '#999' },
      ]}
      caption={`Look for: how the ensemble's one window is shared out among its members (their ${group.share}), and whether it grows as one connection would.`}
      data={{ plot: 'ensemble', members: group.memberFlows.length, scheme: group.scheme, highlight: focus.hovered !== null && group.memberFlows.includes(focus.hovered) ? focus.hovered : '' }}
      {...time}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Queues, rates, RTT

export function QueueChart({ queues, ...time }: { queues: QueueLine[] } & TimeProps) {
  const yExtent = useCallback((x0: number, x1: number) => extentOf(queues.map((q) => ({ t: q.t, y: q.packets })), x0, x1), [queues]);
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      const [t0, t1] = sx.domain();
      queues.forEach((q, i) => {
        p.strokeStyle = colorOf(i);
        p.lineWidth = 1.25;
        drawStep(p, q.t, q.packets, sx, sy);
        // Drops: a vermillion tick under the axis top for each pixel column with drops on this link.
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
    },
    [queues],
  );
  const hover = useCallback(
    (t: number) => [
      `t = ${fmt(t)} s`,
      ...queues.map((q) => {
        const i = upperBound(q.t, t) - 1;
        return `${q.name}: ${i >= 0 ? q.packets[i] : 0} packets queued, ${q.dropT.length} dropped in the run`;
      }),
    ],
    [queues],
  );
  return (
    <Plot
      title="Queue occupancy and drops per link"
      xLabel="time (s)"
      fast
      yLabel="queue (packets)"
      yExtent={yExtent}
      draw={draw}
      hover={hover}
      csv={() => seriesCsv(['link', 'time_s', 'packets'], queues.map((q) => ({ name: q.name, x: q.t, y: q.packets })))}
      legend={[...queues.map((q, i) => ({ name: q.name, color: colorOf(i) })), { name: 'drop', color: alertColor, mark: '×' }]}
      caption='Look for: a queue that fills to its limit (drops follow) against one that stays short; bursts when many connections start at once.'
      data={{ plot: 'queue', links: queues.length }}
      {...time}
    />
  );
}

export function RateChart({ lines, binS, flowOf, ...time }: { lines: RateLine[]; binS: number; flowOf: (conn: number) => number } & TimeProps) {
  const { focus, shown } = useFocus();
  const visible = useMemo(() => lines.filter((l) => shown(flowOf(l.conn))), [lines, shown, flowOf]);
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf(visible.flatMap((l) => [{ t: l.t, y: l.throughputBps }, { t: l.t, y: l.goodputBps }]), x0, x1),
    [visible],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      for (const l of drawOrder(visible, (x) => flowOf(x.conn), focus)) {
        const e = emphasis(focus, flowOf(l.conn));
        p.globalAlpha = e.alpha;
        p.strokeStyle = colorOf(flowOf(l.conn));
        p.lineWidth = 1.5 * e.width;
        p.setLineDash([]);
        drawStep(p, l.t.map((t) => t - binS / 2), l.goodputBps, sx, sy);
        p.lineWidth = e.width;
        p.setLineDash([2, 2]);
        drawStep(p, l.t.map((t) => t - binS / 2), l.throughputBps, sx, sy);
      }
      p.globalAlpha = 1;
      p.setLineDash([]);
    },
    [visible, binS, flowOf, focus],
  );
  const hover = useCallback(
    (t: number, y: number, _sx: Scale, sy: Scale) => {
      const b = Math.floor(t / binS);
      let best: RateLine | null = null;
      let bestD = 10;
      for (const l of visible) {
        if (b < 0 || b >= l.t.length) continue;
        for (const v of [l.goodputBps[b], l.throughputBps[b]]) {
          const d = Math.abs(sy(v) - sy(y));
          if (d < bestD) {
            bestD = d;
            best = l;
          }
        }
      }
      const out = [`t = ${fmt(t)} s (bins of ${binS} s)`];
      for (const l of best ? [best] : visible.slice(0, 8))
        if (b >= 0 && b < l.t.length) out.push(`${l.name}: goodput ${formatSi(l.goodputBps[b])}b/s, throughput ${formatSi(l.throughputBps[b])}b/s`);
      return { lines: out, flow: best ? flowOf(best.conn) : null };
    },
    [visible, binS, flowOf],
  );
  return (
    <Plot
      title="Goodput and throughput per connection"
      xLabel="time (s)"
      yLabel="rate (b/s)"
      yExtent={yExtent}
      draw={draw}
      hover={hover}
      csv={() =>
        toCsv({
          columns: ['connection', 'bin_centre_s', 'goodput_bps', 'throughput_bps'],
          rows: lines.flatMap((l) => Array.from(l.t, (t, i) => [l.name, t, l.goodputBps[i], l.throughputBps[i]])),
        })
      }
      legend={[
        { name: 'goodput (new bytes acknowledged)', color: '#444' },
        { name: 'throughput, retransmissions included (dotted)', color: '#444', dash: true },
      ]}
      caption="Look for: the gap between throughput and goodput (bytes sent twice), and how the bottleneck’s rate is split among connections."
      data={{ plot: 'rates', connections: lines.length, highlight: lines.some((l) => flowOf(l.conn) === focus.hovered) ? focus.hovered! : '' }}
      {...time}
    />
  );
}

export function RttChart({ samples, windows, flowOf, ...time }: { samples: RttSamples[]; windows: FlowWindow[]; flowOf: (conn: number) => number } & TimeProps) {
  const { focus, shown } = useFocus();
  const visibleSamples = useMemo(() => samples.filter((s) => shown(flowOf(s.conn))), [samples, shown, flowOf]);
  const visibleWindows = useMemo(() => windows.filter((w) => shown(w.flow)), [windows, shown]);
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf([...visibleSamples.map((s) => ({ t: s.t, y: s.rttS })), ...visibleWindows.map((w) => ({ t: w.t, y: w.srttS }))], x0, x1),
    [visibleSamples, visibleWindows],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      const [t0, t1] = sx.domain();
      for (const s of drawOrder(visibleSamples, (x) => flowOf(x.conn), focus)) {
        const e = emphasis(focus, flowOf(s.conn));
        p.globalAlpha = e.alpha;
        p.fillStyle = colorOf(flowOf(s.conn));
        const d = decimatePoints(s.t, s.rttS, t0, t1, affineOf(sx), affineOf(sy), sx.range()[1], sy.range()[0]);
        const r = e.width > 1 ? 2.5 : 1.5;
        for (let k = 0; k < d.count; k++) p.fillRect(d.x[k] - r, d.y[k] - r, 2 * r, 2 * r);
      }
      for (const w of drawOrder(visibleWindows, (x) => x.flow, focus)) {
        const e = emphasis(focus, w.flow);
        p.globalAlpha = e.alpha;
        p.strokeStyle = colorOf(w.flow);
        p.lineWidth = e.width;
        drawStep(p, w.t, w.srttS, sx, sy);
      }
      p.globalAlpha = 1;
    },
    [visibleSamples, visibleWindows, flowOf, focus],
  );
  const hover = useCallback(
    (t: number, y: number, sx: Scale, sy: Scale) => {
      // The nearest sample within a few pixels.
      let best: { s: RttSamples; i: number } | null = null;
      let bestD = 8;
      for (const s of visibleSamples) {
        const i0 = lowerBound(s.t, sx.invert(sx(t) - 8));
        const i1 = upperBound(s.t, sx.invert(sx(t) + 8));
        for (let i = i0; i < i1; i++) {
          const d = Math.abs(sx(s.t[i]) - sx(t)) + Math.abs(sy(s.rttS[i]) - sy(y));
          if (d < bestD) {
            bestD = d;
            best = { s, i };
          }
        }
      }
      if (!best) return null;
      return { lines: [best.s.name, `t = ${fmt(best.s.t[best.i])} s`, `RTT sample ${fmt(best.s.rttS[best.i], 4)} s`], flow: flowOf(best.s.conn) };
    },
    [visibleSamples, flowOf],
  );
  return (
    <Plot
      title="RTT samples (points) and srtt (lines)"
      xLabel="time (s)"
      yLabel="RTT (s)"
      yExtent={yExtent}
      draw={draw}
      hover={hover}
      csv={() =>
        seriesCsv(['series', 'time_s', 'seconds'], [
          ...samples.map((s) => ({ name: `${s.name} sample`, x: s.t, y: s.rttS })),
          ...windows.map((w) => ({ name: `${w.name} srtt`, x: w.t, y: w.srttS })),
        ])
      }
      legend={[
        { name: 'RTT sample (Karn: segments sent once)', color: '#444', mark: '▪' },
        { name: 'srtt', color: '#444' },
      ]}
      caption="Look for: RTT samples climbing as the bottleneck queue fills, and srtt lagging behind them."
      data={{ plot: 'rtt', connections: samples.length, samples: samples.reduce((n, s) => n + s.t.length, 0), highlight: samples.some((s) => flowOf(s.conn) === focus.hovered) ? focus.hovered! : '' }}
      {...time}
    />
  );
}

/**
 * The pacing rate of each paced connection (E-TCP §3.1/§4.2, TCP/SPAND §5.2.5): a step line that
 * reads 0 while the ACK clock, not the pacer, releases segments.
 */
export function PacingChart(props: { windows: FlowWindow[] } & TimeProps) {
  return <FlowSeriesChart {...props} view={windowViews.find((v) => v.key === 'pacing')!} plotKey="pacing" />;
}
