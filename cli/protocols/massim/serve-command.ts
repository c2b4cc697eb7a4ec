/**
 * The options and help of `protoplay serve massim`. The implementation (`serve.ts`) is loaded only when
 * the command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { TCP_LIMIT_OPTIONS } from '../../net/tcp-limit-options';
import { MATCH_CONFIG_OPTIONS, SEMANTICS_OPTION } from './match-config-options';

/** The `serve` command of MASSim. */
export const serveCommand: CommandSpec = {
  summary: 'a MASSim server over TCP for real agents (EISMASSim/javaagents, your own, protoplay connect)',
  description: [
    'Speaks as the massim_2022 server does: 0-terminated JSON frames, accounts prefix + team + i from 1',
    '(agentA1..agentAN, agentB1.. with password 1 unless the configuration says otherwise), per-agent action',
    'ids never reset, first action wins, no_action on timeout, the step runs as soon as every agent answered,',
    'reconnection, status-request, and the same reaction to every agent mistake (a frame without "p" stops',
    "the reading of that connection). The configuration file format is the real server's, server block",
    'included. Unlike it, it binds 127.0.0.1 unless --host is given and a bug in one connection never ends',
    'the server. The tournament starts when every agent of the first match is logged in (without --config)',
    "or as the configuration's launch says; type pause / continue on the console between steps. The server",
    'exits when the tournament is over.',
  ].join('\n'),
  options: [
    ...MATCH_CONFIG_OPTIONS,
    {
      name: 'port',
      type: 'string',
      valueName: 'N',
      description: "TCP port (default: the configuration's port, 12300; 0 picks a free one)",
    },
    {
      name: 'host',
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to bind (default 127.0.0.1; 0.0.0.0 for every interface)',
    },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: "simulation k uses seed + k (default: the configuration's randomSeed, else k)",
    },
    SEMANTICS_OPTION,
    {
      name: 'launch',
      type: 'string',
      valueName: 'connected|key|Ns|HH:mm',
      description:
        "when to start: once every agent of the first match is logged in, on ENTER, after N seconds, at a time (default: the configuration's launch; connected without --config)",
    },
    {
      name: 'record',
      type: 'string',
      valueName: 'DIR',
      description:
        'write one transcript per match into DIR (playground JSON format, one connection per agent connection, world snapshots)',
    },
    {
      name: 'faithful-races',
      type: 'boolean',
      description:
        "reproduce the real server's lossy races: the sim-start re-sent after a reconnection, bye without a pause",
    },
    {
      name: 'pacing',
      type: 'string',
      valueName: 'exact|real-server',
      description:
        'exact (default): step 0 right after sim-start, deadline = time + agentTimeout; real-server: as massim_2022 paces it, sim-start 150 ms ahead and deadlines 2-34 ms later',
    },
    {
      name: 'max-frame-bytes',
      type: 'string',
      valueName: 'N',
      description:
        "drop an agent that sends more than N bytes without a 0 byte (default 1048576; at least the configuration's maxPacketLength)",
    },
    ...TCP_LIMIT_OPTIONS,
    { name: 'quiet', type: 'boolean', description: 'no log lines; only the listening line and the scores' },
  ],
  examples: [
    'serve massim --port 12300 --teams 2 --agents 5 --steps 200',
    'serve massim --config server/conf/SampleConfig.json --record transcripts/',
    'serve massim --agents 10 --grid 50x50 --seed 7 --launch 10s --host 0.0.0.0',
  ],
  handler: async (values, context) =>
    (await import('./serve')).serveMassim(values, context, { stdin: () => process.stdin }),
};
