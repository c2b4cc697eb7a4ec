/**
 * Shareable configurations in the URL: protocol, environment, seed, rounds and the policy code (deflated
 * and base64url-encoded), so a teacher can hand out or embed a ready-to-run setup. The fragment is used
 * (`#p=rddlsim&e=...`): it never reaches a server, and static hosting needs nothing special.
 */
import type { PolicyLanguage, PolicyLevel } from '../core/policy/types';
import { findProtocol } from '../core/protocols/registry';
import type { ProtocolId } from '../core/transcript/model';
import { compressToBase64Url, decompressFromBase64Url } from '../core/url-text';

/** What a shared link carries. Every field is optional: a link may set only a seed. */
export interface SharedConfig {
  protocol?: ProtocolId;
  environment?: string;
  seed?: number;
  rounds?: number;
  language?: PolicyLanguage;
  /** Policy level (`act`) or wire level (`onMessage`); absent means policy level. */
  level?: PolicyLevel;
  code?: string;
}

export { compressToBase64Url, decompressFromBase64Url };

/** The URL fragment (without `#`) for a configuration. */
export function encodeSharedConfig(config: SharedConfig): string {
  const params = new URLSearchParams();
  if (config.protocol) params.set('p', config.protocol);
  if (config.environment) params.set('e', config.environment);
  if (config.seed !== undefined) params.set('seed', String(config.seed));
  if (config.rounds !== undefined) params.set('rounds', String(config.rounds));
  if (config.language) params.set('lang', config.language);
  if (config.level === 'wire') params.set('level', 'wire');
  if (config.code !== undefined) params.set('code', compressToBase64Url(config.code));
  return params.toString();
}

/**
 * Reads a URL fragment (with or without `#`). Unknown or malformed fields are dropped, never fatal: a
 * damaged link still opens the playground. Returns undefined when the fragment carries no configuration.
 */
export function decodeSharedConfig(fragment: string): SharedConfig | undefined {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const config: SharedConfig = {};
  const protocol = params.get('p');
  if (protocol && findProtocol(protocol)) config.protocol = protocol;
  const environment = params.get('e');
  if (environment) config.environment = environment;
  const seed = Number(params.get('seed') ?? NaN);
  if (Number.isInteger(seed) && seed >= 0) config.seed = seed;
  const rounds = Number(params.get('rounds') ?? NaN);
  if (Number.isInteger(rounds) && rounds > 0) config.rounds = rounds;
  const language = params.get('lang');
  if (language === 'ts' || language === 'js') config.language = language;
  if (params.get('level') === 'wire') config.level = 'wire';
  const code = params.get('code');
  if (code) {
    try {
      config.code = decompressFromBase64Url(code);
    } catch {
      // A truncated link loses only its code; the rest still applies.
    }
  }
  return Object.keys(config).length ? config : undefined;
}
