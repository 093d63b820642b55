// The run's plots: time–sequence graph, congestion windows, ensemble windows, queues, rates, RTT,
// pacing rates.
// Each is a Plot with a draw function over decimated columns (see data/decimate.ts).
import { useCallback, useMemo, useRef, useState } from 'react';
import { lowerBound, upperBound } from '../data/columns';
import { seriesCsv, toCsv } from '../data/csv';
import { affineOf, decimatePoints, decimateStep, decimateStepLevel, decimateTicks, RangeExtent, type TickColumns } from '../data/decimate';
import { pickLevel, stepPyramid, tickPyramid, type StepLevel } from '../data/lod';
import { ackColor, alertColor, colorOf } from '../data/palette';
import { isClosedRow, type FlowWindow, type GroupWindow, type QueueLine, type RateLine, type RttSamples } from '../data/series';
import type { TimeSequence } from '../data/timeseq';
import type { Painter } from './painter';
import { formatSi, Plot, type Domain, type Scale } from './Plot';

export interface TimeProps {
  xDomain: Domain;
  xFull: Domain;
  onXDomain: (d: Domain) => void;
}

const fmt = (v: number, digits = 6) => String(Number(v.toPrecision(digits)));

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

/** Draws a step line from its levels of detail (lod.ts), the coarsest that keeps pixel accuracy. */
export function drawStepLevels(p: Painter, levels: StepLevel[], sx: Scale, sy: Scale, holdUntil = Infinity) {
  const [t0, t1] = sx.domain();
  const level = pickLevel(levels, (t1 - t0) / Math.max(1, sx.range()[1]));
  const d = decimateStepLevel(level, t0, t1, affineOf(sx));
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
    const ys = open ? [prev, d.first[k], d.min[k], d.max[k], d.last[k]] : [d.first[k], d.min[k], d.max[k], d.last[k]];
    let a = ys[0];
    if (!open) p.moveTo(x, sy(a));
    else p.lineTo(x, sy(a));
    for (let j = 1; j < ys.length; j++) {
      const b = ys[j];
      const c = j + 1 < ys.length ? ys[j + 1] : NaN;
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

export function TimeSequenceChart({ ts, yShared, title, ...time }: { ts: TimeSequence; yShared?: (x0: number, x1: number) => Domain; title?: string } & TimeProps) {
  const buffer = useRef<TickColumns | undefined>(undefined);
  const n = ts.connections.length;
  // Connections hidden from the legend (a big transfer can flatten the short ones beside it).
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((c: number) => setHidden((h) => {
    const next = new Set(h);
    if (!next.delete(c)) next.add(c);
    return next;
  }), []);
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
      if (hidden.size === 0) return extent.query(i0, i1);
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = i0; i < i1; i++) {
        if (hidden.has(s.conn[i])) continue;
        if (s.lo[i] < lo) lo = s.lo[i];
        if (s.hi[i] > hi) hi = s.hi[i];
      }
      return Number.isFinite(hi) ? [lo, hi] : [0, 1];
    },
    [ts, extent, hidden],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      const [t0, t1] = sx.domain();
      const level = pickLevel(levels, (t1 - t0) / Math.max(1, sx.range()[1]));
      const d = decimateTicks(level.seg, n, t0, t1, affineOf(sx), buffer.current);
      buffer.current = d;
      // Per connection: ticks with end caps (xplot's arrows) when there is room.
      const byConn: number[][] = Array.from({ length: n }, () => []);
      let retx = 0;
      for (let k = 0; k < d.count; k++) {
        if (hidden.has(d.conn[k])) continue;
        if (d.retx[k]) retx++;
        else byConn[d.conn[k]].push(k);
      }
      p.lineWidth = 1;
      for (let c = 0; c < n; c++) {
        if (byConn[c].length === 0) continue;
        p.strokeStyle = colorOf(ts.connections[c].flow);
        p.beginPath();
        for (const k of byConn[c]) {
          const x = d.x[k] + 0.5;
          const y0 = sy(d.lo[k]);
          const y1 = sy(d.hi[k]);
          p.moveTo(x, y0);
          p.lineTo(x, Math.min(y1, y0 - 1));
          if (y0 - y1 > 6) {
            p.moveTo(x - 2, y1);
            p.lineTo(x + 2, y1);
            p.moveTo(x - 2, y0);
            p.lineTo(x + 2, y0);
          }
        }
        p.stroke();
      }
      // ACK lines (solid) and receive-window edges (thin, light) in the connection's colour; no
      // dashes or transparency, which cost the most to rasterise on a software canvas.
      for (let c = 0; c < n; c++) {
        if (hidden.has(c)) continue;
        const color = colorOf(ts.connections[c].flow);
        p.strokeStyle = color;
        p.lineWidth = 1;
        const last = ts.acks[c].t.length ? ts.acks[c].t[ts.acks[c].t.length - 1] : 0;
        drawStepLevels(p, ackLevels[c], sx, sy, last);
        p.strokeStyle = lighten(color);
        drawStepLevels(p, windowLevels[c], sx, sy, last);
      }
      // Retransmissions: vermillion ticks with an "R".
      p.strokeStyle = alertColor;
      p.fillStyle = alertColor;
      p.font = 'bold 10px sans-serif';
      p.textAlign = 'center';
      p.textBaseline = 'bottom';
      p.beginPath();
      for (let k = 0; k < d.count; k++) {
        if (!d.retx[k] || hidden.has(d.conn[k])) continue;
        const x = d.x[k] + 0.5;
        p.moveTo(x, sy(d.lo[k]));
        p.lineTo(x, Math.min(sy(d.hi[k]), sy(d.lo[k]) - 1));
      }
      p.stroke();
      // The letters only while they can be told apart; the vermillion ticks always.
      if (retx <= 300) for (let k = 0; k < d.count; k++) if (d.retx[k] && !hidden.has(d.conn[k])) p.fillText('R', d.x[k] + 0.5, sy(d.hi[k]) - 1);
      // Drops: a vermillion cross where the segment was lost.
      const dr = ts.drops;
      const i0 = lowerBound(dr.t, t0);
      const i1 = upperBound(dr.t, t1);
      p.beginPath();
      for (let i = i0; i < i1 && i < i0 + 20000; i++) {
        if (hidden.has(dr.conn[i])) continue;
        const x = sx(dr.t[i]);
        const y = sy(dr.seq[i]);
        p.moveTo(x - 3, y - 3);
        p.lineTo(x + 3, y + 3);
        p.moveTo(x - 3, y + 3);
        p.lineTo(x + 3, y - 3);
      }
      p.lineWidth = 1.5;
      p.stroke();
      p.lineWidth = 1;
      // SYN and FIN.
      p.font = '10px sans-serif';
      p.textBaseline = 'middle';
      p.textAlign = 'left';
      for (const l of ts.labels) {
        if (l.t < t0 || l.t > t1 || hidden.has(l.conn)) continue;
        p.fillStyle = colorOf(ts.connections[l.conn].flow);
        p.fillText(l.text, sx(l.t) + 3, sy(l.seq));
      }
    },
    [ts, n, levels, ackLevels, windowLevels, hidden],
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
        const dx = Math.abs(sx(s.t[i]) - sx(t));
        const mid = seq < s.lo[i] ? s.lo[i] : seq > s.hi[i] ? s.hi[i] : seq;
        const dy = Math.abs(sy(mid) - sy(seq));
        const dist = dx + dy;
        if (dist < bestD) {
          bestD = dist;
          best = i;
        }
      }
      const dr = ts.drops;
      let drop = -1;
      for (let i = lowerBound(dr.t, t - dt); i < upperBound(dr.t, t + dt); i++) {
        if (Math.abs(sy(dr.seq[i]) - sy(seq)) < 6) drop = i;
      }
      if (drop >= 0) {
        return [
          `t = ${fmt(dr.t[drop])} s`,
          `seq ${fmt(dr.seq[drop], 12)}`,
          `connection ${ts.connections[dr.conn[drop]].name}`,
          dr.loss[drop] ? 'lost on a link' : 'dropped (queue full)',
        ];
      }
      if (best < 0 || bestD > 12) {
        return [`t = ${fmt(t)} s`, `seq ≈ ${fmt(seq, 8)}`];
      }
      return [
        `t = ${fmt(s.t[best])} s`,
        `seq ${fmt(s.lo[best], 12)}–${fmt(s.hi[best], 12)} (${s.hi[best] - s.lo[best]} B)`,
        `connection ${ts.connections[s.conn[best]].name}`,
        s.retx[best] ? 'retransmission' : 'sent',
      ];
    },
    [ts],
  );
  const legend = useMemo(
    () => [
      ...ts.connections.slice(0, 60).map((c, i) => ({ name: c.name, color: colorOf(c.flow), toggle: i, off: hidden.has(i) })),
      ...(ts.connections.length > 60 ? [{ name: `… ${ts.connections.length - 60} more`, color: '#fff' }] : []),
      { name: 'ACK line (solid), receive window (light)', color: '#555', dash: true },
      { name: 'retransmission', color: alertColor, mark: 'R' },
      { name: 'drop', color: alertColor, mark: '×' },
    ],
    [ts, hidden],
  );
  const csv = useCallback(() => {
    const s = ts.segments;
    const rows: (string | number)[][] = [];
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
      yExtent={yShared ?? yExtent}
      draw={draw}
      hover={hover}
      legend={legend}
      onLegend={toggle}
      csv={csv}
      data={{ plot: 'time-sequence', hidden: hidden.size, connections: ts.connections.length, segments: ts.segments.t.length, retransmissions: retx, drops: ts.drops.t.length }}
      {...time}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Congestion windows

export function WindowChart({ windows, yShared, title, ...time }: { windows: FlowWindow[]; yShared?: (x0: number, x1: number) => Domain; title?: string } & TimeProps) {
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((i: number) => setHidden((h) => {
    const next = new Set(h);
    if (!next.delete(i)) next.add(i);
    return next;
  }), []);
  const yExtent = useCallback(
    (x0: number, x1: number) =>
      extentOf(windows.filter((_, i) => !hidden.has(i)).flatMap((w) => [{ t: w.t, y: w.cwnd }, { t: w.t, y: w.ssthresh }]), x0, x1),
    [windows, hidden],
  );
  const levels = useMemo(() => {
    const tMax = Math.max(0, ...windows.map((w) => (w.t.length ? w.t[w.t.length - 1] : 0)));
    return windows.map((w) => ({ cwnd: stepPyramid(w.t, w.cwnd, tMax), ssthresh: stepPyramid(w.t, w.ssthresh, tMax) }));
  }, [windows]);
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      windows.forEach((w, i) => {
        if (hidden.has(i)) return;
        p.strokeStyle = colorOf(w.flow);
        p.lineWidth = 1.5;
        p.setLineDash([]);
        drawStepLevels(p, levels[i].cwnd, sx, sy);
        p.lineWidth = 1;
        p.setLineDash([5, 3]);
        drawStepLevels(p, levels[i].ssthresh, sx, sy);
      });
      p.setLineDash([]);
    },
    [windows, levels, hidden],
  );
  const hover = useCallback(
    (t: number) => {
      const lines = [`t = ${fmt(t)} s`];
      for (const w of windows.slice(0, 12)) {
        const i = upperBound(w.t, t) - 1;
        if (i < 0) continue;
        if (isClosedRow(w, i)) lines.push(`${w.name}: closed`);
        else lines.push(`${w.name}: cwnd ${formatSi(w.cwnd[i])}B, ssthresh ${Number.isNaN(w.ssthresh[i]) ? '∞' : formatSi(w.ssthresh[i]) + 'B'}`);
      }
      return lines;
    },
    [windows],
  );
  const csv = useCallback(() => {
    const rows: (string | number)[][] = [];
    for (const w of windows) {
      for (let i = 0; i < w.t.length; i++) {
        if (!isClosedRow(w, i)) rows.push([w.name, w.t[i], w.cwnd[i], Number.isNaN(w.ssthresh[i]) ? 'infinite' : w.ssthresh[i], w.inFlight[i]]);
      }
    }
    return toCsv({ columns: ['flow', 'time_s', 'cwnd_bytes', 'ssthresh_bytes', 'in_flight_bytes'], rows });
  }, [windows]);
  const legend = useMemo(
    () => [
      ...windows.slice(0, 60).map((w, i) => ({ name: w.name, color: colorOf(w.flow), toggle: i, off: hidden.has(i) })),
      { name: 'ssthresh (dashed)', color: '#444', dash: true },
    ],
    [windows, hidden],
  );
  return (
    <Plot
      title={title ?? 'Congestion window and ssthresh per connection'}
      xLabel="time (s)"
      yLabel="window (B)"
      yExtent={yShared ?? yExtent}
      draw={draw}
      hover={hover}
      legend={legend}
      onLegend={toggle}
      csv={csv}
      data={{ plot: 'cwnd', connections: windows.length, hidden: hidden.size }}
      {...time}
    />
  );
}

export function EnsembleChart({ group, flowNames, ...time }: { group: GroupWindow; flowNames: string[] } & TimeProps) {
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
        if (upper.count === 0) return;
        p.fillStyle = colorOf(flow);
        p.globalAlpha = 0.55;
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
    [group, flowNames],
  );
  const hover = useCallback(
    (t: number) => {
      const i = upperBound(group.t, t) - 1;
      const lines = [`t = ${fmt(t)} s`];
      if (i >= 0) lines.push(`aggregate cwnd ${formatSi(group.cwnd[i])}B, ${group.members[i]} members`);
      const j = upperBound(group.stackT, t) - 1;
      if (j >= 0)
        group.memberFlows.slice(0, 12).forEach((f, m) => {
          const v = group.y1[m][j] - group.y0[m][j];
          if (v > 0) lines.push(`${flowNames[f] ?? f}: ${formatSi(v)}B ${group.share}`);
        });
      return lines;
    },
    [group],
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
        ...group.memberFlows.slice(0, 30).map((f) => ({ name: `${flowNames[f] ?? f} (${group.share})`, color: colorOf(f) })),
      ]}
      data={{ plot: 'ensemble', members: group.memberFlows.length, scheme: group.scheme }}
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
      yLabel="queue (packets)"
      yExtent={yExtent}
      draw={draw}
      hover={hover}
      csv={() => seriesCsv(['link', 'time_s', 'packets'], queues.map((q) => ({ name: q.name, x: q.t, y: q.packets })))}
      legend={[...queues.map((q, i) => ({ name: q.name, color: colorOf(i) })), { name: 'drop', color: alertColor, mark: '×' }]}
      data={{ plot: 'queue', links: queues.length }}
      {...time}
    />
  );
}

export function RateChart({ lines, binS, flowOf, ...time }: { lines: RateLine[]; binS: number; flowOf: (conn: number) => number } & TimeProps) {
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf(lines.flatMap((l) => [{ t: l.t, y: l.throughputBps }, { t: l.t, y: l.goodputBps }]), x0, x1),
    [lines],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      lines.forEach((l) => {
        p.strokeStyle = colorOf(flowOf(l.conn));
        p.lineWidth = 1.5;
        p.setLineDash([]);
        drawStep(p, l.t.map((t) => t - binS / 2), l.goodputBps, sx, sy);
        p.lineWidth = 1;
        p.setLineDash([2, 2]);
        drawStep(p, l.t.map((t) => t - binS / 2), l.throughputBps, sx, sy);
      });
      p.setLineDash([]);
    },
    [lines, binS, flowOf],
  );
  const hover = useCallback(
    (t: number) => {
      const out = [`t = ${fmt(t)} s (bins of ${binS} s)`];
      for (const l of lines.slice(0, 12)) {
        const b = Math.floor(t / binS);
        if (b >= 0 && b < l.t.length) out.push(`${l.name}: goodput ${formatSi(l.goodputBps[b])}b/s, throughput ${formatSi(l.throughputBps[b])}b/s`);
      }
      return out;
    },
    [lines, binS],
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
      legend={[...lines.slice(0, 30).map((l) => ({ name: l.name, color: colorOf(flowOf(l.conn)) })), { name: 'throughput, retransmissions included (dotted)', color: '#444', dash: true }]}
      data={{ plot: 'rates', connections: lines.length }}
      {...time}
    />
  );
}

export function RttChart({ samples, windows, flowOf, ...time }: { samples: RttSamples[]; windows: FlowWindow[]; flowOf: (conn: number) => number } & TimeProps) {
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf([...samples.map((s) => ({ t: s.t, y: s.rttS })), ...windows.map((w) => ({ t: w.t, y: w.srttS }))], x0, x1),
    [samples, windows],
  );
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      const [t0, t1] = sx.domain();
      samples.forEach((s) => {
        p.fillStyle = colorOf(flowOf(s.conn));
        const d = decimatePoints(s.t, s.rttS, t0, t1, affineOf(sx), affineOf(sy), sx.range()[1], sy.range()[0]);
        for (let k = 0; k < d.count; k++) p.fillRect(d.x[k] - 1.5, d.y[k] - 1.5, 3, 3);
      });
      windows.forEach((w) => {
        p.strokeStyle = colorOf(w.flow);
        p.lineWidth = 1;
        drawStep(p, w.t, w.srttS, sx, sy);
      });
    },
    [samples, windows, flowOf],
  );
  return (
    <Plot
      title="RTT samples (points) and srtt (lines)"
      xLabel="time (s)"
      yLabel="RTT (s)"
      yExtent={yExtent}
      draw={draw}
      csv={() =>
        seriesCsv(['series', 'time_s', 'seconds'], [
          ...samples.map((s) => ({ name: `${s.name} sample`, x: s.t, y: s.rttS })),
          ...windows.map((w) => ({ name: `${w.name} srtt`, x: w.t, y: w.srttS })),
        ])
      }
      legend={samples.slice(0, 30).map((s) => ({ name: s.name, color: colorOf(flowOf(s.conn)) }))}
      data={{ plot: 'rtt', connections: samples.length, samples: samples.reduce((n, s) => n + s.t.length, 0) }}
      {...time}
    />
  );
}

/**
 * The pacing rate of each paced connection (E-TCP §3.1/§4.2, TCP/SPAND §5.2.5): a step line that
 * reads 0 while the ACK clock, not the pacer, releases segments.
 */
export function PacingChart({ windows, ...time }: { windows: FlowWindow[] } & TimeProps) {
  const yExtent = useCallback((x0: number, x1: number) => extentOf(windows.map((w) => ({ t: w.t, y: w.pacingBps })), x0, x1), [windows]);
  const levels = useMemo(() => {
    const tMax = Math.max(0, ...windows.map((w) => (w.t.length ? w.t[w.t.length - 1] : 0)));
    return windows.map((w) => stepPyramid(w.t, w.pacingBps, tMax));
  }, [windows]);
  const draw = useCallback(
    (p: Painter, sx: Scale, sy: Scale) => {
      windows.forEach((w, i) => {
        p.strokeStyle = colorOf(w.flow);
        p.lineWidth = 1.5;
        drawStepLevels(p, levels[i], sx, sy);
      });
    },
    [windows, levels],
  );
  const hover = useCallback(
    (t: number) => {
      const lines = [`t = ${fmt(t)} s`];
      for (const w of windows.slice(0, 12)) {
        const i = upperBound(w.t, t) - 1;
        if (i < 0) continue;
        const v = w.pacingBps[i];
        lines.push(`${w.name}: ${isClosedRow(w, i) ? 'closed' : v > 0 ? `paced at ${formatSi(v)}b/s` : 'not paced'}`);
      }
      return lines;
    },
    [windows],
  );
  return (
    <Plot
      title="Pacing rate per connection (0: ACK-clocked)"
      xLabel="time (s)"
      yLabel="pacing rate (b/s)"
      yExtent={yExtent}
      draw={draw}
      hover={hover}
      csv={() =>
        toCsv({
          columns: ['flow', 'time_s', 'pacing_bps'],
          rows: windows.flatMap((w) => Array.from(w.t, (t, i) => [w.name, t, w.pacingBps[i]]).filter((_, i) => !isClosedRow(w, i))),
        })
      }
      legend={windows.slice(0, 30).map((w) => ({ name: w.name, color: colorOf(w.flow) }))}
      data={{ plot: 'pacing', connections: windows.length }}
      {...time}
    />
  );
}
