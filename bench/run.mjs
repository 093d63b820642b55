// `npm run bench`: performance figures measured side by side in one run. Nothing here is asserted;
// these machines are shared and noisy, so each figure is the median of several runs.
//
//   sim-core   dumbbell-bulk (60 simulated seconds): wall time, events/s, packets/s, peak memory,
//              and peak memory at 20/60/180 simulated seconds (flat when tracing is off);
//              with BENCH_NS3=1 (or an existing ns-3 venv, see bench/ns3/README.md) the same
//              scenario in ns-3 and the ratio of wall times; 50 connections sharing one host's
//              window under TCP-INT, E-TCP and the Congestion Manager.
//   memory     Savorić et al.'s Table 2 scenario (the savoric-table2 preset: TCBI host, WWW sessions,
//              heavy background, about 18,000 connections per 1000 s) at 2,500, 25,000 and the
//              paper's 250,000 simulated seconds: peak memory, flat when finished flows are folded
//              into the run's totals (record.flowRecords false), against the target of 200 MB.
//   flavors    the same dumbbell (dumbbell-bulk's network and 20 flows) under each window rule and
//              loss recovery: NewReno, SACK (RFC 6675), SACK + PRR, SACK + RACK-TLP, CUBIC
//              (modern-bulk-cubic), BBR (modern-bulk-bbr): wall time, packets and the cost per
//              simulated packet against NewReno's (with BENCH_CALLGRIND=1 in instructions per
//              packet, valgrind's callgrind over 10 simulated seconds: repeatable on a busy machine).
//   reproduce  tcpsim reproduce --full of etcp-fig5-realistic, spand-fig10 and tcpint-fig-sack on
//              1 and 2 jobs, and the speed-up.
//   wasm       every preset (listed at run time; BENCH_PRESETS=a,b for only those): native and WASM
//              (Node worker thread) wall time of the run (the two measured alternately) and their
//              ratio; the gzip-compressed size of tcbsim.wasm.
//   server     the simulation service (bench/server.mjs, also runnable alone): batch throughput with
//              1 and 2 workers and their ratio, queue overhead per run, GET /api/experiments/:id
//              under 200 concurrent connections.
//
//   npm run bench                       every section
//   npm run bench -- flavors memory     only these sections (sim-core, memory, flavors, reproduce,
//                                       wasm, server); WASM and the server are built only if asked for
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
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

// One run of a preset (or of a scenario file: `file` set); returns the --stats line (stderr may
// also carry notes).
function tcpsimStats(preset, extra = [], file = null) {
  const what = file ? [file] : ['--preset', preset];
  const r = run(tcpsim, ['run', ...what, '--trace', 'none', '--stats', ...extra]);
  return JSON.parse(r.stderr.trim().split('\n').findLast((line) => line.startsWith('{')));
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
  console.log(`target <= 0.30 s                 : ${wall <= 0.3 ? 'met' : 'NOT met'}`);

  console.log('\n== sim-core: peak memory against simulated duration (tracing off)');
  for (const seconds of [20, 60, 180]) {
    const s = tcpsimStats('dumbbell-bulk', ['--duration', String(seconds)]);
    console.log(`${String(seconds).padStart(4)} s simulated: ${fmt(s.peakRssBytes / 2 ** 20)} MiB peak, ${fmt(s.wallSeconds)} s wall`);
  }
  return wall;
}

// Fifty connections from one host sharing its window: tcpint-fig-sack's host and transfers, fifty of
// them (one every 50 ms) over a 100 Mb/s bottleneck for 30 simulated seconds, under TCP-INT, E-TCP
// and the Congestion Manager: the ensemble core's cost per packet as its members grow
// (sharing/ensemble.h, sharing/outstanding_list.h).
function benchSharedWindows() {
  console.log("\n== sim-core: 50 connections sharing one host's window (tcpint-fig-sack's host, 100 Mb/s, 30 s simulated)");
  const dir = mkdtempSync(join(tmpdir(), 'tcb-bench-'));
  const base = JSON.parse(run(tcpsim, ['preset', 'tcpint-fig-sack']).stdout);
  Object.assign(base, { name: 'shared-window-50', durationS: 30 });
  Object.assign(base.topology.access, { bandwidthMbps: 1000 });
  Object.assign(base.topology.bottleneck, { bandwidthMbps: 100, queue: { packets: 200 } });
  base.tcp.receiveWindowBytes = 262144;
  Object.assign(base.traffic[0], { atS: Array.from({ length: 50 }, (_, i) => i * 0.05), bytes: 5_000_000 });
  for (const scheme of ['tcp-int', 'etcp', 'congestion-manager']) {
    const scenario = structuredClone(base);
    scenario.hosts.left0.sharing = { scheme };
    const file = join(dir, `${scheme}.json`);
    writeFileSync(file, JSON.stringify(scenario));
    const runs = Array.from({ length: repeats }, () => tcpsimStats(null, [], file));
    const wall = median(runs.map((r) => r.wallSeconds));
    console.log(`${scheme.padEnd(18)}: ${fmt(wall)} s wall (median of ${repeats}), ${fmt(runs[0].events / wall / 1e6)} M events/s, ${runs[0].packets} packets`);
  }
  rmSync(dir, { recursive: true, force: true });
}

// A long run that opens millions of connections: peak memory must follow the connections open, not
// the simulated time. One run per duration (the longest takes a few minutes of CPU).
function benchLongRunMemory() {
  console.log("\n== sim-core: peak memory of Savorić et al.'s Table 2 scenario against simulated duration");
  console.log('simulated s   connections   peak MB   wall s');
  let longest;
  for (const seconds of [2500, 25000, 250000]) {
    const r = run(tcpsim, ['run', '--preset', 'savoric-table2', '--trace', 'none', '--stats', '--duration', String(seconds)]);
    const s = JSON.parse(r.stderr.trim().split('\n').findLast((line) => line.startsWith('{')));
    const flows = JSON.parse(r.stdout).run.tcpFlows;
    console.log(`${String(seconds).padStart(11)}   ${String(flows).padStart(11)}   ${fmt(s.peakRssBytes / 1e6).padStart(7)}   ${fmt(s.wallSeconds).padStart(6)}`);
    longest = s;
  }
  const mb = longest.peakRssBytes / 1e6;
  console.log(`paper-size run (250,000 s): ${fmt(mb)} MB peak; target < 200 MB: ${mb < 200 ? 'met' : 'NOT met'}`);
}

// Each window rule and loss recovery on dumbbell-bulk's network and workload. The flows move
// different numbers of packets (BBR drops and resends more), so the comparison is the wall time per
// simulated packet. The SACK, PRR and RACK-TLP rows are dumbbell-bulk with the tcp fields named
// beside them; CUBIC's default recovery is PRR; BBR sets its window itself and paces at its own rate.
function benchFlavors() {
  console.log("\n== sim-core: window rules and loss recovery on dumbbell-bulk's dumbbell (cost per simulated packet)");
  const dir = mkdtempSync(join(tmpdir(), 'tcb-bench-'));
  const variant = (preset, tcp) => {
    const scenario = JSON.parse(run(tcpsim, ['preset', preset]).stdout);
    Object.assign(scenario.tcp, tcp);
    const file = join(dir, `${preset}-${Object.values(tcp).join('-')}.json`);
    writeFileSync(file, JSON.stringify(scenario));
    return file;
  };
  const rows = [
    ['dumbbell-bulk', 'NewReno (RFC 6582)', null, null],
    ['dumbbell-bulk', 'SACK (RFC 6675)', { flavor: 'sack' }, null],
    ['dumbbell-bulk', 'SACK + PRR', { flavor: 'sack', recovery: 'prr' }, null],
    ['dumbbell-bulk', 'SACK + RACK-TLP', { flavor: 'sack', rack: true }, null],
    ['modern-bulk-cubic', 'CUBIC + HyStart++, PRR', null, 1.2],
    ['modern-bulk-bbr', 'BBR v1 (paced at its rate)', null, 1.5],
  ].map(([preset, label, tcp, target]) => {
    const file = tcp ? variant(preset, tcp) : null;
    const runs = Array.from({ length: repeats }, () => tcpsimStats(preset, [], file));
    const wall = median(runs.map((r) => r.wallSeconds));
    const packets = runs[0].packets;
    return { preset, label, tcp, target, wall, packets, nsPerPacket: (wall / packets) * 1e9, irPerPacket: callgrind(preset, file) };
  });
  rmSync(dir, { recursive: true, force: true });
  const base = useCallgrind ? rows[0].irPerPacket : rows[0].nsPerPacket;
  const irColumn = useCallgrind ? '  instr/packet' : '';
  console.log(`preset             tcp                                 rule                        wall s   packets    ns/packet${irColumn}  vs NewReno  target`);
  for (const r of rows) {
    const ratio = (useCallgrind ? r.irPerPacket : r.nsPerPacket) / base;
    const ir = useCallgrind ? String(Math.round(r.irPerPacket)).padStart(14) : '';
    const verdict = r.target === null ? '' : `${r.target}x ${ratio <= r.target ? 'met' : 'NOT met'}`;
    const tcp = r.tcp ? JSON.stringify(r.tcp) : '';
    console.log(`${r.preset.padEnd(18)} ${tcp.padEnd(35)} ${r.label.padEnd(27)} ${fmt(r.wall).padStart(6)}  ${String(r.packets).padStart(8)}  ${fmt(r.nsPerPacket).padStart(10)}${ir}  ${fmt(ratio).padStart(9)}x  ${verdict}`);
  }
  if (useCallgrind) console.log('vs NewReno: instructions per packet (callgrind, the runs cut to 10 simulated seconds)');
}

// BENCH_CALLGRIND=1: the flavors' ratio from instructions per simulated packet (valgrind's callgrind
// over the first 10 simulated seconds), which a shared, loaded machine does not move as it moves
// wall time.
const useCallgrind = process.env.BENCH_CALLGRIND === '1';
function callgrind(preset, file) {
  if (!useCallgrind) return null;
  const what = file ? [file] : ['--preset', preset];
  const args = ['run', ...what, '--trace', 'none', '--duration', '10'];
  const packets = JSON.parse(run(tcpsim, [...args, '--stats']).stderr.trim().split('\n').findLast((l) => l.startsWith('{'))).packets;
  const r = run('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', tcpsim, ...args]);
  const refs = Number(r.stderr.match(/refs:\s*([\d,]+)/)[1].replaceAll(',', ''));
  return refs / packets;
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

// Native and WASM side by side, per preset. Both measure the same span, the run itself (tcpsim
// --stats wallSeconds, the result's wallSeconds); `api ms` is runScenario() as a caller sees it.
// Short runs are repeated until they add up to 100 ms.
//
// The WASM engine is warmed up before anything is measured. V8 compiles a module's functions with
// its baseline compiler (Liftoff) and recompiles each with its optimising one (TurboFan), in the
// background, once it has run enough; a call already running keeps the code it started in (there is
// no on-stack replacement for WebAssembly). Code that a short run executes once per run (parsing,
// building the network, the summary) therefore takes dozens of runs to be optimised, and until it is
// a run costs several times its steady time. So every preset runs once first, which optimises the
// code they share, and then each preset runs until its times settle (warmedUp) before it is timed.
async function benchWasm() {
  const { createSimulator, setAtPointer } = await import('@tcb-lab/sim');
  const simulator = createSimulator({ maxWorkers: 1 });
  const all = run(tcpsim, ['presets']).stdout.trim().split('\n');
  // BENCH_PRESETS=a,b: only these (e.g. to measure a change to the long bulk presets side by side).
  const presets = process.env.BENCH_PRESETS ? process.env.BENCH_PRESETS.split(',') : all;
  const unknownPresets = presets.filter((p) => !all.includes(p));
  if (unknownPresets.length > 0) {
    console.error(`bench: unknown preset ${unknownPresets.join(', ')} in BENCH_PRESETS (tcpsim presets lists them)`);
    process.exit(2);
  }
  const enough = (times) => times.length >= repeats && (times.reduce((a, b) => a + b, 0) >= 100 || times.length >= 200);
  // Settled: the last three runs within 5% of the fastest so far, or 200 runs, or 30 s of runs.
  const warmedUp = (times) =>
    enough(times) &&
    (median(times.slice(-3)) <= 1.05 * Math.min(...times) || times.length >= 200 || times.reduce((a, b) => a + b, 0) >= 30e3);
  const scenarios = {};
  for (const preset of presets) {
    scenarios[preset] = await simulator.getPreset(preset);
    await simulator.runScenario(scenarios[preset], { trace: 'none' });
  }
  console.log(`\n== WASM (Node worker thread) vs native, per preset (trace none, WASM warmed up, then native and WASM runs alternating, medians of >= ${repeats} each)`);
  console.log(`${'preset'.padEnd(28)} ${'native ms'.padStart(10)} ${'wasm ms'.padStart(10)} ${'ratio'.padStart(7)} ${'api ms'.padStart(8)}`);
  const ratios = [];
  const wasmMs = {};
  for (const preset of presets) {
    const scenario = scenarios[preset];
    for (const warmup = []; !warmedUp(warmup); ) warmup.push((await simulator.runScenario(scenario, { trace: 'none' })).wallSeconds * 1e3);
    // Native and WASM runs alternate, so that both see the same machine: on a shared machine the
    // load changes over the seconds one side's runs would take.
    const native = [];
    const inWorker = [];
    const endToEnd = [];
    while (!enough(native) || !enough(inWorker)) {
      native.push(tcpsimStats(preset).wallSeconds * 1e3);
      const started = performance.now();
      const result = await simulator.runScenario(scenario, { trace: 'none' });
      endToEnd.push(performance.now() - started);
      inWorker.push(result.wallSeconds * 1e3);
    }
    const wasm = median(inWorker);
    wasmMs[preset] = wasm;
    ratios.push(wasm / median(native));
    console.log(`${preset.padEnd(28)} ${fmt(median(native)).padStart(10)} ${fmt(wasm).padStart(10)} ${fmt(wasm / median(native)).padStart(7)} ${fmt(median(endToEnd)).padStart(8)}`);
  }
  const worst = Math.max(...ratios);
  console.log(`ratio: median ${fmt(median(ratios))}, worst ${fmt(worst)}; target <= 1.3: ${worst <= 1.3 ? 'met' : 'NOT met'}`);
  await benchFig5(simulator, enough, setAtPointer);
  simulator.close();
  const bytes = readFileSync(join(root, 'wasm/dist/engine/tcbsim.wasm'));
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`tcbsim.wasm: ${fmt(bytes.length / 2 ** 20)} MiB, gzip -9 ${fmt(gzipped / 2 ** 20)} MiB; target < 1 MiB: ${gzipped < 2 ** 20 ? 'met' : 'NOT met'}`);
}

// The in-browser budget: E-TCP Fig. 5's realistic scenario, one page (the preset's java page) under all
// five schemes of the experiment (Reno and E-TCP's four schedulers), in WASM, in under 50 ms.
async function benchFig5(simulator, enough, setAtPointer) {
  const name = 'etcp-fig5-realistic';
  const experiment = JSON.parse(run(tcpsim, ['experiment', name]).stdout);
  let total = 0;
  const parts = [];
  for (const variant of experiment.variants) {
    const scenario = structuredClone(experiment.scenario);
    for (const [pointer, value] of Object.entries(variant.set ?? {})) setAtPointer(scenario, pointer, value);
    const times = [];
    while (!enough(times)) times.push((await simulator.runScenario(scenario, { trace: 'none' })).wallSeconds * 1e3);
    total += median(times);
    parts.push(`${variant.name} ${fmt(median(times), 2)}`);
  }
  console.log(`${name}, java page, all ${experiment.variants.length} schemes in WASM: ${fmt(total)} ms (${parts.join(', ')}); target < 50 ms: ${total < 50 ? 'met' : 'NOT met'}`);
}

// `tcpsim reproduce --full` on 1 and on 2 cores. Each figure is the run phase's wall time as
// reproduce reports it ("N runs in S s on J jobs"), the median of three.
function benchReproduce() {
  const experiments = run(tcpsim, ['experiments']).stdout.trim().split('\n');
  console.log('\n== tcpsim reproduce --full: wall seconds on 1 and 2 jobs (median of 3), speed-up');
  for (const name of ['etcp-fig5-realistic', 'spand-fig10', 'tcpint-fig-sack']) {
    if (!experiments.includes(name)) {
      console.log(`${name}: not in this checkout`);
      continue;
    }
    const seconds = (jobs) => {
      const times = [];
      let runs = 0;
      for (let i = 0; i < 3; i++) {
        const r = run(tcpsim, ['reproduce', name, '--full', '--jobs', String(jobs)]);
        const m = r.stderr.match(/(\d+) runs in ([\d.]+) s on/);
        runs = Number(m[1]);
        times.push(Number(m[2]));
      }
      return { runs, wall: median(times) };
    };
    const one = seconds(1);
    const two = seconds(2);
    const speedup = one.wall / two.wall;
    console.log(`${name.padEnd(22)} ${String(one.runs).padStart(5)} runs: 1 job ${fmt(one.wall)} s, 2 jobs ${fmt(two.wall)} s, speed-up ${fmt(speedup)}x (target >= 1.8: ${speedup >= 1.8 ? 'met' : 'NOT met'})`);
  }
}

const SECTIONS = ['sim-core', 'memory', 'flavors', 'reproduce', 'wasm', 'server'];
const asked = process.argv.slice(2);
const unknown = asked.filter((x) => !SECTIONS.includes(x));
if (unknown.length > 0) {
  console.error(`bench: unknown section ${unknown.join(', ')}; sections: ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const want = (section) => asked.length === 0 || asked.includes(section);

run('bash', [join(root, 'scripts/bootstrap')], { stdio: 'inherit' });
run('bash', [join(root, 'scripts/build-sim-core'), 'release'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (want('wasm')) run('bash', [join(root, 'scripts/build-wasm')], { stdio: ['ignore', 'ignore', 'inherit'] });
if (want('sim-core')) {
  benchNs3(benchSimCore());
  benchSharedWindows();
}
if (want('memory')) benchLongRunMemory();
if (want('flavors')) benchFlavors();
if (want('reproduce')) benchReproduce();
if (want('wasm')) await benchWasm();
if (want('server')) {
  run('npm', ['run', '--silent', '--workspace', 'server', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const { benchServer } = await import('./server.mjs');
  await benchServer();
}
process.exit(0);
