/**
 * The declarations the policy editor gives an aisys policy: what a run, the context and the hooks are,
 * and the percept, action and outcome of the environment played.
 */
import { findAisysEnvironment } from './environments';

/** What every environment shares. */
const COMMON = `/** A run as your policy sees it: one game, played until it has an outcome. */
interface Run {
  /** The run id: a global integer as a string ("26"). */
  readonly id: string;
  /** Which action of the run this is, from 0. */
  readonly actNo: number;
  /** The run's page on the server. */
  readonly url: string;
  /** Anything you keep for this run; forgotten when it ends. */
  memory: Record<string, unknown>;
}

/** What every call gets besides its arguments. */
interface PolicyContext {
  /** Anything you keep for the whole session. */
  memory: Record<string, unknown>;
  /** A number in [0, 1), seeded with the session's seed. */
  random(): number;
  /** Prints to the console panel. */
  log(...values: unknown[]): void;
  /** The environment played ("nim"). */
  readonly env: string;
}

// A policy exports act(percept: Percept, run: Run, context: PolicyContext): Action, called for every action
// request, and may export onRunEnd(outcome: Outcome, run: Run, context: PolicyContext), called when a run ends.

/** The agent config the session plays with (the one you pasted, or the playground's own). */
interface AgentConfig {
  readonly agent: string;
  readonly env: string;
  readonly pwd: string;
  readonly url: string;
}

/** Wire level: the server's last answer, as onMessage gets it. */
interface WireResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Record<string, string>;
  /** The body as sent. */
  readonly text: string;
  /** The body read as JSON (null when it is not JSON, like an HTML error page). */
  readonly body: any;
  /** From sending the request to this answer, in ms. */
  readonly ms: number;
}

/** Wire level: what onMessage gets besides the response. */
interface WireContext extends PolicyContext {
  readonly config: AgentConfig;
}

/**
 * Wire level: what onMessage returns. An object (or list, number...) is sent as the JSON body of
 * PUT <url>act/<env>; a string is sent as the body exactly as written; {http: {method, path, headers, body}}
 * sends another request; null (or nothing) ends the session.
 */
type WireRequest = object | string | { http: { method?: string; path?: string; headers?: Record<string, string>; body?: unknown } } | null | undefined;

// A wire-level policy exports onMessage(response: WireResponse | null, context: WireContext): WireRequest;
// response is null before the first request.
`;

const NIM = `/** Nim: the number of objects left on the heap. */
type Percept = number;
/** How many objects to take: 1, 2 or 3 (the server reads it as Python's int() does: "2" and 2.5 count as 2). */
type Action = number | string;
/** 1 if you took the last object, 0 if the opponent did (or you abandoned the run). */
type Outcome = 0 | 1;
`;

const WUMPUS_CAVE = `/** A move in the cave. */
type Move = 'NORTH' | 'EAST' | 'SOUTH' | 'WEST';
/** Skill points: agility helps on bridges, fighting against the wumpus. */
interface Skills {
  agility: number;
  fighting: number;
}
/** A cell: [x, y], x the column and y the line of the map, from 0 at the top left. */
type Position = [number, number];
/** What one move did. */
interface StepOutcome {
  position: Position;
  event: 'moved' | 'bumped' | 'hesitated' | 'crossed' | 'fell' | 'fought' | 'wounded' | 'killed' | 'lost' | 'exited';
  'collected-gold-at'?: Position;
  'killed-wumpus-at'?: Position;
}
/** The cave as you know it. */
interface Percept {
  /** Lines of the cave: X wall, S stairs (start and exit), G gold, P pit, W wumpus, B bridge, . floor. */
  map: string;
  'skill-points': Skills;
  /** Points still to spend: your first action spends them. */
  'free-skill-points': number;
  /** Every action so far with what it did (the first one: the skills you chose). */
  history: { action: Action; outcome: StepOutcome | { skills: Skills } }[];
}
/** First your skills, then moves, and EXIT on the stairs. */
type Action = Skills | Move | 'EXIT';
/** The gold you brought out (0 if you died, got lost or abandoned the run). */
type Outcome = number;
`;

const HALMA = `/**
 * A cell of the hex board: [x, y] in axial coordinates, y the row (growing downwards), x along the row.
 * The neighbours of [x, y] are [x+1, y], [x-1, y], [x, y+1], [x, y-1], [x+1, y-1] and [x-1, y+1];
 * the centre [0, 0] is not on the board.
 */
type Cell = [number, number];
/** Every player's pieces: you are A (starting at the bottom, heading for the top); C plays on 3-player boards. */
interface Percept {
  A: Cell[];
  B: Cell[];
  C?: Cell[];
}
/**
 * A move: [from, to] (a step to a neighbouring empty cell, or jumps over one piece at a time to there), or
 * [from, landing1, ..., to] spelling out a chain of jumps, every cell the piece lands on.
 */
type Action = Cell[];
/** 1 if you filled your goal first, 0 if an opponent did (or you abandoned); at the move limit, 0.5 for a shared lead. */
type Outcome = 0 | 0.5 | 1;
`;

const ANY = `/** What the environment shows of a run. */
type Percept = unknown;
/** What you send back. */
type Action = unknown;
/** How a run ended. */
type Outcome = unknown;
`;

/** The declarations for an environment (a ready-made one's id). */
export function aisysPolicyTypes(environment: string): string {
  const preset = findAisysEnvironment(environment);
  const byClass: Record<string, string> = { nim: NIM, 'wumpus-cave': WUMPUS_CAVE, halma: HALMA };
  const specific = (preset && byClass[preset.envClass]) ?? ANY;
  return `${specific}\n${COMMON}`;
}
