/**
 * What an aisys session in the playground needs besides the common session settings (`SessionConfig`:
 * the environment, the runs as rounds, the seed, the policy), how a course's agent config file is read,
 * and the accounts of the emulated server. The page's aisys adapter and the runner share these.
 */
import type { AgentConfig } from '../messages';

/** One agent account of the emulated server: made from the first config the learner gave for it. */
export interface AisysAccount {
  env: string;
  agent: string;
  pwd: string;
}

/** `SessionConfig.options` of an aisys session; anything missing takes its default. */
export interface AisysPlaygroundOptions {
  /** Ask for several action requests per response (the server's 5 for Nim; 1 when off). Default true. */
  parallelRuns: boolean;
  /** Abandon runs already under way at the first response instead of playing them. Default false. */
  abandonOldRuns: boolean;
  /** Keep the real server's bugs (acting on finished runs, abandons counted twice...). Default true. */
  faithfulBugs: boolean;
  /** The course's `{agent, env, pwd, url}` the client plays with; none: agent `agent`, its own password. */
  config?: AgentConfig;
  /** The emulated server's accounts, besides the config's own when it has none yet. */
  accounts: AisysAccount[];
}

/** The defaults: the course client's own (parallel runs, old runs played, the real server's bugs). */
export const DEFAULT_AISYS_OPTIONS: Readonly<AisysPlaygroundOptions> = {
  parallelRuns: true,
  abandonOldRuns: false,
  faithfulBugs: true,
  accounts: [],
};

/** Most accounts kept (the oldest go first). */
const MAX_ACCOUNTS = 50;

/** Reads options from untrusted data (storage, a link, a message), keeping defaults for what is wrong. */
export function sanitizeAisysOptions(data: unknown): AisysPlaygroundOptions {
  const given = isRecord(data) ? data : {};
  const flag = (key: 'parallelRuns' | 'abandonOldRuns' | 'faithfulBugs') =>
    typeof given[key] === 'boolean' ? given[key] : DEFAULT_AISYS_OPTIONS[key];
  const config = readConfigValue(given.config);
  const accounts = Array.isArray(given.accounts) ? given.accounts.filter(isAccount).slice(-MAX_ACCOUNTS) : [];
  return {
    parallelRuns: flag('parallelRuns'),
    abandonOldRuns: flag('abandonOldRuns'),
    faithfulBugs: flag('faithfulBugs'),
    ...(config.ok ? { config: config.config } : {}),
    accounts: accounts.map(({ env, agent, pwd }) => ({ env, agent, pwd })),
  };
}

/** A read agent config, or why it cannot be used (one sentence, located when the JSON is broken). */
export type AgentConfigReading = { ok: true; config: AgentConfig } | { ok: false; error: string };

/**
 * Reads an agent config file as a course hands it out: a JSON object with `agent`, `env`, `pwd` and
 * `url` (strings; other keys are ignored, as the course client ignores them).
 */
export function readAgentConfig(text: string): AgentConfigReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the config is not JSON: ${jsonProblem(text, error)}` };
  }
  return readConfigValue(value);
}

function readConfigValue(value: unknown): AgentConfigReading {
  if (!isRecord(value))
    return { ok: false, error: 'the config must be a JSON object {"agent", "env", "pwd", "url"}' };
  const missing = (['agent', 'env', 'pwd', 'url'] as const).filter((key) => typeof value[key] !== 'string');
  if (missing.length)
    return {
      ok: false,
      error: `the config needs ${missing.map((key) => `"${key}"`).join(', ')} as ${missing.length === 1 ? 'a string' : 'strings'}`,
    };
  const { agent, env, pwd, url } = value as Record<'agent' | 'env' | 'pwd' | 'url', string>;
  if (!env.trim()) return { ok: false, error: 'the config\'s "env" is empty' };
  if (!agent.trim()) return { ok: false, error: 'the config\'s "agent" is empty' };
  return { ok: true, config: { agent, env, pwd, url } };
}

/** Where the JSON broke, as line and column, from the parser's message. */
function jsonProblem(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (!position) return message;
  const offset = Number(position[1]);
  const before = text.slice(0, offset).split('\n');
  return `${message.replace(/ in JSON at position \d+.*$/, '')} at line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** The account the emulated server has for a config's agent, if any. */
export function accountFor(accounts: readonly AisysAccount[], config: AgentConfig): AisysAccount | undefined {
  return accounts.find((account) => account.env === config.env && account.agent === config.agent);
}

/** The accounts with the config's agent made (with the config's password) when the server had none. */
export function withAccountFor(accounts: readonly AisysAccount[], config: AgentConfig): AisysAccount[] {
  if (accountFor(accounts, config)) return [...accounts];
  return [...accounts, { env: config.env, agent: config.agent, pwd: config.pwd }].slice(-MAX_ACCOUNTS);
}

/** The accounts with the config's agent's password set to the config's. */
export function withPasswordOf(accounts: readonly AisysAccount[], config: AgentConfig): AisysAccount[] {
  return [
    ...accounts.filter((account) => account.env !== config.env || account.agent !== config.agent),
    { env: config.env, agent: config.agent, pwd: config.pwd },
  ];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAccount(value: unknown): value is AisysAccount {
  return (
    isRecord(value) &&
    typeof value.env === 'string' &&
    typeof value.agent === 'string' &&
    typeof value.pwd === 'string'
  );
}
