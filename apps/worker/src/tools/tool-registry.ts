import type { WorkspaceSeeder } from '../repositories/workspace-seeder';
import type { RunSandbox, ToolArgs, ToolInvocation, ToolResult, ToolRunner } from '@looplane/engine';
import { AppError, type SandboxLevelDriver } from '@looplane/shared';

/** Where a tool call runs: the session it belongs to, and the signal that cancels it. */
export interface ToolContext {
  runId: string;
  sessionId: string;
  teamId: string;
  agentId: string | null;
  /** The run config's sandbox section (network, egress hosts, limits); undefined: no network, worker defaults. */
  sandbox?: RunSandbox | undefined;
  /** Aborted on cancel, interrupt or a hard shutdown: the tool must stop and kill its process tree. */
  signal: AbortSignal | undefined;
}

/**
 * A tool implementation. Return `{ ok: false }` for a failure the model should see; throw only when
 * the infrastructure failed (the engine then treats the call as interrupted on the next drive).
 */
export type ToolHandler = (args: ToolArgs, call: ToolInvocation, context: ToolContext) => Promise<ToolResult>;

/** What the runtime needs to know about a tool besides how to run it. */
export interface ToolMetadata {
  /** Safe to run twice (a crash between start and finish re-runs it); overrides the run catalogue's flag. */
  idempotent?: boolean;
}

/** The session whose job ended: `graphRun` says whether it belongs to a swarm graph run. */
export interface EndedSession {
  sessionId: string;
  graphRun: boolean;
}

/** A held call an approver kept, and the commit of its result. */
type HeldCall = ToolInvocation & { commit: string };

/** Applies a held result to the session's workspace. */
export type HeldApplier = (call: HeldCall, context: ToolContext) => Promise<void>;

/** What a restore (`sessions.restore`) puts back: files as they were at `source` (null: none), all or `paths`. */
export interface FilesRestore {
  sessionId: string;
  source: string | null;
  paths: readonly string[] | null;
  message: string;
}

/** Puts a session's files back and returns the commit made of it (stored before it is returned). */
export type FilesRestorer = (restore: FilesRestore) => Promise<{ commit: string; changed: boolean }>;

/** Called when a session's job on this worker ends (finished, waiting, handed off or lost). */
export type SessionEndHook = (session: EndedSession) => Promise<void> | void;

/**
 * The worker's tools, keyed by name. Which tools a run may call is the run config's catalogue
 * (`run.started`); this registry is what this worker can execute. Tools plug in with one
 * `register` call each (the sandbox tools register in `registerBuiltinTools`).
 */
export class ToolRegistry {
  private readonly handlers = new Map<string, ToolHandler>();
  private readonly metadata = new Map<string, ToolMetadata>();
  private readonly endHooks: SessionEndHook[] = [];
  private heldApplier: HeldApplier | null = null;
  private restorer: FilesRestorer | null = null;
  private seeder: WorkspaceSeeder | null = null;
  private levels: () => Promise<readonly SandboxLevelDriver[]> = async () => [];

  /** Adds a tool; a name can be registered once. */
  register(name: string, handler: ToolHandler, metadata: ToolMetadata = {}): this {
    if (this.handlers.has(name)) throw new AppError('INTERNAL', `tool ${name} is registered twice`);
    this.handlers.set(name, handler);
    this.metadata.set(name, metadata);
    return this;
  }

  /** Names of the registered tools, sorted. */
  names(): string[] {
    return [...this.handlers.keys()].sort();
  }

  /** Whether a registered tool says it is idempotent; undefined when it does not say (or is not registered). */
  idempotent(name: string): boolean | undefined {
    return this.metadata.get(name)?.idempotent;
  }

  /** Sets what puts a session's workspace at a held result an approver kept (the sandbox). */
  applyHeldWith(applier: HeldApplier): this {
    this.heldApplier = applier;
    return this;
  }

  /** Sets what puts a session's files back as they were at an earlier event (the sandbox's workspaces). */
  restoreFilesWith(restorer: FilesRestorer): this {
    this.restorer = restorer;
    return this;
  }

  /** What restores a session's files; null on a worker without workspaces (a restore is then refused with that reason). */
  filesRestorer(): FilesRestorer | null {
    return this.restorer;
  }

  /** Sets what gives a new session the files its run names (a repository, an upload, another session's). */
  seedWorkspacesWith(seeder: WorkspaceSeeder): this {
    this.seeder = seeder;
    return this;
  }

  /** What seeds workspaces; null on a worker without (a run that names files then fails, saying so). */
  workspaceSeeder(): WorkspaceSeeder | null {
    return this.seeder;
  }

  /** Sets what tells the isolation levels this worker's working drivers give (the sandbox). */
  offerIsolationWith(levels: () => Promise<readonly SandboxLevelDriver[]>): this {
    this.levels = levels;
    return this;
  }

  /** The isolation levels a call can get on this worker (none without a sandbox): a run waiting for one of them continues here. */
  isolationLevels(): Promise<readonly SandboxLevelDriver[]> {
    return this.levels();
  }

  /** Runs `hook` whenever a session's job ends on this worker (e.g. to stop the run's egress proxy). */
  onSessionEnd(hook: SessionEndHook): this {
    this.endHooks.push(hook);
    return this;
  }

  /** The runtime calls this when a session's job ends; hook failures are swallowed (they must not fail the job). */
  async sessionEnded(session: EndedSession): Promise<void> {
    for (const hook of this.endHooks) {
      try {
        await hook(session);
      } catch {
        // The hooks log their own failures.
      }
    }
  }

  /** The engine's tool port for one session. */
  runnerFor(context: Omit<ToolContext, 'signal'>): ToolRunner {
    const applier = this.heldApplier;
    return {
      ...(applier ? { applyHeld: (call: HeldCall, options?: { signal?: AbortSignal }) => applier(call, { ...context, signal: options?.signal }) } : {}),
      run: async (call, options) => {
        const handler = this.handlers.get(call.name);
        if (!handler) return { ok: false, output: `no tool named ${call.name} is installed on this worker` };
        options?.signal?.throwIfAborted();
        return handler(call.args, call, { ...context, signal: options?.signal });
      },
    };
  }
}
