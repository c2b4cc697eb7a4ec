/** Folding ranges of an RDDL text: brace blocks spanning several lines, and runs of comment lines. */
import { tokenize } from '../lexer';

/** A foldable span of lines (from 1). */
export interface FoldingRange {
  startLine: number;
  endLine: number;
  kind?: 'comment';
}

/** Every foldable range of a text, in order of start. */
export function foldingRanges(text: string): FoldingRange[] {
  const { tokens, comments } = tokenize(text);
  const ranges: FoldingRange[] = [];
  const open: number[] = [];
  for (const token of tokens) {
    if (token.image === '{') open.push(token.startLine!);
    else if (token.image === '}') {
      const start = open.pop();
      if (start !== undefined && token.startLine! > start)
        ranges.push({ startLine: start, endLine: token.startLine! });
    }
  }
  let runStart: number | undefined;
  let runEnd = 0;
  const closeRun = () => {
    if (runStart !== undefined && runEnd > runStart)
      ranges.push({ startLine: runStart, endLine: runEnd, kind: 'comment' });
    runStart = undefined;
  };
  const lines = text.split('\n');
  for (const comment of comments) {
    const line = comment.startLine!;
    // Only whole-line comments fold together.
    if (!/^\s*\/\//.test(lines[line - 1] ?? '')) continue;
    if (runStart !== undefined && line === runEnd + 1) runEnd = line;
    else {
      closeRun();
      runStart = line;
      runEnd = line;
    }
  }
  closeRun();
  return ranges.sort((a, b) => a.startLine - b.startLine);
}
