/**
 * Opening files for the playground's views: read them with whichever registered format knows them, keep
 * what precedes any damage, validate the session with its protocol's machines, and sum it up for the line
 * the page shows after an import. Pure and protocol-blind: the protocols are handed in.
 */
import { ProtoplayError } from '../errors';
import type { ImportInput, ImportProblem, Protocol } from '../protocols/contract';
import type { ImportSummary } from '../protocols/session-contract';
import { importRecording } from '../transcript/import';
import type { Transcript } from '../transcript/model';
import { validateTranscript } from '../transcript/validate';

/** An opened recording: the session to show, its protocol, and the summary. */
export interface OpenedRecording {
  transcript: Transcript;
  protocol: Protocol;
  summary: ImportSummary;
}

/** Where a problem is, as `file:line` or `file, byte n`. */
export function problemPlace(problem: ImportProblem): string {
  if (problem.line !== undefined) return `${problem.file}:${problem.line}`;
  if (problem.byte !== undefined) return `${problem.file}, byte ${problem.byte}`;
  return problem.file;
}

/** A recording read but not yet validated: the session to show first, and what sums it up afterwards. */
export interface ReadRecording {
  transcript: Transcript;
  protocol: Protocol;
  /** Validates the session and sums it up (the longer part of opening a big recording). */
  summarise(): ImportSummary;
}

/**
 * Reads a recording, leaving its validation for later: the page can be shown the session while it is
 * validated. Throws a located ProtoplayError when the files hold no session at all (the first problem
 * says why).
 */
export function readRecording(inputs: readonly ImportInput[], protocols: readonly Protocol[]): ReadRecording {
  const result = importRecording(inputs, protocols);
  const transcript = result.transcripts[0];
  const protocol = transcript && protocols.find((p) => p.id === transcript.protocol);
  if (!transcript || !protocol) {
    const problem = result.problems[0];
    const names = inputs.map((input) => input.name).join(', ') || 'nothing';
    throw new ProtoplayError(
      'transcript.import.damaged',
      problem ? `${problemPlace(problem)}: ${problem.message}` : `${names} holds no session`,
    );
  }
  const summarise = (): ImportSummary => {
    const { violations } = validateTranscript(transcript, protocol);
    const reader = protocol.createReader();
    reader.append(transcript.messages, transcript.annotations);
    const connections = new Set(transcript.messages.map((message) => message.conn));
    for (const connection of transcript.connections) connections.add(connection.id);
    return {
      protocol: protocol.id,
      format: result.description,
      sessions: result.transcripts.length,
      messages: transcript.messages.length,
      connections: connections.size,
      rounds: reader.rounds.length,
      violations: violations.map((violation) => ({
        index: violation.index,
        rule: violation.rule,
        message: violation.message,
        conn: violation.conn,
        ...(violation.channel !== undefined ? { channel: violation.channel } : {}),
      })),
      problems: result.problems.map((problem) => ({ ...problem })),
    };
  };
  return { transcript, protocol, summarise };
}

/**
 * Reads, validates and sums up a recording. Throws a located ProtoplayError when the files hold no session
 * at all (the first problem says why).
 */
export function openRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
): OpenedRecording {
  const read = readRecording(inputs, protocols);
  return { transcript: read.transcript, protocol: read.protocol, summary: read.summarise() };
}
