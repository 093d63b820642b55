// Queue occupancy per link direction that queued or dropped, with its drops marked. The marks are
// data (marks/series.ts), drawn by the plot worker.
import { useCallback, useMemo } from 'react';
import { upperBound } from '../data/columns';
import { seriesCsv } from '../data/csv';
import { alertColor, colorOf } from '../data/palette';
import type { QueueLine } from '../data/series';
import type { MarksStyle } from './marks';
import type { QueueMarks } from './marks/series';
import { Plot } from './Plot';
import { extentOf, fmt, type TimeProps } from './time';

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
