#!/usr/bin/env node
// `npm test`: unit + integration (vitest, real Postgres and Redis) and e2e (Playwright in
// Chromium against the real product). Prints each runner's own report, then one summary line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const reports = mkdtempSync(join(tmpdir(), 'looplane-test-'));
const args = process.argv.slice(2);
const only = new Set(args.filter((a) => !a.startsWith('-')));
const want = (tier) => only.size === 0 || only.has(tier);

function run(command, argv, env = {}, cwd = root) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

const pgUrl = new URL(process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
if (want('unit') || want('integration')) {
  if (!(await reachable(pgUrl.hostname, Number(pgUrl.port || 5432)))) {
    problems.push(`PostgreSQL is not reachable at ${pgUrl.host} (set TEST_PG_ADMIN_URL)`);
  }
  if (!(await reachable(redisUrl.hostname, Number(redisUrl.port || 6379)))) {
    problems.push(`Redis is not reachable at ${redisUrl.host} (set TEST_REDIS_URL)`);
  }
}

if (problems.length === 0 && (want('unit') || want('integration'))) {
  const projects = ['unit', 'integration'].filter(want).flatMap((p) => ['--project', p]);
  const out = join(reports, 'vitest.json');
  const code = await run(process.execPath, [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...projects,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const report = readJson(out);
  if (report) {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    const suiteFailures = report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0);
    totals.failed += suiteFailures.length;
  }
  if (code !== 0 && (!report || report.numFailedTests === 0)) problems.push(`vitest exited with code ${code}`);
}

if (problems.length === 0 && want('e2e')) {
  const out = join(reports, 'playwright.json');
  const code = await run(
    process.execPath,
    [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '--config', join(root, 'e2e/playwright.config.ts')],
    { E2E_JSON_REPORT: out },
    join(root, 'e2e'),
  );
  const report = readJson(out);
  if (report?.stats) {
    totals.passed += report.stats.expected;
    totals.failed += report.stats.unexpected + report.stats.flaky;
    totals.skipped += report.stats.skipped;
  }
  if (code !== 0 && (!report?.stats || report.stats.unexpected === 0)) problems.push(`playwright exited with code ${code}`);
  if (!existsSync(out)) problems.push('playwright wrote no report');
}

for (const problem of problems) process.stdout.write(`error: ${problem}\n`);
const failed = totals.failed + problems.length;
process.stdout.write(`\n${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped\n`);
process.exit(failed === 0 && totals.passed > 0 ? 0 : 1);
