/**
 * The sample policies of the aisys playground, for Nim: a perfect player, a random one, the "always take
 * one" policy of the course's client examples, and one that keeps notes per run. They are written against
 * the editor's declarations (`Percept`, `Action`, `Run`, `PolicyContext`, `Outcome`), which are globals
 * there.
 */
import type { SamplePolicy } from '../../policy/types';

const NIM_OPTIMAL = `// Perfect Nim: leave the opponent a multiple of 4. From 9, 10 or 11 objects this always wins.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  const take = percept % 4;
  // A multiple of 4 cannot be won against a perfect opponent: take one and hope.
  return take === 0 ? 1 : take;
}
`;

const NIM_RANDOM = `// Random: take 1, 2 or 3 objects, never more than are left.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  // context.random() is seeded with the session's seed: the same seed replays the same choices.
  const most = Math.min(3, percept);
  return 1 + Math.floor(context.random() * most);
}
`;

const NIM_TAKE_ONE = `// Take one, every time: the policy of the course's client examples. Against a random opponent it
// still wins now and then.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  return 1;
}
`;

const NIM_NOTES = `// Keeps notes per run: run.memory lives as long as the run (the course client makes one agent object
// per run), context.memory as long as the session. Plays perfectly and logs what each game looked like.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  const seen = ((run.memory.seen as number[] | undefined) ??= []);
  seen.push(percept);
  const take = percept % 4 || 1;
  return take;
}

export function onRunEnd(outcome: Outcome, run: Run, context: PolicyContext): void {
  const won = ((context.memory.won as number | undefined) ?? 0) + (outcome === 1 ? 1 : 0);
  context.memory.won = won;
  const seen = (run.memory.seen as number[] | undefined) ?? [];
  context.log(\`run \${run.id}: \${outcome === 1 ? 'won' : 'lost'} after seeing \${seen.join(', ')}; \${won} won so far\`);
}
`;

/** Every sample, the default first. */
export const AISYS_SAMPLES: readonly SamplePolicy[] = [
  {
    id: 'nim-optimal',
    label: 'Perfect Nim',
    description: 'leaves a multiple of 4: always wins from 9 to 11',
    language: 'ts',
    level: 'policy',
    code: NIM_OPTIMAL,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'nim-random',
    label: 'Random',
    description: 'takes 1 to 3 at random',
    language: 'ts',
    level: 'policy',
    code: NIM_RANDOM,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'nim-take-one',
    label: 'Take one',
    description: "the course examples' policy",
    language: 'ts',
    level: 'policy',
    code: NIM_TAKE_ONE,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'nim-notes',
    label: 'Notes per run',
    description: 'per-run memory and onRunEnd',
    language: 'ts',
    level: 'policy',
    code: NIM_NOTES,
    environments: ['nim', 'nim-strong'],
  },
];

export const DEFAULT_AISYS_SAMPLE = 'nim-optimal';
