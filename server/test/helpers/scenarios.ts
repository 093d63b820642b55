// Scenarios the tests of the service's limits share: the outside probe's flood, which once grew a
// simulator to 23.6 GB, and a run of a few milliseconds.

/**
 * A UDP source at 100 Gb/s into a 1 Mb/s link whose queue has no limit of its own: it holds at
 * most `unlimitedQueuePackets` (the scenario's default cap when not given), or grows until the
 * run's memory limit stops it.
 */
export function flood(durationS: number, unlimitedQueuePackets?: number): Record<string, unknown> {
  return {
    schemaVersion: 1,
    durationS,
    ...(unlimitedQueuePackets ? { unlimitedQueuePackets } : {}),
    topology: { kind: 'single-link', link: { bandwidthMbps: 1, delayMs: 10 } },
    traffic: [{ type: 'onoff-udp', from: 'server', to: 'client', rateKbps: 100_000_000, meanOnS: 1000, meanOffS: 0.001 }],
  };
}

/** One transfer of 30 kB over 1 Mb/s for 1 s: a run of a few milliseconds, 1 work unit. */
export const tiny: Record<string, unknown> = {
  schemaVersion: 1,
  durationS: 1,
  topology: { kind: 'single-link', link: { bandwidthMbps: 1, delayMs: 10 } },
  traffic: [{ type: 'transfers', from: 'server', to: 'client', bytes: 30_000, atS: [0] }],
};
