/**
 * Protoplay's JSON transcript format (docs/transcript-format.md): the `Transcript` object as JSON, one
 * message or annotation per line so files diff well. Reading checks every field and says where a file is
 * wrong, since transcripts are pasted and hand-edited.
 */
import { ProtoplayError } from '../errors';
import { plainTranscriptSource, transcriptJson } from './json-export';
import {
  TRANSCRIPT_FORMAT_VERSION,
  type Annotation,
  type ConnectionInfo,
  type HttpMessageMeta,
  type Transcript,
  type TranscriptMessage,
} from './model';

const ANNOTATION_TYPES: readonly Annotation['type'][] = [
  'world',
  'policy-log',
  'error',
  'violation',
  'note',
  'reward',
];
const KINDS: readonly TranscriptMessage['kind'][] = ['data', 'open', 'close', 'error'];
const FRAMINGS: readonly string[] = ['nul', 'none', 'frame'];

/** Writes a transcript as Protoplay JSON (the one writer of `json-export.ts`, gathered into a string). */
export function serialiseTranscript(transcript: Transcript): string {
  return transcriptJson(plainTranscriptSource(transcript));
}

/** What the start of a text says of a Protoplay JSON transcript (format detection). */
export interface TranscriptJsonDetection {
  /** 1 when the start names the format; less when it ends before `format` and its fields tell. */
  confidence: number;
  /** The protocol the start names (absent when it ends before `protocol`). */
  protocol?: string;
}

/** The top-level fields of a transcript, and what the first item of each of its lists shows. */
const TRANSCRIPT_FIELDS = [
  'format',
  'version',
  'protocol',
  'startedAt',
  'meta',
  'connections',
  'messages',
  'annotations',
];
const LIST_ITEM_SIGNS: Record<string, RegExp> = {
  connections: /"id"\s*:\s*"/,
  messages: /"dir"\s*:\s*"(?:c2s|s2c)"/,
  annotations: /"type"\s*:\s*"(?:world|policy-log|error|violation|note|reward)"/,
};

/**
 * Whether the start of a text (a file's first KiB) is a Protoplay JSON transcript, judged from its
 * top-level fields alone, in any order and layout, after a byte order mark: a `format` field says so.
 * When the start ends before it (keys sorted by `jq -S`, so a long `annotations` list comes first), every
 * field seen must be a transcript's and the list the start ends in must show an item of its kind.
 * Undefined when it is not.
 */
export function detectTranscriptJson(start: string): TranscriptJsonDetection | undefined {
  const head = readJsonHead(start);
  if (!head || head.fields.length === 0) return undefined;
  if (head.format !== undefined)
    return head.format === 'protoplay-transcript'
      ? { confidence: 1, ...(head.protocol !== undefined ? { protocol: head.protocol } : {}) }
      : undefined;
  const sign = head.cutIn && LIST_ITEM_SIGNS[head.cutIn.field];
  if (!sign || !head.fields.every((field) => TRANSCRIPT_FIELDS.includes(field))) return undefined;
  if (!sign.test(start.slice(head.cutIn!.at))) return undefined;
  return { confidence: 0.9, ...(head.protocol !== undefined ? { protocol: head.protocol } : {}) };
}

/** The top-level fields of a JSON object begun in a text, without their values (but `format`'s and `protocol`'s). */
interface JsonHead {
  fields: string[];
  format?: string;
  protocol?: string;
  /** The field whose value the text ends in, and where that value starts. */
  cutIn?: { field: string; at: number };
}

/**
 * Reads the top-level fields of the JSON object a text starts with, skipping their values (nested values
 * are only counted through, never parsed). Undefined when the text is not the start of a JSON object.
 */
function readJsonHead(text: string): JsonHead | undefined {
  const head: JsonHead = { fields: [] };
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skipBlank = () => {
    while (pos < text.length && blankCode(text.charCodeAt(pos))) pos++;
  };
  /** The index of the quote that ends the string starting at `from`, or -1 when the text ends first. */
  const stringEnd = (from: number): number => {
    for (let i = from + 1; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x5c) i++;
      else if (code === 0x22) return i;
    }
    return -1;
  };
  skipBlank();
  if (text[pos] !== '{') return undefined;
  pos++;
  for (;;) {
    skipBlank();
    if (pos >= text.length || text[pos] === '}') return head;
    if (text[pos] !== '"') return undefined;
    const keyEnd = stringEnd(pos);
    if (keyEnd === -1) return head;
    const field = parseJsonString(text.slice(pos, keyEnd + 1));
    if (field === undefined) return undefined;
    pos = keyEnd + 1;
    skipBlank();
    if (pos >= text.length) return head;
    if (text[pos] !== ':') return undefined;
    pos++;
    skipBlank();
    head.fields.push(field);
    const at = pos;
    if (text[pos] === '"') {
      const end = stringEnd(pos);
      if (end === -1) {
        head.cutIn = { field, at };
        return head;
      }
      const value = parseJsonString(text.slice(pos, end + 1));
      if ((field === 'format' || field === 'protocol') && head[field] === undefined) head[field] = value;
      pos = end + 1;
    } else {
      // A number, a literal, or a list or object: read up to the `,` or `}` that ends it.
      let depth = 0;
      for (; pos < text.length; pos++) {
        const char = text[pos];
        if (char === '"') {
          const end = stringEnd(pos);
          if (end === -1) break;
          pos = end;
        } else if (char === '[' || char === '{') depth++;
        else if (char === ']' || char === '}') {
          if (depth === 0) break;
          depth--;
        } else if (char === ',' && depth === 0) break;
      }
      if (pos >= text.length || depth > 0 || text[pos] === '"') {
        head.cutIn = { field, at };
        return head;
      }
    }
    skipBlank();
    if (pos >= text.length) return head;
    if (text[pos] === '}') return head;
    if (text[pos] !== ',') return undefined;
    pos++;
  }
}

function parseJsonString(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

function blankCode(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * Reads Protoplay JSON. Throws a ProtoplayError located at the JSON syntax error, or naming the first
 * field that is wrong (`messages[3].dir: expected "c2s" or "s2c"`). Connections used by messages but not
 * listed are added.
 */
export function parseTranscriptJson(text: string, source = 'transcript.json'): Transcript {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw jsonSyntaxError(text, error, source);
  }
  return checkTranscript(value, source);
}

/** What reading Protoplay JSON kept: the transcript (absent when not even its header could be read) and why
 * the reading stopped early, if it did. */
export interface TranscriptJsonRead {
  transcript?: Transcript;
  /**
   * A located error: where the file is cut or damaged, or where its first message or annotation of the
   * wrong shape starts, and what was kept.
   */
  damage?: ProtoplayError;
}

/**
 * Reads Protoplay JSON, salvaging a damaged file: when the text is not valid JSON (a file cut short by a
 * crash, a download stopped midway, garbage pasted in), the header and every complete message and
 * annotation before the damage are kept, and `damage` says where it is. A file whose header is damaged keeps
 * nothing. Valid JSON with a message or annotation of the wrong shape is read as far as that item: the
 * header, the messages before a wrong message (with those of their annotations that come before the first
 * wrong one), or every message and the annotations before a wrong annotation, and `damage` names the wrong
 * field, located where the item starts. Throws only the errors `parseTranscriptJson` throws for a header
 * of the wrong shape (a wrong header field, or a list that is not a list).
 */
export function readTranscriptJson(text: string, source = 'transcript.json'): TranscriptJsonRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return salvageTranscriptJson(text, error, source);
  }
  if (repeatsAList(text, value)) {
    // A file written while its session ran, closed by hand: `JSON.parse` keeps only the last of each list.
    const scanner = new SalvageScanner(text);
    try {
      scanner.read();
      value = scanner.root;
    } catch (error) {
      // Valid JSON the scan cannot walk (not the writer's): what `JSON.parse` read stands.
      if (!(error instanceof Damage)) throw error;
    }
  }
  const { transcript, wrong } = checkKept(value, source, false);
  if (!wrong) return { transcript };
  const { line, column } = placeTranscriptItem(text, wrong) ?? { line: 1, column: 1 };
  return {
    transcript,
    damage: wrongItemDamage(wrong.error, keptCounts(transcript), source, { line, column }),
  };
}

/** A message or annotation of a transcript: its list and its number there (counted over all its lists). */
export interface TranscriptItem {
  list: 'messages' | 'annotations';
  index: number;
}

/** The first message or annotation of the wrong shape in a transcript, and why. */
interface WrongItem extends TranscriptItem {
  error: ProtoplayError;
}

/**
 * Checks a transcript (read whole, or what a salvaging scan read), keeping what comes before the first
 * message or annotation of the wrong shape: a wrong message ends the messages kept (and the annotations of
 * the messages after it go with them), and a wrong annotation ends the annotations kept, among those of the
 * messages kept. Messages are checked before annotations, so a wrong message is the one named when both
 * are wrong. `cut`: the messages read are not all the file's (it is damaged), so annotations of messages
 * not read go too. A header of the wrong shape throws.
 */
function checkKept(
  value: unknown,
  source: string,
  cut: boolean,
): { transcript: Transcript; wrong?: WrongItem } {
  const check = new ShapeChecker(source);
  const root = check.record(value, 'transcript');
  let wrong: WrongItem | undefined;
  let transcript: Transcript;
  try {
    transcript = checkTranscript({ ...root, annotations: [] }, source);
  } catch (error) {
    const bad = error instanceof ProtoplayError ? /^messages\[(\d+)\]/.exec(error.message) : null;
    if (!bad) throw error;
    wrong = { error: error as ProtoplayError, list: 'messages', index: Number(bad[1]) };
    const messages = (root.messages as unknown[]).slice(0, wrong.index);
    transcript = checkTranscript({ ...root, messages, annotations: [] }, source);
  }
  const count = transcript.messages.length;
  const annotations = check.array(root.annotations ?? [], 'annotations');
  for (let i = 0; i < annotations.length; i++) {
    const item = annotations[i];
    if ((cut || wrong) && !hangsOffKept(item, count)) continue;
    try {
      transcript.annotations.push(checkAnnotation(check, item, i, count));
    } catch (error) {
      if (!(error instanceof ProtoplayError)) throw error;
      wrong ??= { error, list: 'annotations', index: i };
      break;
    }
  }
  return wrong ? { transcript, wrong } : { transcript };
}

function keptCounts(transcript: Transcript): { messages: number; annotations: number } {
  return { messages: transcript.messages.length, annotations: transcript.annotations.length };
}

/**
 * True when the messages and annotations lists may come more than once, as in a file written while its
 * session ran (`JSON.parse` of such a file keeps the last of each): cheap tests of what the parse kept. The
 * messages kept do not start at 0 (an earlier list held the first ones), or the file's first messages list
 * is empty (its first records were annotations) and a later one is not.
 */
function repeatsAList(text: string, value: unknown): boolean {
  const messages = (value as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  if ((messages[0] as { index?: unknown } | null)?.index !== 0) return true;
  const opening = text.indexOf('"messages": [');
  return opening !== -1 && /^\s*\]/.test(text.slice(opening + '"messages": ['.length, opening + 256));
}

/** Where a salvaging read stopped: at `at` (a UTF-16 offset), at the end of the text or at bad syntax. */
class Damage {
  constructor(
    readonly at: number,
    readonly ended: boolean,
    readonly detail: string,
  ) {}
}

/** Where the item a scan looks for starts (a UTF-16 offset): the scan stops there. */
class Found {
  constructor(readonly at: number) {}
}

const LISTS = ['connections', 'messages', 'annotations'] as const;
const LIST_ITEM: Record<(typeof LISTS)[number], string> = {
  connections: 'connection',
  messages: 'message',
  annotations: 'annotation',
};

/**
 * Walks the top-level object of a text `JSON.parse` refused, one field and one list item at a time (each
 * item is parsed alone, so memory stays that of the items kept), and stops at the first damage. Given an
 * item to `find`, it stops where that item starts instead, throwing `Found` (how the error for a message
 * or annotation of the wrong shape is located).
 */
class SalvageScanner {
  pos = 0;
  /** What is being read, for the error: `inside message 12`, `after "meta"`, ... */
  where = 'inside the header';
  readonly root: Record<string, unknown> = {};
  /** Items of each list read before the text (a file read line by line), for the error's numbering. */
  readonly #before: Record<(typeof LISTS)[number], number> = { connections: 0, messages: 0, annotations: 0 };
  /** The next line end at or after the last item tried (Infinity when none). */
  #newline = -1;

  constructor(
    readonly text: string,
    readonly find?: TranscriptItem,
  ) {}

  read(): void {
    this.expect('{');
    if (this.peek() === '}') this.pos++;
    else this.fields();
    this.finish();
  }

  /**
   * Reads on from inside a list of a file read line by line, after `counts` items of each list already read
   * elsewhere: the text starts at the next item (`atItem`), or else after the last one, where a ',' or ']'
   * follows.
   */
  resume(
    key: (typeof LISTS)[number],
    counts: { messages: number; annotations: number },
    atItem: boolean,
  ): void {
    this.#before.messages = counts.messages;
    this.#before.annotations = counts.annotations;
    this.where = `inside "${key}"`;
    this.list(key, true, atItem);
    if (this.afterField(key)) this.fields();
    this.finish();
  }

  /** After a field's value: true when another field follows. */
  afterField(key: string): boolean {
    this.where = `after "${key}"`;
    const next = this.peek();
    this.pos++;
    if (next === '}') return false;
    if (next !== ',') this.fail(this.pos - 1, "expected ',' or '}'");
    return true;
  }

  fields(): void {
    for (;;) {
      this.where = 'inside a field name';
      const key = this.parsed(this.value());
      if (typeof key !== 'string') this.fail(this.pos, 'expected a field name in quotes');
      this.expect(':');
      this.where = `inside "${key}"`;
      if ((LISTS as readonly string[]).includes(key)) this.list(key as (typeof LISTS)[number]);
      else this.root[key] = this.item();
      if (!this.afterField(key)) break;
    }
  }

  finish(): void {
    this.where = 'after the end of the transcript';
    if (this.peek() !== undefined) this.fail(this.pos, 'more text after the end of the transcript');
  }

  /**
   * A list; `inside`: the text starts inside it. A list that comes again (a file written while its session
   * ran switches between messages and annotations as they come) goes on where the last one ended.
   */
  list(key: (typeof LISTS)[number], inside = false, atItem = true): void {
    const items = (this.root[key] ??= []) as unknown[];
    const first = this.#before[key];
    if (!inside) {
      this.expect('[');
      if (this.peek() === ']') {
        this.pos++;
        return;
      }
    }
    for (let skip = !atItem; ; skip = false) {
      if (!skip) {
        if (this.find?.list === key && this.find.index === first + items.length) {
          this.peek();
          throw new Found(this.pos);
        }
        this.where = `inside ${LIST_ITEM[key]} ${(first + items.length).toLocaleString('en-US')}`;
        items.push(this.item());
      }
      this.where = `after ${LIST_ITEM[key]} ${(first + items.length - 1).toLocaleString('en-US')}`;
      const next = this.peek();
      this.pos++;
      if (next === ']') return;
      if (next !== ',') this.fail(this.pos - 1, "expected ',' or ']'");
    }
  }

  fail(at: number, detail: string): never {
    if (at >= this.text.length) throw new Damage(this.text.length, true, detail);
    throw new Damage(at, false, detail);
  }

  /** The next character after white space, without taking it (undefined at the end). */
  peek(): string | undefined {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return text[this.pos];
      this.pos++;
    }
    return undefined;
  }

  expect(char: string): void {
    if (this.peek() !== char) this.fail(this.pos, `expected '${char}'`);
    this.pos++;
  }

  /**
   * The JSON value at the position, which is then taken. Files laid out by the writer hold one value per
   * line, tried first as the rest of the line (one `JSON.parse`, no scan); anything else is scanned.
   */
  item(): unknown {
    const start = this.pos;
    if (this.peek() !== undefined) {
      const from = this.pos;
      // Found once per line (a file on one line is not searched again for each item).
      if (this.#newline < from) {
        this.#newline = this.text.indexOf('\n', from);
        if (this.#newline === -1) this.#newline = Infinity;
      }
      let end = this.#newline === Infinity ? -1 : this.#newline;
      while (end > from && /[\s,]/.test(this.text[end - 1]!)) end--;
      if (end > from) {
        try {
          const value: unknown = JSON.parse(this.text.slice(from, end));
          this.pos = end;
          return value;
        } catch {
          // Not a whole value on its line: scanned below.
        }
      }
    }
    this.pos = start;
    return this.parsed(this.value());
  }

  parsed([start, end]: [number, number]): unknown {
    try {
      return JSON.parse(this.text.slice(start, end));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Damage(start, false, detail.replace(/\s*(?:in JSON )?at position \d+.*$/, ''));
    }
  }

  /**
   * The extent of the JSON value at the position (brackets matched, strings skipped), which is then taken.
   * Structure only: the value's text is checked by `JSON.parse`.
   */
  value(): [number, number] {
    const text = this.text;
    const first = this.peek();
    const start = this.pos;
    if (first === undefined) this.fail(start, 'expected a value');
    const closers: string[] = [];
    let pos = start;
    do {
      const c = text[pos];
      if (c === '"') {
        pos++;
        for (;;) {
          if (pos >= text.length) this.fail(pos, 'unterminated string');
          const code = text.charCodeAt(pos);
          if (code === 0x22) break;
          if (code === 0x5c) pos++;
          else if (code < 0x20) this.fail(pos, 'a control character inside a string');
          pos++;
        }
        pos++;
      } else if (c === '{' || c === '[') {
        closers.push(c === '{' ? '}' : ']');
        pos++;
      } else if (c === '}' || c === ']') {
        if (closers.pop() !== c) this.fail(pos, `unexpected '${c}'`);
        pos++;
      } else if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === ',' || c === ':') {
        if (closers.length === 0) this.fail(pos, `unexpected '${c}'`);
        pos++;
      } else if (c !== undefined && /[-0-9a-z.+E]/.test(c)) {
        while (pos < text.length && /[-0-9a-zA-Z.+]/.test(text[pos]!)) pos++;
        // A number or word the text ends in may be cut.
        if (pos >= text.length) this.fail(pos, 'the text ends');
      } else {
        this.fail(pos, c === undefined ? 'the text ends' : `unexpected character ${JSON.stringify(c)}`);
      }
    } while (closers.length > 0);
    this.pos = pos;
    return [start, pos];
  }
}

/** Line and column (from 1) of a UTF-16 offset. */
function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1 };
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

function salvageTranscriptJson(text: string, parseError: unknown, source: string): TranscriptJsonRead {
  const scanner = new SalvageScanner(text);
  let damage: Damage | undefined;
  try {
    scanner.read();
  } catch (error) {
    if (!(error instanceof Damage)) throw error;
    damage = error;
  }
  if (!damage) return { damage: jsonSyntaxError(text, parseError, source) };
  const root = scanner.root;
  const { line, column } = lineColumn(text, damage.at);
  const what = damageWhat(damage, scanner.where, line, column);
  if (!['format', 'version', 'protocol', 'startedAt'].every((key) => key in root))
    return { damage: headerDamage(what, source, line, column) };
  // A message or annotation of the wrong shape before the damage ends what is kept there too.
  const messages: unknown[] = Array.isArray(root.messages) ? root.messages : [];
  const { transcript, wrong } = checkKept({ ...root, messages }, source, true);
  return {
    transcript,
    damage: keptDamage(
      what + (wrong ? wrongBefore(wrong.error) : ''),
      transcript.messages.length,
      transcript.annotations.length,
      source,
      line,
      column,
    ),
  };
}

/** What the damage is, for the error: `the file ends inside message 12` or `not valid JSON at ...`. */
function damageWhat(damage: Damage, where: string, line: number, column: number): string {
  return damage.ended
    ? `the file ends ${where}`
    : `not valid JSON at line ${line} col ${column} (${where}): ${damage.detail}`;
}

function headerDamage(what: string, source: string, line: number, column: number): ProtoplayError {
  return new ProtoplayError(
    'transcript.json.salvage',
    `${what}; the header (format, version, protocol, startedAt) is not complete, so nothing could be kept`,
    { source, line, column },
  );
}

function keptDamage(
  what: string,
  messages: number,
  annotations: number,
  source: string,
  line: number,
  column: number,
): ProtoplayError {
  return new ProtoplayError(
    'transcript.json.salvage',
    `${what}; kept the header, ${plural(messages, 'complete message')} and ${plural(annotations, 'annotation')} before it`,
    { source, line, column },
  );
}

/** The words added to the damage when a message or annotation of the wrong shape came before it. */
function wrongBefore(error: ProtoplayError): string {
  return `, and before it ${error.message}`;
}

/**
 * Whether an annotation stays when the messages after the first `count` were not kept: annotations of
 * messages that were not kept go with them (one whose `index` is not a number is checked, and is wrong).
 */
export function hangsOffKept(item: unknown, count: number): boolean {
  return (
    typeof item !== 'object' ||
    item === null ||
    typeof (item as { index?: unknown }).index !== 'number' ||
    (item as { index: number }).index < count
  );
}

/**
 * Where `item` starts in `text` (line and column from 1), found by a salvaging scan: of the whole file, or,
 * with `tail`, of the rest of a file read line by line from the line where an item could not be read alone
 * (as `scanTranscriptTail` reads it). Undefined when the scan does not get there.
 */
export function placeTranscriptItem(
  text: string,
  item: TranscriptItem,
  tail?: {
    list: 'messages' | 'annotations';
    counts: { messages: number; annotations: number };
    firstLine: number;
    atItem: boolean;
  },
): { line: number; column: number } | undefined {
  const scanner = new SalvageScanner(text, item);
  try {
    if (tail) scanner.resume(tail.list, tail.counts, tail.atItem);
    else scanner.read();
  } catch (error) {
    if (error instanceof Found) {
      const { line, column } = lineColumn(text, error.at);
      return { line: line + (tail ? tail.firstLine - 1 : 0), column };
    }
    if (!(error instanceof Damage)) throw error;
  }
  return undefined;
}

/**
 * The error of a file that is valid JSON (or read line by line to its end without damage) but holds a
 * message or annotation of the wrong shape: what is wrong and what was kept, located where the item starts.
 */
export function wrongItemDamage(
  wrong: ProtoplayError,
  kept: { messages: number; annotations: number },
  source: string,
  place: { line: number; column: number },
): ProtoplayError {
  return keptDamage(wrong.message, kept.messages, kept.annotations, source, place.line, place.column);
}

/**
 * For a file read line by line (`json-stream.ts`), from the line where an item of `list` could not be read
 * alone (after `counts` items of each list; `atItem` as for `SalvageScanner.resume`): the items the
 * salvaging scan still reads in `tail` (the rest of the file, or as much of it as was kept), the fields
 * after the list, and the damage it meets, located from the tail's first line, which is line `firstLine`
 * of the file.
 */
export function scanTranscriptTail(
  tail: string,
  list: 'messages' | 'annotations',
  counts: { messages: number; annotations: number },
  firstLine: number,
  atItem: boolean,
): {
  root: Record<string, unknown>;
  damage?: { what: string; line: number; column: number };
} {
  const scanner = new SalvageScanner(tail);
  try {
    scanner.resume(list, counts, atItem);
    return { root: scanner.root };
  } catch (error) {
    if (!(error instanceof Damage)) throw error;
    const at = lineColumn(tail, error.at);
    const line = at.line + firstLine - 1;
    return {
      root: scanner.root,
      damage: { what: damageWhat(error, scanner.where, line, at.column), line, column: at.column },
    };
  }
}

/** The damage error of a file read line by line, as `readTranscriptJson` words it for the whole file. */
export function streamedDamage(
  damage: { what: string; line: number; column: number },
  kept: { messages: number; annotations: number; wrong?: ProtoplayError } | undefined,
  source: string,
): ProtoplayError {
  if (!kept) return headerDamage(damage.what, source, damage.line, damage.column);
  return keptDamage(
    damage.what + (kept.wrong ? wrongBefore(kept.wrong) : ''),
    kept.messages,
    kept.annotations,
    source,
    damage.line,
    damage.column,
  );
}

/** Checks a transcript's header (all but its messages and annotations), as `parseTranscriptJson` does. */
export function checkTranscriptHeader(value: unknown, source: string): Transcript {
  return checkTranscript({ ...new ShapeChecker(source).record(value, 'transcript'), messages: [] }, source);
}

/** Checks message `index` of a transcript, as `parseTranscriptJson` does. */
export function checkTranscriptMessage(value: unknown, index: number, source: string): TranscriptMessage {
  return checkMessage(new ShapeChecker(source), value, index);
}

/** Checks annotation `i` of a transcript of `messages` messages, as `parseTranscriptJson` does. */
export function checkTranscriptAnnotation(
  value: unknown,
  i: number,
  messages: number,
  source: string,
): Annotation {
  return checkAnnotation(new ShapeChecker(source), value, i, messages);
}

/** A located error for text `JSON.parse` refused: line and column from the parser's message. */
export function jsonSyntaxError(text: string, error: unknown, source: string): ProtoplayError {
  const detail = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column (\d+)/.exec(detail);
  const position = /position (\d+)/.exec(detail);
  let line = 1;
  let column = 1;
  if (lineColumn) {
    line = Number(lineColumn[1]);
    column = Number(lineColumn[2]);
  } else if (position) {
    const before = text.slice(0, Number(position[1]));
    line = before.split('\n').length;
    column = before.length - before.lastIndexOf('\n');
  }
  const words = detail
    .replace(/\s*(?:in JSON )?at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '');
  return new ProtoplayError('transcript.json.syntax', `not valid JSON: ${words}`, { source, line, column });
}

/**
 * Checks the shapes of a parsed transcript. A check of a field takes its record's path and the field's
 * name, joined only when the check fails (a big transcript's messages are checked by the hundred thousand).
 */
class ShapeChecker {
  constructor(readonly source: string) {}

  fail(path: string, expected: string, got: unknown): never {
    const shown = got === undefined ? 'nothing' : JSON.stringify(got)?.slice(0, 60);
    throw new ProtoplayError('transcript.json.shape', `${path}: expected ${expected}, got ${shown}`, {
      source: this.source,
      line: 1,
      column: 1,
    });
  }

  record(value: unknown, path: string, field?: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(joined(path, field), 'an object', value);
    return value as Record<string, unknown>;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'a list', value);
    return value;
  }

  string(value: unknown, path: string, field?: string): string {
    if (typeof value !== 'string') this.fail(joined(path, field), 'a string', value);
    return value;
  }

  number(value: unknown, path: string, field?: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value))
      this.fail(joined(path, field), 'a number', value);
    return value;
  }

  oneOf<T extends string>(value: unknown, options: readonly T[], path: string, field?: string): T {
    if (!options.includes(value as T))
      this.fail(joined(path, field), options.map((o) => JSON.stringify(o)).join(' or '), value);
    return value as T;
  }
}

/** A field's path: its record's path and its name. */
function joined(path: string, field: string | undefined): string {
  return field === undefined ? path : `${path}.${field}`;
}

function checkTranscript(value: unknown, source: string): Transcript {
  const check = new ShapeChecker(source);
  const root = check.record(value, 'transcript');
  if (root.format !== 'protoplay-transcript') check.fail('format', '"protoplay-transcript"', root.format);
  // Version 1 files hold the same fields as version 2 minus `channel` and `http`: they read unchanged.
  if (root.version !== 1 && root.version !== TRANSCRIPT_FORMAT_VERSION)
    check.fail('version', `1 or ${TRANSCRIPT_FORMAT_VERSION}`, root.version);
  const protocol = check.string(root.protocol, 'protocol');
  if (!/^[a-z][a-z0-9-]*$/.test(protocol)) check.fail('protocol', 'a protocol id like "rddlsim"', protocol);
  const startedAt = check.number(root.startedAt, 'startedAt');
  const meta: Transcript['meta'] = {};
  for (const [key, item] of Object.entries(check.record(root.meta ?? {}, 'meta'))) {
    if (!['string', 'number', 'boolean'].includes(typeof item))
      check.fail(`meta.${key}`, 'a string, number or boolean', item);
    meta[key] = item as string | number | boolean;
  }
  const connections: ConnectionInfo[] = check.array(root.connections ?? [], 'connections').map((item, i) => {
    const connection = check.record(item, `connections[${i}]`);
    const id = check.string(connection.id, `connections[${i}].id`);
    return connection.label === undefined
      ? { id }
      : { id, label: check.string(connection.label, `connections[${i}].label`) };
  });
  const messages = check.array(root.messages, 'messages').map((item, i) => checkMessage(check, item, i));
  for (const message of messages) {
    if (!connections.some((connection) => connection.id === message.conn))
      connections.push({ id: message.conn });
  }
  const annotations: Annotation[] = check
    .array(root.annotations ?? [], 'annotations')
    .map((item, i) => checkAnnotation(check, item, i, messages.length));
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol,
    startedAt,
    meta,
    connections,
    messages,
    annotations,
  };
}

function checkAnnotation(check: ShapeChecker, item: unknown, i: number, messages: number): Annotation {
  const annotation = check.record(item, `annotations[${i}]`);
  const index = check.number(annotation.index, `annotations[${i}].index`);
  if (messages > 0 && (index < 0 || index >= messages || !Number.isInteger(index)))
    check.fail(`annotations[${i}].index`, `a message index from 0 to ${messages - 1}`, index);
  return {
    index,
    type: check.oneOf(annotation.type, ANNOTATION_TYPES, `annotations[${i}].type`),
    data: annotation.data,
  };
}

/** The fields a message record may carry. */
const MESSAGE_FIELDS: ReadonlySet<string> = new Set([
  'index',
  't',
  'conn',
  'dir',
  'kind',
  'text',
  'base64',
  'framing',
  'channel',
  'http',
]);
/** The fields a message's `http` record may carry. */
const HTTP_FIELDS: ReadonlySet<string> = new Set(['exchange', 'method', 'path', 'status', 'headers']);

/** True when every field of the record is one of `fields` (a record with others is copied without them). */
function onlyFields(record: Record<string, unknown>, fields: ReadonlySet<string>): boolean {
  for (const key in record) if (!fields.has(key)) return false;
  return true;
}

/**
 * Checks message `i`. A record that holds only the fields a message may have is the message itself, not a
 * copy: a big transcript's hundred thousand messages are then not made twice (and the garbage collector
 * does not move the first ones only to throw them away).
 */
function checkMessage(check: ShapeChecker, item: unknown, i: number): TranscriptMessage {
  const path = `messages[${i}]`;
  const message = check.record(item, path);
  if (message.index !== i)
    check.fail(`${path}.index`, `${i} (indices count from 0 without gaps)`, message.index);
  const kind = check.oneOf(message.kind, KINDS, path, 'kind');
  const conn = check.string(message.conn, path, 'conn');
  const dir = check.oneOf(message.dir, ['c2s', 's2c'] as const, path, 'dir');
  const t = check.number(message.t, path, 't');
  const text = message.text === undefined ? undefined : check.string(message.text, path, 'text');
  const base64 = message.base64 === undefined ? undefined : check.string(message.base64, path, 'base64');
  if (kind === 'data' && (text === undefined) === (base64 === undefined))
    check.fail(path, 'exactly one of "text" and "base64" on a data message', message);
  const framing =
    message.framing === undefined
      ? undefined
      : (check.oneOf(message.framing, FRAMINGS, path, 'framing') as TranscriptMessage['framing']);
  const channel = message.channel === undefined ? undefined : check.string(message.channel, path, 'channel');
  const http = message.http === undefined ? undefined : checkHttp(check, message.http, path);
  if (onlyFields(message, MESSAGE_FIELDS) && http === message.http)
    return message as unknown as TranscriptMessage;
  const result: TranscriptMessage = { index: i, conn, dir, t, kind };
  if (text !== undefined) result.text = text;
  if (base64 !== undefined) result.base64 = base64;
  if (framing !== undefined) result.framing = framing;
  if (channel !== undefined) result.channel = channel;
  if (http !== undefined) result.http = http;
  return result;
}

/** Checks a message's `http` record: the record itself when it holds only its fields and string headers. */
function checkHttp(check: ShapeChecker, value: unknown, message: string): HttpMessageMeta {
  const http = check.record(value, message, 'http');
  const exchange = check.number(http.exchange, message, 'http.exchange');
  if (!Number.isInteger(exchange) || exchange < 0)
    check.fail(`${message}.http.exchange`, 'a message index', exchange);
  const method = http.method === undefined ? undefined : check.string(http.method, message, 'http.method');
  const path = http.path === undefined ? undefined : check.string(http.path, message, 'http.path');
  const status = http.status === undefined ? undefined : check.number(http.status, message, 'http.status');
  let headers: Record<string, string> | undefined;
  if (http.headers !== undefined) {
    headers = check.record(http.headers, message, 'http.headers') as Record<string, string>;
    for (const name in headers)
      if (typeof headers[name] !== 'string') check.string(headers[name], message, `http.headers.${name}`);
  }
  if (onlyFields(http, HTTP_FIELDS)) return http as unknown as HttpMessageMeta;
  const result: HttpMessageMeta = { exchange };
  if (method !== undefined) result.method = method;
  if (path !== undefined) result.path = path;
  if (status !== undefined) result.status = status;
  if (headers !== undefined) result.headers = headers;
  return result;
}
