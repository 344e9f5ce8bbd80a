import { randomBytes } from 'node:crypto';
import { displayPrefix, generateApiToken, hashApiToken, hashPassword, type Db, type Prisma } from '@looplane/db';
import { ROLES, type Role } from '@looplane/shared';
import { appRouter } from '../root';
import { createCallerFactory } from '../trpc';
import { createTrpcContext, type ApiDeps } from '../context';
import type { SessionClaims } from '../auth/principal';
import { sessionClaimsFor } from '../auth/session-version';

export const TEST_PASSWORD = 'correct horse battery';

export interface TestUser {
  id: string;
  email: string;
}

export interface TeamFixture {
  teamId: string;
  otherTeamId: string;
  members: Record<Role, TestUser>;
  /** Admin of the other team only. */
  outsider: TestUser;
}

let passwordHash: string | null = null;

function unique(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/** Creates a user (with {@link TEST_PASSWORD}). */
export async function createUser(db: Db, label: string): Promise<TestUser> {
  passwordHash ??= await hashPassword(TEST_PASSWORD);
  const user = await db.user.create({ data: { email: `${unique(label)}@example.test`, passwordHash } });
  return { id: user.id, email: user.email };
}

/** Two teams: one with a member of every role, another whose admin is our outsider. */
export async function createTeamFixture(db: Db): Promise<TeamFixture> {
  const team = await db.team.create({ data: { slug: unique('team'), name: 'Team A' } });
  const otherTeam = await db.team.create({ data: { slug: unique('other'), name: 'Team B' } });
  const members = {} as Record<Role, TestUser>;
  for (const role of ROLES) {
    members[role] = await createUser(db, role);
    await db.membership.create({ data: { teamId: team.id, userId: members[role].id, role } });
  }
  const outsider = await createUser(db, 'outsider');
  await db.membership.create({ data: { teamId: otherTeam.id, userId: outsider.id, role: 'admin' } });
  return { teamId: team.id, otherTeamId: otherTeam.id, members, outsider };
}

/** Issues a token directly in the database (bypassing the API) for tests. */
export async function issueToken(db: Db, teamId: string, userId: string, role: Role): Promise<{ id: string; secret: string }> {
  const secret = generateApiToken();
  const row = await db.apiToken.create({
    data: { teamId, createdById: userId, name: unique('token'), role, tokenHash: hashApiToken(secret), prefix: displayPrefix(secret) },
  });
  return { id: row.id, secret };
}

const createCaller = createCallerFactory(appRouter);

/** The claims of a session cookie signed in just now by a user who never signed out (version 0), or null. */
export function sessionOf(userId: string | null): SessionClaims | null {
  return userId ? { userId, sessionVersion: 0 } : null;
}

/**
 * A server-side caller authenticated exactly as an HTTP request would be. A user's session is one
 * signed in just now (the user's current session version) unless `sessionVersion` says otherwise.
 */
export async function callerAs(deps: ApiDeps, auth: { userId?: string; sessionVersion?: number; bearer?: string } | null) {
  const userId = auth?.userId;
  const sessionVersion = userId ? (auth?.sessionVersion ?? (await sessionClaimsFor(deps.db, userId))?.sessionVersion ?? 0) : 0;
  const ctx = await createTrpcContext(deps, {
    session: userId ? { userId, sessionVersion } : null,
    authorization: auth?.bearer ? `Bearer ${auth.bearer}` : null,
    ip: '127.0.0.1',
  });
  return createCaller(ctx);
}

export interface AgentFixture {
  endpointId: string;
  agentId: string;
  agentName: string;
}

/** A faux endpoint and an agent on it with two slash commands (`/triage <report>`, `/standup`). */
export async function createAgentFixture(db: Db, teamId: string, overrides: Partial<Prisma.AgentTemplateUncheckedCreateInput> = {}): Promise<AgentFixture> {
  const endpoint = await db.modelEndpoint.create({
    data: {
      teamId,
      name: unique('faux'),
      kind: 'faux',
      model: 'faux-1',
      contextWindow: 32_000,
      maxOutputTokens: 1024,
      inputMicrosPerMTok: 100,
      outputMicrosPerMTok: 400,
    },
  });
  const agent = await db.agentTemplate.create({
    data: {
      teamId,
      name: unique('agent'),
      endpointId: endpoint.id,
      systemPrompt: 'You are a test agent.',
      tools: [{ name: 'echo', description: 'Echo the input', idempotent: true }],
      slashCommands: [
        { name: 'triage', description: 'Triage a report', goalTemplate: 'Triage this report: {{report}}', args: [{ name: 'report', required: true }] },
        { name: 'standup', goalTemplate: 'Summarise yesterday.' },
      ],
      ...overrides,
    },
  });
  return { endpointId: endpoint.id, agentId: agent.id, agentName: agent.name };
}

/**
 * Plays the worker: appends events to a session in one transaction, numbering them after the
 * run's `lastEventNo` (as the real append does), and returns their event numbers.
 */
export async function appendEvents(
  db: Db,
  runId: string,
  sessionId: string,
  events: Array<{ type: string; payload: Prisma.InputJsonValue }>,
): Promise<number[]> {
  const count = events.length;
  return db.$transaction(
    async (tx) => {
      const run = await tx.run.update({ where: { id: runId }, data: { lastEventNo: { increment: count } }, select: { lastEventNo: true } });
      const session = await tx.session.update({ where: { id: sessionId }, data: { lastSeq: { increment: count } }, select: { lastSeq: true } });
      const first = Number(run.lastEventNo) - count + 1;
      const firstSeq = session.lastSeq - count + 1;
      await tx.event.createMany({
        data: events.map((event, i) => ({ runId, sessionId, seq: firstSeq + i, eventNo: BigInt(first + i), type: event.type, payload: event.payload })),
      });
      return events.map((_, i) => first + i);
    },
    { timeout: 60_000 },
  );
}

/** {@link appendEvents} of `count` user messages (`event N`). */
export async function appendTestEvents(db: Db, runId: string, sessionId: string, count: number): Promise<number[]> {
  const numbers = Array.from({ length: count }, (_, i) => i);
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { lastEventNo: true } });
  const base = Number(run.lastEventNo) + 1;
  return appendEvents(
    db,
    runId,
    sessionId,
    numbers.map((i) => ({ type: 'message.added', payload: { role: 'user', text: `event ${base + i}` } })),
  );
}
