/**
 * The transcript store: an append-only, compact form of a transcript for long sessions, convertible to and
 * from the plain `Transcript` (see `store.ts`), with its phrase book and JSON export.
 */
export {
  TranscriptStore,
  type AnnotationPacker,
  type StepRange,
  type TranscriptStoreOptions,
  type TranscriptStoreSize,
} from './store';
export type { LiteralCompression } from './chunk';
export { PhraseBook, PhraseList, type PhraseOutput } from './phrases';
export { writeTranscriptJson, transcriptJson, type TranscriptJsonSource } from '../json-export';
export { PhraseJsonReader } from './phrase-json';
