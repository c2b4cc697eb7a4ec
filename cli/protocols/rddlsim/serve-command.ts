/**
 * The options and help of `protoplay serve rddlsim`. The implementation (`serve.ts`) is loaded only when
 * the command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { TCP_LIMIT_OPTIONS } from '../../net/tcp-limit-options';

/** The `serve` command of rddlsim. */
export const serveCommand: CommandSpec = {
  summary: "a drop-in rddlsim server over TCP for real clients (rddlsim's Java client, PROST, your own)",
  description: [
    "Speaks exactly as rddlsim's server (rddl.competition.Server): NUL framing, <no-header/> mode, element",
    'order, Java number formats, session ids counted from 1 with seed + id - 1, and its reaction to every',
    'client mistake. Unlike it, it serves several clients at once, binds 127.0.0.1 unless --host is given,',
    'and never exits because of one client: where rddlsim would exit, that session is closed and logged.',
    "By default random numbers and evaluation quirks are rddlsim's own, so a client sees the trajectories",
    'a real server would produce.',
  ].join('\n'),
  options: [
    {
      name: 'rddl-dir',
      type: 'string',
      valueName: 'DIR',
      description: "directory of .rddl files to serve (rddlsim's server/ + client/ layout works too)",
    },
    {
      name: 'port',
      type: 'string',
      valueName: 'N',
      description: 'TCP port (default 2323; 0 picks a free one)',
    },
    {
      name: 'host',
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to bind (default 127.0.0.1; 0.0.0.0 for every interface)',
    },
    { name: 'rounds', type: 'string', valueName: 'N', description: 'rounds per session (default 30)' },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: 'session k simulates with seed + k - 1 (default 0)',
    },
    {
      name: 'time-limit',
      type: 'string',
      valueName: 'S',
      description: 'session time limit in seconds; 0 = reported but not enforced (default 1080)',
    },
    {
      name: 'monitor',
      type: 'boolean',
      description: 'monitor mode: <execute-policy>no</execute-policy> (or none) makes a practice round',
    },
    {
      name: 'record',
      type: 'string',
      valueName: 'DIR',
      description: "write every session's transcript (playground JSON format) into DIR",
    },
    {
      name: 'no-header-scope',
      type: 'string',
      valueName: 'connection|process',
      description:
        '<no-header/> changes the framing of the client that asked (default), or of every client from then on, as rddlsim does',
    },
    {
      name: 'max-message-bytes',
      type: 'string',
      valueName: 'N',
      description:
        'longest client message read; longer ones are cut as rddlsim cuts them (default 1048576; rddlsim: 10485760)',
    },
    {
      name: 'semantics',
      type: 'string',
      valueName: 'rddlsim|protoplay',
      description:
        "random numbers and evaluation quirks of rddlsim (default) or Protoplay's own generator without the quirks",
    },
    {
      name: 'sessions',
      type: 'string',
      valueName: 'N',
      description: 'exit once N sessions have ended (default: serve until Ctrl-C)',
    },
    ...TCP_LIMIT_OPTIONS,
    { name: 'quiet', type: 'boolean', description: 'log only errors and the listening line' },
  ],
  examples: [
    'serve rddlsim --rddl-dir rddl/ --port 2323 --rounds 30 --seed 0 --time-limit 1080',
    'serve rddlsim --rddl-dir rddl/ --port 0 --record transcripts/ --sessions 1',
    'serve rddlsim --rddl-dir rddl/ --host 0.0.0.0 --no-header-scope process',
  ],
  handler: async (values, context) => (await import('./serve')).serveRddlsim(values, context),
};
