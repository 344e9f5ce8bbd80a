import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATE_COMMAND, GENERATED_FILES, renderGeneratedFiles } from './render';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The first line where two texts part, for a message that points at the change. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end of file>')}, generated ${JSON.stringify(b[at] ?? '<end of file>')}`;
}

describe('the generated client files', () => {
  it('are what the REST route table generates now', async () => {
    const generated = await renderGeneratedFiles();
    const stale: string[] = [];
    for (const name of GENERATED_FILES) {
      const committed = await readFile(join(packageDir, name), 'utf8').catch(() => null);
      if (committed === null) stale.push(`packages/client/${name} is missing`);
      else if (committed !== generated[name]) stale.push(`packages/client/${name} is out of date (${firstDifference(committed, generated[name])})`);
    }
    expect(stale, `${stale.join('\n')}\nThe REST API changed: run \`${GENERATE_COMMAND}\` and commit the result.`).toEqual([]);
  }, 60_000);
});
