import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsResponse } from '@looplane/telemetry';
import type { Logger } from 'pino';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's `/metrics` listener (Prometheus text), bearer-protected by LOOPLANE_METRICS_TOKEN.
 * Anything but GET /metrics is 404; a failed scrape is a 500 whose reason stays in the log.
 */
export async function startMetricsServer(options: {
  port: number;
  host?: string;
  token: string;
  render: () => Promise<{ body: string; contentType: string }>;
  logger: Logger;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsResponse(req.headers.authorization, options.token, options.render).then(
      (answer) => res.writeHead(answer.status, answer.headers).end(answer.body),
      (error: unknown) => {
        options.logger.warn({ err: error }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
