/**
 * The sample policies of the rddlsim playground: a do-nothing baseline and a random policy that work on
 * every domain, a heuristic for the default domain (network admin), and a wire-level client for learners
 * who want to write the protocol themselves. They are written against the editor's generated types
 * (`Observation`, `Actions`, `PolicyContext`...), which are globals there.
 */
import type { SamplePolicy } from '../../policy/types';

const NOOP = `// Noop: never act. The baseline every other policy should beat.
export function act(observation: Observation, context: PolicyContext): Actions {
  return null;
}
`;

const RANDOM = `// Random: each turn, one action of the domain with random arguments and a random value.
export function act(observation: Observation, context: PolicyContext): Actions {
  const { actions } = context.instance;
  const objects: Record<string, readonly string[]> = context.instance.objects;
  // context.random() is seeded with the session's seed: the same seed replays the same choices.
  const pick = <T>(list: readonly T[]): T => list[Math.floor(context.random() * list.length)]!;

  const action = pick(actions);
  const args = action.params.map((type) => pick(objects[type] ?? []));
  const value =
    action.range === 'bool' ? true : action.values ? pick(action.values) : Math.floor(context.random() * 4);
  // The domain's action types are precise; a generic policy builds one from strings, hence the cast.
  return { name: action.name, args, value } as Action;
}
`;

const NETWORK_HEURISTIC = `// Heuristic for the network admin domain: reboot a crashed computer, the most important first.
//
// A running computer earns a point per step and a reboot costs half a point, so a reboot pays off
// from the second step. Crashes spread along links, and every desktop depends on the server, so
// the server comes first, then the desktops the laptops hang off, then the rest.
const PRIORITY: Objects['computer'][] = [
  'server', 'desk1', 'desk3', 'desk2', 'desk4', 'laptop1', 'laptop2', 'printer',
];

export function act(observation: Observation, context: PolicyContext): Actions {
  const down = PRIORITY.filter((computer) => observation.values[\`running(\${computer})\` as const] === false);
  if (down.length === 0) return null; // all running: a reboot would only cost
  context.log('down:', down.join(', '));
  return { name: 'reboot', args: [down[0]!] }; // one reboot per step (max-nondef-actions = 1)
}

export function onRoundEnd(summary: { round: number; reward: number }, context: PolicyContext): void {
  context.log(\`round \${summary.round} earned \${summary.reward}\`);
}
`;

const WIRE_CLIENT = `// Wire level: you are the rddlsim client. Every server message arrives as its XML text;
// return the XML to send back (a string, a list, or nothing). The NUL terminator is added for you.
// This client plays noop; the Messages panel shows what the server makes of every message you send.

export function onSessionStart(context: PolicyContext): string {
  return (
    '<session-request>' +
    \`<problem-name>\${context.instance.instance}</problem-name>\` +
    '<client-name>wire-level</client-name>' +
    '</session-request>'
  );
}

export function onMessage(message: string, context: PolicyContext): string | null {
  const root = /<([a-z-]+)[\\s/>]/.exec(message.replace(/^<\\?xml[^>]*\\?>\\s*/, ''))?.[1];
  switch (root) {
    case 'session-init':
      return '<round-request/>';
    case 'round-init':
      // round-left says how many rounds follow this one; remember it for round-end.
      context.memory.roundsLeft = Number(/<round-left>(\\d+)</.exec(message)?.[1] ?? 0);
      return null; // the first turn follows at once
    case 'turn':
      return '<actions/>';
    case 'round-end':
      return context.memory.roundsLeft === 0 ? null : '<round-request/>';
    default:
      return null; // session-end: the server closes the connection
  }
}
`;

/** The samples, in the order the editor offers them. */
export const RDDLSIM_SAMPLES: readonly SamplePolicy[] = [
  {
    id: 'noop',
    label: 'Noop',
    description: 'Never act: the baseline',
    language: 'ts',
    level: 'policy',
    code: NOOP,
  },
  {
    id: 'random',
    label: 'Random',
    description: 'One random action per turn, on any domain',
    language: 'ts',
    level: 'policy',
    code: RANDOM,
  },
  {
    id: 'network-heuristic',
    label: 'Heuristic',
    description: 'Reboot the most important crashed computer (network admin)',
    language: 'ts',
    level: 'policy',
    code: NETWORK_HEURISTIC,
    environments: ['network_admin'],
  },
  {
    id: 'wire-client',
    label: 'Wire level',
    description: 'Write the protocol yourself: raw XML in, raw XML out',
    language: 'ts',
    level: 'wire',
    code: WIRE_CLIENT,
  },
];
