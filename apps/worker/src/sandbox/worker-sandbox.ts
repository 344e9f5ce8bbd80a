import type { SandboxLevelDriver } from '@looplane/shared';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EgressRecord, ToolArgs, ToolInvocation, ToolResult } from '@looplane/engine';
import {
  BwrapDriver,
  DangerousNoneDriver,
  GvisorDriver,
  MicrovmDriver,
  PodmanDriver,
  WorkspaceManager,
  createSandboxTools,
  probeDrivers,
  readHostCaps,
  type DriverName,
  type EffectGate,
  type DriverProbe,
  type HostCaps,
  type KeptCommit,
  type SandboxDriver,
  type SandboxLimitsInput,
  type SandboxTool,
  type WorkspaceOwners,
  type PodmanRuntime,
} from '@looplane/sandbox';
import type { Logger } from 'pino';
import type { FilesRestore, ToolContext } from '../tools/tool-registry';
import { WorkspaceUnavailableError } from '../sessions/workspace-unavailable';
import { isolationRefusal } from './isolation-refusal';
import { lookupAccount, untraversable } from './host-checks';
import { SessionEgressProxies } from './session-egress-proxies';
import { gateSandbox } from './sandbox-policy-gate';
import { chooseRung, levelsGiven, type Rung } from './sandbox-rungs';
import type { EgressSource } from './team-egress';
import type { SessionWorkspaces } from '../sessions/session-workspaces';
import type { EffectDecisions } from './effect-decisions';
import { createSeeder, deliveryDeps, type SeedingOptions } from '../repositories/create-seeder';
import type { DeliveryDeps } from '../delivery/delivery-tools';
import type { WorkspaceSeeder } from '../repositories/workspace-seeder';

export interface WorkerSandboxOptions {
  /** The driver tool calls run with unless they need a stronger one (LOOPLANE_SANDBOX_DRIVER). */
  driver: DriverName;
  /**
   * Drivers offered besides `driver` (LOOPLANE_SANDBOX_DRIVERS): a call whose template, graph node
   * or policy asks for a stronger isolation level runs on the weakest of them that meets it.
   * They must share `driver`'s workspace ownership (bwrap and gvisor do; podman offers alone).
   */
  offered?: DriverName[];
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
  /** podman's OCI runtime for calls whose template names none (LOOPLANE_PODMAN_RUNTIME; default runc). */
  podmanRuntime?: PodmanRuntime;
  /** How the microVM driver runs its guests (LOOPLANE_MICROVM_ACCEL): KVM where usable (`auto`, the default), or always `kvm` or `tcg`. */
  microvmAccel?: 'auto' | 'kvm' | 'tcg';
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

const DRIVERS: DriverName[] = ['bwrap', 'podman', 'gvisor', 'microvm', 'dangerous-none'];

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
  /** The sessions' egress proxies (one per session job that may use the network). */
  private readonly proxies: SessionEgressProxies;
  private everyProbe: Promise<DriverProbe[]> | null = null;
  /** Every offered driver with its tools and probe, the default first. */
  private readonly rungs: Rung[];
  /** podman drivers of the other OCI runtimes templates asked for, made on first use. */
  private readonly podmanRuntimes = new Map<PodmanRuntime, Rung>();

  private constructor(
    private readonly options: WorkerSandboxOptions,
    readonly driver: SandboxDriver,
    readonly workspaces: WorkspaceManager,
    /** The selected driver's probe. */
    readonly probe: DriverProbe,
    private readonly otherDrivers: () => SandboxDriver[],
    /** Why tool calls cannot run on this worker's default driver; null when it works. */
    readonly unavailable: string | null,
    /** The most one sandbox may hold on this host: every call's limits are lowered to it. */
    readonly hostCaps: HostCaps,
    offered: SandboxDriver[],
    /** A problem of the host that stops every driver (the workspace root); null when there is none. */
    private readonly setupProblem: string | null,
    /** Builds a podman driver with another OCI runtime (a template's `podmanRuntime`). */
    private readonly podmanWith: (runtime: PodmanRuntime) => SandboxDriver,
  ) {
    this.proxies = new SessionEgressProxies(options);
    this.offeredDrivers = offered;
    const toolsFor = (d: SandboxDriver) => createSandboxTools({ driver: d, workspaces, ...(options.limits ? { limits: options.limits } : {}) });
    this.tools = toolsFor(driver);
    this.rungs = [
      { name: options.driver, tools: new Map(this.tools.map((tool) => [tool.spec.name, tool])), probe: Promise.resolve(probe) },
      ...offered.map((extra) => {
        const tools = toolsFor(extra);
        return { name: extra.name, tools: new Map(tools.map((tool) => [tool.spec.name, tool])), probe: probeDrivers([extra]).then(([one]) => one!) };
      }),
    ];
    const egress = options.egress;
    const policy = egress ? (teamId: string) => egress.policy(teamId) : null;
    this.seeder = options.seeding ? createSeeder(options.seeding, workspaces, policy) : null;
    this.delivery = options.seeding ? deliveryDeps(options.seeding, workspaces, policy, (sessionId) => this.ensureWorkspace(sessionId)) : null;
  }

  private readonly offeredDrivers: SandboxDriver[];

  /** What the delivery tools (publish_branch, open_pull_request, export_patch) run with; null without `seeding`. */
  readonly delivery: DeliveryDeps | null;

  /** Seeds new sessions' workspaces; null on a worker started without `seeding`. */
  readonly seeder: WorkspaceSeeder | null;

  get selected(): DriverName {
    return this.options.driver;
  }

  /** Every driver this worker offers, its default first. */
  get offered(): DriverName[] {
    return this.rungs.map((rung) => rung.name);
  }

  /** The offered drivers that work on this host (the heartbeat and the overview's Workers card list them). */
  async workingDrivers(): Promise<DriverName[]> {
    if (this.setupProblem) return [];
    const probes = await Promise.all(this.rungs.map((rung) => rung.probe));
    return probes.filter((probe) => probe.available).map((probe) => probe.driver);
  }

  /** The isolation levels a call can get here: every level some working driver meets. */
  async isolationLevels(): Promise<SandboxLevelDriver[]> {
    return levelsGiven(await this.workingDrivers());
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
    const podmanWith = (runtime: PodmanRuntime) =>
      new PodmanDriver({ stateDir: join(stateDir, 'podman'), runtime, ...(root ? { user: options.podmanUser ?? 'looplane-podman' } : {}) });
    const make: Record<DriverName, () => SandboxDriver> = {
      // The driver holds the same caps: its cgroup parent gets them, and any execution is lowered to them.
      bwrap: () => options.drivers?.bwrap ?? new BwrapDriver({ stateDir: join(stateDir, 'bwrap'), hostCaps }),
      gvisor: () => options.drivers?.gvisor ?? new GvisorDriver({ stateDir: join(stateDir, 'gvisor'), hostCaps }),
      podman: () => options.drivers?.podman ?? podmanWith(options.podmanRuntime ?? 'runc'),
      microvm: () =>
        options.drivers?.microvm ??
        new MicrovmDriver({
          stateDir: join(stateDir, 'microvm'),
          hostCaps,
          accel: options.microvmAccel ?? 'auto',
          // Listed for Settings without being offered: checked without booting a guest (seconds of CPU under TCG).
          ...(options.driver === 'microvm' || options.offered?.includes('microvm') ? {} : { probeDepth: 'prerequisites' as const }),
        }),
      'dangerous-none': () =>
        options.drivers?.['dangerous-none'] ??
        // Choosing it in the worker's environment is the operator's (admin's) explicit decision; it still needs development.
        new DangerousNoneDriver({ environment: options.environment, adminEnabled: options.driver === 'dangerous-none' }),
    };
    const driver = make[options.driver]();
    const offered = (options.offered ?? []).filter((name) => name !== options.driver).map((name) => make[name]());
    const [mine] = await probeDrivers([driver]);
    if (!mine) throw new Error('no probe result');
    const unavailable =
      setupProblem ?? (mine.available ? null : `the ${options.driver} sandbox driver does not work on this host: ${mine.reason ?? 'unknown reason'}`);
    const persist = options.sessionWorkspaces?.persist;
    const workspaces = new WorkspaceManager({ root: options.workspaceRoot, ...(owners ? { owners } : {}), ...(persist ? { persist } : {}) });
    // The Settings page probes every driver; the offered ones are probed once, as the worker uses them.
    const others = () => DRIVERS.filter((name) => name !== options.driver).map((name) => offered.find((d) => d.name === name) ?? make[name]());
    const sandbox = new WorkerSandbox(options, driver, workspaces, mine, others, unavailable, hostCaps, offered, setupProblem, podmanWith);
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
    this.everyProbe ??= (async () => {
      const offered = new Map(await Promise.all(this.rungs.slice(1).map(async (rung) => [rung.name, await rung.probe] as const)));
      const rest = await probeDrivers(this.otherDrivers().filter((driver) => !offered.has(driver.name)));
      for (const probe of rest) this.options.logger.debug({ probe }, 'sandbox driver probed');
      const all = [this.probe, ...offered.values(), ...rest];
      return all.sort((a, b) => DRIVERS.indexOf(a.driver) - DRIVERS.indexOf(b.driver));
    })();
    return this.everyProbe;
  }

  /** Runs one built-in tool for a session; the ToolRegistry handler of every sandbox tool. */
  async run(tool: SandboxTool, args: ToolArgs, call: ToolInvocation, context: ToolContext): Promise<ToolResult> {
    if (this.setupProblem) return { ok: false, output: `not run: sandbox unavailable on this worker: ${this.setupProblem}` };
    context.signal?.throwIfAborted();
    // The team policy (its sandbox section, effect rules and egress), read per call against the
    // active version: a policy saved before this call binds it. One read serves the whole call.
    const policy = this.options.egress ? await this.options.egress.policy(context.teamId) : null;
    // The isolation the call needs (the template's or node's driver, the policy's minimum, its deciding rule's) picks the driver it runs on.
    const chosen = await chooseRung(this.rungs, {
      wanted: context.sandbox?.driver,
      policyMinimum: policy?.document.sandbox.minimumDriver,
      ...(call.isolation ? { rule: { minimum: call.isolation.level, ruleId: call.isolation.ruleId } } : {}),
      defaultUnavailable: this.unavailable,
    });
    if (!chosen.ok) return isolationRefusal(chosen, context.sandbox);
    const runtime = await this.podmanRuntimeFor(chosen.rung, context.sandbox?.podmanRuntime);
    if (!runtime.ok) return { ok: false, output: runtime.output };
    const { rung, probe } = runtime;
    const runTool = rung.tools.get(tool.spec.name) ?? tool;
    const runLimits = context.sandbox?.limits && Object.keys(context.sandbox.limits).length ? context.sandbox.limits : undefined;
    // Policy or not, the call's limits are lowered to the policy's maximums and the host's caps here, before the sandbox starts.
    const gate = gateSandbox({
      document: policy?.document ?? null,
      selected: rung.name,
      probe,
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
    const egress = await this.proxies.acquire(context, collector, policy?.document ?? null);
    try {
      const result = await runTool.run(args, {
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
      this.proxies.release(context.sessionId, collector);
    }
  }

  /**
   * A call that runs on podman with a template's own OCI runtime gets a podman driver of that
   * runtime (made and probed once); any other call keeps its rung.
   */
  private async podmanRuntimeFor(
    rung: Rung,
    wanted: PodmanRuntime | undefined,
  ): Promise<{ ok: true; rung: Rung; probe: DriverProbe } | { ok: false; output: string }> {
    if (rung.name !== 'podman' || !wanted || wanted === (this.options.podmanRuntime ?? 'runc')) return { ok: true, rung, probe: await rung.probe };
    let variant = this.podmanRuntimes.get(wanted);
    if (!variant) {
      const driver = this.podmanWith(wanted);
      const tools = createSandboxTools({ driver, workspaces: this.workspaces, ...(this.options.limits ? { limits: this.options.limits } : {}) });
      variant = { name: 'podman', tools: new Map(tools.map((tool) => [tool.spec.name, tool])), probe: probeDrivers([driver]).then(([one]) => one!) };
      this.podmanRuntimes.set(wanted, variant);
    }
    const probe = await variant.probe;
    if (!probe.available)
      return { ok: false, output: `not run: the agent's podman runtime ${wanted} does not work on this worker: ${probe.reason ?? 'unknown reason'}` };
    return { ok: true, rung: variant, probe };
  }

  /**
   * Puts a session's workspace at a held result an approver kept (restored from the store when
   * this host does not have it: the call may have run on another worker). Idempotent.
   */
  async applyHeld(sessionId: string, commit: string): Promise<void> {
    if (this.setupProblem) throw new Error(`sandbox unavailable on this worker: ${this.setupProblem}`);
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
    await this.proxies.stop(sessionId);
  }

  /** Stops every egress proxy and shuts the warm microVM guests down (worker shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.proxies.sessions().map((sessionId) => this.endSession(sessionId)));
    // Only the microVM keeps something running between calls; the other drivers' spare cgroups are swept at the next start.
    await Promise.all([this.driver, ...this.offeredDrivers].map((driver) => (driver instanceof MicrovmDriver ? driver.close() : undefined)));
  }

  /** Whether a job on this worker is using the session's workspace. */
  inUse(sessionId: string): boolean {
    return this.ready.has(sessionId);
  }

  /** Whether an egress proxy is running for the session (tests). */
  hasEgressProxy(sessionId: string): boolean {
    return this.proxies.has(sessionId);
  }

  /** Makes sure the session's workspace is here, at the commit its log last recorded (once per job). */
  private async ensureWorkspace(sessionId: string): Promise<void> {
    if (this.ready.has(sessionId)) return;
    const store = this.options.sessionWorkspaces;
    await (store ? store.prepare(this.workspaces, sessionId) : this.workspaces.create(sessionId));
    this.ready.add(sessionId);
    this.onPrepared?.(sessionId);
  }
}
