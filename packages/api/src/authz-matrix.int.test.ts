import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { roleAtLeast, ROLES, type Role } from '@looplane/shared';
import { crossTeamCases } from './authz-cross-team.cases';
import { authzMatrix, type Entry } from './authz-matrix.cases';
import { appRouter } from './root';
import { authzWorld } from './testing/authz-world';
import { callerAs, issueToken } from './testing/fixtures';
import type { Meta } from './trpc';

/**
 * The authorization matrix: every procedure of the router × every kind of caller. A procedure
 * without an entry (authz-matrix.cases.ts) fails the first test, so nothing ships unchecked.
 */
type Who = { kind: 'signedOut' } | { kind: 'outsider' } | { kind: 'member'; role: Role } | { kind: 'token'; role: Role };

const w = authzWorld();
const matrix = authzMatrix(w);
const crossTeam = crossTeamCases(w);

const callers: Who[] = [
  { kind: 'signedOut' },
  { kind: 'outsider' },
  ...ROLES.map((role) => ({ kind: 'member', role }) as const),
  ...ROLES.map((role) => ({ kind: 'token', role }) as const),
];

function label(who: Who): string {
  return who.kind === 'member' || who.kind === 'token' ? `${who.kind}:${who.role}` : who.kind;
}

function expectedAllowed(entry: Entry, who: Who): boolean {
  if (who.kind === 'signedOut') return entry.access === 'public';
  if (entry.access === 'public' || entry.access === 'authed') return !(entry.tokensDenied && who.kind === 'token');
  if (who.kind === 'outsider') return false;
  return roleAtLeast(who.role, entry.access);
}

function metaAccess(meta: Meta | undefined): Entry['access'] | undefined {
  if (!meta) return undefined;
  return meta.access.kind === 'team' ? meta.access.role : meta.access.kind;
}

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;

describe('authorization matrix', () => {
  it('has an entry for every procedure, matching its declared access', () => {
    expect(Object.keys(matrix).sort()).toEqual(Object.keys(procedures).sort());
    for (const [path, procedure] of Object.entries(procedures)) {
      expect(metaAccess(procedure._def.meta), path).toBe(matrix[path]?.access);
    }
  });

  for (const path of Object.keys(matrix)) {
    for (const who of callers) {
      const entry = matrix[path]!;
      const allowed = expectedAllowed(entry, who);
      it(`${path} as ${label(who)} is ${allowed ? 'allowed' : 'denied'}`, async () => {
        let auth: { userId?: string; bearer?: string } | null = null;
        let caller: { userId: string } | null = null;
        if (who.kind === 'outsider') auth = caller = { userId: w.fx.outsider.id };
        if (who.kind === 'member') auth = caller = { userId: w.fx.members[who.role].id };
        if (who.kind === 'token') {
          // A token of the given role, created by the admin: its role is what limits it.
          const token = await issueToken(w.db, w.fx.teamId, w.fx.members.admin.id, who.role);
          auth = { bearer: token.secret };
          caller = { userId: w.fx.members.admin.id };
        }
        const api = await callerAs(w.deps, auth);
        const input = await entry.input(w.fx, caller);
        const call = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api) as (input: unknown) => Promise<unknown>;
        const outcome = await call(input).then(
          () => 'ok',
          (error: unknown) => (error instanceof TRPCError ? error.code : `unexpected ${String(error)}`),
        );
        if (allowed) expect(outcome, `${path} as ${label(who)}`).toBe('ok');
        else expect(outcome).toBe(who.kind === 'signedOut' ? 'UNAUTHORIZED' : 'FORBIDDEN');
      });
    }
  }
});

describe('cross-team access', () => {
  it('a member of team A cannot read team B with team B’s id', async () => {
    const api = await callerAs(w.deps, { userId: w.fx.members.admin.id });
    await expect(api.teams.members({ teamId: w.fx.otherTeamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a token of team A is refused for team B even when its creator belongs to both', async () => {
    await w.db.membership.create({ data: { teamId: w.fx.otherTeamId, userId: w.fx.members.approver.id, role: 'admin' } });
    const token = await issueToken(w.db, w.fx.teamId, w.fx.members.approver.id, 'approver');
    const api = await callerAs(w.deps, { bearer: token.secret });
    await expect(api.tokens.list({ teamId: w.fx.otherTeamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(api.tokens.list({ teamId: w.fx.teamId })).resolves.toBeInstanceOf(Array);
  });
});

/** Ids that name a person or a caller-owned thing rather than a team resource. */
const NOT_RESOURCES = new Set(['teamId', 'userId', 'tokenId']);

describe('another team’s resources', () => {
  it('every procedure that takes a resource id has a cross-team case', async () => {
    const needed: string[] = [];
    for (const [path, entry] of Object.entries(matrix)) {
      const input = await entry.input(w.fx, { userId: w.fx.members.admin.id });
      const keys = input && typeof input === 'object' ? Object.keys(input) : [];
      if (keys.some((key) => key.endsWith('Id') && !NOT_RESOURCES.has(key))) needed.push(path);
    }
    expect(Object.keys(crossTeam).sort()).toEqual(needed.sort());
  });

  for (const [path, input] of Object.entries(crossTeam)) {
    it(`${path} with another team’s id is NOT_FOUND, and changes nothing there`, async () => {
      const api = await callerAs(w.deps, { userId: w.fx.members.admin.id });
      const call = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api) as (input: unknown) => Promise<unknown>;
      await expect(call(await input(w.fx))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  }

  it('the other team’s run and agent are untouched', async () => {
    const run = await w.db.run.findUniqueOrThrow({ where: { id: w.foreign.runId } });
    expect(run.cancelRequestedAt).toBeNull();
    expect(await w.db.inboxMessage.count({ where: { runId: w.foreign.runId } })).toBe(0);
    expect(await w.db.workspaceRestore.count({ where: { runId: w.foreign.runId } })).toBe(0);
    const agentRow = await w.db.agentTemplate.findUniqueOrThrow({ where: { id: w.foreign.agentId } });
    expect(agentRow.version).toBe(1);
    expect(w.live.errors).toEqual([]);
  });
});
