import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants, mentioning, spawnCli, waitForOutput, type Proc } from '../testing/looplane-process';
import { findFreePort } from './free-port';
import { processStartTime } from './proc';

/**
 * `looplane start` keeps its web and worker running: the worker is SIGKILLed under a real, fully
 * embedded start, and a new one serves runs, takes over the run that was in flight, while the web
 * stays up; `/metrics` counts the restart. The dashboard build is reused as in start.int.test.ts.
 */

const parent = await mkdtemp(join(tmpdir(), 'looplane-supervise-'));
await chmod(parent, 0o755); // Postgres runs as the `postgres` user when we are root.
const home = join(parent, 'home');
const port = await findFreePort();
const workerMetricsPort = await findFreePort();
const token = `llp_supervision_${Date.now()}`;
const metricsToken = 'supervision-metrics-token-0123456789';
const workerBundle = join('apps', 'worker', 'dist', 'main.mjs');
const webServerBundle = join('apps', 'web', 'dist', 'server.mjs');

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** `looplane run --follow` against this start, with the bootstrap token. */
const follow = (agent: string, goal: string) =>
  spawnCli(['run', '--agent', agent, '--goal', goal, '--follow'], { LOOPLANE_URL: `http://127.0.0.1:${port}`, LOOPLANE_TOKEN: token });

const scrape = async (url: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${metricsToken}` } });
  expect(response.status).toBe(200);
  return response.text();
};

describe('looplane start supervision', () => {
  it('restarts a SIGKILLed worker: a new one serves runs within 15 s, the run in flight finishes, the web stays up, /metrics counts 1', async () => {
    const running = spawnCli(['start'], {
      LOOPLANE_HOME: home,
      PORT: String(port),
      LOOPLANE_BOOTSTRAP_TOKEN: token,
      LOOPLANE_METRICS_TOKEN: metricsToken,
      LOOPLANE_WORKER_METRICS_PORT: String(workerMetricsPort),
      // A session held by the dead worker is taken over once its lease expires: seconds, not the default 30 s.
      LEASE_TTL_MS: '4000',
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_IDLE_MS: '2000',
    });
    await waitForOutput(running, /Looplane is running at http:\/\/localhost:\d+/, 330_000);
    const before = descendants(running.child.pid!);
    const worker = before.find((p) => p.cmdline.includes(workerBundle))!;
    // The web's server in front of Next (`apps/web/dist/server.mjs`).
    const web = before.find((p) => p.cmdline.includes(webServerBundle))!;
    expect(web).toBeDefined();
    expect(worker).toBeDefined();
    expect((await scrape(`http://127.0.0.1:${port}/metrics`)).match(/^looplane_process_restarts_total\{process="worker"\} (\d+)$/m)?.[1]).toBe('0');

    // A run of the ~10 s demo agent, a few steps in when its worker dies.
    const inFlight = follow('demo-steps', 'walk through the steps');
    await waitForOutput(inFlight, /Step 2 of/, 60_000);

    let healthFailures = 0;
    let watching = true;
    const watchHealth = (async () => {
      while (watching) {
        const status = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) healthFailures += 1;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    const killedAt = Date.now();
    process.kill(worker.pid, 'SIGKILL');
    await waitForOutput(running, /warning: worker was killed by SIGKILL unexpectedly; restarting it in 0\.5 s/, 5000);
    await waitForOutput(running, /Restarted the worker \(pid \d+; 1 restart so far\)/, 10_000);
    const quick = follow('demo', 'are you there?');
    expect(await quick.exited, quick.output()).toBe(0);
    expect(quick.output()).toMatch(/Run \S+ succeeded/);
    expect(Date.now() - killedAt).toBeLessThan(15_000);

    expect(await inFlight.exited, inFlight.output()).toBe(0);
    expect(inFlight.output()).toMatch(/Run \S+ succeeded/);
    watching = false;
    await watchHealth;
    expect(healthFailures).toBe(0);
    expect(processStartTime(web.pid)).toBe(web.startTime);

    const webMetrics = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(webMetrics).toContain('# TYPE looplane_process_restarts_total counter');
    expect(webMetrics).toMatch(/^looplane_process_restarts_total\{process="worker"\} 1$/m);
    expect(webMetrics).toMatch(/^looplane_process_restarts_total\{process="web"\} 0$/m);
    const workerMetrics = await scrape(`http://127.0.0.1:${workerMetricsPort}/metrics`);
    expect(workerMetrics).toMatch(/^looplane_process_restarts_total\{process="worker",worker="w_[0-9a-f]+"\} 1$/m);
    expect(JSON.parse(await readFile(join(home, 'supervisor.json'), 'utf8')).restarts).toEqual({ web: 0, worker: 1 });

    const after = descendants(running.child.pid!);
    expect(after.find((p) => p.cmdline.includes(workerBundle))!.pid).not.toBe(worker.pid);
    running.child.kill('SIGINT');
    expect(await running.exited).toBe(0);
    const survivors = [...before, ...after].filter((p: Proc) => processStartTime(p.pid) === p.startTime);
    expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(mentioning(home, port).map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
  }, 480_000);
});
