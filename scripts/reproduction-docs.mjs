#!/usr/bin/env node
// Regenerates the results in docs/reproduction/*.md and the overview in docs/REPRODUCTION.md from
// `tcpsim reproduce` at full size: every built-in experiment runs (or its saved report is reused when
// neither the experiment nor tcpsim changed), and each block between
//   <!-- tcpsim reproduce NAME -->  and  <!-- end tcpsim reproduce NAME -->
// becomes `tcpsim report --markdown` of NAME's report; in docs/REPRODUCTION.md the blocks
//   <!-- tcpsim report --legend -->  and  <!-- tcpsim report --overview -->  (each closed by
//   <!-- end tcpsim report ... -->) become the verdicts' legend and the overview of every claim that
// compares a paper number. The prose around the blocks is not touched.
//
//   node scripts/reproduction-docs.mjs [--jobs N] [--reuse | --render] [--tcpsim PATH] [NAME...]
//
// NAMEs limit the runs to those experiments (the others' saved reports are used, which must exist).
// --render runs nothing: the documents are written from the saved reports as they are (each made by
// another tcpsim or from another experiment document is noted), e.g. after a change to the reports'
// Markdown alone, or from reports made one by one with `tcpsim reproduce NAME --full --json`.
// Reports are kept in build/reproduction/NAME.json with the key they were made with.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const usage = 'usage: node scripts/reproduction-docs.mjs [--jobs N] [--reuse | --render] [--tcpsim PATH] [NAME...]';

function fail(message) {
  process.stderr.write(`reproduction-docs: ${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let jobs = cpus().length;
let reuse = false;
let render = false;
let tcpsim = join(root, 'build/release/tcpsim');
const only = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--jobs') jobs = Number(args[++i]);
  else if (a === '--reuse') reuse = true;
  else if (a === '--render') render = true;
  else if (a === '--tcpsim') tcpsim = args[++i];
  else if (a === '-h' || a === '--help') {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  } else if (a.startsWith('-')) fail(`unknown option ${a}\n${usage}`);
  else only.push(a);
}
if (!Number.isInteger(jobs) || jobs < 1) fail('--jobs needs a positive integer');
if (render && (reuse || only.length > 0)) fail(`--render runs nothing: it takes no --reuse and no names\n${usage}`);
if (!existsSync(tcpsim)) fail(`no tcpsim at ${tcpsim}: build it first (scripts/build-sim-core release)`);

const run = (argv) => execFileSync(tcpsim, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
const experiments = run(['experiments']).trim().split('\n');
for (const name of only) if (!experiments.includes(name)) fail(`unknown experiment ${name}`);

// A report stays valid while tcpsim and the experiment document are the same.
const binaryHash = createHash('sha256').update(readFileSync(tcpsim)).digest('hex');
const keyOf = (name) => createHash('sha256').update(binaryHash).update(run(['experiment', name])).digest('hex');

const outDir = join(root, 'build/reproduction');
mkdirSync(outDir, { recursive: true });
const reportFile = (name) => join(outDir, `${name}.json`);
const keyFile = (name) => join(outDir, `${name}.key`);

for (const name of experiments) {
  const key = keyOf(name);
  const saved = existsSync(reportFile(name)) && existsSync(keyFile(name)) && readFileSync(keyFile(name), 'utf8') === key;
  const wanted = !render && (only.length === 0 || only.includes(name));
  if (!wanted || (reuse && saved)) {
    if (!existsSync(reportFile(name))) fail(`no saved report for ${name}: run it (name it, or give no names)`);
    if (!saved) process.stderr.write(`reproduction-docs: note: ${name}'s saved report is from another tcpsim or experiment\n`);
    continue;
  }
  process.stderr.write(`reproduction-docs: tcpsim reproduce ${name} --full --jobs ${jobs}\n`);
  const started = Date.now();
  const result = spawnSync(tcpsim, ['reproduce', name, '--full', '--json', '--jobs', String(jobs)], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) fail(`tcpsim reproduce ${name} failed (exit ${result.status})`);
  writeFileSync(reportFile(name), result.stdout);
  writeFileSync(keyFile(name), key);
  process.stderr.write(`reproduction-docs: ${name} took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

// Replaces every block that `pattern` opens in `text` with `render(name)`; returns the names seen.
function splice(text, pattern, render, file) {
  const seen = [];
  const out = text.replace(pattern, (_, open, name, _body, close) => {
    seen.push(name);
    return `${open}\n${render(name).trimEnd()}\n${close}`;
  });
  if (out.split('<!-- ').length !== text.split('<!-- ').length) fail(`${file}: a block lost its markers`);
  return { out, seen };
}
const blockPattern = /(<!-- tcpsim reproduce ([A-Za-z0-9_.-]+) -->)\n([\s\S]*?)(<!-- end tcpsim reproduce \2 -->)/g;

const documented = new Set();
const docsDir = join(root, 'docs/reproduction');
for (const file of readdirSync(docsDir).filter((f) => f.endsWith('.md'))) {
  const path = join(docsDir, file);
  const text = readFileSync(path, 'utf8');
  const { out, seen } = splice(text, blockPattern, (name) => {
    if (!experiments.includes(name)) fail(`docs/reproduction/${file}: no experiment ${name}`);
    return run(['report', reportFile(name), '--markdown']);
  }, file);
  seen.forEach((n) => documented.add(n));
  if (out !== text) writeFileSync(path, out);
}
const missing = experiments.filter((n) => !documented.has(n));
if (missing.length > 0) fail(`no block in docs/reproduction for ${missing.join(', ')}`);

const overviewPath = join(root, 'docs/REPRODUCTION.md');
let overview = readFileSync(overviewPath, 'utf8');
const legend = /(<!-- tcpsim report --legend -->)\n([\s\S]*?)(<!-- end tcpsim report --legend -->)/;
const claims = /(<!-- tcpsim report --overview -->)\n([\s\S]*?)(<!-- end tcpsim report --overview -->)/;
if (!legend.test(overview) || !claims.test(overview)) fail('docs/REPRODUCTION.md: the legend or overview block is missing');
overview = overview.replace(legend, (_, open, _body, close) => `${open}\n${run(['report', '--legend']).trimEnd()}\n${close}`);
overview = overview.replace(claims, (_, open, _body, close) => `${open}\n${run(['report', '--overview', ...experiments.map(reportFile)]).trimEnd()}\n${close}`);
writeFileSync(overviewPath, overview);
process.stderr.write(`reproduction-docs: ${documented.size} experiments in docs/reproduction, overview in docs/REPRODUCTION.md\n`);
