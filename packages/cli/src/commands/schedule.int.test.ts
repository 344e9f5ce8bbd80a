import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerAs, issueToken, type AgentFixture, type ServedApi, type TeamFixture } from '@looplane/api/testing';
import type { TestDatabase } from '@looplane/testkit';
import { runCli } from '../cli';
import { Printer } from '../printer';
import { pointCliAt, startServedApi, type ServedApiFixture } from '../testing/served-api';

/** `looplane schedule …` against a real API over HTTP (Postgres, Redis), as an operator's token. */

let served: ServedApiFixture;
let db: TestDatabase;
let server: ServedApi;
let fx: TeamFixture;
let agent: AgentFixture;
let restoreEnv = () => {};

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (err += t) });
  const code = await runCli(argv, printer);
  return { code, out, err };
}
const scheduleNamed = (name: string) => db.db.schedule.findFirstOrThrow({ where: { teamId: fx.teamId, name } });

beforeAll(async () => {
  served = await startServedApi();
  ({ db, server, fx, agent } = served);
  const token = (await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
  restoreEnv = pointCliAt(server.url, token);
  const admin = await callerAs({ db: db.db, dispatch: served.live.dispatch }, { userId: fx.members.admin.id });
  await admin.policies.save({ teamId: fx.teamId, document: { version: 1, default: 'allow', workspace: { sources: ['https://git.example.test/**'] } } });
});
afterAll(async () => {
  restoreEnv();
  await served?.close();
});

describe('looplane schedule', () => {
  it('create takes every option of the schedule; the agent by name', async () => {
    const created = await cli(
      'schedule',
      'create',
      '--name',
      'inbox-sweep',
      '--agent',
      agent.agentName,
      '--every',
      '15m',
      '--goal',
      'Sweep the inbox at {{scheduledAt}}',
      '--timezone',
      'Europe/Berlin',
      '--overlap',
      'queue',
      '--catch-up',
      'none',
      '--pause-after',
      '3',
      '--max-tokens',
      '5000',
      '--repo',
      'https://git.example.test/acme/app.git',
      '--json',
    );
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    const body = JSON.parse(created.out) as { id: string; nextFireAt: string };
    const row = await scheduleNamed('inbox-sweep');
    expect(row).toMatchObject({
      id: body.id,
      agentId: agent.agentId,
      everySeconds: 900,
      cron: null,
      timezone: 'Europe/Berlin',
      goal: 'Sweep the inbox at {{scheduledAt}}',
      overlap: 'queue',
      catchUp: 'none',
      pauseAfterFailures: 3,
      enabled: true,
      budget: { tokens: 5000, onExceed: 'wait' },
      workspace: { git: { url: 'https://git.example.test/acme/app.git' } },
    });
    expect(row.nextFireAt!.getTime() % 900_000).toBe(0);

    const cron = await cli(
      'schedule',
      'create',
      '--name',
      'weekday-report',
      '--agent',
      agent.agentName,
      '--cron',
      '0 9 * * 1-5',
      '--goal',
      'Report',
      '--paused',
    );
    expect(cron.code).toBe(0);
    expect(cron.out).toMatch(/^Created schedule weekday-report \(\S+\): cron "0 9 \* \* 1-5" UTC, next run at paused\n$/);
    expect(await scheduleNamed('weekday-report')).toMatchObject({
      enabled: false,
      nextFireAt: null,
      overlap: 'skip',
      catchUp: 'latest',
      pauseAfterFailures: 5,
    });
  });

  it('create refuses wrong usage before asking the server (2) and shows the server’s refusals (1)', async () => {
    const before = await db.db.schedule.count();
    const usage: Array<[string[], RegExp]> = [
      [['--agent', agent.agentName, '--every', '60', '--goal', 'g'], /--name NAME is required/],
      [['--name', 'x', '--every', '60', '--goal', 'g'], /--agent NAME or --graph NAME is required/],
      [['--name', 'x', '--agent', agent.agentName, '--goal', 'g'], /--cron EXPRESSION or --every INTERVAL is required/],
      [['--name', 'x', '--agent', agent.agentName, '--every', '60', '--cron', '* * * * *', '--goal', 'g'], /give --cron or --every, not both/],
      [['--name', 'x', '--agent', agent.agentName, '--every', 'soon', '--goal', 'g'], /--every takes seconds/],
      [
        ['--name', 'x', '--agent', agent.agentName, '--every', '60', '--goal', 'g', '--overlap', 'maybe'],
        /--overlap must be one of skip, queue, cancel_previous/,
      ],
      [['--name', 'x', '--agent', agent.agentName, '--every', '60', '--goal', 'g', '--catch-up', 'all'], /--catch-up must be one of none, latest/],
      [['--name', 'x', '--agent', agent.agentName, '--every', '60', '--goal', 'g', '--archive', 'seed.tar'], /Unknown option '--archive'/],
    ];
    for (const [args, message] of usage) {
      const result = await cli('schedule', 'create', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err).toMatch(message);
    }
    const badCron = await cli('schedule', 'create', '--name', 'x', '--agent', agent.agentName, '--cron', '0 9 * *', '--goal', 'g');
    expect(badCron.code).toBe(1);
    expect(badCron.err).toMatch(/cron must have 5 fields/);
    const badZone = await cli('schedule', 'create', '--name', 'x', '--agent', agent.agentName, '--cron', '0 9 * * *', '--timezone', 'Mars/Base', '--goal', 'g');
    expect(badZone.code).toBe(1);
    expect(badZone.err).toMatch(/IANA time zone/);
    const nobody = await cli('schedule', 'create', '--name', 'x', '--agent', 'nobody', '--every', '60', '--goal', 'g');
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain(`no agent named "nobody"`);
    expect(nobody.err).toContain(agent.agentName);
    expect(await db.db.schedule.count()).toBe(before);
  });

  it('list, pause, resume, run-now and delete, by name or id', async () => {
    const list = await cli('schedule', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/ inbox-sweep {2}every 900s {2}next: \d{4}-/);
    expect(list.out).toMatch(/ weekday-report {2}cron "0 9 \* \* 1-5" UTC {2}next: paused/);
    const json = JSON.parse((await cli('schedule', 'list', '--json')).out) as Array<{ name: string }>;
    expect(json.map((s) => s.name)).toEqual(['inbox-sweep', 'weekday-report']);

    const paused = await cli('schedule', 'pause', 'inbox-sweep');
    expect(paused.out).toMatch(/^Paused schedule inbox-sweep \(\S+\): no further run starts\.\n$/);
    const row = await scheduleNamed('inbox-sweep');
    expect(row).toMatchObject({ enabled: false, nextFireAt: null });
    const resumed = await cli('schedule', 'resume', row.id);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toMatch(/^Resumed schedule inbox-sweep .*: next run at \d{4}-/);
    expect((await scheduleNamed('inbox-sweep')).enabled).toBe(true);

    const started = await cli('schedule', 'run-now', 'inbox-sweep');
    expect(started.code).toBe(0);
    const runId = /Started run (\S+):/.exec(started.out)![1]!;
    expect(await db.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ scheduleId: row.id, createdById: fx.members.operator.id });

    const deleted = await cli('schedule', 'delete', 'inbox-sweep');
    expect(deleted.out).toMatch(/^Deleted schedule inbox-sweep \(\S+\); the runs it made stay\.\n$/);
    expect(await db.db.schedule.count({ where: { id: row.id } })).toBe(0);
    const gone = await cli('schedule', 'pause', 'inbox-sweep');
    expect(gone.code).toBe(1);
    expect(gone.err).toContain('no schedule "inbox-sweep"');
    expect(gone.err).toContain('weekday-report');
    expect((await cli('schedule', 'pause')).code).toBe(2);
    expect((await cli('schedule', 'snooze', 'x')).code).toBe(2);
  });
});
