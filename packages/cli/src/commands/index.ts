import type { Command } from '../command';
import { migrateCommand } from './migrate';
import { startCommand } from './start';
import { versionCommand } from './version';

/** Every `looplane` command, in the order `looplane --help` lists them. */
export const commands: readonly Command[] = [startCommand, migrateCommand, versionCommand];
