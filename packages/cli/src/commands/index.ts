import type { Command } from '../command';
import { approveCommand } from './approve';
import { auditCommand } from './audit-verify';
import { doctorCommand } from './doctor';
import { forkCommand } from './fork';
import { mcpCommand } from './mcp';
import { migrateCommand } from './migrate';
import { patchCommand } from './patch';
import { rejectCommand } from './reject';
import { replayCommand } from './replay';
import { runCommand } from './run';
import { scheduleCommand } from './schedule';
import { startCommand } from './start';
import { tailCommand } from './tail';
import { tokenCommand } from './token';
import { versionCommand } from './version';
import { workerCommand } from './worker';

/** Every `looplane` command, in the order `looplane --help` lists them. */
export const commands: readonly Command[] = [
  startCommand,
  workerCommand,
  runCommand,
  tailCommand,
  forkCommand,
  replayCommand,
  patchCommand,
  scheduleCommand,
  approveCommand,
  rejectCommand,
  auditCommand,
  doctorCommand,
  tokenCommand,
  mcpCommand,
  migrateCommand,
  versionCommand,
];
