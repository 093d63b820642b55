// Per-connection series on one y axis (cwnd and ssthresh with CUBIC's W_max and K, bytes in
// flight, srtt, pacing rate, BBR's model), with a state band under the lines (BBR's mode, Careful
// Resume's phase): a view of data/series/columns.ts. The marks are data (marks/series.ts), drawn by
// the plot worker.
import { useCallback, useMemo } from 'react';
import { lowerBound, upperBound } from '../data/columns';
import { toCsv } from '../data/csv';
import { cubicKMarks, isClosedRow, stateInfo, stateRuns, windowColumn, windowView, type FlowWindow, type WindowColumn, type WindowView } from '../data/series';
import { useFocus } from './focus';
import type { MarksStyle } from './marks';
import { bandLayout } from './marks/primitives';
import { shownLanes, type FlowSeriesMarks, type FlowSeriesStyle } from './marks/series';
import { formatSi, Plot, type Domain, type Scale } from './Plot';
import { extentOf, fmt, type TimeProps } from './time';

/** A column's line: dashed [5, 3], dotted [2, 2] (as its legend sample shows it), or solid. */
const lineDash = (c: { dashed?: boolean; dotted?: boolean }) => (c.dashed ? [5, 3] : c.dotted ? [2, 2] : []);

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
  // The view's columns that any connection has a value of (CUBIC's W_max only where CUBIC ran), and
  // their values per connection, computed once: the marks, the y extent at every zoom and the hover
  // read them.
  const { columns, valuesOf } = useMemo(() => {
    const computed = new Map<WindowColumn, Map<FlowWindow, Float64Array>>();
    const columns = view.columns.map(windowColumn).filter((c, k) => {
      const values = new Map(windows.map((w) => [w, c.values(w)]));
      const any = k === 0 || [...values.values()].some((v) => v.some((x) => !Number.isNaN(x)));
      if (any) computed.set(c, values);
      return any;
    });
    return { columns, valuesOf: (c: WindowColumn, w: FlowWindow) => computed.get(c)?.get(w) ?? c.values(w) };
  }, [view, windows]);
  const csvColumns = useMemo(() => (view.csvColumns ?? view.columns).map(windowColumn).filter((c) => columns.includes(c) || !view.columns.includes(c.key)), [view, columns]);
  const visible = useMemo(() => windows.filter((w) => shown(w.flow)), [windows, shown]);
  const end = tEnd ?? Math.max(0, ...windows.map((w) => (w.t.length ? w.t[w.t.length - 1] : 0)));
  const yExtent = useCallback(
    (x0: number, x1: number) => extentOf(visible.flatMap((w) => columns.map((c) => ({ t: w.t, y: valuesOf(c, w) }))), x0, x1),
    [visible, columns, valuesOf],
  );
  const band = useMemo(() => {
    if (!view.band) return null;
    const runs = stateRuns(windows, view.band, end);
    return runs.length ? { runs, info: stateInfo(view.band) } : null;
  }, [view, windows, end]);
  const kMarks = useMemo(() => (view.cubicK ? cubicKMarks(windows, end) : []), [view, windows, end]);
  const marks = useMemo<FlowSeriesMarks>(() => {
    return {
      kind: 'flow-series',
      lines: windows.map((w) => ({ flow: w.flow, t: w.t, values: columns.map((c) => valuesOf(c, w)) })),
      columns: columns.map((c) => ({ width: c.dashed || c.dotted ? 1 : 1.5, dash: lineDash(c) })),
      tMax: end,
      bands: band ? { lanes: band.runs, colors: band.info.colors, names: band.info.names } : undefined,
      kMarks: kMarks.length ? kMarks.map((m) => ({ flow: m.flow, t: m.t, y: m.wMax })) : undefined,
    };
  }, [windows, columns, valuesOf, end, band, kMarks]);
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
          const v = valuesOf(c, w)[i];
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
        return `${w.name}: ${columns.map((c) => `${c.label} ${c.format(valuesOf(c, w)[i])}`).join(', ')}${state ? ` (${state})` : ''}`;
      };
      if (best) lines.push(describe(best, upperBound(best.t, t) - 1));
      else
        // The connections open at t (a closed one has nothing to say there), eight at most.
        for (const w of visible) {
          const i = upperBound(w.t, t) - 1;
          if (i >= 0 && !isClosedRow(w, i)) lines.push(describe(w, i));
          if (lines.length > 8) break;
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
    [visible, columns, valuesOf, lanes, bandHeight, band, kMarks, windows, shown],
  );
  const csv = useCallback(() => {
    const rows: (string | number)[][] = [];
    for (const w of windows) {
      const values = csvColumns.map((c) => valuesOf(c, w));
      for (let i = 0; i < w.t.length; i++) {
        if (!isClosedRow(w, i)) rows.push([w.name, w.t[i], ...csvColumns.map((c, k) => c.csv(values[k][i])), ...(band ? [stateAt(w.flow, w.t[i]) ?? ''] : [])]);
      }
    }
    return toCsv({ columns: ['flow', 'time_s', ...csvColumns.map((c) => c.csvName), ...(band ? [view.band!] : [])], rows });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [windows, csvColumns, valuesOf, band, view]);
  const legend = [
    ...(columns.length > 1 ? columns.map((c) => ({ name: `${c.label}${c.dashed ? ' (dashed)' : c.dotted ? ' (dotted)' : ''}`, color: '#444', dash: lineDash(c) })) : []),
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
  return <FlowSeriesChart {...props} view={windowView('cwnd')} plotKey="cwnd" />;
}

/**
 * The pacing rate of each paced connection (E-TCP §3.1/§4.2, TCP/SPAND §5.2.5): a step line that
 * reads 0 while the ACK clock, not the pacer, releases segments.
 */
export function PacingChart(props: { windows: FlowWindow[] } & TimeProps) {
  return <FlowSeriesChart {...props} view={windowView('pacing')} plotKey="pacing" />;
}
