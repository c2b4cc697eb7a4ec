/** aisys on the command line: its run, serve, connect and evaluate commands. */
import type { ProtocolCommands } from '../../command-line/command-spec';
import { connectCommand } from './connect-command';
import { evaluateAisysCommand } from './evaluate-command';
import { runCommand } from './run-command';
import { serveCommand } from './serve-command';

/** The aisys entry of the command line. */
export const aisysCommands: ProtocolCommands = {
  id: 'aisys',
  title: 'aisysprojserver, the AI course server (FAU): runs of an environment over HTTP',
  commands: { run: runCommand, serve: serveCommand, connect: connectCommand, evaluate: evaluateAisysCommand },
};
