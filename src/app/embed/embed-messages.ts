/**
 * The embedding API's messages (docs/embedding.md), version 1: every message is an object
 * `{ protoplay: 1, type, ...fields }`. A course page sends requests; the player answers each request that
 * carries an `id` with a `reply`, and posts events of its own (`ready`, `sessionStart`, `roundEnd`,
 * `sessionEnd`, `error`, `codeChanged`). This file reads requests from untrusted data; it knows no page.
 */
import type { PolicyLanguage, PolicyLevel } from '../../core/policy/types';

/** The version of the API this player speaks, in every message's `protoplay` field. */
export const EMBED_API_VERSION = 1;

/** What `load` configures: the fields a Share link carries, or a Share link itself. */
export interface EmbedConfig {
  protocol?: string;
  environment?: string;
  seed?: number;
  rounds?: number;
  code?: string;
  language?: PolicyLanguage;
  level?: PolicyLevel;
  /** A Share link or its fragment, for what the fields above do not say (MASSim's teams, edited RDDL). */
  link?: string;
  /** Text files the protocol reads (an RDDL domain and instance the playground has never seen). */
  files?: { name: string; text: string }[];
}

/** A request from the course page. */
export type EmbedRequest = { id?: string | number } & (
  | { type: 'load'; config: EmbedConfig }
  | { type: 'setCode'; code: string; language?: PolicyLanguage }
  | { type: 'run' | 'pause' | 'step' | 'stop' | 'getState' | 'getTranscript' }
  | { type: 'seek'; index: number }
);

/** The request types, as the docs list them. */
export const EMBED_REQUEST_TYPES = [
  'load',
  'setCode',
  'run',
  'pause',
  'step',
  'stop',
  'seek',
  'getState',
  'getTranscript',
] as const;

/** A message read: a request, or why it cannot be one (with its id, to answer). */
export type ReadRequest =
  | { ok: true; request: EmbedRequest }
  | { ok: false; id?: string | number; error: string }
  /** Not an API message at all (another script's): ignored. */
  | { ok: false; ignored: true };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads the config of a `load`, keeping the well-typed fields; throws a one-line reason otherwise. */
function readConfig(value: unknown): EmbedConfig {
  if (!isRecord(value)) throw new Error('load needs a config object');
  const config: EmbedConfig = {};
  const text = (name: keyof EmbedConfig) => {
    const field = value[name];
    if (field === undefined) return undefined;
    if (typeof field !== 'string') throw new Error(`config.${name} must be a string`);
    return field;
  };
  const integer = (name: 'seed' | 'rounds', min: number) => {
    const field = value[name];
    if (field === undefined) return undefined;
    if (typeof field !== 'number' || !Number.isInteger(field) || field < min)
      throw new Error(`config.${name} must be an integer of at least ${min}`);
    return field;
  };
  const protocol = text('protocol');
  const environment = text('environment');
  const code = text('code');
  const link = text('link');
  const language = text('language');
  const level = text('level');
  const seed = integer('seed', 0);
  const rounds = integer('rounds', 1);
  if (language !== undefined && language !== 'ts' && language !== 'js')
    throw new Error(`config.language must be 'ts' or 'js'`);
  if (level !== undefined && level !== 'policy' && level !== 'wire')
    throw new Error(`config.level must be 'policy' or 'wire'`);
  if (value.files !== undefined) {
    const files = value.files;
    if (
      !Array.isArray(files) ||
      !files.every((f) => isRecord(f) && typeof f.name === 'string' && typeof f.text === 'string')
    )
      throw new Error('config.files must be a list of { name, text }');
    config.files = files.map((f: { name: string; text: string }) => ({ name: f.name, text: f.text }));
  }
  return Object.assign(config, {
    ...(protocol !== undefined ? { protocol } : {}),
    ...(environment !== undefined ? { environment } : {}),
    ...(code !== undefined ? { code } : {}),
    ...(link !== undefined ? { link } : {}),
    ...(language !== undefined ? { language } : {}),
    ...(level !== undefined ? { level } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(rounds !== undefined ? { rounds } : {}),
  });
}

/** Reads a posted message as a request. Messages without a `protoplay` field are someone else's. */
export function readEmbedRequest(data: unknown): ReadRequest {
  if (!isRecord(data) || !('protoplay' in data)) return { ok: false, ignored: true };
  const id = typeof data.id === 'string' || typeof data.id === 'number' ? data.id : undefined;
  const withId = id === undefined ? {} : { id };
  if (data.protoplay !== EMBED_API_VERSION)
    return {
      ok: false,
      ...withId,
      error: `this player speaks version ${EMBED_API_VERSION} of the embedding API, not ${JSON.stringify(data.protoplay)}`,
    };
  const type = data.type;
  if (typeof type !== 'string' || !(EMBED_REQUEST_TYPES as readonly string[]).includes(type))
    return {
      ok: false,
      ...withId,
      error: `unknown request type ${JSON.stringify(type)} (expected one of ${EMBED_REQUEST_TYPES.join(', ')})`,
    };
  try {
    switch (type) {
      case 'load':
        return { ok: true, request: { type, config: readConfig(data.config), ...withId } };
      case 'setCode': {
        if (typeof data.code !== 'string') throw new Error('setCode needs a code string');
        const language = data.language;
        if (language !== undefined && language !== 'ts' && language !== 'js')
          throw new Error(`language must be 'ts' or 'js'`);
        return {
          ok: true,
          request: { type, code: data.code, ...(language ? { language } : {}), ...withId },
        };
      }
      case 'seek': {
        const index = data.index;
        if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
          throw new Error('seek needs a message index (an integer of at least 0)');
        return { ok: true, request: { type, index, ...withId } };
      }
      default:
        return {
          ok: true,
          request: {
            type: type as 'run' | 'pause' | 'step' | 'stop' | 'getState' | 'getTranscript',
            ...withId,
          },
        };
    }
  } catch (error) {
    return { ok: false, ...withId, error: error instanceof Error ? error.message : String(error) };
  }
}

/** True when a course page of `origin` may drive the player: listed in `allow`, or the player's own. */
export function originAllowed(origin: string, allow: readonly string[], ownOrigin: string): boolean {
  return origin === ownOrigin || allow.includes('*') || allow.includes(origin);
}
