import { randomBytes } from 'node:crypto';
import { displayPrefix, generateApiToken, hashApiToken, hashPassword, type Db } from '@looplane/db';
import { ROLES, type Role } from '@looplane/shared';
import { appRouter } from '../root';
import { createCallerFactory } from '../trpc';
import { createTrpcContext } from '../context';

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

/** A server-side caller authenticated exactly as an HTTP request would be. */
export async function callerAs(db: Db, auth: { userId?: string; bearer?: string } | null) {
  const ctx = await createTrpcContext(
    { db },
    { sessionUserId: auth?.userId ?? null, authorization: auth?.bearer ? `Bearer ${auth.bearer}` : null, ip: '127.0.0.1' },
  );
  return createCaller(ctx);
}
