/**
 * `JSON.parse` for texts given as phrases of a phrase book, several times faster when the same phrases come
 * back again and again (a MASSim percept is ~60 phrases, most of them seen thousands of times): each phrase
 * is read once into tokens, its complete objects and arrays parsed once, and a text is then assembled from
 * those pieces, copying the parsed values so that no two results share an object.
 *
 * The result is always what `JSON.parse` gives for the joined text. Whenever the phrases do not split the
 * text cleanly at token boundaries (a phrase ending inside a string, two numbers touching), or the text is
 * not valid JSON, the joined text goes to `JSON.parse` itself (which then also gives its usual errors).
 */

const BEGIN_OBJECT = 0;
const END_OBJECT = 1;
const BEGIN_ARRAY = 2;
const END_ARRAY = 3;
const COLON = 4;
const COMMA = 5;
/** A string, number, boolean or null, already decoded. */
const PRIMITIVE = 6;
/** A whole object or array inside the phrase, parsed once; copied on every use. */
const COMPOSITE = 7;

/** What one phrase holds, read once. */
interface PhraseTokens {
  kinds: number[];
  values: unknown[];
  /** The phrase starts with a character that would continue a number or literal before it. */
  startsBare: boolean;
  /** The phrase ends with a number or literal, which a following digit or letter would continue. */
  endsBare: boolean;
}

/** A phrase that does not split into whole tokens. */
const UNCLEAN = null;

const TOKEN =
  /[ \t\n\r]+|[{}[\]:,]|"(?:[\u0020\u0021\u0023-\u005b\u005d-\uffff]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y;
const BARE_START = /^[-+.0-9A-Za-z]/;

export class PhraseJsonReader {
  readonly #texts: readonly string[];
  readonly #tokens: (PhraseTokens | typeof UNCLEAN | undefined)[] = [];

  /** `texts` are the phrase book's texts by number; the reader keeps its own reading of each. */
  constructor(texts: readonly string[]) {
    this.#texts = texts;
  }

  /** Forgets its reading of phrases numbered `from` and above (the book was cut back and is regrown). */
  forget(from: number): void {
    if (this.#tokens.length > from) this.#tokens.length = from;
  }

  /** `JSON.parse` of the texts of `phrases[start..end)` joined. */
  parse(phrases: ArrayLike<number>, start = 0, end = phrases.length): unknown {
    const result = this.#assemble(phrases, start, end);
    if (result !== FALLBACK) return result;
    let text = '';
    for (let i = start; i < end; i++) text += this.#texts[phrases[i]!];
    return JSON.parse(text);
  }

  #assemble(phrases: ArrayLike<number>, start: number, end: number): unknown {
    // Containers being filled, and for objects the key waiting for its value.
    const stack: (Record<string, unknown> | unknown[])[] = [];
    const keys: (string | undefined)[] = [];
    let root: unknown = FALLBACK;
    let expect: Expect = Expect.Value;
    let previousBare = false;
    for (let i = start; i < end; i++) {
      const tokens = this.#read(phrases[i]!);
      if (tokens === UNCLEAN || (previousBare && tokens.startsBare)) return FALLBACK;
      if (tokens.kinds.length > 0) previousBare = tokens.endsBare;
      const { kinds, values } = tokens;
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[k]!;
        if (kind === PRIMITIVE || kind === COMPOSITE) {
          const value = kind === COMPOSITE ? copyJson(values[k]) : values[k];
          if (expect === Expect.Key || expect === Expect.KeyOrClose) {
            if (typeof value !== 'string') return FALLBACK;
            keys[keys.length - 1] = value;
            expect = Expect.Colon;
            continue;
          }
          if (expect !== Expect.Value && expect !== Expect.ValueOrClose) return FALLBACK;
          if (stack.length === 0) {
            root = value;
            expect = Expect.End;
          } else {
            store(stack[stack.length - 1]!, keys[keys.length - 1], value);
            expect = Expect.CommaOrClose;
          }
        } else if (kind === BEGIN_OBJECT || kind === BEGIN_ARRAY) {
          if (expect !== Expect.Value && expect !== Expect.ValueOrClose) return FALLBACK;
          const container: Record<string, unknown> | unknown[] = kind === BEGIN_OBJECT ? {} : [];
          if (stack.length === 0) root = container;
          else store(stack[stack.length - 1]!, keys[keys.length - 1], container);
          stack.push(container);
          keys.push(undefined);
          expect = kind === BEGIN_OBJECT ? Expect.KeyOrClose : Expect.ValueOrClose;
        } else if (kind === END_OBJECT || kind === END_ARRAY) {
          const container = stack[stack.length - 1];
          if (container === undefined || Array.isArray(container) !== (kind === END_ARRAY)) return FALLBACK;
          if (
            expect !== Expect.CommaOrClose &&
            expect !== Expect.KeyOrClose &&
            expect !== Expect.ValueOrClose
          )
            return FALLBACK;
          stack.pop();
          keys.pop();
          expect = stack.length === 0 ? Expect.End : Expect.CommaOrClose;
        } else if (kind === COMMA) {
          if (expect !== Expect.CommaOrClose) return FALLBACK;
          expect = Array.isArray(stack[stack.length - 1]) ? Expect.Value : Expect.Key;
        } else {
          if (expect !== Expect.Colon) return FALLBACK;
          expect = Expect.Value;
        }
      }
    }
    return expect === Expect.End ? root : FALLBACK;
  }

  #read(phrase: number): PhraseTokens | typeof UNCLEAN {
    let tokens = this.#tokens[phrase];
    if (tokens === undefined) {
      tokens = readPhrase(this.#texts[phrase]!);
      this.#tokens[phrase] = tokens;
    }
    return tokens;
  }
}

const FALLBACK = Symbol('fall back to JSON.parse');

/** What may come next while assembling. */
const Expect = {
  Value: 0,
  ValueOrClose: 1,
  Key: 2,
  KeyOrClose: 3,
  Colon: 4,
  CommaOrClose: 5,
  End: 6,
} as const;
type Expect = (typeof Expect)[keyof typeof Expect];

/** Tokens of one phrase, with objects and arrays that open and close inside it parsed whole. */
function readPhrase(text: string): PhraseTokens | typeof UNCLEAN {
  const kinds: number[] = [];
  const values: unknown[] = [];
  /** Per container opened in this phrase: its token index and text offset. */
  const open: [number, number][] = [];
  let endsBare = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) return UNCLEAN;
    const token = match[0];
    const first = token.charCodeAt(0);
    if (first === 0x20 || first === 0x09 || first === 0x0a || first === 0x0d) continue;
    endsBare = false;
    switch (token) {
      case '{':
      case '[':
        open.push([kinds.length, at]);
        kinds.push(token === '{' ? BEGIN_OBJECT : BEGIN_ARRAY);
        values.push(undefined);
        break;
      case '}':
      case ']': {
        const opened = open.pop();
        if (opened) {
          // A whole container inside the phrase: parsed once, kept as one value.
          let value: unknown;
          try {
            value = JSON.parse(text.slice(opened[1], TOKEN.lastIndex));
          } catch {
            return UNCLEAN;
          }
          kinds.length = opened[0];
          values.length = opened[0];
          kinds.push(COMPOSITE);
          values.push(value);
        } else {
          kinds.push(token === '}' ? END_OBJECT : END_ARRAY);
          values.push(undefined);
        }
        break;
      }
      case ':':
        kinds.push(COLON);
        values.push(undefined);
        break;
      case ',':
        kinds.push(COMMA);
        values.push(undefined);
        break;
      default:
        kinds.push(PRIMITIVE);
        values.push(JSON.parse(token));
        endsBare = first !== 0x22;
    }
  }
  return { kinds, values, startsBare: BARE_START.test(text), endsBare };
}

function store(
  container: Record<string, unknown> | unknown[],
  key: string | undefined,
  value: unknown,
): void {
  if (Array.isArray(container)) container.push(value);
  else setProperty(container, key!, value);
}

/** Sets a property as `JSON.parse` does: an own property even for `__proto__`. */
function setProperty(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** A copy of a value `JSON.parse` made, sharing nothing with it. */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = value.slice();
    for (let i = 0; i < copy.length; i++) {
      const item: unknown = copy[i];
      if (typeof item === 'object' && item !== null) copy[i] = copyJson(item);
    }
    return copy;
  }
  // Spreading copies own properties as data properties (an own `__proto__` too) in the engine's fast way.
  const copy: Record<string, unknown> = { ...value };
  for (const key in copy) {
    const item = copy[key];
    if (typeof item === 'object' && item !== null) setProperty(copy, key, copyJson(item));
  }
  return copy;
}
