/**
 * What an import found, in one report for every consumer: the page's import summary, `protoplay inspect`
 * and its `--json`. Reads the inputs with the registered recording formats, validates every session with
 * its protocol's machines, and reads its rounds with the protocol's reader.
 */
import { importRecording, type ImportChoice } from '../transcript/import';
import type { Transcript } from '../transcript/model';
import { validateTranscript, type TranscriptViolation } from '../transcript/validate';
import type { ImportInput, ImportProblem, Protocol } from './contract';

/** One session of the inspected inputs. */
export interface InspectedSession {
  /** 1-based. */
  session: number;
  connections: number;
  messages: number;
  /** Each round (run, episode, simulation) with its total reward when the session reported one. */
  rounds: { round: number; reward: number | null }[];
  violations: TranscriptViolation[];
  /** Messages the protocol's reader could not read, with why. */
  unreadable: { index: number; reason: string }[];
}

/** Everything `inspect` prints. */
export interface InspectionReport {
  protocol: string;
  format: string;
  description: string;
  /** How sure detection was, from 0 to 1 (0 when the format was forced and did not recognise the input). */
  confidence: number;
  sessions: InspectedSession[];
  /** Parts of the inputs that could not be read, located. */
  problems: ImportProblem[];
  /** The transcripts themselves, for callers that show them. */
  transcripts: Transcript[];
}

/** Imports, validates and reads the inputs. Throws only when no format reads them (see `importRecording`). */
export function inspectRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
): InspectionReport {
  const result = importRecording(inputs, protocols, choice);
  const protocol = protocols.find((candidate) => candidate.id === result.protocol);
  const sessions = result.transcripts.map((transcript, i): InspectedSession => {
    const reader = protocol?.createReader();
    reader?.append(transcript.messages, transcript.annotations);
    return {
      session: i + 1,
      connections: new Set(transcript.messages.map((message) => message.conn)).size,
      messages: transcript.messages.length,
      rounds: (reader?.rounds ?? []).map((round) => ({ round: round.round, reward: round.total ?? null })),
      violations: protocol ? validateTranscript(transcript, protocol).violations : [],
      unreadable: (reader?.messages ?? []).flatMap((row) =>
        row.unreadable === undefined ? [] : [{ index: row.index, reason: row.unreadable }],
      ),
    };
  });
  return {
    protocol: result.protocol,
    format: result.format,
    description: result.description,
    confidence: result.confidence,
    sessions,
    problems: result.problems,
    transcripts: result.transcripts,
  };
}

/** True when everything was read and nothing broke a rule. */
export function inspectionIsClean(report: InspectionReport): boolean {
  return (
    report.problems.length === 0 &&
    report.sessions.every((session) => session.violations.length === 0 && session.unreadable.length === 0)
  );
}
