// The run's times as bars: HTML and total time per page (like E-TCP Fig. 5); without pages, the
// completion time per flow, or per traffic item when there are many flows.
import type { Result } from '@tcb-lab/sim';
import { useMemo } from 'react';
import { BarChart } from '../../charts/BarChart';
import { completionByItem } from '../../data/summary';

export function TimeBars({ summary: s }: { summary: Result }) {
  const pages = s.pages ?? [];
  const flows = (s.flows ?? []).filter((f) => f.completionTimeS != null);
  const byItem = useMemo(() => completionByItem(s), [s]);
  if (pages.length > 0)
    return (
      <BarChart
        title="HTML and total time per page"
        yLabel="time (s)"
        height={200}
        bars={{
          categories: pages.map((p) => `${p.item}#${p.client}.${p.index}`),
          series: [
            { name: 'HTML time', values: pages.map((p) => p.htmlTimeS) },
            { name: 'total time', values: pages.map((p) => p.totalTimeS) },
          ],
        }}
      />
    );
  if (flows.length > 0 && flows.length <= 16)
    return (
      <BarChart
        title="Completion time per flow"
        yLabel="completion time (s)"
        height={200}
        bars={{ categories: flows.map((f) => f.name), series: [{ name: 'completion time', values: flows.map((f) => f.completionTimeS) }] }}
      />
    );
  if (flows.length > 16)
    return (
      <BarChart
        title="Completion time per traffic item (mean, with the fastest and slowest flow)"
        yLabel="completion time (s)"
        height={200}
        bars={{
          categories: byItem.map((i) => `${i.item} (${i.flows})`),
          series: [{ name: 'mean completion time', values: byItem.map((i) => i.mean), ci: byItem.map((i) => [i.min, i.max]), rangeName: 'range' }],
        }}
      />
    );
  return null;
}
