/**
 * The side-by-side view of one seed (Compare's "Find where they differ"): what it costs beyond the
 * evaluation. For an rddlsim session of many rounds and a MASSim match, each played by two policies that
 * part early, through the code the page runs: the protocol's episode player as a worker runs it, without
 * recording (the evaluation's baseline) and recording the transcripts (the replay), then, as the page does
 * on its main thread, reading both transcripts with the protocol's reader and lining them up
 * (`sideBySide`). Prints times, messages per second, and each figure's ratio to the unrecorded episodes.
 */
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import { PolicyRuntime } from '../../src/core/policy/runtime';
import type {
  EpisodeOutcome,
  EpisodePlayer,
  EpisodePolicy,
} from '../../src/core/protocols/evaluation-contract';
import { createMassimEpisodePlayer } from '../../src/core/protocols/massim/evaluation';
import { createRddlsimEpisodePlayer } from '../../src/core/protocols/rddlsim/evaluation';
import { findProtocol } from '../../src/core/protocols/registry';
import { sideBySide } from '../../src/state/side-by-side';
import { alignTranscripts, type AlignmentSide } from '../../src/core/evaluation/transcript-alignment';
import type { Transcript } from '../../src/core/transcript/model';
import { formatNumber, measureRate, printTable } from '../lib';

const OPTIONS = { warmup: 1, repeats: 3 };

interface Case {
  name: string;
  protocol: string;
  player: () => EpisodePlayer;
  settings: unknown;
  rounds: number;
  policies: [string, string];
}

const RDDLSIM_ROUNDS = Number(process.env.BENCH_SIDE_BY_SIDE_ROUNDS ?? 30);
const SKIP = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";

const CASES: Case[] = [
  {
    name: `rddlsim network_admin, ${RDDLSIM_ROUNDS} rounds`,
    protocol: 'rddlsim',
    player: createRddlsimEpisodePlayer,
    settings: { example: 'network_admin' },
    rounds: RDDLSIM_ROUNDS,
    policies: [
      'export function act() {\n  return null;\n}\n',
      "export function act(o: Observation): Actions {\n  return o.turn % 4 === 0 ? { name: 'reboot', args: ['server'] } : null;\n}\n",
    ],
  },
  {
    name: 'MASSim 2 x 10 agents, 200 steps (two matches)',
    protocol: 'massim',
    player: createMassimEpisodePlayer,
    settings: {
      config: quickMassimConfig({ agentsPerTeam: 10, steps: 200, width: 40, height: 40 }),
      opponent: { code: SKIP, language: 'ts', level: 'policy', fileName: 'opponent.ts' },
    },
    rounds: 2,
    policies: [
      SKIP,
      "export function act(percept: Percept, agent: Agent): Action {\n  return agent.step < 10 ? { type: 'skip', p: [] } : { type: 'move', p: ['n'] };\n}\n",
    ],
  },
];

function policy(player: EpisodePlayer, code: string, seed: number): EpisodePolicy {
  const runtime = player.policyRuntime?.() ?? new PolicyRuntime();
  return {
    load: (context) =>
      Promise.resolve(
        runtime.load({ code, language: 'ts', level: 'policy', fileName: 'policy.ts', seed, context }),
      ),
    call: (hook, args) => runtime.call(hook, args, {}),
  };
}

async function playBoth(c: Case, record: boolean): Promise<[EpisodeOutcome, EpisodeOutcome]> {
  const outcomes: EpisodeOutcome[] = [];
  for (const code of c.policies) {
    const player = c.player();
    player.prepare(c.settings);
    const outcome = await player.play(
      { settings: c.settings, seed: 1, rounds: c.rounds, trace: false, record },
      policy(player, code, 1),
    );
    if (outcome.fault || outcome.error) throw new Error(outcome.fault?.message ?? outcome.error);
    outcomes.push(outcome);
  }
  return [outcomes[0]!, outcomes[1]!];
}

export default async function bench(): Promise<void> {
  for (const c of CASES) {
    const protocol = findProtocol(c.protocol)!;
    const [a, b] = await playBoth(c, true);
    const transcripts: [Transcript[], Transcript[]] = [a.transcripts!, b.transcripts!];
    const messages = transcripts.flat().reduce((n, t) => n + t.messages.length, 0);
    const sessions = transcripts[0].length;
    const read = (transcript: Transcript): AlignmentSide => {
      const reader = protocol.createReader();
      reader.append(transcript.messages, transcript.annotations);
      return { summaries: reader.messages, messages: transcript.messages };
    };
    const sides = transcripts.map((list) => list.map(read));
    let differences = 0;
    const rates = [
      await measureRate('both episodes, unrecorded (baseline)', messages, () => playBoth(c, false), OPTIONS),
      await measureRate('both episodes, recorded (the replay)', messages, () => playBoth(c, true), OPTIONS),
      await measureRate('reading both transcripts', messages, () => transcripts.flat().map(read), OPTIONS),
      await measureRate(
        'lining them up (alignTranscripts)',
        messages,
        () => {
          differences = 0;
          for (let session = 0; session < sessions; session++)
            differences += alignTranscripts(sides[0]![session]!, sides[1]![session]!, 'c2s').differences
              .length;
        },
        OPTIONS,
      ),
      await measureRate(
        'reading and lining up (sideBySide, as the page)',
        messages,
        () => {
          for (let session = 0; session < sessions; session++) sideBySide(protocol, transcripts, session);
        },
        OPTIONS,
      ),
    ];
    const base = rates[0]!;
    printTable(
      `${c.name}: ${formatNumber(messages)} messages on both sides, ${formatNumber(differences)} differences`,
      [
        ['step', 'ms (median)', 'CPU ms', 'messages/s', 'x baseline time'],
        ...rates.map((rate) => [
          rate.label,
          rate.seconds * 1000,
          (rate.cpuSeconds ?? 0) * 1000,
          rate.opsPerSecond,
          rate.seconds / base.seconds,
        ]),
      ],
    );
  }
}
