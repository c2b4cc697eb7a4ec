/**
 * MASSim as the one protocol contract describes it: JSON over TCP, 0-byte terminated, one connection per
 * agent; recordings, machines of both roles, a reader of any MASSim transcript for the common views,
 * samples and the policy declarations.
 */
import { TranscriptStore } from '../../transcript/store';
import type { Annotation, TranscriptMessage } from '../../transcript/model';
import type { MessageSummary, RoundSummary, SessionNote, TranscriptReader } from '../reading';
import type { Protocol, StreamFraming } from '../contract';
import type { ProtocolMachine } from '../machine';
import { NulSplitter } from '../../transport/nul-framing';
import { massimClientMachine } from './client-machine';
import { encodeNulFrame } from '../../transport/nul-framing';
import { massimOversizePolicy } from './framing';
import { MASSIM_RECORDING_FORMATS } from './recording-formats';
import { createMassimServerMachine } from './server-machine';
import { MASSIM_MESSAGE_TYPES, MassimTranscriptReader } from './reader';
import { massimRowSummary } from './rows';
import { DEFAULT_MASSIM_SAMPLE, MASSIM_SAMPLES } from './samples';
import type { MassimTeamBatch } from './team-batch';
import { MASSIM_TEAM_STEP } from './team-calls';

/** A message indented for reading, keys in the order they were sent; the text itself when not JSON. */
export function prettyPrintMassim(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The common views' reading of a MASSim transcript: a log row per message and the notes; a round per
 * simulation, whose step rewards are the first team's score gains.
 */
export function createMassimReader({ forgetMessages = false } = {}): TranscriptReader {
  let store: TranscriptStore | undefined;
  let reader: MassimTranscriptReader | undefined;
  const messages: MessageSummary[] = [];
  const notes: SessionNote[] = [];
  const rounds: RoundSummary[] = [];
  let connections: readonly string[] = [];
  let teams: readonly string[] = [];
  return {
    messages,
    rounds,
    turns: [],
    notes,
    append(newMessages: readonly TranscriptMessage[], annotations: readonly Annotation[]) {
      // Forgetting, the messages go straight to the reader and the store keeps nothing: a recording of any
      // length reads in bounded memory, without copying each message into a store and out again.
      store ??= new TranscriptStore({ protocol: 'massim', keep: !forgetMessages });
      reader ??= new MassimTranscriptReader(store, { judgeAgents: true });
      if (!forgetMessages) {
        for (const message of newMessages) store.appendMessage(message);
        for (const annotation of annotations)
          store.annotate(annotation.type, annotation.data, annotation.index);
      } else {
        // A store that forgets keeps no annotations to read back; the rounds come from the percepts anyway.
        reader.readMessages(newMessages);
      }
      const news = reader.read();
      connections = news.connections ?? connections;
      teams = news.teams ?? teams;
      for (let i = 0; i < news.rows.conn.length; i++)
        messages.push(massimRowSummary(news.rows, i, connections, reader.frames));
      for (const note of news.notes)
        notes.push({
          index: note.index,
          kind: note.kind,
          text: note.text,
          ...(note.level ? { level: note.level } : {}),
        });
      rounds.length = 0;
      const first = teams[0];
      for (const frame of reader.frames) {
        const round = (rounds[frame.simulation] ??= { round: frame.simulation + 1, stepRewards: [] });
        const score = first === undefined ? 0 : (frame.scores[first] ?? 0);
        round.stepRewards.push(score - (round.total ?? 0));
        round.total = score;
      }
    },
  };
}

/** MASSim's byte streams: every frame ends with one 0 byte, both ways. */
const massimStreamFraming: StreamFraming = {
  framing: 'nul',
  // A frame over the limit is skipped up to its 0 byte, as the real server's receive loop does.
  splitter: (_dir, options = {}) => new NulSplitter(massimOversizePolicy(options.maxFrameBytes)),
  encode: encodeNulFrame,
  terminator: 0,
};

/** The MASSim protocol. */
export const massimProtocol: Protocol = {
  id: 'massim',
  label: 'MASSim',
  description: 'MASSim, the Multi-Agent Programming Contest server (2022, Agents Assemble): JSON over TCP',
  transport: { kind: 'tcp', defaultPort: 12300, framing: massimStreamFraming },
  machines: [massimClientMachine, createMassimServerMachine()] as readonly ProtocolMachine<unknown>[],
  recordingFormats: MASSIM_RECORDING_FORMATS,
  messageTypes: MASSIM_MESSAGE_TYPES,
  environments: [
    {
      id: 'agents-assemble',
      label: 'Agents Assemble III (2022)',
      description:
        'Two teams of agents on a torus grid fetch blocks from dispensers, assemble them into the shapes of tasks and submit them in goal zones.',
    },
  ],
  defaultEnvironment: 'agents-assemble',
  samples: MASSIM_SAMPLES,
  defaultSample: DEFAULT_MASSIM_SAMPLE,
  createReader: createMassimReader,
  prettyPrint: prettyPrintMassim,
  embeddedContent: () => [],
  policyTypes: async () => (await import('./policy-declarations')).massimPolicyTypes(),
  evaluation: {
    unit: 'match',
    // One match on each side (`MASSIM_MATCHES_PER_SEED`).
    unitsPerSeed: 2,
    load: async () => (await import('./evaluation')).createMassimEpisodePlayer(),
  },
  replay: { load: async () => (await import('./replay')).massimReplay },
  playground: {
    loadRunner: async () => (await import('./playground/runner')).massimPlaygroundRunner,
    loadPolicyRuntime: async () => new (await import('./team-runtime')).MassimTeamRuntime(),
    // A step's batch hands its phrase numbers over instead of copying them.
    policyTransfer: (hook, args) =>
      hook === MASSIM_TEAM_STEP ? [(args[0] as MassimTeamBatch).phrases.buffer as ArrayBuffer] : [],
  },
};
