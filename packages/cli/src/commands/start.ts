import { parseCommandArgs } from '../args';
import { EXIT, type Command } from '../command';
import { cliEnvOrReport } from '../env';
import { startLooplane } from '../start/start-looplane';

const usage = `Usage: looplane start

Starts Looplane on this machine: applies database migrations, seeds an admin and a demo team,
builds the dashboard when needed, then runs the web app and a worker until Ctrl-C.

Environment:
  PORT                      dashboard port (default 3000)
  HOST                      interface it listens on (default 127.0.0.1, this machine only;
                            0.0.0.0 opens it to every interface)
  DATABASE_URL              use this Postgres instead of the embedded one
  REDIS_URL                 use this Redis instead of a private redis-server (which gets a
                            generated password, kept in LOOPLANE_HOME)
  LOOPLANE_TRUSTED_PROXIES  reverse proxies (IPs, CIDRs) whose X-Forwarded-For is believed
  LOOPLANE_HOME             data, secrets and logs (default ./.looplane)
  LOOPLANE_ADMIN_PASSWORD   password of the first admin (default: generated, printed once)
  LOOPLANE_BOOTSTRAP_TOKEN  an admin API token to create for scripts (16-200 printable chars)
  NEXTAUTH_SECRET           session signing secret (default: generated once, kept in LOOPLANE_HOME)
  LOOPLANE_ENCRYPTION_KEY   32-byte base64 key for stored credentials (default: generated once)
  LOG_LEVEL                 fatal, error, warn, info (default), debug, trace or silent`;

export const startCommand: Command = {
  name: 'start',
  summary: 'Run Looplane locally (embedded Postgres and Redis unless configured)',
  usage,
  async run({ args, printer }) {
    parseCommandArgs(args, {});
    const env = cliEnvOrReport(printer);
    if (!env) return EXIT.failure;
    return startLooplane(env, printer);
  },
};
