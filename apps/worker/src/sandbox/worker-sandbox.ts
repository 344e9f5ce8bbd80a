import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EgressRecord, ToolArgs, ToolInvocation, ToolResult } from '@looplane/engine';
import {
  BwrapDriver,
  DangerousNoneDriver,
  PodmanDriver,
  WorkspaceManager,
  createSandboxTools,
  probeDrivers,
  readHostCaps,
  startEgressProxy,
  type DriverName,
  type EffectGate,
  type DriverProbe,
  type EgressProxy,
  type HostCaps,
  type KeptCommit,
  type SandboxDriver,
  type SandboxLimitsInput,
  type SandboxTool,
  type WorkspaceOwners,
} from '@looplane/sandbox';
import type { PolicyDocument } from '@looplane/policy';
import type { Logger } from 'pino';
import type { FilesRestore, ToolContext } from '../tools/tool-registry';
import { WorkspaceUnavailableError } from '../sessions/workspace-unavailable';
import { lookupAccount, untraversable } from './host-checks';
import { planEgress, refusalFor, secretRefsFor, type EgressPlan } from './egress-plan';
import { egressRules } from './egress-rules';
import { gateSandbox } from './sandbox-policy-gate';
import type { EgressSource } from './team-egress';
import type { SessionWorkspaces } from '../sessions/session-workspaces';
import type { EffectDecisions } from './effect-decisions';
import { createSeeder, deliveryDeps, type SeedingOptions } from '../repositories/create-seeder';
import type { DeliveryDeps } from '../delivery/delivery-tools';
import type { WorkspaceSeeder } from '../repositories/workspace-seeder';

export interface WorkerSandboxOptions {
  /** The driver tool calls run with (LOOPLANE_SANDBOX_DRIVER). */
  driver: DriverName;
  /** Where session workspaces live (LOOPLANE_WORKSPACE_ROOT); driver state goes to `<root>/.sandbox`. */
  workspaceRoot: string;
  /** The worker's environment name (NODE_ENV): dangerous-none runs only in `development`. */
  environment: string;
  /** Defaults for limits a run does not set (capped like a run's by the policy and the host). */
  limits?: SandboxLimitsInput;
  /** The most one sandbox may hold on this host (default: read at start, see `readHostCaps`). */
  hostCaps?: HostCaps;
  /** The account rootless podman runs as when the worker is root (default looplane-podman). */
  podmanUser?: string;
  /**
   * The store of record for session files (the worker passes a {@link SessionWorkspaces}): it puts
   * a session's workspace at its recorded commit before the job's first call and persists every
   * commit before the call returns. Without it workspaces are local only (tests of the sandbox).
   */
  sessionWorkspaces?: Pick<SessionWorkspaces, 'prepare' | 'persist' | 'forget' | 'applyCommit' | 'restore'>;
  /**
   * The policy's effect rules: each mutating call's result is decided before it is kept (held or
   * rolled back when a rule says so). Needs `egress` (the source of the team's policy).
   */
  effects?: EffectDecisions;
  /** Replaces a driver (tests). */
  drivers?: Partial<Record<DriverName, SandboxDriver>>;
  /**
   * The team's active policy and secrets (the worker passes a `TeamEgressSource`): the policy's
   * egress allowlist and credentials feed the proxy, its sandbox section gates every call.
   * Without it no run gets network and no policy sandbox rule applies.
   */
  egress?: EgressSource;
  /** PEM certificates the egress proxy trusts besides Node's roots (tests; production: NODE_EXTRA_CA_CERTS). */ egressTrustedCertificates?: string[];
  /** Starting new sessions from a repository, an upload or another session's files (`Run.workspace`). */
  seeding?: SeedingOptions;
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

const DRIVERS: DriverName[] = ['bwrap', 'podman', 'dangerous-none'];
const REAL_SANDBOXES = new Set<DriverName>(['bwrap', 'podman']);
/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 100;

/**
 * The worker's sandbox: the configured driver (probed at start), the session workspaces and the
 * built-in tools. A driver that does not work on this host never stops the worker: every call
 * then fails with `{ ok: false }` naming the reason, and nothing runs unsandboxed.
 *
 * Per call: the team policy's sandbox section is checked (minimum driver, limit maximums), the
 * run's limits apply over the worker's, all lowered to the policy's maximums and to this host's
 * caps (memory, CPUs), the session's workspace is created on first use (idempotent), and when
 * the template asks for network the session job gets an egress proxy on a unix socket whose
 * allowlist and credentials come from the team's policy (narrowed by the template, see
 * `egress-plan.ts`; stopped when the job ends, {@link endSession}); its decisions come back with
 * the call's result and are recorded as `egress.decided` events.
 */
export class WorkerSandbox {
  readonly tools: SandboxTool[];
  /** Sessions whose workspace is in use by a job on this worker (the cache never evicts them). */
  private readonly ready = new Set<string>();
  /** Told when a session's workspace comes into use and when its job ends (the local cache). */
  onPrepared: ((sessionId: string) => void) | null = null;
  onEnded: ((sessionId: string) => void) | null = null;
  private readonly egress = new Map<string, SessionEgress>();
  private socketDir: Promise<string> | null = null;
  private everyProbe: Promise<DriverProbe[]> | null = null;

  private constructor(
    private readonly options: WorkerSandboxOptions,
    readonly driver: SandboxDriver,
    readonly workspaces: WorkspaceManager,
    /** The selected driver's probe. */
    readonly probe: DriverProbe,
    private readonly otherDrivers: () => SandboxDriver[],
    /** Why tool calls cannot run on this worker; null when the selected driver works. */
    readonly unavailable: string | null,
    /** The most one sandbox may hold on this host: every call's limits are lowered to it. */
    readonly hostCaps: HostCaps,
  ) {
    this.tools = createSandboxTools({ driver, workspaces, ...(options.limits ? { limits: options.limits } : {}) });
    const egress = options.egress;
    const policy = egress ? (teamId: string) => egress.policy(teamId) : null;
    this.seeder = options.seeding ? createSeeder(options.seeding, workspaces, policy) : null;
    this.delivery = options.seeding ? deliveryDeps(options.seeding, workspaces, policy, (sessionId) => this.ensureWorkspace(sessionId)) : null;
  }

  /** What the delivery tools (publish_branch, open_pull_request, export_patch) run with; null without `seeding`. */
  readonly delivery: DeliveryDeps | null;

  /** Seeds new sessions' workspaces; null on a worker started without `seeding`. */
  readonly seeder: WorkspaceSeeder | null;

  get selected(): DriverName {
    return this.options.driver;
  }

  /** Builds the drivers, probes them and picks the configured one. Never throws for a driver that does not work. */
  static async start(options: WorkerSandboxOptions): Promise<WorkerSandbox> {
    const stateDir = join(options.workspaceRoot, '.sandbox');
    const root = process.getuid?.() === 0;
    let setupProblem: string | null = null;
    try {
      // 0711: sandbox uids traverse to their own workspace and to the driver's bound files, nothing more.
      await mkdir(options.workspaceRoot, { recursive: true, mode: 0o711 });
      await mkdir(stateDir, { recursive: true, mode: 0o711 });
      if (root) await chmod(options.workspaceRoot, 0o711);
    } catch (error) {
      setupProblem = `the workspace root ${options.workspaceRoot} cannot be created: ${(error as Error).message}`;
    }
    // Sandbox uids (root worker: one per session) must reach their work tree through every directory above it.
    if (root && !setupProblem) setupProblem = await untraversable(options.workspaceRoot);
    let owners: WorkspaceOwners | undefined;
    if (options.driver === 'podman' && root) {
      const user = options.podmanUser ?? 'looplane-podman';
      const account = await lookupAccount(user);
      if (account) owners = { kind: 'fixed', uid: account.uid, gid: account.gid };
      else setupProblem ??= `the podman account ${user} does not exist (see packages/sandbox/README.md, Host setup)`;
    }
    const hostCaps = options.hostCaps ?? (await readHostCaps());
    const make: Record<DriverName, () => SandboxDriver> = {
      // The driver holds the same caps: its cgroup parent gets them, and any execution is lowered to them.
      bwrap: () => options.drivers?.bwrap ?? new BwrapDriver({ stateDir: join(stateDir, 'bwrap'), hostCaps }),
      podman: () =>
        options.drivers?.podman ?? new PodmanDriver({ stateDir: join(stateDir, 'podman'), ...(root ? { user: options.podmanUser ?? 'looplane-podman' } : {}) }),
      'dangerous-none': () =>
        options.drivers?.['dangerous-none'] ??
        // Choosing it in the worker's environment is the operator's (admin's) explicit decision; it still needs development.
        new DangerousNoneDriver({ environment: options.environment, adminEnabled: options.driver === 'dangerous-none' }),
    };
    const driver = make[options.driver]();
    const [mine] = await probeDrivers([driver]);
    if (!mine) throw new Error('no probe result');
    const unavailable =
      setupProblem ?? (mine.available ? null : `the ${options.driver} sandbox driver does not work on this host: ${mine.reason ?? 'unknown reason'}`);
    const persist = options.sessionWorkspaces?.persist;
    const workspaces = new WorkspaceManager({ root: options.workspaceRoot, ...(owners ? { owners } : {}), ...(persist ? { persist } : {}) });
    const others = () => DRIVERS.filter((name) => name !== options.driver).map((name) => make[name]());
    const sandbox = new WorkerSandbox(options, driver, workspaces, mine, others, unavailable, hostCaps);
    if (unavailable)
      options.logger.error(
        { driver: options.driver, reason: unavailable },
        'sandbox unavailable: every sandboxed tool call will fail until the driver works (see Settings → Sandbox)',
      );
    else options.logger.info({ driver: options.driver, note: mine.reason, workspaceRoot: options.workspaceRoot, hostCaps }, 'sandbox ready');
    return sandbox;
  }

  /**
   * Every driver's probe, the selected one first (for the Settings page). The others are probed
   * on the first call, off the start path: a podman probe takes seconds.
   */
  allProbes(): Promise<DriverProbe[]> {
    this.everyProbe ??= probeDrivers(this.otherDrivers()).then((rest) => {
      for (const probe of rest) this.options.logger.debug({ probe }, 'sandbox driver probed');
      return [this.probe, ...rest];
    });
    return this.everyProbe;
  }

  /** Runs one built-in tool for a session; the ToolRegistry handler of every sandbox tool. */
  async run(tool: SandboxTool, args: ToolArgs, call: ToolInvocation, context: ToolContext): Promise<ToolResult> {
    if (this.unavailable) return { ok: false, output: `not run: sandbox unavailable on this worker: ${this.unavailable}` };
    const wanted = context.sandbox?.driver;
    if (wanted && REAL_SANDBOXES.has(wanted) && !REAL_SANDBOXES.has(this.selected)) {
      return { ok: false, output: `not run: the agent requires the ${wanted} sandbox, but this worker runs ${this.selected} (no isolation)` };
    }
    context.signal?.throwIfAborted();
    // The team policy (its sandbox section, effect rules and egress), read per call against the
    // active version: a policy saved before this call binds it. One read serves the whole call.
    const policy = this.options.egress ? await this.options.egress.policy(context.teamId) : null;
    const runLimits = context.sandbox?.limits && Object.keys(context.sandbox.limits).length ? context.sandbox.limits : undefined;
    // Policy or not, the call's limits are lowered to the policy's maximums and the host's caps here, before the sandbox starts.
    const gate = gateSandbox({
      document: policy?.document ?? null,
      selected: this.selected,
      probe: this.probe,
      workerLimits: this.options.limits,
      runLimits,
      host: this.hostCaps,
    });
    if (!gate.ok) return { ok: false, output: gate.output };
    const { limits } = gate;
    let effectGate: EffectGate | undefined;
    if (policy) {
      const subject = { runId: context.runId, sessionId: context.sessionId, teamId: context.teamId, agentId: context.agentId };
      effectGate = this.options.effects?.gateFor(policy.document, policy.versionId, subject, call);
    }
    // Throws WorkspaceUnavailableError when the session's files cannot be had: the session then fails with the reason.
    await this.ensureWorkspace(context.sessionId);
    const collector: EgressRecord[] = [];
    const egress = await this.egressFor(context, collector, policy?.document ?? null);
    try {
      const result = await tool.run(args, {
        sessionId: context.sessionId,
        callId: call.callId,
        ...(context.signal ? { signal: context.signal } : {}),
        limits,
        ...(egress ? { egress: { socketPath: egress.socketPath, ...(egress.workerSocketPath ? { workerSocketPath: egress.workerSocketPath } : {}) } } : {}),
        ...(effectGate ? { effectGate } : {}),
      });
      // No secret the proxy injects reaches an event or the model, whatever the tool read it from.
      return { ...result, output: egress ? egress.redactor.redactText(result.output) : result.output, ...(collector.length ? { egress: [...collector] } : {}) };
    } finally {
      this.egress.get(context.sessionId)?.collectors.delete(collector);
    }
  }

  /**
   * Puts a session's workspace at a held result an approver kept (restored from the store when
   * this host does not have it: the call may have run on another worker). Idempotent.
   */
  async applyHeld(sessionId: string, commit: string): Promise<void> {
    if (this.unavailable) throw new Error(`sandbox unavailable on this worker: ${this.unavailable}`);
    await this.ensureWorkspace(sessionId);
    const store = this.options.sessionWorkspaces;
    if (store) await store.applyCommit(this.workspaces, sessionId, commit);
    else await this.workspaces.restore(sessionId, commit);
  }

  /**
   * Puts a session's files back as they were at a commit of its run (`sessions.restore`): the
   * workspace is first where its log says, then the restore is a new commit on it, stored before
   * it is returned. Needs no sandbox driver (no process runs), only the workspaces.
   */
  async restoreFiles(restore: FilesRestore): Promise<KeptCommit> {
    await this.ensureWorkspace(restore.sessionId);
    const input = { source: restore.source, paths: restore.paths, message: restore.message };
    const store = this.options.sessionWorkspaces;
    if (store) return store.restore(this.workspaces, restore.sessionId, input);
    return this.workspaces.restoreFrom(restore.sessionId, input, async () => {
      throw new WorkspaceUnavailableError(`commit ${restore.source} is not on this host and this worker has no workspace store`);
    });
  }

  /** The session's job ended: stop its egress proxy (a later job starts a new one). */
  async endSession(sessionId: string): Promise<void> {
    // The next job checks the workspace again (cheap), so this set stays as small as the active sessions.
    this.ready.delete(sessionId);
    this.options.sessionWorkspaces?.forget(sessionId);
    this.onEnded?.(sessionId);
    const entry = this.egress.get(sessionId);
    if (!entry) return;
    this.egress.delete(sessionId);
    const proxy = await entry.proxy.catch(() => null);
    await proxy?.close().catch((error: unknown) => this.options.logger.warn({ err: error, sessionId }, 'could not stop the egress proxy'));
  }

  /** Stops every egress proxy (worker shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.egress.keys()].map((sessionId) => this.endSession(sessionId)));
  }

  /** Whether a job on this worker is using the session's workspace. */
  inUse(sessionId: string): boolean {
    return this.ready.has(sessionId);
  }

  /** Whether an egress proxy is running for the session (tests). */
  hasEgressProxy(sessionId: string): boolean {
    return this.egress.has(sessionId);
  }

  /** Makes sure the session's workspace is here, at the commit its log last recorded (once per job). */
  private async ensureWorkspace(sessionId: string): Promise<void> {
    if (this.ready.has(sessionId)) return;
    const store = this.options.sessionWorkspaces;
    await (store ? store.prepare(this.workspaces, sessionId) : this.workspaces.create(sessionId));
    this.ready.add(sessionId);
    this.onPrepared?.(sessionId);
  }

  /**
   * The session's egress proxy, started on first use with the plan from the team's policy and the
   * template (see {@link planEgress}), `document` being the policy this call was read under. A
   * changed plan (new policy version, secret changed) replaces the proxy before the call, once no
   * call of the session is using the old one.
   */
  private async egressFor(context: ToolContext, collector: EgressRecord[], document: PolicyDocument | null): Promise<EgressProxy | null> {
    const config = context.sandbox;
    const source = this.options.egress;
    // The template decides whether the agent has network at all; the policy decides where.
    if (config?.network !== 'egress' || !source || !document) return null;
    const secrets = await source.secrets(context.teamId, secretRefsFor(document, config.egressHosts));
    const plan = planEgress(document, config.egressHosts, secrets);
    const fingerprint = fingerprintOf(plan);
    let entry = this.egress.get(context.sessionId);
    if (entry && entry.fingerprint !== fingerprint && entry.collectors.size === 0) {
      this.egress.delete(context.sessionId);
      const old = await entry.proxy.catch(() => null);
      await old?.close().catch((error: unknown) => this.options.logger.warn({ err: error, sessionId: context.sessionId }, 'could not stop the egress proxy'));
      // Another call of the session may have started the new proxy meanwhile (same socket path): use it.
      entry = this.egress.get(context.sessionId);
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
        if (this.egress.get(context.sessionId) === started) this.egress.delete(context.sessionId);
      });
      this.egress.set(context.sessionId, entry);
    }
    entry.collectors.add(collector);
    return entry.proxy;
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
