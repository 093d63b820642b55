// "What would reuse give my traffic?": the reuse view's model, as pure functions. A path (a path
// preset's topology and TCP options), a workload (a download of S bytes, or one of the built-in web
// pages) visited twice with an idle time T between the first visit's end and the second's start,
// and the sharing schemes to compare become one scenario and one grid of JSON Pointers: the same
// {scenario, grid, replications} planned by sim-core's PlanGrid in the browser (planGrid) and by
// the service for a batch. Each run's summary gives the repeat visit's completion time and the cost
// it paid or caused (retransmissions, drops, the longest queue its packets joined, and what the
// same visit by a neighbour without reuse suffered at the same moment); the cells aggregate the
// replications with sim-core's statistics, so that a sweep run in the browser and the same sweep
// run as a server batch give the same table.
import type { Result, Scenario } from '@tcb-lab/sim';
export * from './form';
export * from './path';
export * from './sweep';
export * from './cells';
export * from './table';
export { bytesLabel } from '../units';
