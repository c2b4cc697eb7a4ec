/**
 * Reads one MASSim timeline file (`<connection>.timeline.jsonl`, or the merged `all.timeline.jsonl`) fed in
 * chunks, handing over each frame or connection event as soon as its line is complete, so `inspect` reads a
 * recording of any length in bounded memory. Lines are taken in file order (a recorder writes them as they
 * happen); a line that is not a timeline entry is reported with its number and skipped; the recorder's
 * notes (`client destroys`...) are not messages and are left out. A line longer than `MAX_LINE_CHARACTERS`
 * (binary garbage without a newline) is reported and skipped up to the next newline.
 */
import { ProtoplayError } from '../../errors';
import { MAX_LINE_CHARACTERS } from '../../transcript/line-limit';
import type { RecordingStreamReader, RecordingStreamSink } from '../contract';
import { parseTimelineLine, readEvent, timelineConnection } from './timeline-import';

/** Longer lines are refused: a percept is kilobytes, a megabyte-long line is not a frame (the limit every streaming reader keeps). */
export { MAX_LINE_CHARACTERS };

/** A streaming reader of one timeline file (see the file comment). */
export function streamMassimTimeline(name: string, sink: RecordingStreamSink): RecordingStreamReader {
  const conn = timelineConnection(name);
  const decoder = new TextDecoder();
  let pending = '';
  let lineNumber = 0;
  /** Set while skipping the rest of an overlong line. */
  let skipping = false;
  let startedAt: number | undefined;
  let index = 0;
  const clientClosed = new Set<string>();

  const take = (line: string) => {
    lineNumber++;
    let entry;
    try {
      entry = parseTimelineLine(line, name, lineNumber, conn);
    } catch (error) {
      const message = error instanceof ProtoplayError ? error.message : String(error);
      sink.problem({ file: name, line: lineNumber, message });
      return;
    }
    if (!entry) return;
    startedAt ??= entry.t;
    const t = entry.t - startedAt;
    if (entry.dir !== 'event') {
      // Written out key by key rather than spread from a common part: objects spread from another each get
      // a shape of their own, and every machine and reader would then read a hundred thousand shapes.
      sink.message({
        index: index++,
        conn: entry.conn,
        t,
        dir: entry.dir,
        kind: 'data',
        text: entry.text,
        framing: 'nul',
      });
      return;
    }
    const event = readEvent(entry.text, clientClosed.has(entry.conn));
    if (event.clientCloses) clientClosed.add(entry.conn);
    if (event.message) {
      const { kind, dir } = event.message;
      sink.message({ index: index++, conn: entry.conn, t, kind, dir, text: entry.text });
    }
  };

  const takeLines = (text: string) => {
    let from = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', from)) {
      if (skipping) {
        skipping = false;
        lineNumber++;
      } else take(pending + text.slice(from, end));
      pending = '';
      from = end + 1;
    }
    if (skipping) return;
    pending += text.slice(from);
    if (pending.length > MAX_LINE_CHARACTERS) {
      sink.problem({
        file: name,
        line: lineNumber + 1,
        message: `a line longer than ${MAX_LINE_CHARACTERS} characters is not a timeline entry; skipped to the next line`,
      });
      pending = '';
      skipping = true;
    }
  };

  return {
    push: (chunk) => takeLines(decoder.decode(chunk, { stream: true })),
    end: () => {
      takeLines(decoder.decode());
      if (skipping || pending.trim() === '') return;
      const last = pending;
      pending = '';
      lineNumber++;
      try {
        if (parseTimelineLine(last, name, lineNumber, conn)) {
          lineNumber--;
          take(last);
        }
      } catch {
        sink.problem({
          file: name,
          line: lineNumber,
          message: 'the file ends in the middle of a line: the last entry is cut off',
        });
      }
    },
  };
}
