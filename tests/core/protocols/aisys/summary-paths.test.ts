/**
 * An import's summary takes shortcuts: both roles' machines share each step of the conversation and each
 * parse of a body, and its reader builds only the log rows and rounds. Whatever the recording, sound or
 * damaged, the shortcuts must find what the plain paths find: each machine alone, fed a fresh copy of its
 * state before every message, and a reader that builds everything and is fed the whole transcript at once.
 * A machine step must also leave the state it was given as it was (the views keep states to scrub back to).
 */
import { describe, expect, it } from 'vitest';
import { aisysClientMachine, aisysServerMachine } from '../../../../src/core/protocols/aisys/machines';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { createAisysReader } from '../../../../src/core/protocols/aisys/reader';
import type { ProtocolMachine } from '../../../../src/core/protocols/machine';
import { summariseTranscript } from '../../../../src/core/session/open-recording';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { loadRecording, RECORDING_NAMES } from './recordings';
import { playedNim } from './played-nim';

/** The transcript with other messages, numbered again from 0; annotations of dropped messages go too. */
function withMessages(transcript: Transcript, messages: TranscriptMessage[]): Transcript {
  const renumbered = new Map<number, number>();
  const copies = messages.map((message, index) => {
    renumbered.set(message.index, index);
    return { ...structuredClone(message), index };
  });
  const annotations = transcript.annotations
    .filter((annotation) => renumbered.has(annotation.index))
    .map((annotation) => ({ ...annotation, index: renumbered.get(annotation.index)! }));
  return { ...transcript, messages: copies, annotations };
}

/** Damaged copies of a transcript, each broken in a way real recordings break. */
function damaged(transcript: Transcript): [string, Transcript][] {
  const { messages } = transcript;
  const cut = (text: string | undefined) => text?.slice(0, Math.floor(text.length / 2));
  return [
    [
      'every third message lost',
      withMessages(
        transcript,
        messages.filter((_, i) => i % 3 !== 2),
      ),
    ],
    [
      'every fifth body cut in half',
      withMessages(
        transcript,
        messages.map((message, i) => (i % 5 === 4 ? { ...message, text: cut(message.text) } : message)),
      ),
    ],
    [
      'responses before their requests',
      withMessages(
        transcript,
        messages.map((_, i) => messages[i % 2 === 0 ? Math.min(i + 1, messages.length - 1) : i - 1]!),
      ),
    ],
    [
      'run ids spelled with spaces and zeros, one run skipped',
      withMessages(
        transcript,
        messages.map((message, i) => ({
          ...message,
          text: message.text
            ?.replace(/"run": ?"(\d+)"/g, (found, run: string) =>
              run.endsWith('3') ? found : `"run": " 0${run}"`,
            )
            .replace(/"act_no": ?(\d+)/g, (found, number: string) =>
              i % 7 === 3 ? `"act_no": ${Number(number) + 1}` : found,
            ),
        })),
      ),
    ],
    ['the second half only', withMessages(transcript, messages.slice(Math.floor(messages.length / 2)))],
  ];
}

/** A state as text (a Map as its entries), to tell whether a step changed it. */
const snapshot = (state: unknown) =>
  JSON.stringify(state, (_, value: unknown) => (value instanceof Map ? [...value] : value));

/** Each machine alone, fed a fresh copy of its state before every message; checks the state is left as it was. */
function alone(machine: ProtocolMachine<unknown>, messages: readonly TranscriptMessage[]): string[] {
  let state = machine.initial();
  const found: string[] = [];
  for (const message of messages) {
    const given = structuredClone(state);
    const before = snapshot(given);
    const step = machine.accept(given, message);
    if (snapshot(given) !== before)
      throw new Error(`message ${message.index} changed the state it was given`);
    state = step.state;
    if (!step.ok) found.push(`${step.violation.index} ${step.violation.rule} ${step.violation.message}`);
  }
  const end = machine.finish(state, messages.length ? messages[messages.length - 1]!.index : 0);
  if (end) found.push(`${end.index} ${end.rule} ${end.message}`);
  return found;
}

/** What the plain paths find, and what the summary's shortcuts find. */
function bothPaths(transcript: Transcript) {
  const validation = validateTranscript(transcript, aisysProtocol);
  const reader = createAisysReader();
  reader.append(transcript.messages, transcript.annotations);
  // Copies of the records: their bodies are read afresh, not taken from what the plain paths read.
  const copy = structuredClone(transcript);
  const summary = summariseTranscript(copy, aisysProtocol);
  return { validation, rounds: reader.rounds, summary };
}

/**
 * Checks the summary against the plain paths, and, with `alone`, against each machine alone (which copies
 * the state before every message: too slow for the long sessions). Returns the violations found.
 */
function expectSamePaths(transcript: Transcript, { machinesAlone = true } = {}): number {
  const { validation, rounds, summary } = bothPaths(transcript);
  expect(summary.violations).toEqual(validation.violations);
  expect(summary.rounds).toEqual(rounds);
  if (!machinesAlone) return validation.violations.length;
  // Validation follows each agent (`env/agent`) as one conversation: so does each machine alone.
  const conversations = new Map<string, TranscriptMessage[]>();
  for (const message of transcript.messages) {
    const key = message.channel ?? message.conn;
    let messages = conversations.get(key);
    if (!messages) conversations.set(key, (messages = []));
    messages.push(message);
  }
  for (const machine of [aisysServerMachine, aisysClientMachine] as ProtocolMachine<unknown>[]) {
    const expected = [...conversations.values()].flatMap((messages) => alone(machine, messages));
    const found = validation.violations
      .filter((violation) => violation.role === machine.role)
      .map((violation) => `${violation.index} ${violation.rule} ${violation.message}`);
    expect(found.sort()).toEqual(expected.sort());
  }
  return validation.violations.length;
}

describe("an aisys import's summary", () => {
  it.each(RECORDING_NAMES)('finds what the plain paths find in %s and its damaged copies', (name) => {
    const transcript = loadRecording(name);
    expectSamePaths(transcript);
    for (const [, copy] of damaged(transcript)) expectSamePaths(copy);
  });

  it('finds what each machine alone finds in a played session and its damaged copies', async () => {
    const transcript = await playedNim(200);
    expect(expectSamePaths(transcript)).toBe(0);
    const broken = damaged(transcript).map(([damage, copy]) => [damage, expectSamePaths(copy)] as const);
    for (const [damage, violations] of broken) expect(violations, damage).toBeGreaterThan(0);
  });

  it('finds what the plain paths find in a long played session and its damaged copies', async () => {
    // Longer than the readings kept for the reader (2048 messages): it reads many of them afresh.
    const transcript = await playedNim(2000);
    expect(transcript.messages.length).toBeGreaterThan(2048);
    const options = { machinesAlone: false };
    expect(expectSamePaths(transcript, options)).toBe(0);
    const broken = damaged(transcript).map(
      ([damage, copy]) => [damage, expectSamePaths(copy, options)] as const,
    );
    // Every kind of damage is found somewhere (the checks above compare paths that find something).
    for (const [damage, violations] of broken) expect(violations, damage).toBeGreaterThan(0);
  });

  it('has its reader build the rows and rounds of a full reader, without turns or notes', async () => {
    const transcript = (await playedNim(300)).messages;
    const full = createAisysReader();
    const forgetting = createAisysReader({ forgetMessages: true });
    for (let start = 0; start < transcript.length; start += 100) {
      const batch = transcript.slice(start, start + 100);
      full.append(batch, []);
      forgetting.append(batch, []);
    }
    expect(forgetting.messages).toEqual(full.messages);
    expect(forgetting.rounds).toEqual(full.rounds);
    expect(full.turns.length).toBeGreaterThan(0);
    expect(forgetting.turns).toEqual([]);
    expect(forgetting.notes).toEqual([]);
  });
});
