// Generates src/generated/{scenario,result,experiment,report}.ts from sim-core's JSON Schemas, the
// single source of truth for these documents, and src/generated/columns.ts from sim-core's column
// table of series and packet traces (sim-core/trace/columns.json). Runs on every build; the output
// is not committed and not hand-edited.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const here = dirname(fileURLToPath(import.meta.url));
const schemaDir = join(here, '../../sim-core/scenario/schema');
const outDir = join(here, '../src/generated');

await mkdir(outDir, { recursive: true });
for (const name of ['scenario', 'result', 'experiment', 'report']) {
  const file = join(schemaDir, `${name}.schema.json`);
  const schema = JSON.parse(await readFile(file, 'utf8'));
  const banner = `// Generated from sim-core/scenario/schema/${name}.schema.json by wasm/scripts/generate-types.mjs.\n// Do not edit: change the schema and rebuild.`;
  const ts = await compile(schema, schema.title, {
    bannerComment: banner,
    cwd: schemaDir,
    additionalProperties: false,
    strictIndexSignatures: true,
  });
  await writeFile(join(outDir, `${name}.ts`), ts);
}

// The series and trace columns as the WASM API returns them: typed arrays, 64-bit columns as
// Float64Array (exact below 2^53).
const arrayTypes = { int64: 'Float64Array', uint64: 'Float64Array', int32: 'Int32Array', uint8: 'Uint8Array' };
const columns = JSON.parse(await readFile(join(here, '../../sim-core/trace/columns.json'), 'utf8'));
const lines = [
  '// Generated from sim-core/trace/columns.json by wasm/scripts/generate-types.mjs.',
  '// Do not edit: change the table and rebuild.',
  '',
];
const meta = {};
for (const table of columns.tables) {
  lines.push(`/** ${table.description} */`, `export interface ${table.typescript} {`);
  meta[table.name] = {};
  for (const c of table.columns) {
    const unit = c.unit ? ` [${c.unit}]` : '';
    lines.push(`  /** ${c.description}${unit} */`, `  ${c.key}: ${arrayTypes[c.type]};`);
    meta[table.name][c.key] = {
      member: c.member,
      description: c.description,
      ...(c.unit ? { unit: c.unit } : {}),
      ...(c.indexes ? { indexes: c.indexes } : {}),
      ...(c.infinite ? { infinite: true } : {}),
      ...(c.labels ? { labels: c.labels } : {}),
      ...(c.display ? { display: c.display } : {}),
    };
  }
  lines.push('}', '');
}
lines.push(
  "/** Each column's C++ member name, meaning, unit, the name list it indexes, whether -1 means infinite, the names of a state column's values, and how the dashboard shows it, by table and key: for axis labels, legends and CSV headers. */",
  `export const columnInfo = ${JSON.stringify(meta, null, 2)} as const;`,
  '',
);
await writeFile(join(outDir, 'columns.ts'), lines.join('\n'));
