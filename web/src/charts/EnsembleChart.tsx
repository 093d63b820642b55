// A sharing group's window: the group's aggregate (or shared) cwnd and ssthresh, and each member's
// share of it (bytes in flight, or its own cwnd) stacked in its colour.
import { useCallback } from 'react';
import { upperBound } from '../data/columns';
import { seriesCsv } from '../data/csv';
import { affineOf, decimateStep } from '../data/decimate';
import { colorOf } from '../data/palette';
import type { GroupWindow } from '../data/series';
import { useFocus } from './focus';
import { drawStep } from './marks/primitives';
import type { Painter } from './painter';
import { formatSi, Plot, type Scale } from './Plot';
import { extentOf, fmt, type TimeProps } from './time';

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
