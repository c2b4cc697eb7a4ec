/// <reference types="vite/client" />
/**
 * The declarations a MASSim team policy is edited against: the protocol's own policy types (every percept
 * field and every action with its parameters), made global, plus the short names the samples use and the
 * hooks of the wire level. The protocol keeps its policy types self-contained for exactly this use.
 */
import policyApiSource from './policy-api.ts?raw';

const SHORT_NAMES = `
/** What \`act\` receives first: everything the agent perceives at this step. */
type Percept = MassimStepPerceptInfo;
/** What \`act\` returns: one action; \`p\` is always sent as an array. */
type Action = MassimPolicyAction;
/** A direction: n (y - 1), s (y + 1), e (x + 1), w (x - 1). */
type Direction = MassimDirection;
/** Something in vision, relative to the agent. */
type Thing = MassimThingPercept;
/** An active task. */
type Task = MassimTaskInfo;
/** The agent \`act\` decides for: its name, team, step, the simulation's facts, and its own memory. */
type Agent = MassimAgentContext;
/** The team: its agents and the memory they share. */
type Team = MassimTeamContext;

/** The last argument of every hook. */
interface PolicyContext {
  /** A number in [0, 1), seeded with the session's seed: runs repeat exactly. */
  random(): number;
  /** Prints to the console panel, like \`console.log\`. */
  log(...values: unknown[]): void;
  /** One object kept for the whole session by this team's policy. */
  memory: Record<string, unknown>;
}

/** Wire level: one agent connection, as \`onConnect\`, \`onMessage\` and \`onClose\` see it. */
interface WireAgent {
  /** Account name, e.g. \`agentA1\`. */
  readonly name: string;
  readonly team: string;
  /** The account's password (\`1\` in the playground). */
  readonly password: string;
  /** This agent's connection number, from 1; it grows with every reconnection. */
  readonly connection: number;
  /** Anything this agent wants to remember; kept across connections. */
  memory: Record<string, unknown>;
}

/**
 * Wire level: what to send on the connection, exactly as written (the 0 terminator is added): one frame,
 * several, or \`{ frames, reconnect }\` where \`reconnect: true\` opens a new connection for the agent
 * (the only way back after the server stopped reading it). Nothing: send nothing.
 */
type WireReply = string | string[] | { frames?: string[]; reconnect?: boolean } | null | undefined | void;
`;

/** The editor's declarations for MASSim team policies (both levels). */
export function massimPolicyTypes(): string {
  // The protocol's file is a module; without `export` its declarations become globals of the editor.
  const globals = policyApiSource.replace(/^export (?=(type|interface) )/gm, '');
  return `${globals}\n${SHORT_NAMES}`;
}
