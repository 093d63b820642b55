// The plots a run can show, in the order they appear, and those shown at first.
export const plotKinds = [
  { key: 'seq', label: 'Time–sequence' },
  { key: 'cwnd', label: 'cwnd' },
  { key: 'inflight', label: 'In flight' },
  { key: 'ensemble', label: 'Ensemble window' },
  { key: 'pacing', label: 'Pacing' },
  { key: 'bbr', label: 'BBR state' },
  { key: 'bbr-model', label: 'BBR model' },
  { key: 'queue', label: 'Queues' },
  { key: 'rates', label: 'Goodput' },
  { key: 'rtt', label: 'RTT' },
  { key: 'more', label: 'Other series columns' },
] as const;
export type PlotKind = (typeof plotKinds)[number]['key'];
/** Shown at first where the run has them (BBR's state only where BBR ran). */
export const defaultPlots: PlotKind[] = ['seq', 'cwnd', 'ensemble', 'bbr'];
