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

const TOKEN =
  /\/\/[^\r\n]*|\/\*(?:[^*]|\*(?!\/))*(?:\*\/)?|[A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?'?|\s+|[\s\S]/y;
const KINDS = new Set<string>(['domain', 'non-fluents', 'instance']);

/** The top-level blocks of an RDDL text, in source order. */
export function scanRddlBlocks(text: string): BlockHeader[] {
  const words: { text: string; offset: number }[] = [];
  const blocks: BlockHeader[] = [];
  let depth = 0;
  let current: BlockHeader | undefined;
  /** Tokens seen at the current nesting since the last `;`, `{` or `}`: enough to read `a = b ;`. */
  let statement: string[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const token = match[0];
    const first = token.charCodeAt(0);
    if (/\s/.test(token[0]!) || (first === 47 && (token[1] === '/' || token[1] === '*'))) continue;
    if (token === '{') {
      if (depth === 0) {
        const [kind, name] = statement;
        if (statement.length === 2 && kind && name && KINDS.has(kind)) {
          const offset = words[words.length - 1]!.offset;
          current = { kind: kind as BlockHeader['kind'], name, nameLoc: locate(text, offset) };
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
    statement.push(token);
    if (depth === 0) words.push({ text: token, offset: match.index });
    if (words.length > 2) words.shift();
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
