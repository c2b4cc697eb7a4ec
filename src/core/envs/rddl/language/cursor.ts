/** Positions in a text (Monaco's convention: lines and columns from 1) and the tokens around them. */
import type { IToken } from 'chevrotain';
import { tokenize } from '../lexer';

/** A cursor or hover position: line and column from 1. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A span of text, end exclusive. */
export interface TextRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** The token under the position (the character at `column`, or the one just before the cursor). */
export function tokenAt(
  tokens: readonly IToken[],
  position: TextPosition,
): { token: IToken; index: number } | undefined {
  let justBefore: { token: IToken; index: number } | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startLine !== position.line) continue;
    if (t.startColumn! <= position.column && position.column <= t.endColumn!) return { token: t, index: i };
    if (position.column === t.endColumn! + 1) justBefore = { token: t, index: i };
  }
  return justBefore;
}

/** The index of the first token that starts at or after the position. */
export function tokenIndexAfter(tokens: readonly IToken[], position: TextPosition): number {
  const i = tokens.findIndex(
    (t) =>
      t.startLine! > position.line || (t.startLine === position.line && t.startColumn! >= position.column),
  );
  return i < 0 ? tokens.length : i;
}

/** The range a token covers. */
export function tokenRange(token: IToken): TextRange {
  return {
    startLine: token.startLine!,
    startColumn: token.startColumn!,
    endLine: token.endLine!,
    endColumn: token.endColumn! + 1,
  };
}

/** Tokens of a text (comments excluded). */
export function tokensOf(text: string): IToken[] {
  return tokenize(text).tokens;
}
