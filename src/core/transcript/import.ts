/**
 * One entry point for anything a user pastes, drops or opens: find which protocol's recording format reads
 * it (with a confidence), then read it. Protoplay's own JSON is read here; every other format belongs to a
 * protocol (`Protocol.recordingFormats`), so this module names none.
 */
import { ProtoplayError, describeError } from '../errors';
import type {
  ImportInput,
  ImportOutcome,
  ImportProblem,
  Protocol,
  RecordingFormat,
} from '../protocols/contract';
import { looksLikeProtoplayJson, readTranscriptJson } from './json-format';

/** The id of Protoplay's own JSON format, which every protocol reads. */
export const PROTOPLAY_JSON_FORMAT = 'protoplay-json';

/** A format that could read the inputs, and how sure it is. */
export interface FormatCandidate {
  /** The protocol id (for Protoplay JSON: the one the file names). */
  protocol: string;
  format: string;
  description: string;
  /** From 0 to 1. */
  confidence: number;
}

/** What an import found: the format it used, the sessions it read, and the problems it met. */
export interface ImportResult extends ImportOutcome {
  protocol: string;
  format: string;
  description: string;
  confidence: number;
}

/** What the user may force instead of detection. */
export interface ImportChoice {
  protocol?: string;
  format?: string;
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder();

/** Turns an error thrown while reading `file` into a located problem. */
export function importProblem(error: unknown, file: string): ImportProblem {
  if (error instanceof ProtoplayError && error.location) {
    const { line, offset } = error.location;
    return {
      file: error.location.source ?? file,
      ...(line > 0 ? { line } : {}),
      ...(offset !== undefined ? { byte: offset } : {}),
      message: error.message,
    };
  }
  return { file, message: describeError(error) };
}

/** Protoplay JSON: one file naming its protocol. */
function protoplayJsonCandidate(inputs: readonly ImportInput[]): FormatCandidate | undefined {
  if (inputs.length !== 1) return undefined;
  const start = latin1.decode(inputs[0]!.bytes.subarray(0, 4096));
  if (!looksLikeProtoplayJson(start)) return undefined;
  const named = /"protocol"\s*:\s*"([^"]*)"/.exec(start)?.[1] ?? '';
  return {
    protocol: named,
    format: PROTOPLAY_JSON_FORMAT,
    description: 'a Protoplay JSON transcript',
    confidence: 1,
  };
}

/** Every format that might read the inputs, most confident first (ties keep the protocols' order). */
export function detectFormats(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
): FormatCandidate[] {
  const candidates: FormatCandidate[] = [];
  const json = protoplayJsonCandidate(inputs);
  if (json) candidates.push(json);
  for (const protocol of protocols) {
    for (const format of protocol.recordingFormats) {
      const confidence = format.detect(inputs);
      if (confidence > 0)
        candidates.push({
          protocol: protocol.id,
          format: format.id,
          description: format.description,
          confidence,
        });
    }
  }
  return candidates.sort((a, b) => b.confidence - a.confidence);
}

/** A one-line list of what can be imported, for "not a format Protoplay knows". */
function knownFormats(protocols: readonly Protocol[]): string {
  return [
    'Protoplay JSON',
    ...protocols.flatMap((protocol) => protocol.recordingFormats.map((format) => format.description)),
  ].join(', ');
}

function findFormat(protocols: readonly Protocol[], protocolId: string, formatId: string): RecordingFormat {
  const protocol = protocols.find((p) => p.id === protocolId);
  if (!protocol)
    throw new ProtoplayError(
      'transcript.import.protocol',
      `unknown protocol '${protocolId}': expected one of ${protocols.map((p) => p.id).join(', ')}`,
    );
  const format = protocol.recordingFormats.find((f) => f.id === formatId);
  if (!format)
    throw new ProtoplayError(
      'transcript.import.format',
      `${protocol.label} has no format '${formatId}': expected one of ${protocol.recordingFormats.map((f) => f.id).join(', ')}`,
    );
  return format;
}

/**
 * Reads the inputs (the files of one recording, or one pasted text) with the most confident format, or the
 * one chosen. Damaged parts become located problems beside what could be read. Throws a ProtoplayError only
 * when no format reads the inputs at all, or a chosen protocol or format does not exist.
 */
export function importRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
): ImportResult {
  const names =
    inputs.length === 0
      ? 'nothing'
      : inputs.length <= 3
        ? inputs.map((input) => input.name).join(', ')
        : `${inputs.length} files (${inputs[0]!.name}, ...)`;
  let candidates = detectFormats(inputs, protocols);
  if (choice.protocol) candidates = candidates.filter((c) => c.protocol === choice.protocol);
  if (choice.format) candidates = candidates.filter((c) => c.format === choice.format);
  const best = candidates[0];
  if (choice.protocol && choice.format && choice.format !== PROTOPLAY_JSON_FORMAT && !best) {
    const format = findFormat(protocols, choice.protocol, choice.format);
    return {
      protocol: choice.protocol,
      format: format.id,
      description: format.description,
      confidence: 0,
      ...format.read(inputs),
    };
  }
  if (!best)
    throw new ProtoplayError(
      'transcript.import.format',
      `${names} is not a format Protoplay knows${choice.protocol ? ` for ${choice.protocol}` : ''}: expected ${knownFormats(protocols)}`,
    );
  if (best.format === PROTOPLAY_JSON_FORMAT) return { ...best, ...readProtoplayJson(inputs[0]!, protocols) };
  const format = findFormat(protocols, best.protocol, best.format);
  return { ...best, ...format.read(inputs) };
}

function readProtoplayJson(input: ImportInput, protocols: readonly Protocol[]): ImportOutcome {
  try {
    // A damaged file keeps all that could be read before the damage, which is reported beside it.
    const { transcript, damage } = readTranscriptJson(utf8.decode(input.bytes), input.name);
    const problems = damage ? [importProblem(damage, input.name)] : [];
    if (!transcript) return { transcripts: [], problems };
    if (!protocols.some((protocol) => protocol.id === transcript.protocol))
      return {
        transcripts: [],
        problems: [
          {
            file: input.name,
            message: `the transcript is of protocol '${transcript.protocol}', which this Protoplay does not know (it knows ${protocols.map((p) => p.id).join(', ')})`,
          },
          ...problems,
        ],
      };
    return { transcripts: [transcript], problems };
  } catch (error) {
    return { transcripts: [], problems: [importProblem(error, input.name)] };
  }
}
