// The run's plots: time–sequence graph, congestion windows (with CUBIC's W_max and K and Careful
// Resume's phase), BBR's state and pacing gain, ensemble windows, queues, rates, RTT, pacing rates.
// The dense ones (time–sequence, per-connection series, queues) give their marks as data
// (marks/): the plot worker draws them, or the main thread where no worker can; the others draw
// on a canvas here. Every draw goes over decimated columns (see data/decimate.ts).
import { useCallback, useMemo } from 'react';
import { lowerBound, upperBound } from '../data/columns';
import { seriesCsv, toCsv } from '../data/csv';
import { affineOf, decimatePoints, decimateStep, RangeExtent } from '../data/decimate';
import { alertColor, colorOf } from '../data/palette';
import {
  cubicKMarks,
  isClosedRow,
  stateInfo,
  stateRuns,
  windowColumn,
  windowViews,
  type FlowWindow,
  type GroupWindow,
  type QueueLine,
  type RateLine,
  type RttSamples,
  type WindowView,
} from '../data/series';
import type { TimeSequence } from '../data/timeseq';
import { drawOrder, emphasis, useFocus } from './focus';
import type { MarksStyle } from './marks';
import { bandLayout, drawStep } from './marks/primitives';
import { shownLanes, type FlowSeriesMarks, type FlowSeriesStyle, type QueueMarks } from './marks/series';
import type { TimeSequenceMarks, TimeSequenceStyle } from './marks/timeSequence';
import type { Painter } from './painter';
import { formatSi, Plot, type Domain, type Scale } from './Plot';

export { drawStep, drawStepLevels, dropGlyph, sackGlyph, segmentGlyph } from './marks/primitives';

export interface TimeProps {
  xDomain: Domain;
  xFull: Domain;
  onXDomain: (d: Domain) => void;
}

const fmt = (v: number, digits = 6) => String(Number(v.toPrecision(digits)));

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

// ---------------------------------------------------------------------------------------------
// Per-connection series (cwnd and ssthresh, bytes in flight, srtt, pacing rate, ...)

/** How tall a state band's lanes are, together: 12 px a lane, at most 48 px. */
const bandHeightFor = (lanes: number) => (lanes === 0 ? 0 : 3 + Math.min(48, lanes * 12));

export function FlowSeriesChart({
  windows,
  view,
  yShared,
  title,
  plotKey,
  tEnd,
  ...time
}: { windows: FlowWindow[]; view: WindowView; yShared?: (x0: number, x1: number) => Domain; title?: string; plotKey?: string; tEnd?: number } & TimeProps) {
  const { focus, shown } = useFocus();
  // The view's columns that any connection has a value of (CUBIC's W_max only where CUBIC ran).
  const columns = useMemo(
    () => view.columns.map(windowColumn).filter((c, k) => k === 0 || windows.some((w) => c.values(w).some((v) => !Number.isNaN(v)))),
    [view, windows],
  );
  const csvColumns = useMemo(() => (view.csvColumns ?? view.columns).map(windowColumn).filter((c) => columns.includes(c) || !view.columns.includes(c.key)), [view, columns]);
  const visible = useMemo(() => windows.filter((w) => shown(w.flow)), [windows, shown]);
  const end = tEnd ?? Math.max(0, ...windows.map((w) => (w.t.length ? w.t[w.t.length - 1] : 0)));
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf(visible.flatMap((w) => columns.map((c) => ({ t: w.t, y: c.values(w) }))), x0, x1),
    [visible, columns],
  );
  const band = useMemo(() => {
    if (!view.band) return null;
    const runs = stateRuns(windows, view.band, end);
    return runs.length ? { runs, info: stateInfo(view.band) } : null;
  }, [view, windows, end]);
  const kMarks = useMemo(() => (view.cubicK ? cubicKMarks(windows, end) : []), [view, windows, end]);
  const marks = useMemo<FlowSeriesMarks>(() => {
    const values = new Map(columns.map((c) => [c.key, windows.map((w) => c.values(w))]));
    return {
      kind: 'flow-series',
      lines: windows.map((w, i) => ({ flow: w.flow, t: w.t, values: columns.map((c) => values.get(c.key)![i]) })),
      columns: columns.map((c) => ({ width: c.dashed || c.dotted ? 1 : 1.5, dash: c.dashed ? [5, 3] : c.dotted ? [2, 2] : [] })),
      tMax: end,
      bands: band ? { lanes: band.runs, colors: band.info.colors, names: band.info.names } : undefined,
      kMarks: kMarks.length ? kMarks.map((m) => ({ flow: m.flow, t: m.t, y: m.wMax })) : undefined,
    };
  }, [windows, columns, end, band, kMarks]);
  const hasHovered = windows.some((w) => w.flow === focus.hovered);
  const hovered = hasHovered ? focus.hovered : null;
  const visibleFlows = useMemo(() => visible.map((w) => w.flow), [visible]);
  const style = useMemo<FlowSeriesStyle>(() => ({ visible: visibleFlows, hovered }), [visibleFlows, hovered]);
  const lanes = useMemo(() => shownLanes(marks, visibleFlows), [marks, visibleFlows]);
  const bandHeight = bandHeightFor(lanes.length);
  const stateAt = (flow: number, t: number): string | null => {
    if (!band) return null;
    const r = band.runs.find((x) => x.flow === flow);
    if (!r) return null;
    const i = upperBound(r.start, t) - 1;
    return i >= 0 && t < r.end[i] ? band.info.names[r.state[i]] : null;
  };
  const hover = useCallback(
    (t: number, y: number, sx: Scale, sy: Scale) => {
      const lines = [`t = ${fmt(t)} s`];
      // In the band: its lane's connection.
      const py = sy(y);
      if (lanes.length && py > sy.range()[0]) {
        const layout = bandLayout(lanes.length, sy.range()[0], sy.range()[0] + bandHeight);
        const lane = lanes[Math.floor((py - layout.top) / Math.max(1, layout.height))];
        const w = lane && windows.find((x) => x.flow === lane.flow);
        if (!w) return { lines, flow: null };
        lines.push(`${w.name}: ${stateAt(w.flow, t) ?? band!.info.names[0]}`);
        return { lines, flow: w.flow };
      }
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
      const describe = (w: FlowWindow, i: number) => {
        if (isClosedRow(w, i)) return `${w.name}: closed`;
        const state = stateAt(w.flow, t);
        return `${w.name}: ${columns.map((c) => `${c.label} ${c.format(c.values(w)[i])}`).join(', ')}${state ? ` (${state})` : ''}`;
      };
      if (best) lines.push(describe(best, upperBound(best.t, t) - 1));
      else
        for (const w of visible.slice(0, 8)) {
          const i = upperBound(w.t, t) - 1;
          if (i >= 0) lines.push(describe(w, i));
        }
      // A K mark under the pointer.
      for (const m of kMarks) {
        if (!shown(m.flow)) continue;
        const i = Math.max(0, lowerBound(m.t, sx.invert(sx(t) - 6)));
        if (i < m.t.length && Math.abs(sx(m.t[i]) - sx(t)) <= 6 && Math.abs(sy(m.wMax[i]) - py) <= 6) {
          const w = windows.find((x) => x.flow === m.flow);
          lines.push(`${w?.name ?? m.flow}: the cubic curve reaches W_max ${formatSi(m.wMax[i])}B at t_epoch + K, K = ${fmt(m.k[i], 4)} s`);
          return { lines, flow: m.flow };
        }
      }
      return { lines, flow: best ? best.flow : null };
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [visible, columns, lanes, bandHeight, band, kMarks, windows, shown],
  );
  const csv = useCallback(() => {
    const rows: (string | number)[][] = [];
    for (const w of windows) {
      for (let i = 0; i < w.t.length; i++) {
        if (!isClosedRow(w, i)) rows.push([w.name, w.t[i], ...csvColumns.map((c) => c.csv(c.values(w)[i])), ...(band ? [stateAt(w.flow, w.t[i]) ?? ''] : [])]);
      }
    }
    return toCsv({ columns: ['flow', 'time_s', ...csvColumns.map((c) => c.csvName), ...(band ? [view.band!] : [])], rows });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [windows, csvColumns, band, view]);
  const legend = [
    ...(columns.length > 1 ? columns.map((c) => ({ name: `${c.label}${c.dashed ? ' (dashed)' : c.dotted ? ' (dotted)' : ''}`, color: '#444', dash: c.dashed || c.dotted })) : []),
    ...(kMarks.length ? [{ name: 'K: the cubic curve back at W_max', color: '#444', mark: '◇' }] : []),
    ...(band ? band.info.names.flatMap((name, v) => (band.info.colors[v] && band.runs.some((r) => r.state.includes(v)) ? [{ name, color: band.info.colors[v] }] : [])) : []),
  ];
  const unit = view.unit;
  const statesSeen = band ? band.info.names.filter((_, v) => band.runs.some((r) => r.state.includes(v))) : [];
  return (
    <Plot
      title={title ?? view.title}
      xLabel="time (s)"
      yLabel={view.yLabel}
      fast
      yExtent={yShared ?? yExtent}
      yFormat={unit ? (v) => `${formatSi(v)}${unit}` : undefined}
      marks={{ data: marks, style: style as MarksStyle }}
      bandHeight={bandHeight}
      hover={hover}
      legend={legend.length ? legend : undefined}
      caption={
        band && view.band === 'crPhase'
          ? `${view.caption} The band under the lines: each resuming connection’s Careful Resume phase (RFC 9959 §4).`
          : kMarks.length
            ? `${view.caption} CUBIC: W_max dotted, ◇ where the cubic curve returns to it (t_epoch + K, RFC 9438 §4.2).`
            : view.caption
      }
      csv={csv}
      data={{
        plot: plotKey ?? view.key,
        connections: windows.length,
        hidden: windows.length - visible.length,
        highlight: hasHovered ? focus.hovered! : '',
        columns: columns.map((c) => c.key).join(','),
        bands: statesSeen.join(','),
        'k-marks': kMarks.reduce((a, m) => a + m.t.length, 0),
      }}
      {...time}
    />
  );
}

/** The congestion window and ssthresh per connection (the window view of FlowSeriesChart). */
export function WindowChart(props: { windows: FlowWindow[]; yShared?: (x0: number, x1: number) => Domain; title?: string; tEnd?: number } & TimeProps) {
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
  const marks = useMemo<QueueMarks>(() => ({ kind: 'queue', queues: queues.map((q) => ({ t: q.t, packets: q.packets, dropT: q.dropT })) }), [queues]);
  const style = useMemo(() => ({}) as MarksStyle, []);
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
      marks={{ data: marks, style }}
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
