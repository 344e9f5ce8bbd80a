import { EXIT, type Command } from '../command';
import { parseCommandArgs } from '../args';
import { cliVersion } from '../package-info';

export const versionCommand: Command = {
  name: 'version',
  summary: 'Print the Looplane version',
  usage: 'Usage: looplane version\n\nPrints the version of the looplane CLI and of Node.js.',
  async run({ args, printer }) {
    parseCommandArgs(args, {});
    printer.info(`looplane ${cliVersion} (node ${process.versions.node})`);
    return EXIT.ok;
  },
};
