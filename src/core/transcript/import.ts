/**
 * One entry point for anything a user pastes or opens: recognise the format, then import it. Formats:
 * Protoplay JSON, the record files of recorded rddlsim sessions (`@@ ...` records), and rddlsim wire text
 * (XML messages as they crossed the wire or as a log printed them).
 */
import { ProtoplayError } from '../errors';
import { directionOfRoot, rootName } from '../protocols/rddlsim/interleave';
import { looksLikeProtoplayJson, parseTranscriptJson } from './json-format';
import type { Transcript } from './model';
import { importRddlsimWireText } from './raw-import';
import { importRecordFile, looksLikeRecordFile } from './record-import';

/** A format Protoplay can import. */
export type TranscriptFormat = 'protoplay-json' | 'record-file' | 'rddlsim-wire-text';

/** What the input looks like, with a phrase for the UI. */
export type Detection =
  { format: TranscriptFormat; description: string } | { format: 'unknown'; description: string };

const DESCRIPTIONS: Record<TranscriptFormat, string> = {
  'protoplay-json': 'a Protoplay JSON transcript',
  'record-file': 'a recorded rddlsim session (record file)',
  'rddlsim-wire-text': 'rddlsim XML messages',
};

const latin1 = new TextDecoder('latin1');

/** Recognises the format from the first characters. */
export function detectTranscriptFormat(input: string | Uint8Array): Detection {
  const start = typeof input === 'string' ? input.slice(0, 4096) : latin1.decode(input.subarray(0, 4096));
  const format = classify(start);
  if (format) return { format, description: DESCRIPTIONS[format] };
  return {
    format: 'unknown',
    description:
      'not a format Protoplay knows: expected Protoplay JSON, a record file or rddlsim XML messages',
  };
}

function classify(start: string): TranscriptFormat | undefined {
  if (looksLikeProtoplayJson(start)) return 'protoplay-json';
  if (looksLikeRecordFile(start)) return 'record-file';
  if (directionOfRoot(rootName(start.replace(/^[\s\0]+/, '')))) return 'rddlsim-wire-text';
  return undefined;
}

/** Imports a pasted text or an opened file in whichever known format it is. */
export function importTranscript(
  input: string | Uint8Array,
  { name = 'pasted text' }: { name?: string } = {},
): Transcript {
  const detection = detectTranscriptFormat(input);
  const text = () => (typeof input === 'string' ? input : new TextDecoder().decode(input));
  switch (detection.format) {
    case 'protoplay-json':
      return parseTranscriptJson(text(), name);
    case 'record-file':
      return importRecordFile(typeof input === 'string' ? new TextEncoder().encode(input) : input, { name });
    case 'rddlsim-wire-text':
      return importRddlsimWireText(text(), { name });
    case 'unknown':
      throw new ProtoplayError('transcript.import.format', `${name} is ${detection.description}`);
  }
}
