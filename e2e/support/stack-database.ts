import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The database of the stack under test: the DATABASE_URL `looplane start` gave its web, read
 * from /proc (the web's pid is in `<home>/run.json`), as the separate web does. For what no API
 * sets (a long log, a faux endpoint's script).
 */
export async function stackDatabaseUrl(stackHome: string): Promise<string> {
  const run = JSON.parse(await readFile(join(stackHome, 'run.json'), 'utf8')) as { children: Array<{ name: string; pid: number }> };
  const web = run.children.find((child) => child.name === 'web');
  if (!web) throw new Error(`${stackHome}/run.json records no web process`);
  const environ = await readFile(`/proc/${web.pid}/environ`, 'utf8');
  const entry = environ.split('\0').find((e) => e.startsWith('DATABASE_URL='));
  if (!entry) throw new Error(`the web (pid ${web.pid}) has no DATABASE_URL`);
  return entry.slice('DATABASE_URL='.length);
}
