// What a run costs the simulators, estimated from its scenario before anything runs, in work units:
// one traffic source simulated for one second at up to 10 Mb/s. A run's cost is its simulated
// duration times the sum, over its traffic sources (each item's `count` copies), of the source's
// rate in steps of 10 Mb/s (at least one step): a TCP source can send no faster than the fastest
// link of the topology, a UDP source at its own rate (rateKbps) when that is faster. The simulator's
// work grows with the packets it moves, so with duration, sources and rates; the estimate is an upper
// bound for traffic that does not fill its links (short transfers, web pages, idle periods) and does
// not count how many hops a packet crosses. A request costs the sum over its runs
// (docs/API.md, "Budgets").
import { durationOf } from './sync.js';

/** Megabits per second of one rate step of a source. */
export const stepMbps = 10;

/** Every link rate of a topology document (`bandwidthMbps`, and any other `...Mbps` field of a builder). */
function linkRatesMbps(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) {
    for (const item of value) linkRatesMbps(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (typeof member === 'number' && key.endsWith('Mbps')) out.push(member);
      else linkRatesMbps(member, out);
    }
  }
  return out;
}

interface TrafficItem {
  type?: unknown;
  count?: unknown;
  rateKbps?: unknown;
}

/** The run's cost in work units (see above). */
export function runCost(scenario: Record<string, unknown>): number {
  const fastest = Math.max(0, ...linkRatesMbps(scenario.topology));
  const traffic = Array.isArray(scenario.traffic) ? (scenario.traffic as TrafficItem[]) : [];
  let steps = 0;
  for (const item of traffic) {
    const count = typeof item.count === 'number' ? item.count : 1;
    // onoff-udp's default rate is 12 kb/s (scenario.schema.json); it never exceeds a step then.
    const ownMbps = item.type === 'onoff-udp' && typeof item.rateKbps === 'number' ? item.rateKbps / 1000 : 0;
    steps += count * Math.max(1, Math.ceil(Math.max(fastest, ownMbps) / stepMbps));
  }
  return durationOf(scenario) * Math.max(1, steps);
}
