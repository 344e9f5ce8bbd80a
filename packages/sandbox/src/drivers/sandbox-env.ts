// What every driver gives the sandboxed command: its environment and the in-sandbox end of the egress proxy.

/** Where the egress proxy socket appears inside, and the local port socat serves it on. */
export const EGRESS_SOCKET = '/run/egress.sock';
const EGRESS_PORT = 3128;

/**
 * The first process inside the sandbox. With egress it starts socat on 127.0.0.1 in the sandbox's
 * own network namespace, forwarding to the proxy socket, and waits until it listens (so the command
 * never races it; 0C38 is port 3128 in /proc/net/tcp, 0A is LISTEN). As a reaper (bwrap's PID 1)
 * it runs the command as its child and waits: a shell reaps orphans while it waits, and when it
 * exits the kernel kills the rest of the PID namespace. A background job's stdin would be
 * /dev/null, so stdin is passed through fd 3.
 */
export function entryScript(options: { egress: boolean; reaper: boolean }): string[] {
  const lines: string[] = [];
  if (options.egress) {
    lines.push(
      `socat TCP-LISTEN:${EGRESS_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${EGRESS_SOCKET} </dev/null >/dev/null 2>&1 &`,
      'i=0',
      `while ! grep -q ':0C38 00000000:0000 0A' /proc/net/tcp 2>/dev/null; do i=$((i+1)); [ "$i" -gt 400 ] && break; sleep 0.005; done`,
    );
  }
  lines.push(...(options.reaper ? ['exec 3<&0', '"$@" <&3 3<&- &', 'wait $!'] : ['exec "$@"']));
  return ['/bin/sh', '-c', lines.join('\n'), 'looplane-init'];
}

/** The environment every sandbox starts from (the worker's own environment never enters). */
export function baseEnv(egress: boolean): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: '/workspace',
    USER: 'sandbox',
    LOGNAME: 'sandbox',
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
  };
  if (egress) {
    const proxy = `http://127.0.0.1:${EGRESS_PORT}`;
    Object.assign(env, { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, ALL_PROXY: proxy });
  }
  return env;
}
