import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A running S3-compatible server for tests, on 127.0.0.1, with one empty bucket of its own. */
export interface TestS3Server {
  /** `http://127.0.0.1:<port>`; use path-style addressing (the S3 store does when an endpoint is set). */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stops the server and deletes its files; safe to call twice. */
  stop(): Promise<void>;
}

/** s3rver signs with this one built-in key pair (its models/account.js DUMMY_ACCOUNT). */
const ACCESS_KEY = 'S3RVER';
const START_TIMEOUT_MS = 30_000;

/**
 * Runs in the child: starts s3rver, prints its port, and exits when stdin closes, so a test
 * process that dies without calling stop() never leaves a server behind.
 */
const CHILD = `
const S3rver = require(process.argv[1]);
const server = new S3rver(JSON.parse(process.argv[2]));
server.run().then(
  (address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\\n'),
  (error) => { console.error(error && error.stack || error); process.exit(1); },
);
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
`;

/**
 * Starts s3rver (filesystem-backed, in a temp directory) on a free port of 127.0.0.1 and creates a
 * unique bucket. Only the access key id is checked: s3rver does not verify SigV4 signatures, so a
 * wrong secret goes unnoticed here (it would not on AWS or MinIO).
 *
 * s3rver runs in a child Node process with `--openssl-legacy-provider`: it makes ListObjectsV2
 * continuation tokens with DES, which OpenSSL 3 (Node 17+) refuses without that provider, so any
 * truncated listing would answer 500. A child also outlives a test that kills its own workers.
 */
export async function startTestS3Server(): Promise<TestS3Server> {
  const s3rverPath = createRequire(import.meta.url).resolve('s3rver');
  const directory = await mkdtemp(join(tmpdir(), 'looplane-s3rver-'));
  const bucket = `looplane-test-${randomBytes(6).toString('hex')}`;
  const options = {
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    // Path-style only: virtual-host buckets would need DNS names that resolve to 127.0.0.1.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  };
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD, s3rverPath, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const exited = once(child, 'exit');

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`s3rver did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout });
      lines.once('line', (line) => {
        clearTimeout(timer);
        lines.close();
        resolve((JSON.parse(line) as { port: number }).port);
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`s3rver exited before it started (code ${code}, signal ${signal})`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  // Once started, a forgotten stop() must not keep the test process alive.
  child.unref();
  child.stdout.destroy();
  (child.stdin as unknown as { unref?: () => void }).unref?.();

  let stopped: Promise<void> | null = null;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: ACCESS_KEY,
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.stdin.end();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(timer);
        }
        await rm(directory, { recursive: true, force: true });
      })()),
  };
}
