import { request } from 'node:http';
import { z } from 'zod';
import { callLimits, type ToolDeps } from './context';
import { defineTool, throwIfCancelled, type SandboxTool } from './tool';

/**
 * http_request: sent by the worker through the run's egress proxy socket, in absolute form (also
 * for https, which the proxy originates over TLS), so the allowlist applies and the proxy can
 * inject the host's credentials. The tool has no other way out. It uses the proxy's worker socket
 * when there is one: the call itself was decided (and, if it needed one, approved) by the policy,
 * so the proxy does not decide its request again.
 */
export function httpTool(deps: ToolDeps): SandboxTool {
  return defineTool(
    {
      name: 'http_request',
      description:
        'Send an HTTP request through the egress proxy and return status, headers and body.\nOnly hosts allowed by policy are reachable; credentials for a host are added by the proxy, never pass them here.',
      idempotent: false,
    },
    z
      .object({
        url: z.url({ protocol: /^https?$/ }),
        method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).optional(),
        headers: z.record(z.string(), z.string()).optional(),
        body: z
          .string()
          .max(10 * 1024 * 1024)
          .optional(),
        max_bytes: z.int().min(1).optional().describe('Cut the response body after this many bytes'),
      })
      .strict(),
    async (args, call) => {
      const egress = call.egress;
      if (!egress) return { ok: false, output: 'this run has no network access (no egress proxy)' };
      const limits = callLimits(deps, call);
      const maxBytes = Math.min(args.max_bytes ?? limits.outputBytes, limits.outputBytes);
      const url = new URL(args.url);
      const response = await new Promise<{ status: number; headers: string; body: string; truncated: boolean }>((resolve, reject) => {
        const req = request({
          socketPath: egress.workerSocketPath ?? egress.socketPath,
          method: args.method ?? 'GET',
          path: url.href,
          headers: { ...args.headers, host: url.host },
          timeout: limits.wallTimeMs,
          ...(call.signal ? { signal: call.signal } : {}),
        });
        req.once('response', (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          res.on('data', (chunk: Buffer) => {
            if (size + chunk.length > maxBytes) {
              chunks.push(chunk.subarray(0, maxBytes - size));
              size = maxBytes;
              truncated = true;
              res.destroy();
              finish();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          const finish = () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: Object.entries(res.headers)
                .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
                .join('\n'),
              body: Buffer.concat(chunks).toString('utf8'),
              truncated,
            });
          res.once('end', finish);
          res.once('error', reject);
        });
        req.once('timeout', () => req.destroy(new Error(`no response within ${limits.wallTimeMs} ms`)));
        req.once('error', reject);
        req.end(args.body);
      }).catch((error: Error) => {
        throwIfCancelled(call.signal);
        return { status: 0, headers: '', body: error.message, truncated: false };
      });
      if (response.status === 0) return { ok: false, output: `request failed: ${response.body}` };
      const marker = response.truncated ? `\n[body truncated at ${maxBytes} bytes]` : '';
      return { ok: response.status < 400, output: `HTTP ${response.status}\n${response.headers}\n\n${response.body}${marker}` };
    },
  );
}
