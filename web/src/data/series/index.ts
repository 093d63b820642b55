// Result → plot columns for the window, queue, throughput and RTT plots, the state bands (BBR's
// mode, Careful Resume's phase) and CUBIC's K. Every function is pure and works on the typed
// columns of @tcb-lab/sim's SimulationResult.
export * from './windows';
export * from './groups';
export * from './traffic';
export * from './columns';
export * from './states';
