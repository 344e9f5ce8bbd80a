import type { Command } from '../command';
import { migrateCommand } from './migrate';
import { runCommand } from './run';
import { startCommand } from './start';
import { tailCommand } from './tail';
import { versionCommand } from './version';

/** Every `looplane` command, in the order `looplane --help` lists them. */
export const commands: readonly Command[] = [startCommand, runCommand, tailCommand, migrateCommand, versionCommand];
