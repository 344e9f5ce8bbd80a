import { isIPv6 } from 'node:net';

/** Where `looplane start` has the dashboard listen: HOST (default 127.0.0.1) and PORT. */
export interface ListenAddress {
  host: string;
  port: number;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function hostInUrl(host: string): string {
  return isIPv6(host) ? `[${host}]` : host;
}

/** The URL to open in a browser: `localhost` where that reaches the server (loopback or every interface), else HOST itself. */
export function browserUrl(address: ListenAddress): string {
  const host = WILDCARDS.has(address.host) || isLoopback(address.host) ? 'localhost' : hostInUrl(address.host);
  return `http://${host}:${address.port}`;
}

/** The URL this machine reaches the server at (health checks): 127.0.0.1 when it listens everywhere. */
export function localUrl(address: ListenAddress): string {
  const host = WILDCARDS.has(address.host) ? '127.0.0.1' : hostInUrl(address.host);
  return `http://${host}:${address.port}`;
}

/** The start banner's line about who can reach the dashboard, and how to change that. */
export function listenLine(address: ListenAddress): string {
  if (WILDCARDS.has(address.host)) {
    return `  listening on every interface (HOST=${address.host}): other machines open http://<this machine's address>:${address.port}`;
  }
  if (isLoopback(address.host)) {
    return `  listening on ${hostInUrl(address.host)}:${address.port} only (this machine); set HOST=0.0.0.0 to open it to other machines`;
  }
  return `  listening on ${hostInUrl(address.host)}:${address.port} only (HOST)`;
}
