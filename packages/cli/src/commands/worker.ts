import { parseCommandArgs } from '../args';
import { EXIT, type Command } from '../command';
import { cliEnvOrReport } from '../env';
import { runWorker } from '../start/run-worker';

const usage = `Usage: looplane worker

Runs one worker in the foreground for an extra host: it joins the Looplane whose Postgres and
Redis it is given (no dashboard, no embedded Postgres or Redis) and serves runs of any session;
session files live in the workspace store, the local workspace directory is only a cache.
Installs bubblewrap, socat and git first when missing (as root with apt-get; otherwise prints
the command). Stops with an ordered shutdown on Ctrl-C / SIGTERM.

Environment:
  DATABASE_URL                 the Looplane's Postgres (required)
  REDIS_URL                    the Looplane's Redis (required)
  LOOPLANE_ENCRYPTION_KEY      the same key as the web app (opens model endpoint keys)
  QUEUE_PREFIX                 the same prefix as the web app, when it sets one
  LOOPLANE_WORKSPACE_STORE     postgres (default) or s3, as for every other process
  LOOPLANE_S3_ENDPOINT, LOOPLANE_S3_BUCKET, LOOPLANE_S3_PREFIX, LOOPLANE_S3_REGION,
  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY   the s3 store's settings
  LOOPLANE_WORKSPACE_CACHE_MB  cap of this host's local workspace cache (default 10240)
  LOOPLANE_HOME                this host's data directory (default ./.looplane)
  HOST                         interface of its metrics listener, when LOOPLANE_WORKER_METRICS_PORT
                               is set (default 127.0.0.1; 0.0.0.0 lets other machines scrape it)
  WORKER_CONCURRENCY, LOOPLANE_SANDBOX_DRIVER(S), LOOPLANE_PODMAN_RUNTIME, LOG_LEVEL   as for \`looplane start\``;

export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run one worker for an extra host, against DATABASE_URL and REDIS_URL',
  usage,
  async run({ args, printer }) {
    parseCommandArgs(args, {});
    const env = cliEnvOrReport(printer);
    if (!env) return EXIT.failure;
    return runWorker(env, printer);
  },
};
