// The API's HTTP surface in a process of its own (like the web app), for the benchmarks in this
// folder: tRPC at /api/trpc, SSE at /api/runs/{id}/stream. Started by the bench scripts; prints
// `{"url": ...}` once listening; on SIGUSR2 prints `{"cpuMs": ...}` (CPU spent since), on SIGTERM the same and stops.
// Env: DATABASE_URL, BENCH_POOL_SIZE, QUEUE_PREFIX (the sessions queue of a worker the benchmark runs; a private one by default).
// With LOOPLANE_ENCRYPTION_KEY it also serves inbound triggers at /api/hooks/{id} (their secrets
// opened with that key), each trigger's rate limit in the test Redis under BENCH_TRIGGER_RATE_PREFIX.
import { TriggerRateLimiter } from '@looplane/api';
import { createDb, SecretBox } from '@looplane/db';
import { createTestLive, serveApi, testRedisUrl } from '@looplane/api/testing';
import { Redis } from 'ioredis';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const db = createDb(url, { poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10) });
const live = await createTestLive(process.env.QUEUE_PREFIX ? { prefix: process.env.QUEUE_PREFIX } : {});
const encryptionKey = process.env.LOOPLANE_ENCRYPTION_KEY;
const hookRedis = encryptionKey ? new Redis(testRedisUrl, { maxRetriesPerRequest: null }) : null;
const hooks = hookRedis ? { limiter: new TriggerRateLimiter(hookRedis, process.env.BENCH_TRIGGER_RATE_PREFIX ?? `looplane-bench:${process.pid}:`) } : undefined;
// No run-start limits: the benchmarks measure how fast the API creates runs, not the limit.
const server = await serveApi(
  { db, dispatch: live.dispatch, runLimits: { perMinute: 0, maxQueued: 0 }, secretBox: encryptionKey ? new SecretBox(encryptionKey) : null },
  { db, bus: live.bus },
  0,
  hooks,
);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
const cpuAtStart = process.cpuUsage();

// SIGUSR2: print the CPU spent so far, so a benchmark can count only its measured window.
process.on('SIGUSR2', () => {
  const cpu = process.cpuUsage(cpuAtStart);
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
});

process.once('SIGTERM', () => {
  void (async () => {
    const cpu = process.cpuUsage(cpuAtStart);
    // The CPU this process spent serving, for "CPU per event / per request" in the reports.
    process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
    await server.close();
    hookRedis?.disconnect();
    await live.close();
    await db.$disconnect();
    process.exit(0);
  })();
});
