// `npm run bench:report [-- --results bench/results/FILE.json] [-- --check]`: regenerates the root
// README's benchmark table (between `<!-- bench:begin -->` and `<!-- bench:end -->`) from the
// newest full results file in bench/results/ (or the one given). `--check` changes nothing and
// exits 1 when the README's table is not the one the file gives. A `--quick` file is refused
// unless `--allow-quick` (its figures are not for quoting).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHES } from './benches';
import { newestResultsFile, readResults } from './results-file';
import { benchmarkTable, replaceBetweenMarkers } from './table';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const readmePath = resolve(root, arg('readme') ?? 'README.md');
const given = arg('results');
const file = given ? resolve(process.cwd(), given) : newestResultsFile(join(root, 'bench', 'results'));
let source: Parameters<typeof benchmarkTable>[1];
if (file) {
  const results = readResults(file);
  if (results.quick && !process.argv.includes('--allow-quick')) {
    console.error(`${file} is a --quick run: its figures are not for the README (--allow-quick to use it anyway).`);
    process.exit(1);
  }
  source = { results, link: relative(join(readmePath, '..'), file).split('\\').join('/') };
}

const readme = readFileSync(readmePath, 'utf8');
// Biome formats Markdown too (npm run lint fails on an unformatted README), so the table is written
// the way Biome lays it out: columns padded, alignment rows widened.
const formatMarkdown = (text: string) =>
  execFileSync(join(root, 'node_modules', '.bin', 'biome'), ['format', `--stdin-file-path=${readmePath}`], { cwd: root, input: text, encoding: 'utf8' });
const updated = formatMarkdown(replaceBetweenMarkers(readme, benchmarkTable(BENCHES, source)));
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error(
      `${relative(root, readmePath)}: the benchmark table is not the one ${file ? relative(root, file) : 'no results file'} gives; run npm run bench:report.`,
    );
    process.exit(1);
  }
  console.log(`${relative(root, readmePath)}: the benchmark table is up to date.`);
} else {
  writeFileSync(readmePath, updated);
  console.log(
    `${relative(root, readmePath)}: benchmark table ${updated === readme ? 'unchanged' : 'regenerated'} from ${file ? relative(root, file) : 'no results file (every row says so)'}.`,
  );
}
