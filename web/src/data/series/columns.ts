// The per-connection columns the series plots draw, and the plots (views) that draw them. Every
// column, its label, line, unit, CSV header and what a 0 or an infinite value means come from
// sim-core/trace/columns.json (its `display`, through @tcb-lab/sim's columnInfo): a new column of
// the TCP series is one row there and, if it deserves a plot of its own, one view in windowViews.
import { columnInfo } from '@tcb-lab/sim';
import type { FlowWindow } from './windows';

/** How columns.json says a column is shown (its `display`). */
export interface ColumnDisplay {
  label?: string;
  /** 'none': drawn as marks by a view (CUBIC's K), not as a line. */
  line?: 'solid' | 'dashed' | 'dotted' | 'none';
  /** What a 0 means: 'none' (no value, not drawn) or the word shown for it. */
  zero?: string;
  /** A state column's values as named on screen, one per label. */
  names?: readonly string[];
}

interface ColumnMeta {
  member: string;
  description: string;
  unit?: string;
  infinite?: boolean;
  labels?: readonly string[];
  display?: ColumnDisplay;
}

/** The TCP series' columns by key, as columns.json describes them. */
export const tcpColumns = columnInfo.tcp as unknown as Readonly<Record<string, ColumnMeta>>;

type TcpTable = typeof columnInfo.tcp;
/**
 * The TCP series' state columns: those with a `labels` list in columns.json, but for `endpoint`,
 * which names the side that wrote a row (a key of the row, as `flow` is: windows.ts's senderRows)
 * rather than a state of the connection.
 */
export type StateKey = Exclude<{ [K in keyof TcpTable]: TcpTable[K] extends { labels: readonly string[] } ? K : never }[keyof TcpTable], 'endpoint'>;

/** A number with an SI prefix and a unit: 1.5 MB, 9.5 Mb/s. */
export const si = (unit: string) => (v: number) => {
  if (Number.isNaN(v)) return '–';
  const a = Math.abs(v);
  const [d, p] = a >= 1e9 ? [1e9, 'G'] : a >= 1e6 ? [1e6, 'M'] : a >= 1e4 ? [1e3, 'k'] : [1, ''];
  return `${Number((v / d).toPrecision(4))} ${p}${unit}`;
};

/**
 * How a unit of columns.json is shown: what a recorded value is divided by for the shown unit, the
 * suffix of the CSV header (replacing the member name's own unit suffix), and a value as text.
 */
const shownUnits: Record<string, { divisor: number; csvSuffix: string; format: (v: number) => string }> = {
  bytes: { divisor: 1, csvSuffix: '_bytes', format: si('B') },
  ns: { divisor: 1e9, csvSuffix: '_s', format: (v) => `${Number(v.toPrecision(4))} s` },
  'bit/s': { divisor: 1, csvSuffix: '_bps', format: si('b/s') },
  '1/1000': { divisor: 1000, csvSuffix: '', format: (v) => `${Number(v.toPrecision(3))}×` },
};
const asRecorded = { divisor: 1, csvSuffix: '', format: (v: number) => String(Number(v.toPrecision(4))) };
const memberUnit = /_(bytes|ns|bps|milli)$/;

/** A per-connection column that the series plots can draw. */
export interface WindowColumn {
  /** The column's key in the TCP series. */
  key: string;
  label: string;
  /** The CSV header. */
  csvName: string;
  /** The column in its shown unit; NaN where it has no value (and, for ssthresh, while infinite). */
  values: (w: FlowWindow) => Float64Array;
  format: (v: number) => string;
  csv: (v: number) => number | string;
  dashed?: boolean;
  /** Drawn dotted (a reference level such as CUBIC's W_max); dashed wins when both are set. */
  dotted?: boolean;
}

/** The column `key` of the TCP series as the plots draw it. */
function describeColumn(key: string): WindowColumn {
  const meta = tcpColumns[key];
  const display = meta?.display ?? {};
  // A column without a display is drawn as recorded, in its own unit.
  const unit = (meta?.display && meta.unit && shownUnits[meta.unit]) || asRecorded;
  const none = display.zero === 'none';
  const word = display.zero && !none ? display.zero : null;
  return {
    key,
    label: display.label ?? key,
    csvName: meta?.display ? meta.member.replace(memberUnit, '') + unit.csvSuffix : key,
    values: (w) => {
      const raw = w.columns[key];
      if (!raw) return new Float64Array(w.t.length).fill(NaN);
      return raw.map((v) => ((meta?.infinite && v < 0) || (none && v <= 0) ? NaN : v / unit.divisor));
    },
    format: (v) => (Number.isNaN(v) ? (meta?.infinite ? '∞' : '–') : v === 0 && word ? word : unit.format(v)),
    csv: (v) => (Number.isNaN(v) ? (meta?.infinite ? 'infinite' : '') : v),
    dashed: display.line === 'dashed',
    dotted: display.line === 'dotted',
  };
}

const described = new Map<string, WindowColumn>();

/** The column `key` of the TCP series (any key: those columns.json gives no display are drawn as recorded). */
export function windowColumn(key: string): WindowColumn {
  let c = described.get(key);
  if (!c) described.set(key, (c = describeColumn(key)));
  return c;
}

/**
 * The TCP series' keys drawn by a plot of their own (a `display` in columns.json: lines, K marks,
 * state bands); the others are offered as recorded.
 */
const displayedKeys = new Set(Object.keys(tcpColumns).filter((key) => tcpColumns[key].display));

/** The series columns of these windows that no plot draws (e.g. a flavour's own state), by key. */
export function otherSeriesColumns(windows: FlowWindow[]): string[] {
  const keys = new Set<string>();
  for (const w of windows) {
    for (const [key, values] of Object.entries(w.columns)) {
      // A column that is 0 in every row is one this run's flavor or scheme does not fill (CUBIC's
      // W_max on a NewReno run, the Careful Resume phase without Careful Resume): no plot.
      if (!displayedKeys.has(key) && values.some((v: number) => v !== 0 && !Number.isNaN(v))) keys.add(key);
    }
  }
  return [...keys].sort();
}

/** A plot of per-connection columns sharing one y axis. */
export interface WindowView {
  key: string;
  title: string;
  yLabel: string;
  /** Keys of the TCP series. */
  columns: string[];
  /** The CSV's columns (default: columns). */
  csvColumns?: string[];
  /** What to look for, in one line. */
  caption: string;
  /** A state column drawn as a band per connection under the lines (stateRuns). */
  band?: StateKey;
  /** CUBIC's K marked on its W_max line (cubicKMarks). */
  cubicK?: boolean;
  /** Axis numbers, e.g. "1.25×" for a gain. */
  unit?: string;
}

export const windowViews: WindowView[] = [
  {
    key: 'cwnd',
    title: 'Congestion window and ssthresh per connection',
    yLabel: 'window (B)',
    columns: ['cwndBytes', 'ssthreshBytes', 'wMaxBytes'],
    csvColumns: ['cwndBytes', 'ssthreshBytes', 'inFlightBytes', 'wMaxBytes'],
    caption: 'Look for: how large a window each connection starts with (sharing schemes hand one over), slow start’s doubling, and halvings at losses.',
    band: 'crPhase',
    cubicK: true,
  },
  {
    key: 'inflight',
    title: 'Bytes in flight per connection',
    yLabel: 'in flight (B)',
    columns: ['inFlightBytes'],
    caption: 'Look for: connections that keep the pipe full against those that idle, waiting for the application or a timeout.',
  },
  {
    key: 'srtt',
    title: 'Smoothed RTT per connection',
    yLabel: 'srtt (s)',
    columns: ['srttNs'],
    caption: 'Look for: srtt rising with the queue, and new connections that start from a shared estimate instead of the 1 s default.',
  },
  {
    key: 'pacing',
    title: 'Pacing rate per connection (0: ACK-clocked)',
    yLabel: 'pacing rate (b/s)',
    columns: ['pacingBps'],
    caption: 'Look for: when a scheme paces a connection (E-TCP’s cached ensembles, TCP/SPAND’s start) and when the ACK clock takes over.',
  },
  {
    key: 'bbr-state',
    title: 'BBR’s state (band) and pacing gain per connection',
    yLabel: 'pacing gain',
    columns: ['bbrPacingGainMilli'],
    caption: 'Look for: Startup at 2.89× until the bandwidth stops growing, Drain at 0.35×, ProbeBW cycling 1.25×, 0.75× and six rounds of 1×, and ProbeRTT every 10 s without a lower RTT.',
    band: 'bbrState',
    unit: '×',
  },
  {
    key: 'bbr-bw',
    title: 'BBR’s bandwidth estimate (dashed) and pacing rate per connection',
    yLabel: 'rate (b/s)',
    columns: ['btlBwBps', 'pacingBps'],
    caption: 'Look for: Startup pacing at 2.89× the estimate until it stops growing, Drain below it, and ProbeBW’s gain cycle (1.25×, 0.75×, then 1×) around the bottleneck rate.',
  },
  {
    key: 'bbr-rtt',
    title: 'BBR’s min RTT (dashed) and srtt per connection',
    yLabel: 'RTT (s)',
    columns: ['bbrMinRttNs', 'srttNs'],
    caption: 'Look for: the min RTT as the propagation delay, srtt above it by the queue, and srtt falling to it in ProbeRTT every 10 s.',
  },
];

/** The view `key` of windowViews. */
export const windowView = (key: string): WindowView => {
  const view = windowViews.find((v) => v.key === key);
  if (!view) throw new RangeError(`no window view "${key}"`);
  return view;
};
