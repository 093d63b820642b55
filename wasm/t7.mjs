import { createSimulator } from '@tcb-lab/sim';
const sim = createSimulator({maxWorkers:1});
const s = await sim.getPreset(process.argv[2] ?? 'dumbbell-bulk');
const xs = [];
for (let i = 0; i < 10; i++) { const r = await sim.runScenario(s, {trace:'none'}); xs.push((r.wallSeconds*1e3).toFixed(1)); }
console.log(xs.join(' '));
sim.close();
