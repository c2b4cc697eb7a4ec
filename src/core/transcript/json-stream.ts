/**
 * Protoplay JSON read in chunks, for files too big to hold (`protoplay inspect` from 64 MiB): the layout the
 * writer produces (`json-export.ts`: the header fields each on a line, then one message or annotation per
 * line) is read line by line, each message handed over as soon as its line is complete. What it reports is
 * what `readTranscriptJson` reports for the whole file: the same checks, and the same located damage (a file
 * cut short keeps the messages before the cut; a message or annotation of the wrong shape ends what is kept,
 * and is located at the line where it starts). Annotations are handed over as they come, after the
 * messages they hang off. The messages and annotations lists may come several times, in turn (a file written
 * while its session runs, cut short by a kill): they are read as one list each, as the whole-file reader
 * reads them. Files laid out otherwise (the whole JSON on one line) are read whole. A line longer than the
 * limit (`MAX_LINE_CHARACTERS`) is not held: a message or annotation on such a line is reported, located,
 * and skipped, and the reading goes on at the next line, so a file cut inside a line that never ends is
 * read in bounded memory.
 */
import type { ImportProblem, RecordingStreamReader, RecordingStreamSink } from '../protocols/contract';
import { ProtoplayError } from '../errors';
import { importProblem } from './import';
import { describeLineLimit, MAX_LINE_CHARACTERS, type LineLimit } from './line-limit';
import type { Annotation } from './model';
import {
  checkTranscriptAnnotation,
  checkTranscriptHeader,
  checkTranscriptMessage,
  hangsOffKept,
  placeTranscriptItem,
  readTranscriptJson,
  scanTranscriptTail,
  streamedDamage,
  wrongItemDamage,
} from './json-format';

/** The header is kept until it is read; a longer one is read whole. */
const HEAD_LIMIT = 16 * 1024 * 1024;
/** From a line that cannot be read alone, at most this much of the rest is kept to say where the damage is. */
const TAIL_LIMIT = 16 * 1024 * 1024;

/**
 * True when the first bytes of a Protoplay JSON file show the writer's layout (one field per line), which
 * `streamTranscriptJson` reads in chunks.
 */
export function transcriptJsonStreams(start: Uint8Array): boolean {
  const text = new TextDecoder().decode(start.subarray(0, 4096));
  return /^\{\r?\n[ \t]*"format"[ \t]*:[ \t]*"protoplay-transcript",\r?\n/.test(text);
}

type List = 'messages' | 'annotations';

/** Where an item starts: line and column (from 1). */
interface Place {
  line: number;
  column: number;
}

/**
 * The first message (or annotation) of the wrong shape: why, its number, and where it starts (absent when
 * the salvaging scan read it: it is found again in the scanned text when needed).
 */
interface Wrong {
  error: ProtoplayError;
  index: number;
  place?: Place;
}

const MESSAGES_OPEN = /^\s*"messages"\s*:\s*\[\s*$/;
const MESSAGES_EMPTY = /^\s*"messages"\s*:\s*\[\s*\]\s*,\s*$/;
const ANNOTATIONS_OPEN = /^\s*"annotations"\s*:\s*\[\s*$/;
const ANNOTATIONS_EMPTY = /^\s*"annotations"\s*:\s*\[\s*\]\s*$/;

/** A reader of Protoplay JSON in chunks, which says at the end whether the whole-file reader keeps a session. */
export interface TranscriptJsonStreamReader extends RecordingStreamReader {
  /**
   * False when `readTranscriptJson` keeps no transcript: the header could not be read. A message or
   * annotation of the wrong shape does not drop the session: what came before it was handed over, and the
   * problem reported says what was kept.
   */
  readonly session: boolean;
}

/** Reads a Protoplay JSON file fed in chunks; see the module's comment. */
export function streamTranscriptJson(
  name: string,
  sink: RecordingStreamSink,
  { maxLineCharacters = MAX_LINE_CHARACTERS }: LineLimit = {},
): TranscriptJsonStreamReader {
  const decoder = new TextDecoder();
  let partial = '';
  /** Number of the next line (from 1). */
  let lineNumber = 1;
  let phase: 'head' | 'damagedHead' | List | 'between' | 'closing' | 'tail' | 'done' = 'head';
  let head: string[] = [];
  let headLength = 0;
  /** Messages read (their lines), and those handed over (all before the first of the wrong shape). */
  let messages = 0;
  let kept = 0;
  let wrong: Wrong | undefined;
  /** The first annotation of the wrong shape: no annotation after it is handed over. */
  let wrongAnnotation: Wrong | undefined;
  let annotations = 0;
  let keptAnnotations = 0;
  /**
   * Annotations read before the message they hang off (a file written while its session runs may hold one
   * before its first message), handed over once it comes: their number, value and reading.
   */
  let early: { i: number; value: unknown; annotation: Annotation; place?: Place }[] = [];
  /** Whether the last item line ended with a comma (the next item is expected). */
  let comma = false;
  /** Whether the list being read has no item yet (it may be a list that comes again). */
  let fresh = true;
  /** Lines from the end of the last list on (where a salvaging scan starts when the rest is odd). */
  let held: { list: List; line: number; lines: string[] } | undefined;
  /** From the first line that is not one whole item: the rest of the file, for the salvaging scan. */
  let tail: {
    list: List;
    counts: { messages: number; annotations: number };
    atItem: boolean;
    line: number;
    text: string[];
    length: number;
  } = {
    list: 'messages',
    counts: { messages: 0, annotations: 0 },
    atItem: true,
    line: 0,
    text: [],
    length: 0,
  };
  let truncated = false;
  let session = true;
  /**
   * While skipping a line longer than the limit: where it starts, the item of a list it holds (none when
   * the line is skipped with the rest of a damaged file), how long it is so far and its last character
   * that is not blank.
   */
  let long: { line: number; list?: List; item: number; length: number; last: number } | undefined;
  /** Messages skipped for their length before any message of the wrong shape. */
  let skippedMessages = 0;
  /** Messages read in order so far (handed over or skipped), which the annotations read hang off. */
  const passed = () => kept + skippedMessages;

  const report = (problem: ImportProblem) => sink.problem(problem);

  /** Message `messages` (`place`: where its line starts it; absent when the salvaging scan read it). */
  function acceptMessage(value: unknown, place?: Place): void {
    const index = messages++;
    if (wrong) return;
    try {
      const message = checkTranscriptMessage(value, index, name);
      kept++;
      sink.message(message);
      if (early.length > 0) handEarly();
    } catch (error) {
      if (!(error instanceof ProtoplayError)) throw error;
      // A message of the wrong shape ends what is kept; the rest is still read for damage.
      wrong = { error, index, place };
    }
  }

  /** Annotation `annotations`, as `acceptMessage`. */
  function acceptAnnotation(value: unknown, place?: Place): void {
    const i = annotations++;
    // After an annotation of the wrong shape, none is kept.
    if (wrongAnnotation) return;
    // After a message of the wrong shape, only annotations of the messages before it are.
    const count = wrong ? wrong.index : messages;
    if (wrong && !hangsOffKept(value, count)) return;
    try {
      const annotation = checkTranscriptAnnotation(value, i, count, name);
      if (annotation.index < passed() && early.length === 0) handAnnotation(annotation);
      else early.push({ i, value, annotation, place });
    } catch (error) {
      if (!(error instanceof ProtoplayError)) throw error;
      // The rest is still read for messages and damage.
      wrongAnnotation = { error, index: i, place };
    }
  }

  function handAnnotation(annotation: Annotation): void {
    keptAnnotations++;
    sink.annotation?.(annotation);
  }

  /** Hands over the early annotations whose message has come, in order. */
  function handEarly(): void {
    let handed = 0;
    while (handed < early.length && early[handed]!.annotation.index < passed())
      handAnnotation(early[handed++]!.annotation);
    if (handed > 0) early = early.slice(handed);
  }

  /**
   * At the end of a file read to its end: annotations whose message never came are checked against all
   * the messages, as the whole-file reader checks them. The first wrong one ends the annotations kept (it
   * comes before any found wrong while reading: once one is, no annotation waits any more).
   */
  function settleEarly(): void {
    for (const { i, value, place } of early) {
      try {
        handAnnotation(checkTranscriptAnnotation(value, i, messages, name));
      } catch (error) {
        if (!(error instanceof ProtoplayError)) throw error;
        wrongAnnotation = { error, index: i, place };
        break;
      }
    }
    early = [];
  }

  function startTail(list: List, atItem: boolean, line: number, lines: string[]): void {
    phase = 'tail';
    tail = { list, counts: { messages, annotations }, atItem, line, text: [], length: 0 };
    for (const text of lines) addTail(text);
  }

  function addTail(text: string): void {
    if (truncated) return;
    if (tail.length + text.length > TAIL_LIMIT) {
      truncated = true;
      return;
    }
    tail.text.push(text);
    tail.length += text.length + 1;
  }

  function readHead(nextLine: string): void {
    let value: unknown;
    const text = head.join('\n');
    try {
      value = JSON.parse(`${text.replace(/,\s*$/, '')}}`);
    } catch {
      // Damaged: the header and what follows (as much as is kept) are read by the whole-file reader.
      phase = 'damagedHead';
      head.push(nextLine);
      return;
    }
    head = [];
    try {
      checkTranscriptHeader(value, name);
    } catch (error) {
      report(importProblem(error, name));
      phase = 'done';
      session = false;
    }
  }

  /** What the whole-file reader says about `text` (the file so far), for damage in the header. */
  function finishWhole(text: string): void {
    phase = 'done';
    try {
      const { transcript, damage } = readTranscriptJson(text, name);
      if (damage) report(importProblem(damage, name));
      session = transcript !== undefined;
      for (const message of transcript?.messages ?? []) sink.message(message);
      for (const annotation of transcript?.annotations ?? []) sink.annotation?.(annotation);
    } catch (error) {
      report(importProblem(error, name));
      session = false;
    }
  }

  function line(text: string, number: number): void {
    switch (phase) {
      case 'head': {
        const empty = MESSAGES_EMPTY.test(text);
        if (MESSAGES_OPEN.test(text) || empty) {
          readHead(text);
          if (phase === 'head') {
            phase = empty ? 'between' : 'messages';
            comma = false;
            fresh = true;
          }
          if (phase === 'between') {
            // `"messages": [],` is read by a salvaging scan from the list's end when the rest is odd.
            held = { list: 'messages', line: number, lines: [text.replace(/^.*\[\s*/, '')] };
          }
          return;
        }
        head.push(text);
        headLength += text.length + 1;
        if (headLength > HEAD_LIMIT) {
          // A header this long is not the writer's: what it says is left to the whole-file reader.
          report({
            file: name,
            line: number,
            message: 'the transcript header is too long to read in chunks',
          });
          phase = 'done';
        }
        return;
      }
      case 'messages':
      case 'annotations': {
        const { item, endsInComma, start } = itemOf(text);
        if (item === '') return;
        if (item === ']' && !comma) {
          held = { list: phase, line: number, lines: [text] };
          phase = endsInComma ? 'between' : 'closing';
          return;
        }
        let value: unknown;
        try {
          value = item.startsWith('{') || item.startsWith('[') ? JSON.parse(item) : undefined;
        } catch {
          value = undefined;
        }
        if (value === undefined) {
          startTail(phase, comma || (fresh && !item.startsWith(']')), number, [text]);
          return;
        }
        comma = endsInComma;
        fresh = false;
        const place = { line: number, column: start + 1 };
        if (phase === 'messages') acceptMessage(value, place);
        else acceptAnnotation(value, place);
        return;
      }
      case 'between': {
        held!.lines.push(text);
        if (text.trim() === '') return;
        if (ANNOTATIONS_OPEN.test(text) || MESSAGES_OPEN.test(text)) {
          phase = ANNOTATIONS_OPEN.test(text) ? 'annotations' : 'messages';
          comma = false;
          fresh = true;
        } else if (ANNOTATIONS_EMPTY.test(text)) {
          phase = 'closing';
        } else {
          startTail(held!.list, false, held!.line, held!.lines);
        }
        return;
      }
      case 'closing': {
        held!.lines.push(text);
        if (text.trim() === '' || (text.trim() === '}' && !held!.lines.slice(1, -1).some((l) => l.trim())))
          return;
        startTail(held!.list, false, held!.line, held!.lines);
        return;
      }
      case 'tail':
        addTail(text);
        return;
      case 'damagedHead':
        head.push(text);
        headLength += text.length + 1;
        if (headLength > HEAD_LIMIT + TAIL_LIMIT) finishWhole(head.join('\n'));
        return;
      case 'done':
        return;
    }
  }

  /** From line `number`, longer than the limit, on (its start is `partial`, dropped here): what it is. */
  function startLong(number: number): void {
    const start = partial;
    partial = '';
    switch (phase) {
      case 'messages':
      case 'annotations':
        long = {
          line: number,
          list: phase,
          item: phase === 'messages' ? messages : annotations,
          length: start.length,
          last: lastNotBlank(start, 0, start.length),
        };
        return;
      case 'head':
        // As any header too long: what it says is left to the whole-file reader.
        report({ file: name, line: number, message: 'the transcript header is too long to read in chunks' });
        phase = 'done';
        return;
      case 'damagedHead':
        finishWhole([...head, start].join('\n'));
        return;
      case 'between':
      case 'closing':
        startTail(held!.list, false, held!.line, held!.lines);
        truncated = true;
        break;
      case 'tail':
        truncated = true;
        break;
      case 'done':
        return;
    }
    // The rest of a damaged file: too long to say more of than that it does not make one value.
    long = { line: number, item: 0, length: start.length, last: 0 };
  }

  /** More of the line being skipped: `text` from `from` to `end`. */
  function continueLong(text: string, from: number, end: number): void {
    long!.length += end - from;
    const last = lastNotBlank(text, from, end);
    if (last !== 0) long!.last = last;
  }

  /** The line being skipped has ended: the item it held is reported and passed over. */
  function endLong(): void {
    const skipped = long;
    long = undefined;
    if (!skipped?.list || phase !== skipped.list) return;
    const what = skipped.list === 'messages' ? 'message' : 'annotation';
    report({
      file: name,
      line: skipped.line,
      message: `${what} ${skipped.item.toLocaleString('en-US')} is on a line longer than ${describeLineLimit(maxLineCharacters)} (${skipped.length.toLocaleString('en-US')} characters): skipped; the reading goes on at the next line`,
    });
    if (skipped.list === 'messages') {
      messages++;
      if (!wrong) skippedMessages++;
    } else annotations++;
    comma = skipped.last === COMMA;
    fresh = false;
  }

  function lines(text: string): void {
    let from = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
      const number = lineNumber++;
      if (long) {
        continueLong(text, from, end);
        endLong();
      } else {
        const piece = partial + text.slice(from, end);
        partial = '';
        if (piece.length > maxLineCharacters && phase !== 'done') {
          partial = piece;
          startLong(number);
          endLong();
        } else line(piece.endsWith('\r') ? piece.slice(0, -1) : piece, number);
      }
      from = end + 1;
    }
    if (long) {
      continueLong(text, from, text.length);
      return;
    }
    partial += text.slice(from);
    // A line that never ends is not gathered whole: from the limit on it is skipped.
    if (partial.length > maxLineCharacters && phase !== 'done') startLong(lineNumber);
  }

  return {
    push(chunk) {
      if (phase !== 'done') lines(decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (phase === 'done') return;
      lines(decoder.decode());
      // The file ends inside a line too long to hold.
      const cutLong = long;
      long = undefined;
      const last = partial;
      const lastNumber = lineNumber;
      if (last !== '') line(last, lastNumber);
      else if (held && (phase === 'between' || phase === 'closing')) held.lines.push('');
      if (phase === 'head' || phase === 'damagedHead') {
        finishWhole([...head, ...(last === '' ? [''] : [])].join('\n'));
        return;
      }
      if ((phase as string) === 'done') return;
      let scan: ReturnType<typeof scanTranscriptTail>;
      /** The text the salvaging scan read from `tail`, where an item of the wrong shape it read is found. */
      let tailText: string | undefined;
      if (cutLong?.list && phase === cutLong.list) {
        const what = cutLong.list === 'messages' ? 'message' : 'annotation';
        scan = {
          root: {},
          damage: {
            what: `the file ends inside ${what} ${cutLong.item.toLocaleString('en-US')}, on a line longer than ${describeLineLimit(maxLineCharacters)}`,
            line: cutLong.line,
            column: 1,
          },
        };
      } else if (phase === 'tail') {
        if (last === '') tail.text.push('');
        tailText = tail.text.join('\n');
        scan = scanTranscriptTail(tailText, tail.list, tail.counts, tail.line, tail.atItem);
        if (truncated && scan.damage && scan.damage.what.startsWith('the file ends')) {
          scan.damage = {
            what: `not valid JSON at line ${tail.line} col 1 (inside ${tail.list === 'messages' ? 'message' : 'annotation'} ${tail.counts[tail.list].toLocaleString('en-US')}): more than ${TAIL_LIMIT / 1024 / 1024} MiB do not make one value`,
            line: tail.line,
            column: 1,
          };
        }
        for (const value of Array.isArray(scan.root.messages) ? scan.root.messages : []) acceptMessage(value);
        for (const value of Array.isArray(scan.root.annotations) ? scan.root.annotations : [])
          acceptAnnotation(value);
      } else if (phase === 'closing' && held!.lines.some((l) => l.trim() === '}')) {
        scan = { root: {} };
      } else {
        // The file ends inside a list or before its end.
        const list: List = phase === 'messages' || phase === 'annotations' ? phase : held!.list;
        const inList = phase === 'messages' || phase === 'annotations';
        const text = inList ? '' : held!.lines.join('\n');
        scan = scanTranscriptTail(
          text,
          list,
          { messages, annotations },
          inList ? lastNumber : held!.line,
          inList && (comma || fresh),
        );
        if (scan.damage && inList)
          scan.damage = { ...scan.damage, line: lastNumber, column: last.length + 1 };
      }
      if (scan.damage || wrong) {
        // Cut short, or ended by a wrong message: the annotations of messages kept go with them, as in the
        // whole-file reading.
        for (const { annotation } of early) if (annotation.index < passed()) handAnnotation(annotation);
        early = [];
      } else settleEarly();
      // A message of the wrong shape is the one named when an annotation is wrong too, as in the whole file.
      const first = wrong ?? wrongAnnotation;
      const counts = { messages: kept, annotations: keptAnnotations };
      if (scan.damage)
        report(importProblem(streamedDamage(scan.damage, { ...counts, wrong: first?.error }, name), name));
      else if (first) {
        // Where it starts: its line, or else found again in the text the salvaging scan read.
        let place = first.place;
        if (!place && tailText !== undefined)
          place = placeTranscriptItem(
            tailText,
            { list: wrong ? 'messages' : 'annotations', index: first.index },
            { list: tail.list, counts: tail.counts, firstLine: tail.line, atItem: tail.atItem },
          );
        report(
          importProblem(wrongItemDamage(first.error, counts, name, place ?? { line: 1, column: 1 }), name),
        );
      }
      phase = 'done';
    },
    get session() {
      return session;
    },
  };
}

const COMMA = 0x2c;

/** The code of the last character of `text` from `from` to `end` that is not blank, or 0 when there is none. */
function lastNotBlank(text: string, from: number, end: number): number {
  while (end > from && blank(text.charCodeAt(end - 1))) end--;
  return end > from ? text.charCodeAt(end - 1) : 0;
}

function blank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * A list's line: its text without the white space around it and the comma that ends it, and where that
 * text starts.
 */
function itemOf(line: string): { item: string; endsInComma: boolean; start: number } {
  let start = 0;
  let end = line.length;
  while (start < end && blank(line.charCodeAt(start))) start++;
  while (end > start && blank(line.charCodeAt(end - 1))) end--;
  const endsInComma = end > start && line.charCodeAt(end - 1) === 0x2c;
  if (endsInComma) end--;
  while (end > start && blank(line.charCodeAt(end - 1))) end--;
  return { item: line.slice(start, end), endsInComma, start };
}
