import { unwrap, type Schema } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import type { Printer } from '../printer';
import { describeApiError } from '../remote/client';
import { openRemoteSession, type RemoteSession } from '../remote/session';
import { resolveTarget, scheduleBody } from './schedule-create';

const usage = `Usage: looplane schedule create --name NAME (--agent NAME | --graph NAME) (--cron EXPR | --every INTERVAL)
                                --goal TEXT [options]
       looplane schedule list
       looplane schedule pause|resume|delete|run-now SCHEDULE

Runs an agent or a swarm graph on a cron or an interval. The workers fire each tick once,
however many of them run. SCHEDULE is a schedule's id or name. delete keeps the runs it made;
run-now starts a run at once (paused or not) and leaves the next tick as it was.

Options of create:
  --name NAME            the schedule's name (unique in the team)
  --agent NAME           the agent each tick runs
  --graph NAME           the swarm graph each tick runs (instead of --agent)
  --cron EXPR            5 fields (minute hour day month weekday), or 6 with seconds first
  --every INTERVAL       seconds, or with a unit: 90s, 15m, 2h, 1d (instead of --cron)
  --timezone ZONE        the IANA time zone the cron is read in (default UTC)
  --goal TEXT            the runs' goal; {{scheduledAt}} becomes the tick's time
  --overlap MODE         a tick while the previous run works: skip (default), queue or
                         cancel_previous
  --catch-up MODE        ticks missed while no worker ran: latest (default: run the latest
                         one) or none
  --pause-after N        pause after N failed runs in a row (default 5)
  --paused               create it paused (resume starts it)
  --max-tokens N, --max-cost USD, --max-tool-calls N, --on-exceed wait|fail
                         each run's budget, as for looplane run
  --repo URL [--ref REF] [--secret NAME] [--depth N], --from-session ID[@N]
                         where each run's files come from, as for looplane run

Options:
  --json                 print the result as JSON (list: an array)
  --team SLUG            the team (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the operator role or higher (list: viewer)

Exit codes: 0 done, 1 refused or failed, 2 wrong usage.`;

const SUBCOMMANDS = ['create', 'list', 'pause', 'resume', 'delete', 'run-now'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
type Schedule = Schema<'Schedule'>;

/** When, in words: the timing and the next tick. */
const timingOf = (s: Schedule) => (s.cron ? `cron "${s.cron}" ${s.timezone}` : `every ${s.everySeconds}s`);
const nextOf = (s: Schedule) => (s.enabled ? (s.nextFireAt ?? '-') : s.pausedReason ? `paused (${s.pausedReason})` : 'paused');

/** The schedule named by id or name; the error lists the ones there are. */
async function findSchedule(session: RemoteSession, ref: string): Promise<Schedule> {
  const schedules = await unwrap(session.api.GET('/schedules'));
  const found = schedules.find((s) => s.id === ref) ?? schedules.find((s) => s.name === ref);
  if (!found) throw new Error(`no schedule "${ref}" in team ${session.team.slug} (schedules: ${schedules.map((s) => s.name).join(', ') || 'none'})`);
  return found;
}

async function act(sub: Exclude<Subcommand, 'create' | 'list'>, session: RemoteSession, ref: string, json: boolean, printer: Printer): Promise<void> {
  const { id, name } = await findSchedule(session, ref);
  const path = { params: { path: { scheduleId: id } } };
  const show = (result: unknown, line: string) => (json ? printer.raw(JSON.stringify(result)) : printer.info(line));
  if (sub === 'pause') {
    const paused = await unwrap(session.api.POST('/schedules/{scheduleId}/pause', path));
    show(paused, `Paused schedule ${name} (${id}): no further run starts.`);
  } else if (sub === 'resume') {
    const resumed = await unwrap(session.api.POST('/schedules/{scheduleId}/resume', path));
    show(resumed, `Resumed schedule ${name} (${id}): next run at ${resumed.nextFireAt ?? '-'}.`);
  } else if (sub === 'delete') {
    const deleted = await unwrap(session.api.DELETE('/schedules/{scheduleId}', path));
    show(deleted, `Deleted schedule ${name} (${id}); the runs it made stay.`);
  } else {
    const started = await unwrap(session.api.POST('/schedules/{scheduleId}/run', path));
    show(started, `Started run ${started.runId}: ${session.remote.url}/t/${session.team.slug}/runs/${started.runId}`);
  }
}

/** `looplane schedule create|list|pause|resume|delete|run-now`. */
export const scheduleCommand: Command = {
  name: 'schedule',
  summary: 'Run agents on a cron or an interval (schedule create|list|pause|resume|delete|run-now)',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        name: { type: 'string' },
        agent: { type: 'string' },
        graph: { type: 'string' },
        cron: { type: 'string' },
        every: { type: 'string' },
        timezone: { type: 'string' },
        goal: { type: 'string' },
        overlap: { type: 'string' },
        'catch-up': { type: 'string' },
        'pause-after': { type: 'string' },
        paused: { type: 'boolean', default: false },
        'max-tokens': { type: 'string' },
        'max-cost': { type: 'string' },
        'max-tool-calls': { type: 'string' },
        'on-exceed': { type: 'string' },
        repo: { type: 'string' },
        ref: { type: 'string' },
        secret: { type: 'string' },
        depth: { type: 'string' },
        'from-session': { type: 'string' },
        json: { type: 'boolean', default: false },
        team: { type: 'string' },
      },
      true,
    );
    const [sub, ...rest] = positionals;
    if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) {
      throw new UsageError(sub ? `unknown schedule subcommand "${sub}" (${SUBCOMMANDS.join(', ')})` : `give a subcommand: ${SUBCOMMANDS.join(', ')}`);
    }
    const subcommand = sub as Subcommand;
    if ((subcommand === 'create' || subcommand === 'list') && rest.length > 0) throw new UsageError(`schedule ${subcommand} takes no positional arguments`);
    if (subcommand !== 'create' && subcommand !== 'list' && rest.length !== 1) throw new UsageError('give exactly one SCHEDULE (its id or name)');
    // Checked before any request: a wrong flag never reaches the server.
    const body = subcommand === 'create' ? scheduleBody(values) : null;

    const session = await openRemoteSession(loadCliEnv(), values.team);
    try {
      if (body) {
        const created = await unwrap(session.api.POST('/schedules', { body: { ...body, ...(await resolveTarget(session, values)) } }));
        if (values.json) printer.raw(JSON.stringify(created));
        else printer.info(`Created schedule ${created.name} (${created.id}): ${timingOf(created)}, next run at ${nextOf(created)}`);
      } else if (subcommand === 'list') {
        const schedules = await unwrap(session.api.GET('/schedules'));
        if (values.json) printer.raw(JSON.stringify(schedules));
        else if (schedules.length === 0) printer.info('No schedules.');
        else for (const s of schedules) printer.info(`${s.id}  ${s.name}  ${timingOf(s)}  next: ${nextOf(s)}`);
      } else if (subcommand !== 'create') {
        await act(subcommand, session, rest[0]!, values.json, printer);
      }
      return EXIT.ok;
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
  },
};
