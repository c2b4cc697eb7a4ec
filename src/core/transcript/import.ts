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
import type { Transcript } from './model';
import { detectTranscriptJson, readTranscriptJson } from './json-format';

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
  /** For each transcript, the names of the inputs it was read from. */
  sources: string[][];
}

/** What the user may force instead of detection. */
export interface ImportChoice {
  protocol?: string;
  format?: string;
}

/** What Protoplay JSON is called where formats are listed. */
const PROTOPLAY_JSON_DESCRIPTION = 'a Protoplay JSON transcript';

/** How much of a file's start detection looks at. */
const DETECTION_BYTES = 4096;

const utf8 = new TextDecoder();

/**
 * Thrown by `importRecording` when no format reads the inputs: the message says why for them all, and
 * `problems` say it file by file (an empty file, a file no format knows, files of different protocols).
 */
export class ImportRefusedError extends ProtoplayError {
  constructor(
    code: string,
    message: string,
    readonly problems: readonly ImportProblem[],
  ) {
    super(code, message);
    this.name = 'ImportRefusedError';
  }
}

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

/**
 * Protoplay JSON: files that each hold one transcript, all of one protocol, named by each file's start
 * ('' when no start names it: the reading tells). Files naming different protocols are no candidate.
 */
function protoplayJsonCandidate(inputs: readonly ImportInput[]): FormatCandidate | undefined {
  if (inputs.length === 0) return undefined;
  let protocol = '';
  let confidence = 1;
  for (const input of inputs) {
    const found = detectTranscriptJson(utf8.decode(input.bytes.subarray(0, DETECTION_BYTES)));
    if (!found) return undefined;
    if (found.protocol !== undefined && protocol !== '' && found.protocol !== protocol) return undefined;
    protocol ||= found.protocol ?? '';
    confidence = Math.min(confidence, found.confidence);
  }
  return { protocol, format: PROTOPLAY_JSON_FORMAT, description: PROTOPLAY_JSON_DESCRIPTION, confidence };
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

/**
 * The formats that might read the inputs as chosen, most confident first: those of the chosen protocol and
 * format. Protoplay JSON whose start names no protocol stays a candidate for any protocol (the reading
 * tells), and a chosen Protoplay JSON is a candidate even when its start does not show it (confidence 0).
 */
export function chosenFormats(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
): FormatCandidate[] {
  let candidates = detectFormats(inputs, protocols);
  if (choice.protocol)
    candidates = candidates.filter(
      (c) => c.protocol === choice.protocol || (c.format === PROTOPLAY_JSON_FORMAT && c.protocol === ''),
    );
  if (choice.format) candidates = candidates.filter((c) => c.format === choice.format);
  if (candidates.length === 0 && choice.format === PROTOPLAY_JSON_FORMAT && inputs.length > 0)
    candidates.push({
      protocol: choice.protocol ?? '',
      format: PROTOPLAY_JSON_FORMAT,
      description: PROTOPLAY_JSON_DESCRIPTION,
      confidence: 0,
    });
  return candidates;
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
 * Reads the inputs (the files of one recording, several Protoplay JSON transcripts, or one pasted text)
 * with the most confident format, or the one chosen. Damaged parts become located problems beside what
 * could be read. Throws an ImportRefusedError when no format reads the inputs at all (empty files, files
 * of different protocols or formats), and a ProtoplayError when a chosen protocol or format does not exist.
 */
export function importRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
): ImportResult {
  const best = chosenFormats(inputs, protocols, choice)[0];
  if (choice.protocol && choice.format && choice.format !== PROTOPLAY_JSON_FORMAT && !best) {
    const format = findFormat(protocols, choice.protocol, choice.format);
    return withSources(
      {
        protocol: choice.protocol,
        format: format.id,
        description: format.description,
        confidence: 0,
        ...format.read(inputs),
      },
      inputs,
    );
  }
  if (!best) throw refusal(inputs, protocols, choice);
  if (best.format === PROTOPLAY_JSON_FORMAT) return readProtoplayJsonFiles(inputs, best, protocols, choice);
  const format = findFormat(protocols, best.protocol, best.format);
  return withSources({ ...best, ...format.read(inputs) }, inputs);
}

/**
 * The result with the inputs each transcript was read from: as the format said, else all the inputs (a
 * format that reads its inputs together into one session, as MASSim's timelines).
 */
function withSources(
  result: Omit<ImportResult, 'sources'> & { sources?: string[][] },
  inputs: readonly ImportInput[],
): ImportResult {
  const all = inputs.map((input) => input.name);
  const sources = result.transcripts.map((_, i) => result.sources?.[i] ?? all);
  return { ...result, sources };
}

/** Names of files for a message: all of them when few, else how many and the first. */
function fileList(names: readonly string[]): string {
  if (names.length === 0) return 'nothing';
  return names.length <= 3 ? names.join(', ') : `${names.length} files (${names[0]}, ...)`;
}

/** A file as detection sees it alone: its protocol ('' when not known before reading) and format. */
interface FileKind {
  name: string;
  protocol: string;
  format: string;
  description: string;
}

/**
 * Files of different protocols (or of different formats), which no format reads together: the error names
 * each protocol (or format) with its files, and says of each file what it is.
 */
function mixedFilesError(names: string, files: readonly FileKind[], by: 'protocol' | 'format') {
  const groups = new Map<string, FileKind[]>();
  for (const file of files) groups.set(file[by], [...(groups.get(file[by]) ?? []), file]);
  const listed = [...groups].map(([key, group]) => `${key}: ${fileList(group.map((file) => file.name))}`);
  const problems = files.map((file) => {
    const others = [...groups.keys()].filter((key) => key !== file[by]).join(', ');
    const what = by === 'protocol' ? `of ${file.protocol}` : `(${file.format})`;
    return {
      file: file.name,
      message: `${file.description} ${what}, beside files of ${others}: read each ${by}'s files on their own`,
    };
  });
  return new ImportRefusedError(
    'transcript.import.mixed',
    `${names} are of different ${by}s, which are read apart: ${listed.join('; ')}`,
    problems,
  );
}

/** Why no format reads the inputs, as specifically as the files tell. */
function refusal(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice,
): ImportRefusedError {
  const names = fileList(inputs.map((input) => input.name));
  const empty = inputs.filter((input) => input.bytes.length === 0).map((input) => input.name);
  if (empty.length > 0)
    return new ImportRefusedError(
      'transcript.import.empty',
      `${fileList(empty)} ${empty.length === 1 ? 'is' : 'are'} empty: there is nothing to read`,
      empty.map((file) => ({ file, message: 'the file is empty: there is nothing to read' })),
    );
  const forProtocol = choice.protocol ? ` for ${choice.protocol}` : '';
  const unknown = `not a format Protoplay knows${forProtocol}: expected ${knownFormats(protocols)}`;
  if (inputs.length > 1) {
    // Each file on its own: which ones no format knows, or which ones are read apart.
    const alone = inputs.map((input) => ({ input, best: chosenFormats([input], protocols, choice)[0] }));
    const unknownAlone = alone.filter((file) => !file.best).map((file) => file.input.name);
    if (unknownAlone.length > 0 && unknownAlone.length < inputs.length)
      return new ImportRefusedError(
        'transcript.import.format',
        `${fileList(unknownAlone)} ${unknownAlone.length === 1 ? 'is' : 'are'} ${unknown}`,
        unknownAlone.map((file) => ({ file, message: unknown })),
      );
    if (unknownAlone.length === 0) {
      const files = alone.map(({ input, best }): FileKind => ({ name: input.name, ...best! }));
      const protocolsOf = new Set(files.map((file) => file.protocol));
      if (protocolsOf.size > 1 && !protocolsOf.has('')) return mixedFilesError(names, files, 'protocol');
      if (new Set(files.map((file) => file.format)).size > 1) return mixedFilesError(names, files, 'format');
      const { description, format } = files[0]!;
      return new ImportRefusedError(
        'transcript.import.format',
        `${names} are each ${description} (${format}), which is read one file at a time`,
        files.map((file) => ({
          file: file.name,
          message: `${description} (${format}), read one file at a time: give it on its own`,
        })),
      );
    }
  }
  return new ImportRefusedError(
    'transcript.import.format',
    `${names} is ${unknown}`,
    inputs.map((input) => ({ file: input.name, message: unknown })),
  );
}

/**
 * Reads Protoplay JSON files, one session each. Their protocol is the one their starts name, or else the
 * one the first transcript read names; a transcript of another protocol than the one chosen is a problem,
 * and files of different protocols (seen only once read) are refused as `importRecording` refuses them.
 */
function readProtoplayJsonFiles(
  inputs: readonly ImportInput[],
  candidate: FormatCandidate,
  protocols: readonly Protocol[],
  choice: ImportChoice,
): ImportResult {
  const read = inputs.map((input) => ({ input, ...readProtoplayJson(input, protocols) }));
  const named = read.flatMap((file) => file.transcripts.map((transcript) => transcript.protocol));
  const protocol = candidate.protocol || choice.protocol || (named[0] ?? '');
  if (!choice.protocol && named.some((other) => other !== protocol)) {
    const files = read.flatMap((file) =>
      file.transcripts.map((transcript): FileKind => ({
        ...candidate,
        name: file.input.name,
        protocol: transcript.protocol,
      })),
    );
    throw mixedFilesError(fileList(inputs.map((input) => input.name)), files, 'protocol');
  }
  const transcripts: Transcript[] = [];
  const sources: string[][] = [];
  const problems: ImportProblem[] = [];
  for (const file of read) {
    const transcript = file.transcripts[0];
    if (transcript && transcript.protocol !== protocol)
      problems.push({
        file: file.input.name,
        message: `the transcript is of protocol '${transcript.protocol}', not '${protocol}' as chosen`,
      });
    else if (transcript) {
      transcripts.push(transcript);
      sources.push([file.input.name]);
    }
    problems.push(...file.problems);
  }
  return { ...candidate, protocol, transcripts, problems, sources };
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
