import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EgressRecord } from '@looplane/engine';
import type { PolicyDocument } from '@looplane/policy';
import { startEgressProxy, type EgressProxy } from '@looplane/sandbox';
import type { Logger } from 'pino';
import type { ToolContext } from '../tools/tool-registry';
import { planEgress, refusalFor, secretRefsFor, type EgressPlan } from './egress-plan';
import { egressRules } from './egress-rules';
import type { EgressSource } from './team-egress';

/** What the proxies are started with (the fields of the same names in `WorkerSandboxOptions`). */
export interface SessionEgressOptions {
  /** Where session workspaces live; the proxies' sockets go to `<root>/.sandbox/egress` when that path is short enough. */
  workspaceRoot: string;
  /** The team's active policy and secrets; without it no session gets a proxy. */
  egress?: EgressSource;
  /** PEM certificates the egress proxy trusts besides Node's roots. */
  egressTrustedCertificates?: string[];
  logger: Logger;
}

interface SessionEgress {
  /** The proxy, once started (per session job; null when the run allows no egress). */
  proxy: Promise<EgressProxy | null>;
  /** Decision buffers of the calls in flight; each decision goes to every one. */
  collectors: Set<EgressRecord[]>;
  /** A hash of the plan the proxy runs with: a changed policy or secret restarts it between calls. */
  fingerprint: string;
}

/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 100;

/**
 * The egress proxies of the sessions whose jobs run on this worker, one per session job. It exists
 * apart from `WorkerSandbox` because a proxy's life (started on a session's first call that may use
 * the network, replaced when the team's plan changes, stopped when the job ends) and the routing of
 * its decisions to the calls in flight are a concern of their own; the sandbox only asks for the
 * proxy of a call and hands back its decision buffer when the call is done.
 */
export class SessionEgressProxies {
  private readonly bySession = new Map<string, SessionEgress>();
  private socketDir: Promise<string> | null = null;

  constructor(private readonly options: SessionEgressOptions) {}

  /**
   * The session's egress proxy, started on first use with the plan from the team's policy and the
   * template (see {@link planEgress}), `document` being the policy this call was read under. A
   * changed plan (new policy version, secret changed) replaces the proxy before the call, once no
   * call of the session is using the old one. The proxy's decisions go to `collector` until
   * {@link release} is called with it.
   */
  async acquire(context: ToolContext, collector: EgressRecord[], document: PolicyDocument | null): Promise<EgressProxy | null> {
    const config = context.sandbox;
    const source = this.options.egress;
    // The template decides whether the agent has network at all; the policy decides where.
    if (config?.network !== 'egress' || !source || !document) return null;
    const secrets = await source.secrets(context.teamId, secretRefsFor(document, config.egressHosts));
    const plan = planEgress(document, config.egressHosts, secrets);
    const fingerprint = fingerprintOf(plan);
    let entry = this.bySession.get(context.sessionId);
    if (entry && entry.fingerprint !== fingerprint && entry.collectors.size === 0) {
      this.bySession.delete(context.sessionId);
      const old = await entry.proxy.catch(() => null);
      await old?.close().catch((error: unknown) => this.options.logger.warn({ err: error, sessionId: context.sessionId }, 'could not stop the egress proxy'));
      // Another call of the session may have started the new proxy meanwhile (same socket path): use it.
      entry = this.bySession.get(context.sessionId);
    }
    if (!entry) {
      const collectors = new Set<EgressRecord[]>();
      if (plan.ignored.length)
        this.options.logger.warn({ sessionId: context.sessionId, ignored: plan.ignored }, 'egress hosts ignored (not host or host:port)');
      // Only names and reasons are logged, never the plan's credential values.
      if (plan.refusals.length)
        this.options.logger.warn({ sessionId: context.sessionId, refusals: plan.refusals }, 'egress entries refused: their credential cannot be injected');
      // A proxy with refusals only still runs, so a refused request gets its 403 and its event.
      const proxy =
        plan.allow.length === 0 && plan.refusals.length === 0 ? Promise.resolve(null) : this.startProxy(context.sessionId, context.teamId, plan, collectors);
      entry = { proxy, collectors, fingerprint };
      // A proxy that failed to start fails this call (an infrastructure failure); the next call tries again.
      const started = entry;
      proxy.catch(() => {
        if (this.bySession.get(context.sessionId) === started) this.bySession.delete(context.sessionId);
      });
      this.bySession.set(context.sessionId, entry);
    }
    entry.collectors.add(collector);
    return entry.proxy;
  }

  /** The call that acquired the proxy with `collector` is done: its buffer gets no more decisions. */
  release(sessionId: string, collector: EgressRecord[]): void {
    this.bySession.get(sessionId)?.collectors.delete(collector);
  }

  /** Stops the session's proxy, if it has one (a later job starts a new one). */
  async stop(sessionId: string): Promise<void> {
    const entry = this.bySession.get(sessionId);
    if (!entry) return;
    this.bySession.delete(sessionId);
    const proxy = await entry.proxy.catch(() => null);
    await proxy?.close().catch((error: unknown) => this.options.logger.warn({ err: error, sessionId }, 'could not stop the egress proxy'));
  }

  /** The sessions that have a proxy (started or starting). */
  sessions(): string[] {
    return [...this.bySession.keys()];
  }

  /** Whether an egress proxy is running for the session. */
  has(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  private async startProxy(sessionId: string, teamId: string, plan: EgressPlan, collectors: Set<EgressRecord[]>): Promise<EgressProxy> {
    const dir = await this.egressDir();
    const name = createHash('sha256').update(sessionId).digest('hex').slice(0, 16);
    const source = this.options.egress;
    return startEgressProxy({
      socketPath: join(dir, `${name}.sock`),
      // The allowlist is the boundary; then the policy's rules decide each request from the
      // sandbox. The worker's own socket (http_request, MCP over HTTP) serves calls already decided.
      workerSocketPath: join(dir, `${name}.w.sock`),
      ...(source ? { decideRequest: egressRules(source, teamId) } : {}),
      policy: { allow: plan.allow, credentials: plan.credentials },
      ...(this.options.egressTrustedCertificates ? { trustedCertificates: this.options.egressTrustedCertificates } : {}),
      onDecision: (decision) => {
        // A host taken off the list for its credential is recorded with that reason, not as "not on the list".
        const refused = decision.allowed ? null : refusalFor(plan, decision.host, decision.port);
        const record: EgressRecord = {
          kind: decision.kind,
          method: decision.method,
          host: decision.host,
          port: decision.port,
          allowed: decision.allowed,
          reason: refused ? `refused: ${refused}` : decision.reason,
          injectedHeaders: decision.injectedHeaders,
        };
        for (const buffer of collectors) buffer.push(record);
        if (!decision.allowed) this.options.logger.info({ sessionId, host: decision.host, port: decision.port, reason: record.reason }, 'egress denied');
      },
    });
  }

  /** A directory for the proxies' sockets, traversable by sandbox uids, short enough for a socket path. */
  private egressDir(): Promise<string> {
    this.socketDir ??= (async () => {
      const preferred = join(this.options.workspaceRoot, '.sandbox', 'egress');
      const dir = preferred.length + 24 <= MAX_SOCKET_PATH ? preferred : await mkdtemp(join(tmpdir(), 'looplane-egress-'));
      await mkdir(dir, { recursive: true, mode: 0o711 });
      await chmod(dir, 0o711);
      return dir;
    })();
    return this.socketDir;
  }
}

/** A digest of what a proxy runs with (credential values included, so a rotated secret restarts it). */
function fingerprintOf(plan: EgressPlan): string {
  return createHash('sha256')
    .update(JSON.stringify([plan.allow, plan.credentials, plan.refusals]))
    .digest('hex');
}
