/**
 * Maps positions in compiled policy code back to the user's source, from the version 3 source map the
 * compiler emits. Only what error locations need: one source, generated position to original position.
 */

/** A position; lines and columns start at 1 (as editors count). */
export interface Position {
  line: number;
  column: number;
}

/** One mapping segment: from `generatedColumn` on its line, code comes from `line:column` of the source. */
interface Segment {
  generatedColumn: number;
  line: number;
  column: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((char, index) => [char, index]));

/** Decodes one segment's base64 VLQ fields (each a signed integer, 5 bits per character). */
function decodeVlqFields(text: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64_VALUE.get(char);
    if (digit === undefined) throw new Error(`invalid source map character '${char}'`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** A decoded source map: finds the original position of any generated position. */
export class SourceMapping {
  /** Segments per generated line (index 0 = line 1), sorted by generated column. */
  readonly #lines: Segment[][];

  /** Decodes the `mappings` string of a version 3 source map with a single source. */
  constructor(mappings: string) {
    this.#lines = [];
    let line = 0;
    let column = 0;
    for (const lineText of mappings.split(';')) {
      const segments: Segment[] = [];
      let generatedColumn = 0;
      for (const segmentText of lineText.split(',')) {
        if (!segmentText) continue;
        const fields = decodeVlqFields(segmentText);
        generatedColumn += fields[0] ?? 0;
        if (fields.length < 4) continue;
        line += fields[2]!;
        column += fields[3]!;
        segments.push({ generatedColumn, line, column });
      }
      this.#lines.push(segments);
    }
  }

  /**
   * The original position of a generated one: the nearest segment at or before the column, shifted by the
   * distance from it (a thrown error points inside a token the map only marks at its start). Falls back to
   * the same line when the map has nothing for it.
   */
  originalPosition(generated: Position): Position {
    const segments = this.#lines[generated.line - 1] ?? [];
    const zeroColumn = generated.column - 1;
    let best: Segment | undefined;
    for (const segment of segments) {
      if (segment.generatedColumn > zeroColumn) break;
      best = segment;
    }
    if (!best) return generated;
    return { line: best.line + 1, column: best.column + (zeroColumn - best.generatedColumn) + 1 };
  }
}
