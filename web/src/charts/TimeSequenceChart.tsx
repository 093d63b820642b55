// The time–sequence graph in tcptrace/xplot conventions: each data segment as a tick over its byte
// range, retransmissions (R) and drops (×) marked, the ACK line and the receive window, SACK blocks
// at their ACK. The marks are data (marks/timeSequence.ts), drawn by the plot worker.
import { useCallback, useMemo } from 'react';
import { lowerBound, upperBound } from '../data/columns';
import { toCsv } from '../data/csv';
import { RangeExtent } from '../data/decimate';
import { alertColor } from '../data/palette';
import type { TimeSequence } from '../data/timeseq';
import { useFocus } from './focus';
import type { MarksStyle } from './marks';
import type { TimeSequenceMarks, TimeSequenceStyle } from './marks/timeSequence';
import { Plot, type Domain, type Scale } from './Plot';
import { fmt, type TimeProps } from './time';

export function TimeSequenceChart({ ts, yShared, title, ...time }: { ts: TimeSequence; yShared?: (x0: number, x1: number) => Domain; title?: string } & TimeProps) {
  const n = ts.connections.length;
  const { focus, shown } = useFocus();
  // Per connection index: drawn or not (the shared focus is by flow).
  const visible = useMemo(() => Uint8Array.from(ts.connections, (c) => (shown(c.flow) ? 1 : 0)), [ts, shown]);
  const allVisible = visible.every((v) => v === 1);
  const hoveredConn = useMemo(() => ts.connections.findIndex((c) => c.flow === focus.hovered), [ts, focus.hovered]);
  const extent = useMemo(() => new RangeExtent(ts.segments.lo, ts.segments.hi), [ts]);
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
  const marks = useMemo<TimeSequenceMarks>(() => ({ kind: 'time-sequence', ts }), [ts]);
  const hovered = hoveredConn >= 0 ? focus.hovered : null;
  const style = useMemo<TimeSequenceStyle>(() => ({ visible, hovered }), [visible, hovered]);
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
      // A SACK block nearer than any segment.
      const k = ts.sacks;
      let bestSack = -1;
      const j0 = lowerBound(k.t, t - dt);
      const j1 = Math.min(upperBound(k.t, t + dt), j0 + 5000);
      for (let j = j0; j < j1; j++) {
        if (!visible[k.conn[j]]) continue;
        const mid = seq < k.lo[j] ? k.lo[j] : seq > k.hi[j] ? k.hi[j] : seq;
        const dist = Math.abs(sx(k.t[j]) - sx(t)) + Math.abs(sy(mid) - sy(seq));
        if (dist < bestD) {
          bestD = dist;
          bestSack = j;
        }
      }
      if (bestSack >= 0 && bestD <= 12) {
        const c = ts.connections[k.conn[bestSack]];
        return {
          flow: c.flow,
          lines: [`${c.name}: SACK block`, `ACK at t = ${fmt(k.t[bestSack])} s`, `bytes ${k.lo[bestSack]}–${k.hi[bestSack]} held by the receiver (${k.hi[bestSack] - k.lo[bestSack]} B)`],
        };
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
    for (let i = 0; i < ts.sacks.t.length; i++) rows.push([ts.sacks.t[i], ts.connections[ts.sacks.conn[i]].name, 'sack', ts.sacks.lo[i], ts.sacks.hi[i]]);
    return toCsv({ columns: ['time_s', 'connection', 'event', 'seq', 'seq_end'], rows });
  }, [ts]);
  const retx = useMemo(() => ts.segments.retx.reduce((a, b) => a + b, 0), [ts]);
  const sacks = ts.sacks.t.length;
  return (
    <Plot
      title={title ?? 'Time–sequence graph'}
      xLabel="time (s)"
      yLabel="sequence number (B)"
      height={340}
      fast
      yExtent={yShared ?? yExtent}
      marks={{ data: marks, style: style as MarksStyle }}
      hover={hover}
      legend={[
        { name: 'segment (its byte range)', color: '#444', mark: '↕' },
        { name: 'ACK line', color: '#444' },
        { name: 'receive window', color: '#bbb' },
        ...(sacks > 0 ? [{ name: 'SACK block (at its ACK)', color: '#444', mark: 'I' }] : []),
        { name: 'retransmission', color: alertColor, mark: 'R' },
        { name: 'drop', color: alertColor, mark: '×' },
      ]}
      caption={
        sacks > 0
          ? 'Look for: steep staircases (a connection sending at the bottleneck rate), SACK blocks above a flat ACK line (the receiver holds data beyond a hole: the retransmission R fills it), and × where losses cost time.'
          : 'Look for: steep staircases (a connection sending at the bottleneck rate), flat stretches (waiting for ACKs or a timeout), R and × where losses cost time.'
      }
      csv={csv}
      data={{
        plot: 'time-sequence',
        hidden: n - visible.reduce((a, b) => a + b, 0),
        connections: n,
        segments: ts.segments.t.length,
        retransmissions: retx,
        drops: ts.drops.t.length,
        sacks,
        highlight: hoveredConn >= 0 ? focus.hovered! : '',
      }}
      {...time}
    />
  );
}
