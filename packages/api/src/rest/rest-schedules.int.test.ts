import { describe, expect, it } from 'vitest';
import { fireDueSchedules } from '../services/schedule-fire.service';
import { dbFingerprints } from '../testing/db-fingerprint';
import { problemOf } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { schedule, scheduleDeleted, scheduleDetail, scheduleList, scheduleRunStarted } from './schemas/schedules.schemas';

/**
 * `/api/v1/schedules` over real HTTP: the whole life of a schedule (create, read with its ticks,
 * change, pause, resume, run now, delete), each body checked against the documented schema, and
 * the refusals of the schedule's own rules (which target, which timing, which zone) with the
 * field named and nothing written.
 */
const rest = restTestbed({ deps: { runLimits: { perMinute: 0, maxQueued: 0 } } });

let seq = 0;
const name = () => `rest-schedule-${++seq}`;

describe('REST schedules', () => {
  it('create, list, get with its ticks, change, pause, resume, run now and delete', async () => {
    const operator = rest.as('operator');
    const agentId = rest.tb.agent.agentId;
    const created = await operator.ok('createSchedule', schedule, {
      body: { name: 'hourly-report', agentId, cron: '0 * * * *', timezone: 'Europe/Berlin', goal: 'Report at {{scheduledAt}}', budget: { tokens: 5000 } },
    });
    expect(created).toMatchObject({ name: 'hourly-report', agentId, graphId: null, everySeconds: null, overlap: 'skip', catchUp: 'latest', enabled: true });
    expect(created.budget).toEqual({ tokens: 5000, onExceed: 'wait' });
    expect(Date.parse(created.nextFireAt!)).toBeGreaterThan(Date.now());
    const scheduleId = created.id;

    const viewer = rest.as('viewer');
    expect((await viewer.ok('listSchedules', scheduleList)).map((s) => s.id)).toContain(scheduleId);

    // A tick fired by the scheduler shows on the schedule, with its run's status.
    const tick = new Date(created.nextFireAt!);
    await fireDueSchedules({ ...rest.tb.deps, clock: { now: () => tick.getTime() + 5 } });
    const detail = await viewer.ok('getSchedule', scheduleDetail, { params: { scheduleId }, query: { ticks: 5 } });
    expect(detail.ticks).toHaveLength(1);
    expect(detail.ticks[0]).toMatchObject({ scheduledAt: tick.toISOString(), outcome: 'started', runStatus: 'queued' });
    expect((await rest.tb.db.run.findUniqueOrThrow({ where: { id: detail.ticks[0]!.runId! } })).goal).toBe(`Report at ${tick.toISOString()}`);

    const changed = await operator.ok('updateSchedule', schedule, { params: { scheduleId }, body: { cron: null, everySeconds: 600, overlap: 'queue' } });
    expect(changed).toMatchObject({ cron: null, everySeconds: 600, overlap: 'queue' });
    expect(Date.parse(changed.nextFireAt!) % 600_000).toBe(0);

    expect(await operator.ok('pauseSchedule', schedule, { params: { scheduleId } })).toMatchObject({ enabled: false, nextFireAt: null });
    const resumed = await operator.ok('resumeSchedule', schedule, { params: { scheduleId } });
    expect(resumed.enabled).toBe(true);
    expect(resumed.nextFireAt).not.toBeNull();

    const { runId } = await operator.ok('runScheduleNow', scheduleRunStarted, { params: { scheduleId } });
    const run = await rest.tb.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ scheduleId, createdById: rest.tb.fx.members.operator.id });

    expect(await operator.ok('deleteSchedule', scheduleDeleted, { params: { scheduleId } })).toEqual({ id: scheduleId, deleted: true });
    problemOf(await viewer.call('getSchedule', { params: { scheduleId } }), 404, 'NOT_FOUND');
    expect((await rest.tb.db.run.findUniqueOrThrow({ where: { id: runId } })).scheduleId).toBeNull();
    const actions = await rest.tb.db.auditLog.findMany({ where: { targetId: scheduleId }, orderBy: { createdAt: 'asc' }, select: { action: true } });
    expect(actions.map((a) => a.action)).toEqual(['schedule.created', 'schedule.updated', 'schedule.paused', 'schedule.resumed', 'schedule.deleted']);
  });

  it('refuses a schedule that breaks its rules, naming the field, and writes nothing', async () => {
    const operator = rest.as('operator');
    const agentId = rest.tb.agent.agentId;
    const db = dbFingerprints(rest.tb.db);
    const before = await db.all();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: name(), everySeconds: 60, goal: 'g' }, 'agentId', /give the agent \(agentId\) or graph \(graphId\) to run/],
      [{ name: name(), agentId, graphId: agentId, everySeconds: 60, goal: 'g' }, 'graphId', /not both/],
      [{ name: name(), agentId, goal: 'g' }, 'cron', /give cron or everySeconds/],
      [{ name: name(), agentId, cron: '0 9 * * *', everySeconds: 60, goal: 'g' }, 'everySeconds', /not both/],
      [{ name: name(), agentId, cron: '0 9 * *', goal: 'g' }, 'cron', /must have 5 fields/],
      [{ name: name(), agentId, cron: '0 25 * * *', goal: 'g' }, 'cron', /cron/],
      [{ name: name(), agentId, cron: '0 9 * * *', timezone: 'Mars/Olympus', goal: 'g' }, 'timezone', /IANA time zone/],
      [{ name: name(), agentId, everySeconds: 0, goal: 'g' }, 'everySeconds', /./],
      [{ name: name(), agentId, everySeconds: 60, goal: 'g', overlap: 'sometimes' }, 'overlap', /./],
      [{ name: name(), agentId, everySeconds: 60, goal: 'g', catchUp: 'all' }, 'catchUp', /./],
    ];
    for (const [body, field, message] of cases) {
      const problem = problemOf(await operator.call('createSchedule', { body }), 422, 'UNPROCESSABLE_CONTENT');
      const issue = problem.errors?.find((e) => e.in === 'body' && e.path === field);
      expect(issue, `${JSON.stringify(body)}: ${JSON.stringify(problem.errors)}`).toBeDefined();
      expect(issue!.message).toMatch(message);
    }
    // An agent no one has, another team's agent: 404.
    problemOf(await operator.call('createSchedule', { body: { name: name(), agentId: 'cmnosuchagent000000000000', everySeconds: 60, goal: 'g' } }), 404);
    expect(await db.all()).toEqual(before);

    await operator.ok('createSchedule', schedule, { body: { name: 'taken', agentId, everySeconds: 60, goal: 'g' } });
    const taken = await db.all();
    problemOf(await operator.call('createSchedule', { body: { name: 'taken', agentId, everySeconds: 30, goal: 'g' } }), 409, 'CONFLICT');
    expect(await db.all()).toEqual(taken);
    // A viewer reads but does not change.
    problemOf(await rest.as('viewer').call('createSchedule', { body: { name: name(), agentId, everySeconds: 60, goal: 'g' } }), 403, 'FORBIDDEN');
    expect(await db.all()).toEqual(taken);
  });
});
