/**
 * What the machines, the reader and the frame-log reader need of a frame GAMA sent: its kind, the
 * scavenger, a request's reward, shape and end; never the observation itself. Requests are nearly all
 * the traffic and each carries a matrix: `JSON.parse` would build it (a list per row) only for it to be
 * thrown away. So a request written as GAMA writes it (`{ "id": ..., "request": { "state": [...],
 * "reward": r[, "terminal": true] } }`, with any JSON spacing) is checked by one regular expression that
 * holds JSON's grammar for that form, with every row as long as the first; anything else (another key
 * order, escapes in a string, a ragged matrix, broken JSON) goes to `readGamaMessage`. The expression
 * only ever says "readable, and this is what it says": it never words a problem.
 *
 * Both machines judge a message and the reader reads it soon after: `outlineOfMessage` keeps the
 * outlines of the last messages outlined (a bounded number, keyed by the message object) so a message is
 * read once however many of them look at it.
 */
import type { TranscriptMessage } from '../../transcript/model';
import { RecentReadings } from '../../transcript/recent-readings';
import { readGamaMessage } from './codec';
import type { GamaConnectMessage, GamaRequestMessage, GamaScenarioMessage } from './messages';

/** A request without its state. */
export type GamaRequestOutline = Omit<GamaRequestMessage, 'state'>;

/** A frame GAMA sent, without a request's state. */
export type GamaMessageOutline = GamaScenarioMessage | GamaConnectMessage | GamaRequestOutline;

/** A frame GAMA sent, outlined; or why it could not be read (as `readGamaMessage` says it). */
export type GamaOutlineReading =
  { ok: true; message: GamaMessageOutline } | { ok: false; problem: string; column?: number };

/** Outlines a frame GAMA sent: the verdict and fields `readGamaMessage` gives, without the state. */
export function readGamaOutline(text: string): GamaOutlineReading {
  const request = matchRequest(text);
  if (request) return { ok: true, message: request };
  const reading = readGamaMessage(text);
  if (!reading.ok || reading.message.type !== 'request') return reading;
  const { id, shape, reward, terminal } = reading.message;
  return { ok: true, message: { type: 'request', id, shape, reward, terminal } };
}

/**
 * How many outlines are kept. A session's validation and its reader each see a message within a batch
 * of messages (the reader's batches are a thousand): a few thousand cover both, and never more.
 */
export const KEPT_OUTLINES = 4096;

const outlines = new RecentReadings<GamaOutlineReading>(KEPT_OUTLINES);

/**
 * The outline of a message GAMA sent (`readGamaOutline` of its text; a message without text reads as
 * empty), read once while it is among the latest outlined (see `RecentReadings`): a message is never
 * given another's outline, nor the outline of what its text was before.
 */
export function outlineOfMessage(message: TranscriptMessage): GamaOutlineReading {
  return outlines.read(message, (read) => readGamaOutline(read.text ?? ''));
}

/** How many outlines are kept now. */
export function keptOutlines(): number {
  return outlines.size;
}

const SPACE = '[ \\t\\n\\r]*';
const NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';

/** `[...]` of items, separated by commas. */
function list(item: string, count = '*'): string {
  return `\\[${SPACE}${item}(?:${SPACE},${SPACE}${item})${count}${SPACE}\\]`;
}

/** A row of exactly `columns` numbers. */
function rowPattern(columns: number): string {
  return columns === 0 ? `\\[${SPACE}\\]` : list(NUMBER, `{${columns - 1}}`);
}

/** A request with a state of rows (or planes of rows) of `columns` numbers each. */
function requestPattern(planes: boolean, columns: number): RegExp {
  const rows = list(rowPattern(columns));
  const state = planes ? list(rows) : rows;
  const field = (name: string) => `${SPACE}"${name}"${SPACE}:${SPACE}`;
  return new RegExp(
    `^${SPACE}\\{${field('id')}"([^"\\\\\\u0000-\\u001f]*)"${SPACE},${field('request')}\\{` +
      `${field('state')}${state}${SPACE},${field('reward')}(${NUMBER}|null)` +
      `(?:${SPACE},${field('terminal')}(true))?${SPACE}\\}${SPACE}\\}${SPACE}$`,
  );
}

/** Compiled patterns by depth and row length (negative for planes); a few at most: a session keeps one window. */
const patterns = new Map<number, RegExp>();
const MAX_PATTERNS = 16;
/** Longer rows are left to `JSON.parse`: no window is this wide, and the expression would be huge. */
const MAX_COLUMNS = 1024;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Where the spacing from `at` on ends. */
function skipSpace(text: string, at: number): number {
  while (isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** Whether the last character before `at`, spacing aside, is a `]`. */
function followsBracket(text: string, at: number): boolean {
  let before = at - 1;
  while (isSpace(text.charCodeAt(before))) before--;
  return text.charCodeAt(before) === 0x5d;
}

/**
 * A request in GAMA's form, outlined; undefined when the text is anything else. The state's depth and
 * row length are guessed from its first row, and the expression for them then checks the whole text: a
 * wrong guess only means no match.
 */
function matchRequest(text: string): GamaRequestOutline | undefined {
  // A string before the state cannot hold a quote: the first `"state"` is the key.
  const state = text.indexOf('"state"');
  const open = state < 0 ? -1 : text.indexOf('[', state);
  if (open < 0) return undefined;
  const second = skipSpace(text, open + 1);
  if (text.charCodeAt(second) !== 0x5b) return undefined;
  const third = skipSpace(text, second + 1);
  const planes = text.charCodeAt(third) === 0x5b;
  const rowStart = planes ? third : second;
  const rowEnd = text.indexOf(']', rowStart);
  if (rowEnd < 0) return undefined;
  let columns = skipSpace(text, rowStart + 1) === rowEnd ? 0 : 1;
  for (let at = text.indexOf(',', rowStart); at >= 0 && at < rowEnd; at = text.indexOf(',', at + 1))
    columns++;
  if (columns > MAX_COLUMNS) return undefined;
  const key = planes ? -1 - columns : columns;
  let pattern = patterns.get(key);
  if (!pattern) {
    if (patterns.size >= MAX_PATTERNS) return undefined;
    patterns.set(key, (pattern = requestPattern(planes, columns)));
  }
  const match = pattern.exec(text);
  if (!match) return undefined;
  const reward = match[2] === 'null' ? null : Number(match[2]);
  if (reward !== null && !Number.isFinite(reward)) return undefined;
  const shape = shapeOf(text, open, planes, columns);
  if (!shape) return undefined;
  return { type: 'request', id: match[1]!, shape, reward, terminal: match[3] !== undefined };
}

/**
 * The shape of a state the expression accepted, from its opening bracket: every `]` ends a row, a plane
 * or the state. A `]` after another ends a plane, or the state after its last row (plane); planes of
 * different depths give undefined.
 */
function shapeOf(text: string, open: number, planes: boolean, columns: number): number[] | undefined {
  let rows = -1;
  let planeRows = 0;
  let planeCount = 0;
  for (let at = text.indexOf(']', open); at >= 0; at = text.indexOf(']', at + 1)) {
    if (!followsBracket(text, at)) planeRows++;
    else if (!planes) return [planeRows, columns];
    else if (planeRows > 0) {
      if (rows >= 0 && rows !== planeRows) return undefined;
      rows = planeRows;
      planeRows = 0;
      planeCount++;
    } else return [planeCount, rows, columns];
  }
  return undefined;
}
