import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Printer } from '../printer';
import { paths } from './paths';
import { acquireFileLock } from './file-lock';
import { runCommand } from './run-command';

/** Packages the web app cannot import: editing them must not rebuild the dashboard. */
const NOT_IN_WEB = new Set(['cli', 'testkit']);
const SKIPPED_DIRS = new Set(['node_modules', '.next', '.turbo']);
const SKIPPED_FILE = /(\.test\.tsx?|\.spec\.tsx?|\.tsbuildinfo|^next-env\.d\.ts)$/;

function collect(dir: string, files: string[], recursive: boolean): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive && !SKIPPED_DIRS.has(entry.name)) collect(full, files, true);
    } else if (entry.isFile() && !SKIPPED_FILE.test(entry.name)) {
      files.push(full);
    }
  }
}

/** Every file whose change can change the dashboard build, absolute, sorted. */
export function buildInputs(root = paths.repoRoot): string[] {
  const files: string[] = [];
  const web = join(root, 'apps', 'web');
  collect(web, files, false); // next.config.ts, package.json, tsconfig.json, postcss config...
  collect(join(web, 'src'), files, true);
  collect(join(web, 'public'), files, true);
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (entry.isDirectory() && !NOT_IN_WEB.has(entry.name)) collect(join(root, 'packages', entry.name, 'src'), files, true);
  }
  for (const file of ['package-lock.json', join('prisma', 'schema.prisma')]) {
    if (existsSync(join(root, file))) files.push(join(root, file));
  }
  return files.sort();
}

/** SHA-256 over the paths and contents of {@link buildInputs}. */
export function sourceFingerprint(root = paths.repoRoot): string {
  const digest = createHash('sha256');
  for (const file of buildInputs(root)) {
    digest.update(relative(root, file)).update('\0');
    digest.update(createHash('sha256').update(readFileSync(file)).digest()).update('\0');
  }
  return digest.digest('hex');
}

/** What a finished build was made from; lives inside the build it describes. */
interface BuildRecord {
  fingerprint: string;
  buildId: string;
}

const BUSY_RETRY_MS = 5000;
const BUSY_WAIT_MAX_MS = 10 * 60_000;

const distDir = () => join(paths.webDir, '.next');
const recordFile = () => join(distDir(), 'looplane-build.json');

function currentBuildId(): string | null {
  const file = join(distDir(), 'BUILD_ID');
  return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8').trim() : null;
}

async function readRecord(): Promise<BuildRecord | null> {
  try {
    const record = JSON.parse(await readFile(recordFile(), 'utf8')) as Partial<BuildRecord>;
    return typeof record.fingerprint === 'string' && typeof record.buildId === 'string' ? (record as BuildRecord) : null;
  } catch {
    return null;
  }
}

/** Whether apps/web/.next is a finished build of exactly the current sources. */
async function buildIsCurrent(): Promise<boolean> {
  const record = await readRecord();
  return record !== null && record.buildId === currentBuildId() && record.fingerprint === sourceFingerprint();
}

/**
 * Builds the dashboard (`next build` in apps/web) when there is no build or the build is stale.
 *
 * The fingerprint of the sources a build was made from is stored inside that build
 * (`apps/web/.next/looplane-build.json`, with Next's BUILD_ID), not in LOOPLANE_HOME: every
 * LOOPLANE_HOME on the machine shares the one apps/web/.next, and a per-home record made each
 * home rebuild what another had just built — replacing the build under a running server. A
 * machine-wide lock makes concurrent starts wait for one build instead of racing. Build output is
 * shown only when it fails; it is kept in LOOPLANE_HOME/logs/web-build.log.
 */
export async function ensureWebBuild(options: { home: string; env: Record<string, string>; signal: AbortSignal; printer: Printer }): Promise<void> {
  if (await buildIsCurrent()) return;
  const release = await acquireFileLock(join(paths.repoRoot, 'node_modules', '.cache', 'looplane', 'web-build.lock'), {
    signal: options.signal,
    onWait: () => options.printer.info('Waiting for another looplane start to finish building the dashboard…'),
  });
  try {
    // Whoever held the lock may just have built exactly these sources.
    if (await buildIsCurrent()) return;
    await build(options);
  } finally {
    await release();
  }
}

async function build(options: { home: string; env: Record<string, string>; signal: AbortSignal; printer: Printer }) {
  options.printer.info(currentBuildId() === null ? 'Building the dashboard (first start only)…' : 'Rebuilding the dashboard (its sources changed)…');
  const startedAt = Date.now();
  await rm(recordFile(), { force: true });
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand({
        name: 'web build',
        command: process.execPath,
        args: [paths.nextBin, 'build'],
        cwd: paths.webDir,
        // Only the inherited basics: no secret may end up inlined in a prerendered page.
        env: { ...options.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
        signal: options.signal,
        logFile: join(options.home, 'logs', 'web-build.log'),
      });
      break;
    } catch (error) {
      // A `next build` started by hand (not through looplane's lock) holds Next's own lock: wait
      // for it rather than fail, then build again (its result carries no fingerprint).
      const busy = error instanceof Error && error.message.includes('Another next build process is already running');
      if (!busy || attempt * BUSY_RETRY_MS >= BUSY_WAIT_MAX_MS) throw error;
      if (attempt === 1) options.printer.info('Another `next build` is running in apps/web; waiting for it to finish…');
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      options.signal.throwIfAborted();
    }
  }
  const buildId = currentBuildId();
  if (!buildId) throw new Error('next build finished without writing apps/web/.next/BUILD_ID');
  // Fingerprint after the build: `next build` may rewrite tsconfig.json once.
  const record: BuildRecord = { fingerprint: sourceFingerprint(), buildId };
  await writeFile(recordFile(), `${JSON.stringify(record, null, 2)}\n`);
  options.printer.info(`Dashboard built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);
}
