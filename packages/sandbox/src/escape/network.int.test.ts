// Escape suite, network: local services, DNS, raw sockets, the outside world, and the egress
// proxy as the only way out (with credentials injected outside the sandbox).
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEgressProxy, type EgressDecision, type EgressProxy } from '../egress/egress-proxy';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { describeEachDriver } from '../testing/escape-drivers';

describeEachDriver((kind) => {
  const CREDENTIAL = 'Bearer FAKE-GIT-TOKEN-51c2';
  let f: SandboxFixture;
  let listener: Server;
  let listenerPort: number;
  let upstream: HttpServer;
  let upstreamPort: number;
  let seenAuth: string | undefined;
  let proxy: EgressProxy;
  const decisions: EgressDecision[] = [];

  /** bash's /dev/tcp: exit 0 only if a TCP connection was made. */
  const tcp = (port: number, host = '127.0.0.1') =>
    `timeout 3 bash -c 'exec 3<>/dev/tcp/${host}/${port}' 2>/dev/null && echo "OPEN ${port}" || echo "CLOSED ${port}"`;

  beforeAll(async () => {
    f = await sandboxFixture({ kind });
    // A real listener on the host's loopback: the attack would succeed if the sandbox shared the network.
    listener = createServer((s) => s.end('host service\n'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerPort = (listener.address() as AddressInfo).port;
    upstream = createHttpServer((req, res) => {
      seenAuth = req.headers.authorization;
      res.end('upstream ok\n');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    proxy = await startEgressProxy({
      socketPath: join(f.dir, 'egress.sock'),
      // A plain-HTTP upstream: the credential entry says `insecure` (otherwise it goes over TLS only).
      policy: { allow: [`127.0.0.1:${upstreamPort}`], credentials: [{ host: '127.0.0.1', headers: { Authorization: CREDENTIAL }, insecure: true }] },
      onDecision: (d) => decisions.push(d),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => listener.close(resolve));
    await new Promise((resolve) => upstream.close(resolve));
    await f.close();
  });

  describe('escape: network', () => {
    it('connecting to Postgres on 127.0.0.1:5432 (and to a live host listener) fails', async () => {
      const r = await f.sh(`${tcp(5432)}; ${tcp(listenerPort)}`);
      expect(r.stdout).toBe(`CLOSED 5432\nCLOSED ${listenerPort}\n`);
    });

    it('connecting to Redis on 127.0.0.1:6379 fails', async () => {
      const r = await f.sh(`${tcp(6379)}; redis-cli -h 127.0.0.1 ping 2>&1 | head -1`);
      expect(r.stdout).toMatch(/^CLOSED 6379\n/);
      expect(r.stdout).not.toContain('PONG');
    });

    it('DNS resolution fails: no resolver configuration and no route to one', async () => {
      const r = await f.sh(`getent hosts example.com || echo unresolved; cat /etc/resolv.conf 2>&1; ${tcp(53, '8.8.8.8')}`);
      expect(r.stdout).toMatch(/^unresolved\n/);
      expect(r.stdout).toMatch(/CLOSED 53/);
    });

    it('raw and packet sockets cannot be opened', async () => {
      const r = await f.sh(
        `perl -e 'use Socket; socket(my $s, PF_INET, SOCK_RAW, 1) ? print "RAW OPEN\\n" : print "raw: $!\\n"; socket(my $p, 17, SOCK_RAW, 0) ? print "PACKET OPEN\\n" : print "packet: $!\\n"'`,
      );
      expect(r.stdout).toMatch(/raw: Operation not permitted/);
      expect(r.stdout).toMatch(/packet: Operation not permitted/);
    });

    it('the only interface is loopback, so the outside world is unreachable', async () => {
      const r = await f.sh(`ls /sys/class/net 2>/dev/null || cat /proc/net/dev | tail -n +3 | cut -d: -f1; ${tcp(443, '1.1.1.1')}`);
      expect(r.stdout.trim().split(/\s+/)).toEqual(['lo', 'CLOSED', '443']);
    });

    it('with egress: an allowed host passes the proxy, which injects the credential the sandbox never sees', async () => {
      seenAuth = undefined;
      const r = await f.sh(
        `curl -sS http://127.0.0.1:${upstreamPort}/repo.git; env | grep -ci token; grep -rs FAKE-GIT-TOKEN / --exclude-dir=proc --exclude-dir=usr; true`,
        {},
        { egress: { socketPath: proxy.socketPath } },
      );
      expect(r.stdout).toBe('upstream ok\n0\n');
      expect(seenAuth).toBe(CREDENTIAL);
      expect(decisions.at(-1)).toMatchObject({ kind: 'http', host: '127.0.0.1', port: upstreamPort, allowed: true, injectedHeaders: ['Authorization'] });
      expect(JSON.stringify(decisions)).not.toContain('FAKE-GIT-TOKEN');
    });

    it('with egress: hosts off the allowlist get 403 (recorded), and bypassing the proxy reaches nothing', async () => {
      const r = await f.sh(
        `curl -s -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:${listenerPort}/; curl -s https://example.com/ -o /dev/null -w '%{http_connect}\\n'; curl -s --noproxy '*' -m 3 http://127.0.0.1:${upstreamPort}/ || echo bypass-failed`,
        {},
        { egress: { socketPath: proxy.socketPath } },
      );
      expect(r.stdout).toBe('403\n403\nbypass-failed\n');
      expect(decisions.filter((d) => !d.allowed).map((d) => `${d.kind} ${d.host}:${d.port}`)).toEqual(
        expect.arrayContaining([`http 127.0.0.1:${listenerPort}`, 'connect example.com:443']),
      );
    });
  });
});
