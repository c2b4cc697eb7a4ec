/**
 * The options and help of `protoplay connect rddlsim`. The implementation (`connect.ts`) is loaded only
 * when the command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';

/** The `connect` command of rddlsim. */
export const connectCommand: CommandSpec = {
  summary: 'play a policy against a real rddlsim server (or protoplay serve) over TCP',
  description: [
    'Asks the server for the instance, plays every round it offers (or --rounds of them), prints each round',
    'and a summary, and records the transcript. The RDDL comes from the session-init task unless --rddl-dir',
    'is given. If the server closes early, stops answering (--timeout) or sends something the protocol does',
    'not allow, the command says which message broke which rule, keeps the transcript and exits non-zero.',
  ].join('\n'),
  options: [
    { name: 'host', type: 'string', valueName: 'ADDRESS', description: 'server address (default 127.0.0.1)' },
    { name: 'port', type: 'string', valueName: 'N', description: 'server port (default 2323)' },
    {
      name: 'instance',
      type: 'string',
      valueName: 'NAME',
      description: 'instance to ask for, e.g. sysadmin_inst_mdp__1 (required)',
    },
    {
      name: 'policy',
      type: 'string',
      valueName: 'FILE|noop|random',
      description: 'policy file or built-in (default noop)',
    },
    {
      name: 'rounds',
      type: 'string',
      valueName: 'N',
      description: 'leave after N rounds (default: every round the server offers)',
    },
    {
      name: 'rddl-dir',
      type: 'string',
      valueName: 'DIR',
      description: 'read the RDDL from these files instead of the session-init task',
    },
    {
      name: 'timeout',
      type: 'string',
      valueName: 'S',
      description: 'give up when the server does not answer within S seconds; 0 = wait forever (default 30)',
    },
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript (playground JSON format), also when the session fails',
    },
    {
      name: 'no-header',
      type: 'boolean',
      description: 'ask for <no-header/> mode (no XML declaration, no NUL), as PROST does',
    },
    {
      name: 'client-name',
      type: 'string',
      valueName: 'NAME',
      description: 'client-name sent in the session-request (default protoplay)',
    },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: "seed of the policy's context.random() (default 0)",
    },
    {
      name: 'budget',
      type: 'string',
      valueName: 'MS',
      description: 'time the policy may take per call (default 1000)',
    },
    {
      name: 'invalid-actions',
      type: 'string',
      valueName: 'stop|send|drop',
      description: 'actions that fail the domain check: stop (default), send them anyway, or drop them',
    },
    {
      name: 'on-policy-error',
      type: 'string',
      valueName: 'stop|noop',
      description: 'after a throw or budget overrun: stop (default) or send a noop and go on',
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (rounds and summary) instead of text',
    },
  ],
  examples: [
    'connect rddlsim --host 127.0.0.1 --port 2323 --instance sysadmin_inst_mdp__1 --policy my-policy.ts',
    'connect rddlsim --port 2323 --instance elevators_inst_mdp__1 --policy random --rounds 5 --transcript run.json',
    'connect rddlsim --port 2323 --instance sysadmin_inst_mdp__1 --no-header --timeout 5',
  ],
  handler: async (values, context) => (await import('./connect')).connectRddlsim(values, context),
};
