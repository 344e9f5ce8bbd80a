import type { PgBudgetLedger, PgEventStore, SessionContext, WriteUnit } from '@looplane/db';
import type { Clock, EnginePorts, ModelPort, PolicyPort, RunState } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { Logger } from 'pino';
import { withBreakers, type BreakerDeps } from '../breakers/session-breakers';
import { failingModel, type ModelFactory } from '../ports/model-factory';
import { sessionPorts } from '../ports/session-ports';
import type { SessionPolicy, TeamPolicies } from '../ports/team-policy';
import { teamSkills } from '../skills/team-skills';
import { withEdgeApprovals } from '../swarm/edge-policy';
import type { ToolRegistry } from '../tools/tool-registry';
import { replayRecording, replayTools } from './replay-recording';

/** What a session's engine ports are made of: the worker's factories and the job's own write path. */
export interface SessionEngineWiring {
  deps: { models: ModelFactory; policies: TeamPolicies; tools: ToolRegistry; clock: Clock; breakers: BreakerDeps };
  context: SessionContext;
  unit: WriteUnit;
  store: PgEventStore;
  budget: PgBudgetLedger;
  /** The session's folded state as it stands now (drive mutates it; null before the log is read). */
  state: () => RunState | null;
  /** The session's child logger (made lazily by the session run). */
  log: () => Logger;
}

/**
 * The engine's ports for one claimed session, built once per job on the first drive. It exists
 * apart from `SessionRun` because the wiring (the model gated by the team policy, the tool runner,
 * the policy chain team → edge approvals → breakers, skills, replay) is a concept of its own, while
 * `SessionRun` owns the claim-to-release loop. The same team policy port serves the engine and
 * the approval waits `SessionRun` resolves.
 */
export class SessionEnginePorts {
  private ports: EnginePorts | null = null;
  private teamPolicyPort: SessionPolicy | null = null;

  constructor(private readonly wiring: SessionEngineWiring) {}

  /** The ports the engine drives with; `state` is the state of the first drive (later drives reuse them). */
  forDrive(state: RunState): EnginePorts {
    if (this.ports) return this.ports;
    const { context, deps, unit } = this.wiring;
    let model: ModelPort;
    try {
      model = deps.models.forEndpoint(context.endpoint);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      model = failingModel('bad_request', error.message);
    }
    // The team policy may stop allowing the endpoint mid-run: checked before every model call.
    if (context.endpoint) model = deps.policies.gateModel(context.teamId, context.endpoint.name, model);
    const startedAt = state.startedAt ? Date.parse(state.startedAt) : (context.startedAt?.getTime() ?? deps.clock.now());
    const wallMs = typeof context.budget.wallMs === 'number' ? context.budget.wallMs : null;
    const runner = deps.tools.runnerFor({
      runId: context.runId,
      sessionId: context.sessionId,
      teamId: context.teamId,
      agentId: context.agentId,
      sandbox: state.config?.sandbox,
    });
    this.ports = sessionPorts({
      store: this.wiring.store,
      budget: this.wiring.budget,
      unit,
      model,
      tools: replayTools(state, () => unit.flush(), runner),
      policy: this.policyPort(),
      policyRecorded: (callId) => this.teamPolicy().recorded(callId),
      clock: deps.clock,
      deadline: wallMs === null ? null : startedAt + wallMs,
      // In a graph run every call is counted on the path's ledgers (edges have call limits of their own).
      limitCalls: context.graphRun ? (context.limitCalls ?? Number.MAX_SAFE_INTEGER) : context.limitCalls,
      limitedSpend: context.limitedSpend || context.graphRun,
      // The tool's own metadata (the sandbox tools say which are idempotent) wins over the catalogue.
      idempotent: (tool) => deps.tools.idempotent(tool) ?? state.config?.tools.some((t) => t.name === tool && t.idempotent) ?? false,
      skills: teamSkills({ pool: unit.reader, teamId: context.teamId, tools: runner, log: this.wiring.log() }),
    });
    if (state.replay) this.ports = { ...this.ports, replay: replayRecording(unit.reader, state.replay) };
    return this.ports;
  }

  /** The team's policy for this session (also what approval waits are resolved under). */
  teamPolicy(): SessionPolicy {
    const { context, deps, state, unit } = this.wiring;
    this.teamPolicyPort ??= deps.policies.portFor({
      // A decision's audit row commits with its policy.decided and tool.started.
      audit: { append: (entry) => unit.audit(entry), settle: () => unit.settleAudit() },
      runId: context.runId,
      sessionId: context.sessionId,
      teamId: context.teamId,
      agentId: context.agentId,
      // The engine appends a call's policy.decided right after the state's last event (drive mutates the state).
      nextSeq: () => {
        const current = state();
        return current ? current.lastSeq + 1 : null;
      },
    });
    return this.teamPolicyPort;
  }

  /** The team's policy; a graph node's adds its edges' approval rules (swarm/edge-policy.ts); then the breakers. */
  private policyPort(): PolicyPort {
    const team = this.teamPolicy();
    const { context, deps, unit } = this.wiring;
    const policy = context.graphRun ? withEdgeApprovals(team, context) : team;
    return withBreakers(policy, deps.breakers, {
      subject: { runId: context.runId, sessionId: context.sessionId, teamId: context.teamId, agentId: context.agentId },
      graphRun: context.graphRun,
      state: this.wiring.state,
      db: { query: (statement) => unit.checked(statement) },
      decidedUnder: (callId) => team.decidedUnder(callId),
    });
  }
}
