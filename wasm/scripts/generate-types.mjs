// Generates src/generated/{scenario,result,experiment,report}.ts from sim-core's JSON Schemas, the
// single source of truth for these documents. Runs on every build; the output is not committed and not hand-edited.
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
