// Every benchmark `npm run bench` runs, in order, with its arguments at the README's sizes and at
// `--quick`, and what the README's table calls it.
export interface Bench {
  name: string;
  /** What the README's table calls it. */
  title: string;
  script: string;
  full: string[];
  quick: string[];
}

export const BENCHES: Bench[] = [
  {
    name: 'step-overhead',
    title: 'durable step overhead, side by side with LangGraph JS',
    script: 'bench/compare/step-overhead.ts',
    full: [],
    quick: ['--quick'],
  },
  {
    name: 'density',
    title: 'density: N agents in one process, side by side with LangGraph JS',
    script: 'bench/compare/density.ts',
    full: [],
    quick: ['--sizes', '100', '--warmup', '10', '--repeat', '1'],
  },
  { name: 'sse-latency', title: 'live latency (SSE)', script: 'bench/sse/sse-latency.ts', full: [], quick: ['--quick'] },
  { name: 'api-throughput', title: 'API throughput (`runs.create`)', script: 'bench/sse/create-throughput.ts', full: [], quick: ['--quick'] },
  { name: 'sandbox-start', title: 'sandbox start', script: 'bench/sandbox/start-latency.ts', full: [], quick: ['--quick'] },
  { name: 'sandbox-demo', title: 'demo run per isolation level', script: 'bench/sandbox/demo-run.ts', full: [], quick: ['--quick'] },
  { name: 'engine-step', title: 'engine step, no IO', script: 'packages/engine/bench/step-overhead.ts', full: [], quick: ['--quick'] },
  { name: 'waiting-is-free', title: 'waiting is free', script: 'bench/waiting/waiting-is-free.ts', full: [], quick: ['--quick'] },
  { name: 'workspace-snapshots', title: 'workspace snapshot cost', script: 'bench/workspaces/snapshot-cost.ts', full: [], quick: ['--quick'] },
  // Starts runs from a 5,000-file repository through the real API, worker (bwrap) and git http-backend, beside a plain clone.
  {
    name: 'seeding-cost',
    title: 'seeding cost: a run from a repository, side by side with `git clone`',
    script: 'bench/seeding/seeding-cost.ts',
    full: [],
    quick: ['--quick'],
  },
  // 32 senders POST signed deliveries to an inbound trigger of the API server (its own process); each 202 is a new run.
  {
    name: 'trigger-throughput',
    title: 'inbound triggers: signed deliveries → run started (202)',
    script: 'bench/always-on/trigger-throughput.ts',
    full: [],
    quick: ['--quick'],
  },
  // 1,000 schedules every minute fired by one real worker (the bundle), 1 warm-up + 5 measured ticks: about 7 minutes.
  {
    name: 'schedule-lateness',
    title: 'schedule tick lateness: 1,000 schedules every minute',
    script: 'bench/always-on/schedule-lateness.ts',
    full: [],
    quick: ['--quick'],
  },
  // Starts the product (`looplane start`, which builds the dashboard first if it has no build) and opens the page in Chromium.
  { name: 'run-page', title: 'run page of a 10,000-event run (Chromium)', script: 'bench/web/run-page.ts', full: [], quick: ['--quick', '--events', '2000'] },
  // Exits 1 when out of its bounds (the last thousand turns within 1.2× of the first, memory flat, context bounded).
  { name: 'soak', title: 'soak: one session of 20,000 turns through the real worker', script: 'bench/soak/soak.ts', full: [], quick: ['--quick'] },
];
