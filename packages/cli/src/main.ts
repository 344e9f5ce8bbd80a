import { runCli } from './cli';

// `looplane tail … | head` closes stdout early: end quietly instead of crashing with EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Entry point used by bin/looplane.mjs. process.exit (not exitCode) so that a library handle
// left open somewhere can never keep a finished command alive; stdout writes are synchronous
// for files, pipes and terminals on Linux, so no output is lost.
const code = await runCli(process.argv.slice(2));
process.exit(code);
