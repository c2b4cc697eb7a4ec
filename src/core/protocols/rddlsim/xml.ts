/**
 * A small XML element tree built with saxes (a maintained, conformant, streaming parser that runs in
 * workers, where there is no DOMParser). Only what rddlsim messages need: elements, attributes and the
 * character data between them, kept as separate nodes the way xerces' DOM keeps them, because the real
 * server reads "the first child node's value" of an element.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ProtoplayError } from '../../errors';

/** An element with its attributes and child nodes in document order. */
export interface XmlElement {
  kind: 'element';
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

/**
 * Character data: text (entities resolved, adjacent runs merged), a CDATA section or a comment.
 * `processing-instruction` is never produced by `parseXml` (see TreeBuilder); the kind stays so views that
 * print every kind of node keep compiling.
 */
export interface XmlCharacterData {
  kind: 'text' | 'cdata' | 'comment' | 'processing-instruction';
  value: string;
}

/** Any node below the root. */
export type XmlNode = XmlElement | XmlCharacterData;

/** A parsed document: its root element and whether it started with an XML declaration. */
export interface XmlDocument {
  root: XmlElement;
  declaration: boolean;
}

/** Where and why saxes gave up. */
interface ParseFailure {
  message: string;
  line: number;
  column: number;
}

/**
 * Builds the tree while saxes reports events. A parser is reused for every document (saxes resets itself
 * on `close`), which saves its set-up cost on each of the thousands of messages of a session. Processing
 * instructions inside elements are skipped: listening to them makes saxes several times slower, and no
 * rddlsim message has any.
 */
class TreeBuilder {
  readonly #parser: SaxesParser<{ xmlns: false; position: boolean }>;
  #stack: XmlElement[] = [];
  #root: XmlElement | undefined;
  #declaration = false;
  #error: ParseFailure | undefined;

  constructor(position: boolean) {
    const parser = new SaxesParser<{ xmlns: false; position: boolean }>({ xmlns: false, position });
    this.#parser = parser;
    parser.on('xmldecl', () => (this.#declaration = true));
    parser.on('opentag', (tag: SaxesTagPlain) => {
      const element: XmlElement = {
        kind: 'element',
        name: tag.name,
        attributes: tag.attributes,
        children: [],
      };
      const parent = this.#stack[this.#stack.length - 1];
      if (parent) parent.children.push(element);
      else this.#root ??= element;
      this.#stack.push(element);
    });
    parser.on('closetag', () => void this.#stack.pop());
    parser.on('text', (text) => this.#characters('text', text));
    parser.on('cdata', (text) => this.#characters('cdata', text));
    parser.on('comment', (text) => this.#characters('comment', text));
    parser.on('error', (error) => {
      // saxes prefixes "line:column: "; the location is kept separately, so only the words remain.
      this.#error ??= {
        message: error.message.replace(/^\d+:\d+: /, ''),
        line: parser.line,
        column: Math.max(1, parser.column),
      };
    });
  }

  /** The document, or why it is not well-formed. */
  parse(text: string): XmlDocument | ParseFailure {
    this.#stack = [];
    this.#root = undefined;
    this.#declaration = false;
    this.#error = undefined;
    this.#parser.write(text).close();
    // Set by the error handler during `write`, which the compiler cannot see.
    const error = this.#error as ParseFailure | undefined;
    return error ?? { root: this.#root!, declaration: this.#declaration };
  }

  #characters(kind: XmlCharacterData['kind'], value: string): void {
    const parent = this.#stack[this.#stack.length - 1];
    if (!parent) return; // whitespace around the root: allowed, and not part of any element
    const last = parent.children[parent.children.length - 1];
    if (kind === 'text' && last?.kind === 'text') last.value += value;
    else parent.children.push({ kind, value });
  }
}

/** Parsers without position tracking (faster) for the usual case, and with it to locate errors. */
let fast: TreeBuilder | undefined;
let locating: TreeBuilder | undefined;

/**
 * Parses one XML document. Malformed input throws a ProtoplayError (`rddlsim.xml.malformed`) located at
 * the line and column where the parser gave up, in the text named `source` (e.g. "message 12").
 */
export function parseXml(text: string, source = 'message'): XmlDocument {
  fast ??= new TreeBuilder(false);
  let result: XmlDocument | ParseFailure;
  try {
    result = fast.parse(text);
  } catch (error) {
    // saxes itself can fail on some invalid input (a lone UTF-16 surrogate in a processing instruction);
    // its state is then unknown, so both parsers are made anew.
    fast = locating = undefined;
    const invalid = firstInvalidCharacter(text);
    const reason =
      invalid === undefined
        ? error instanceof Error
          ? error.message
          : String(error)
        : `U+${text.charCodeAt(invalid).toString(16).toUpperCase()} is half of a UTF-16 surrogate pair, not a character`;
    throw new ProtoplayError('rddlsim.xml.malformed', `malformed XML: ${reason}`, {
      source,
      ...positionOf(text, invalid ?? 0),
    });
  }
  if ('root' in result) return result;
  locating ??= new TreeBuilder(true);
  const located = locating.parse(text);
  const failure = 'root' in located ? result : located;
  throw new ProtoplayError('rddlsim.xml.malformed', `malformed XML: ${failure.message}`, {
    source,
    line: failure.line,
    column: failure.column,
  });
}

/** Offset of the first UTF-16 code unit that is a lone surrogate, if any. */
function firstInvalidCharacter(text: string): number | undefined {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text)?.index;
}

/** 1-based line and column of an offset. */
function positionOf(text: string, offset: number): { line: number; column: number; offset: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n'), offset };
}

/** The element children of `element` named `name`, in order. */
export function childElements(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((node): node is XmlElement => node.kind === 'element' && node.name === name);
}

/**
 * Every element below `element` named `name`, in document order (like DOM's `getElementsByTagName`, which
 * the real server uses for every field it reads, so nesting and order do not matter to it).
 */
export function descendantElements(element: XmlElement, name: string): XmlElement[] {
  return collectDescendants(element, name, []);
}

function collectDescendants(element: XmlElement, name: string, found: XmlElement[]): XmlElement[] {
  for (const child of element.children) {
    if (child.kind !== 'element') continue;
    if (child.name === name) found.push(child);
    collectDescendants(child, name, found);
  }
  return found;
}

/** The first element below `element` named `name`, in document order. */
export function firstDescendant(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of element.children) {
    if (child.kind !== 'element') continue;
    if (child.name === name) return child;
    const deeper = firstDescendant(child, name);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * What DOM's `element.getFirstChild().getNodeValue()` gives: the first child's character data, `null`
 * when that child is an element (elements have no value), `undefined` when there is no child at all (the
 * real server then fails with a NullPointerException).
 */
export function firstChildValue(element: XmlElement): string | null | undefined {
  const first = element.children[0];
  if (!first) return undefined;
  return first.kind === 'element' ? null : first.value;
}

/** All text and CDATA below `element`, concatenated. */
export function textContent(element: XmlElement): string {
  let text = '';
  for (const child of element.children) {
    if (child.kind === 'element') text += textContent(child);
    else if (child.kind === 'text' || child.kind === 'cdata') text += child.value;
  }
  return text;
}
