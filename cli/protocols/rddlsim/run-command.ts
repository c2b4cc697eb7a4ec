/**
 * The options and help of `protoplay run rddlsim`. The implementation (`run.ts`) is loaded only when the
 * command runs, so help stays instant.
 */
import type { CommandSpec } from '../../command-line/command-spec';

/** The `run` command of rddlsim. */
export const runCommand: CommandSpec = {
  summary: 'play a session of N rounds against the emulated rddlsim server and print the rewards',
  description: [
    'The RDDL is read like rddlsim reads it: --domain may be a file or a directory (every .rddl file in it)',
    'and may be repeated; --instance names the instance file. With several instances in the files, pick one',
    'with --instance-name. The policy is a built-in (noop, random) or a .ts/.js file exporting',
    'act(observation, context); a file runs in a worker thread with a time budget per call. Memory does not',
    'grow with --rounds: the transcript, when asked for, is written as the session runs.',
  ].join('\n'),
  options: [
    {
      name: 'domain',
      type: 'string',
      multiple: true,
      valueName: 'PATH',
      description: 'domain file or directory of .rddl files',
    },
    {
      name: 'instance',
      type: 'string',
      multiple: true,
      valueName: 'FILE',
      description: 'instance file (with its non-fluents)',
    },
    {
      name: 'instance-name',
      type: 'string',
      valueName: 'NAME',
      description: 'instance to play when the files define several',
    },
    {
      name: 'policy',
      type: 'string',
      valueName: 'FILE|noop|random',
      description: 'policy file or built-in (default noop)',
    },
    { name: 'rounds', type: 'string', valueName: 'N', description: 'rounds in the session (default 30)' },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: 'seed of the simulator and of context.random() (default 0)',
    },
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description:
        'write the transcript (playground JSON format) to FILE as the session runs; nothing of it is kept in memory',
    },
    {
      name: 'wire',
      type: 'boolean',
      description:
        'play through the XML messages even without --transcript (same results; by default such a session drives the simulator directly)',
    },
    {
      name: 'record-world',
      type: 'boolean',
      description:
        "record the true world state at every turn in the transcript, for the playground's world view (large)",
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (rounds and summary) instead of text',
    },
    {
      name: 'budget',
      type: 'string',
      valueName: 'MS',
      description: 'time the policy may take per call (default 1000)',
    },
    {
      name: 'time-limit',
      type: 'string',
      valueName: 'S',
      description: 'session time limit in seconds as the server counts it; 0 = not enforced (default 1080)',
    },
    {
      name: 'invalid-actions',
      type: 'string',
      valueName: 'stop|send|drop',
      description:
        'actions that fail the domain check: stop the session (default), send them anyway, or drop them',
    },
    {
      name: 'on-policy-error',
      type: 'string',
      valueName: 'stop|noop',
      description: 'after a throw or budget overrun: stop the session (default) or send a noop and go on',
    },
    {
      name: 'client-name',
      type: 'string',
      valueName: 'NAME',
      description: 'client-name sent in the session-request (default protoplay)',
    },
    {
      name: 'semantics',
      type: 'string',
      valueName: 'protoplay|rddlsim',
      description:
        "Protoplay's random numbers without rddlsim's quirks (default, as the playground), or rddlsim's own random numbers and evaluation quirks, which replay a real server's trajectories",
    },
    {
      name: 'rddlsim-quirks',
      type: 'boolean',
      description:
        "reproduce rddlsim's evaluation quirks (double sampling under ^ | => *) with Protoplay's random numbers",
    },
  ],
  examples: [
    'run rddlsim --domain sysadmin_mdp.rddl --instance sysadmin_inst_mdp__1.rddl --policy random --rounds 100 --seed 1',
    'run rddlsim --domain rddl/ --instance-name sysadmin_inst_mdp__1 --policy my-policy.ts --transcript out.json',
    'run rddlsim --domain rddl/ --instance-name elevators_inst_mdp__1 --policy noop --json',
    'run rddlsim --domain rddl/ --instance-name sysadmin_inst_mdp__1 --semantics rddlsim --rounds 30',
    'run rddlsim --domain rddl/ --instance-name sysadmin_inst_mdp__1 --transcript out.json --record-world',
  ],
  handler: async (values, context) => (await import('./run')).runRddlsim(values, context),
};
