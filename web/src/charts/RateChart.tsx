// Goodput (new bytes acknowledged) and throughput (every byte sent) per connection, in bins.
import { useCallback, useMemo } from 'react';
import { toCsv } from '../data/csv';
import { colorOf } from '../data/palette';
import type { RateLine } from '../data/series';
import { drawOrder, emphasis, useFocus } from './focus';
import { drawStep } from './marks/primitives';
import type { Painter } from './painter';
import { formatSi, Plot, type Scale } from './Plot';
import { extentOf, fmt, type TimeProps } from './time';

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
        { name: 'throughput, retransmissions included (dotted)', color: '#444', dash: [2, 2] },
      ]}
      caption="Look for: the gap between throughput and goodput (bytes sent twice), and how the bottleneck’s rate is split among connections."
      data={{ plot: 'rates', connections: lines.length, highlight: lines.some((l) => flowOf(l.conn) === focus.hovered) ? focus.hovered! : '' }}
      {...time}
    />
  );
}
