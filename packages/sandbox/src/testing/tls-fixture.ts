import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A key and a self-signed certificate (PEM) valid for 127.0.0.1 and localhost. */
export interface TestCertificate {
  key: string;
  cert: string;
}

/** Makes a fresh self-signed certificate with the system's openssl (P-256, one day). */
export async function selfSignedCertificate(): Promise<TestCertificate> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An HTTPS server on 127.0.0.1 (a random port) with that certificate. */
export async function startTlsServer(certificate: TestCertificate, handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(certificate, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
