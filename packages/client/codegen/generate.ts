// `npm run generate -w @looplane/client`: rewrites openapi.json and src/generated/schema.ts from
// the REST route table. Commit both with the API change that made them differ.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_FILES, renderGeneratedFiles } from './render';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = await renderGeneratedFiles();
for (const name of GENERATED_FILES) {
  const path = join(packageDir, name);
  const before = await readFile(path, 'utf8').catch(() => null);
  if (before === files[name]) {
    process.stdout.write(`unchanged ${name}\n`);
    continue;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, files[name]);
  process.stdout.write(`wrote ${name}\n`);
}
