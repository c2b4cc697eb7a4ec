/**
 * Reads the side-channel annotations of an rddlsim transcript. Annotations are free-form JSON (a transcript
 * may come from another version or tool), so every reader here checks shapes and ignores what it does
 * not understand rather than failing the whole view.
 */
import type { Annotation } from '../../transcript/model';
import type { SessionNote, ValueRow } from '../reading';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a note-like payload: a string, or an object with `text` or `message`. */
function payloadText(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (!isRecord(data)) return undefined;
  if (typeof data.text === 'string') return data.text;
  if (typeof data.message === 'string') return data.message;
  return undefined;
}

/** A note for the console panel, or undefined for annotations that are not notes. */
export function annotationNote(annotation: Annotation): SessionNote | undefined {
  const { index, type, data } = annotation;
  if (type !== 'note' && type !== 'violation' && type !== 'error' && type !== 'policy-log') return undefined;
  const text = payloadText(data);
  if (text === undefined) return undefined;
  const level = isRecord(data) && typeof data.level === 'string' ? data.level : undefined;
  return { index, kind: type, text, ...(level ? { level } : {}) };
}

/** One fluent grounding of a world annotation: `{ name, args, value }`. */
function readFluent(value: unknown): ValueRow | undefined {
  if (!isRecord(value) || typeof value.name !== 'string') return undefined;
  const args = Array.isArray(value.args) ? value.args.map(String) : [];
  return { name: value.name, args, value: String(value.value) };
}

/**
 * The true state carried by a `world` annotation: a list of fluents, or an object holding one under
 * `state` or `fluents`. Undefined when the payload has no readable fluents.
 */
export function annotationWorld(data: unknown): ValueRow[] | undefined {
  const list = Array.isArray(data) ? data : isRecord(data) ? (data.state ?? data.fluents) : undefined;
  if (!Array.isArray(list)) return undefined;
  const rows = list.map(readFluent).filter((row): row is ValueRow => row !== undefined);
  return rows.length ? rows : undefined;
}
