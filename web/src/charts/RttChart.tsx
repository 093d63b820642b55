// RTT samples as tcptrace takes them (points) and each connection's srtt (lines).
import { useCallback, useMemo } from 'react';
import { lowerBound, upperBound } from '../data/columns';
import { seriesCsv } from '../data/csv';
import { affineOf, decimatePoints } from '../data/decimate';
import { colorOf } from '../data/palette';
import type { FlowWindow, RttSamples } from '../data/series';
import { drawOrder, emphasis, useFocus } from './focus';
import { drawStep } from './marks/primitives';
import type { Painter } from './painter';
import { Plot, type Scale } from './Plot';
import { extentOf, fmt, type TimeProps } from './time';

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
