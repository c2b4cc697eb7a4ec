/**
 * The protocol notes of the rddlsim playground: what the real rddlsim server does in situations a plain
 * reading of the protocol would not predict, as the emulated server reproduces it. Each entry matches a
 * note code the emulated host attaches to a session when the situation happens (the Console & notes panel
 * shows it there); the protocol notes view lists them all, with the simulator's quirks beside them.
 */
import type { HostNote } from './host';

/** One behaviour of the real server, reproduced by the emulated one. */
export interface ServerBehaviour {
  /** The note code the emulated host uses when it happens. */
  code: string;
  /** What the real server does, in short. */
  reaction: HostNote['realServer'];
  title: string;
  /** What happens, when it matters to a client, and what the emulator does. */
  explanation: string;
}

/** How each reaction reads in the notes. */
export const REACTION_LABELS: Record<HostNote['realServer'], string> = {
  'closes-connection': 'closes the connection',
  'process-exits': 'the server process exits',
  'ends-round': 'ends the round',
  ignores: 'ignores it',
  answers: 'answers and goes on',
  'cuts-message': 'cuts the message',
};

/** Every behaviour the emulated rddlsim host notes, in the order a session could meet them. */
export const RDDLSIM_SERVER_BEHAVIOURS: readonly ServerBehaviour[] = [
  {
    code: 'rddlsim.host.unknown-instance',
    reaction: 'closes-connection',
    title: 'Unknown problem name',
    explanation:
      'A session-request naming an instance the server does not have (the name is compared exactly, case ' +
      'included) gets no answer at all: the server closes the connection without a word, and the client ' +
      'only sees the connection end.',
  },
  {
    code: 'rddlsim.host.null-task',
    reaction: 'answers',
    title: 'Unreadable task files: the text null',
    explanation:
      'When the server cannot read the files of the requested task (no PDDL version, a domain file it ' +
      'cannot load), it sends the four characters null instead of a session-init and then carries on with ' +
      'the session as usual.',
  },
  {
    code: 'rddlsim.host.null-task-no-header',
    reaction: 'closes-connection',
    title: 'The text null in no-header mode',
    explanation:
      'In no-header mode the server removes the XML declaration by cutting a fixed number of characters off ' +
      'each message. The text null is shorter than that, so the server fails and closes the connection.',
  },
  {
    code: 'rddlsim.host.malformed-round-request',
    reaction: 'answers',
    title: 'Malformed XML where a round-request is due',
    explanation:
      'While waiting for a round-request, the server swallows a message it cannot parse and replies with a ' +
      'resource-notification, then keeps waiting. A client that sends broken XML here is never told so.',
  },
  {
    code: 'rddlsim.host.process-exit',
    reaction: 'process-exits',
    title: 'The server process exits',
    explanation:
      'Some mistakes stop the whole server process: a message other than round-request when a round is due ' +
      '(for example actions sent after round-end), or an action naming a state fluent or non-fluent with ' +
      'its default value. Every session the server was serving ends with it. The emulator closes only this ' +
      'connection and keeps serving.',
  },
  {
    code: 'rddlsim.host.trial-terminated',
    reaction: 'closes-connection',
    title: 'The trial is terminated',
    explanation:
      'Where actions are due, a malformed message, another message type, an unknown action name, an int ' +
      'value that does not parse or an empty field end the session: the server stops the trial and ' +
      'closes the connection without sending session-end. So does an error while simulating the step ' +
      '(FATAL SERVER EXCEPTION): a Bernoulli probability outside [0, 1], Discrete probabilities that do ' +
      'not sum to 1. A negative Discrete probability is not one of them (see below).',
  },
  {
    code: 'rddlsim.host.client-closed',
    reaction: 'closes-connection',
    title: 'The client closes the connection',
    explanation:
      'When the client goes away mid-session, the server notices on its next read, terminates the trial ' +
      'and closes its side. Nothing recorded so far is lost in the emulator.',
  },
  {
    code: 'rddlsim.host.ignored-actions',
    reaction: 'ignores',
    title: 'Actions with wrong arguments are ignored but counted',
    explanation:
      'An action whose arguments name no grounding (wrong number of arguments, unknown objects) has no ' +
      'effect, yet it still counts against max-nondef-actions, so it can make a legal joint action illegal.',
  },
  {
    code: 'rddlsim.host.action-not-applicable',
    reaction: 'ends-round',
    title: 'A state fluent sent as an action',
    explanation:
      'An action naming a state fluent with a value other than its default is not applicable: the server ' +
      'ends the round at once, without simulating the step.',
  },
  {
    code: 'rddlsim.host.illegal-action',
    reaction: 'ends-round',
    title: 'Illegal joint action',
    explanation:
      'Too many non-default actions, a false action precondition or a false state-action constraint end ' +
      'the round at once: the step is not simulated, round-end reports the steps done and repeats the last ' +
      'executed step’s reward, and the next round-request starts the next round normally.',
  },
  {
    code: 'rddlsim.host.negative-probability',
    reaction: 'ignores',
    title: 'A negative probability in Discrete',
    explanation:
      'The real server only checks that the probabilities of a Discrete sum to 1; a case whose probability ' +
      'comes out negative (say 1.0 - x - 0.05 with x at 1) is no error. It samples on: the negative value ' +
      'adds to the uniform draw instead of taking from it, so the cases before it lose mass to the cases ' +
      'after it. The emulator samples the same way and notes, once per expression, where it happened.',
  },
  {
    code: 'rddlsim.host.time-out',
    reaction: 'ends-round',
    title: 'Session time limit',
    explanation:
      'The session clock starts when the connection is accepted and is checked only after a simulated ' +
      'step. Once past the limit the server ends the round (round-end shows a negative time-left) and sends ' +
      'session-end at once.',
  },
  {
    code: 'rddlsim.host.oversize',
    reaction: 'cuts-message',
    title: 'Messages longer than the read buffer',
    explanation:
      'The server reads into a buffer of 10 MiB. A longer message is cut: its first part is parsed as one ' +
      'message, one byte is lost, and the rest is read as the next message.',
  },
];
