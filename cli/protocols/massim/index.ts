/** MASSim on the command line: its run, serve, connect and evaluate commands. */
import type { ProtocolCommands } from '../../command-line/command-spec';
import { connectCommand } from './connect-command';
import { evaluateMassimCommand } from './evaluate-command';
import { runCommand } from './run-command';
import { serveCommand } from './serve-command';

/** The MASSim entry of the command line. */
export const massimCommands: ProtocolCommands = {
  id: 'massim',
  title: 'MASSim, the Multi-Agent Programming Contest server (2022 scenario)',
  commands: {
    run: runCommand,
    serve: serveCommand,
    connect: connectCommand,
    evaluate: evaluateMassimCommand,
  },
};
