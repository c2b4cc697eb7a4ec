/**
 * Summing up a whole recording validates and reads it in one pass, a batch at a time: the violations and
 * rounds must be the ones of validating the whole transcript first and then reading it all at once, for
 * every protocol, sound or damaged, short or longer than a batch.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { readRecording, summariseTranscript } from '../../../src/core/session/open-recording';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import type { Transcript } from '../../../src/core/transcript/model';
import { validateTranscript } from '../../../src/core/transcript/validate';
import { RECORDING_NAMES, loadRecording as loadAisys } from '../protocols/aisys/recordings';
import { playRecorded } from '../protocols/gama/support';
import { loadRecording as loadMassim } from '../protocols/massim/recordings';
import { allRecordings } from '../protocols/rddlsim/recordings';
import { playedNim } from '../protocols/aisys/played-nim';

function protocolOf(transcript: Transcript) {
  const protocol = PROTOCOLS.find((candidate) => candidate.id === transcript.protocol);
  if (!protocol) throw new Error(`no protocol ${transcript.protocol}`);
  return protocol;
}

/** The summary as it used to be built: validate everything, then one reader fed everything at once. */
function summarisedTheOldWay(transcript: Transcript) {
  const protocol = protocolOf(transcript);
  const { violations } = validateTranscript(transcript, protocol);
  const reader = protocol.createReader();
  reader.append(transcript.messages, transcript.annotations);
  return { violations, rounds: reader.rounds };
}

/** Checks both ways agree, directly and through the whole-file import the page runs. */
function expectSameSummaries(transcript: Transcript) {
  const old = summarisedTheOldWay(transcript);
  const inStep = summariseTranscript(transcript, protocolOf(transcript));
  expect(inStep.violations).toEqual(old.violations);
  expect(inStep.rounds).toEqual(old.rounds);
  const read = readRecording(
    [{ name: 'recording.json', bytes: new TextEncoder().encode(serialiseTranscript(transcript)) }],
    PROTOCOLS,
  );
  const summary = read.summarise();
  const reread = summarisedTheOldWay(read.transcript);
  expect(summary.rounds).toBe(reread.rounds.length);
  expect(summary.violations).toEqual(
    reread.violations.map(({ index, rule, message, conn, channel }) => ({
      index,
      rule,
      message,
      conn,
      ...(channel !== undefined ? { channel } : {}),
    })),
  );
  return old;
}

/** Rewrites the body of the `nth` message whose body holds `find`. */
function damaged(transcript: Transcript, find: string, replace: string, nth: number): Transcript {
  let seen = 0;
  const messages = transcript.messages.map((message) => {
    if (message.text?.includes(find) && seen++ === nth)
      return { ...message, text: message.text.replace(find, replace) };
    return message;
  });
  if (seen <= nth) throw new Error(`no ${nth + 1}th message with ${find}`);
  return { ...transcript, messages };
}

describe('summing up a whole recording in one pass', () => {
  it('gives the rounds and violations of validating first, for every RDDLSim conformance recording', () => {
    let rounds = 0;
    let violations = 0;
    for (const [, transcript] of allRecordings()) {
      const old = expectSameSummaries(transcript);
      rounds += old.rounds.length;
      violations += old.violations.length;
    }
    // The recordings hold rounds, and the edge cases break rules: the comparison is not between empties.
    expect(rounds).toBeGreaterThan(0);
    expect(violations).toBeGreaterThan(0);
  });

  it('gives the same for the recorded MASSim runs', () => {
    for (const run of ['basic', 'events', 'probes'] as const) {
      const old = expectSameSummaries(loadMassim(run));
      if (run === 'basic') expect(old.rounds.length).toBeGreaterThan(0);
    }
  });

  it('gives the same for the recorded aisys sessions and for a session longer than a batch', async () => {
    let violations = 0;
    for (const name of RECORDING_NAMES) violations += expectSameSummaries(loadAisys(name)).violations.length;
    expect(violations).toBeGreaterThan(0);
    // More messages than the readings kept, so a batch's reader meets readings both kept and not.
    const long = await playedNim(2000);
    expect(long.messages.length).toBeGreaterThan(2 * 1000 + 48);
    const old = expectSameSummaries(long);
    expect(old.rounds).toHaveLength(2000);
    expect(old.rounds.every((round) => round.total !== undefined)).toBe(true);
    // Broken past the first batch: a stale action number, and an answer that is not JSON.
    const broken = damaged(
      damaged(long, '"act_no": 1', '"act_no": 7', 150),
      '"finished_runs"',
      '"finished',
      1000,
    );
    expect(expectSameSummaries(broken).violations.length).toBeGreaterThan(1);
  });

  it('gives the same for a played GAMA episode, annotations and all', async () => {
    let n = 0;
    const { transcript } = await playRecorded(() => (n++ % 3 === 0 ? 'face_left' : 'move_ahead'), {
      episodes: 2,
      maxCycles: 30,
    });
    expect(transcript.messages.length).toBeGreaterThan(0);
    expectSameSummaries(transcript);
  });
});
