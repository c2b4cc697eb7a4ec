/**
 * Which blocks an RDDL text defines, without parsing it: a scan of its top-level `domain`, `non-fluents`
 * and `instance` headers (and the `domain = ...;` / `non-fluents = ...;` references inside instance and
 * non-fluents blocks). Building the real parser and parsing a directory of IPPC files costs hundreds of
 * milliseconds; a server that serves many files only needs to know which file holds which block before it
 * listens, and parses a file when a session first asks for one of its instances.
 *
 * The scan skips comments and counts braces. It never throws: text it cannot follow yields fewer blocks,
 * and the full parse reports the syntax error with its location when the file is used.
 */

/** What the scan found of one top-level block. */
export interface BlockHeader {
  kind: 'domain' | 'non-fluents' | 'instance';
  name: string;
  /** 1-based position of the block's name. */
  nameLoc: { line: number; column: number };
  /** The domain an instance or non-fluents block names. */
  domain?: string;
  /** The non-fluents block an instance names. */
  nonFluents?: string;
}

/** At nesting 0 and 1: comments, braces, `;`, `=` and names (anything else is skipped by the search). */
const SHALLOW =
  /\/\/[^\r\n]*|\/\*(?:[^*]|\*(?!\/))*(?:\*\/)?|[{};=]|[A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?'?/g;
/** Deeper: only comments and braces matter (block headers and references sit at nesting 0 and 1). */
const DEEP = /\/\/[^\r\n]*|\/\*(?:[^*]|\*(?!\/))*(?:\*\/)?|[{}]/g;
const KINDS = new Set<string>(['domain', 'non-fluents', 'instance']);

/** The top-level blocks of an RDDL text, in source order. */
export function scanRddlBlocks(text: string): BlockHeader[] {
  const blocks: BlockHeader[] = [];
  let depth = 0;
  let current: BlockHeader | undefined;
  /** Tokens seen at the current nesting since the last `;`, `{` or `}`: enough to read `a = b ;`. */
  let statement: string[] = [];
  /** Where the last name at nesting 0 starts (a block's name, when `{` follows it). */
  let lastNameAt = 0;
  let at = 0;
  for (;;) {
    const pattern = depth >= 2 ? DEEP : SHALLOW;
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) break;
    at = pattern.lastIndex;
    const token = match[0];
    if (token.length > 1 && token[0] === '/' && (token[1] === '/' || token[1] === '*')) continue;
    if (token === '{') {
      if (depth === 0) {
        const [kind, name] = statement;
        if (statement.length === 2 && kind && name && KINDS.has(kind)) {
          current = { kind: kind as BlockHeader['kind'], name, nameLoc: locate(text, lastNameAt) };
          blocks.push(current);
        } else current = undefined;
      }
      depth++;
      statement = [];
      continue;
    }
    if (token === '}') {
      depth = Math.max(0, depth - 1);
      if (depth === 0) current = undefined;
      statement = [];
      continue;
    }
    if (token === ';') {
      if (
        depth === 1 &&
        current &&
        current.kind !== 'domain' &&
        statement.length === 3 &&
        statement[1] === '='
      ) {
        const [key, , value] = statement;
        if (key === 'domain') current.domain = value;
        else if (key === 'non-fluents' && current.kind === 'instance') current.nonFluents = value;
      }
      statement = [];
      continue;
    }
    // Only short statements are ever read; longer ones (declarations at nesting 1) need not be kept.
    if (statement.length < 4) statement.push(token);
    if (depth === 0) lastNameAt = match.index;
  }
  return blocks;
}

function locate(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
