/** rddlsim on the command line: its run, serve, connect and evaluate commands. */
import type { ProtocolCommands } from '../../command-line/command-spec';
import { connectCommand } from './connect-command';
import { evaluateRddlsimCommand } from './evaluate-command';
import { runCommand } from './run-command';
import { serveCommand } from './serve-command';

/** The rddlsim entry of the command line. */
export const rddlsimCommands: ProtocolCommands = {
  id: 'rddlsim',
  title: 'RDDLSim, the IPPC planning competition server',
  commands: {
    run: runCommand,
    serve: serveCommand,
    connect: connectCommand,
    evaluate: evaluateRddlsimCommand,
  },
};
