// `npm run bench`: performance figures measured side by side in one run. Nothing here is asserted;
// these machines are shared and noisy, so each figure is the median of several runs.
//
//   sim-core   dumbbell-bulk (60 simulated seconds): wall time, events/s, packets/s, peak memory,
//              and peak memory at 20/60/180 simulated seconds (flat when tracing is off);
//              with BENCH_NS3=1 (or an existing ns-3 venv, see bench/ns3/README.md) the same
//              scenario in ns-3 and the ratio of wall times.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tcpsim = join(root, 'build/release/tcpsim');
const repeats = Number(process.env.BENCH_REPEATS ?? 5);

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  }
  return r;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x, digits = 3) => Number(x).toPrecision(digits);

// One run of a preset; returns the --stats line.
function tcpsimStats(preset, extra = []) {
  const r = run(tcpsim, ['run', '--preset', preset, '--trace', 'none', '--stats', ...extra]);
  return JSON.parse(r.stderr.trim().split('\n').pop());
}

function benchSimCore() {
  console.log('\n== sim-core: dumbbell-bulk (20 NewReno flows, 100 Mb/s bottleneck, 60 s simulated)');
  const runs = Array.from({ length: repeats }, () => tcpsimStats('dumbbell-bulk'));
  const wall = median(runs.map((r) => r.wallSeconds));
  const best = runs.find((r) => r.wallSeconds === wall);
  console.log(`wall seconds (median of ${repeats}) : ${fmt(wall)}   [min ${fmt(Math.min(...runs.map((r) => r.wallSeconds)))}, max ${fmt(Math.max(...runs.map((r) => r.wallSeconds)))}]`);
  console.log(`events executed                  : ${best.events}`);
  console.log(`events per wall second           : ${fmt(best.events / wall / 1e6)} M`);
  console.log(`packets per wall second          : ${fmt(best.packets / wall / 1e6)} M  (${best.packets} packets)`);
  console.log(`peak memory                      : ${fmt(best.peakRssBytes / 2 ** 20)} MiB`);
  console.log(`target < 0.7 s                   : ${wall < 0.7 ? 'met' : 'NOT met'}`);

  console.log('\n== sim-core: peak memory against simulated duration (tracing off)');
  for (const seconds of [20, 60, 180]) {
    const s = tcpsimStats('dumbbell-bulk', ['--duration', String(seconds)]);
    console.log(`${String(seconds).padStart(4)} s simulated: ${fmt(s.peakRssBytes / 2 ** 20)} MiB peak, ${fmt(s.wallSeconds)} s wall`);
  }
  return wall;
}

function benchNs3(ourWall) {
  const setup = join(root, 'bench/ns3/setup.sh');
  if (!existsSync(setup)) return;
  const cache = process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? '/tmp', '.cache');
  const venv = join(cache, 'tcb-lab/ns3-venv');
  if (process.env.BENCH_NS3 !== '1' && !existsSync(venv)) {
    console.log('\n== ns-3 reference: skipped (BENCH_NS3=1 installs ns-3 from PyPI into a cache venv and runs it)');
    return;
  }
  console.log('\n== ns-3 reference: the same scenario (bench/ns3/dumbbell_bulk.py)');
  const python = run('bash', [setup]).stdout.trim().split('\n').pop();
  const r = JSON.parse(run(python, [join(root, 'bench/ns3/dumbbell_bulk.py')]).stdout.trim().split('\n').pop());
  console.log(`${r.simulator}: ${fmt(r.wallSeconds)} s wall, ${r.events ?? '?'} events, ${r.eventsPerSecond ? fmt(r.eventsPerSecond / 1e6) + ' M events/s' : ''}`);
  console.log(`ns-3 wall / sim-core wall        : ${fmt(r.wallSeconds / ourWall)}x`);
}

run('bash', [join(root, 'scripts/bootstrap')], { stdio: 'inherit' });
run('bash', [join(root, 'scripts/build-sim-core'), 'release'], { stdio: ['ignore', 'ignore', 'inherit'] });
const wall = benchSimCore();
benchNs3(wall);
