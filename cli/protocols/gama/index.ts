/** GAMA scavengers on the command line: its run, serve and connect commands. */
import type { ProtocolCommands } from '../../command-line/command-spec';
import { connectCommand } from './connect-command';
import { runCommand } from './run-command';
import { evaluateGamaCommand } from './evaluate-command';
import { serveCommand } from './serve-command';

/** The gama entry of the command line. */
export const gamaCommands: ProtocolCommands = {
  id: 'gama',
  title: 'GAMA scavengers, a commons-harvest simulation asking an API server over a WebSocket',
  commands: { run: runCommand, serve: serveCommand, connect: connectCommand, evaluate: evaluateGamaCommand },
};
