/**
 * What the bridge may reach and where it listens, from `--target`, `--listen` and `--config FILE`. The page
 * names targets; their addresses come only from here, so a page can never make the bridge connect anywhere
 * the person running it did not write down.
 */
import { isIP } from 'node:net';
import type { BridgeTransport } from '../../src/core/bridge/control-protocol';
import type { Protocol } from '../../src/core/protocols/contract';
import { usageError } from '../command-line/exit-codes';

/** A server the page may connect to through the bridge. */
export interface TargetSpec {
  name: string;
  transport: BridgeTransport;
  host: string;
  port: number;
  /** WebSocket targets: the path (and query) to ask for. */
  path: string;
}

/** A port whose accepted connections are handed to the page. */
export interface ListenSpec {
  name: string;
  transport: BridgeTransport;
  /** Address to bind: the bridge's `--host` unless the listen names another (which needs `--host`). */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** WebSocket listens: the only path accepted (any path when empty). */
  path: string;
}

/** Caps and timeouts; every one can be set in the config file's `limits`. */
export interface BridgeLimits {
  /** Pages connected at once. */
  maxPages: number;
  /** Open channels (outbound and accepted) per page. */
  maxChannels: number;
  /** Bytes waiting in one TCP or WebSocket channel, in either direction, before it pauses or fails. */
  bufferBytes: number;
  /** Longest HTTP body, request or response. */
  httpBodyBytes: number;
  /** Longest WebSocket frame, either direction. */
  websocketFrameBytes: number;
  /** A channel with no data either way for this long is closed. */
  idleTimeoutMs: number;
  /** An HTTP request unanswered for this long fails (outbound) or gets a 504 (inbound). */
  responseTimeoutMs: number;
  /** Connecting to a target may take this long. */
  connectTimeoutMs: number;
  /** A page must say hello this soon after connecting. */
  helloTimeoutMs: number;
}

/** The defaults (docs/bridge.md lists them). */
export const DEFAULT_LIMITS: Readonly<BridgeLimits> = {
  maxPages: 4,
  maxChannels: 64,
  bufferBytes: 8 * 1024 * 1024,
  httpBodyBytes: 1_000_000,
  websocketFrameBytes: 1024 * 1024,
  idleTimeoutMs: 600_000,
  responseTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  helloTimeoutMs: 10_000,
};

/** The playground's origins allowed by default: `vite preview` and `vite dev`. */
export const DEFAULT_ORIGINS: readonly string[] = ['http://localhost:4173', 'http://localhost:5173'];

/** Everything the bridge server needs to start. */
export interface BridgeConfig {
  host: string;
  port: number;
  origins: string[];
  targets: TargetSpec[];
  listens: ListenSpec[];
  limits: BridgeLimits;
}

const SCHEMES: Readonly<Record<string, BridgeTransport>> = {
  'tcp:': 'tcp',
  'http:': 'http',
  'ws:': 'websocket',
};

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `host` is a loopback address (or `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

function splitAssignment(text: string, option: string): [string, string | undefined] {
  const equals = text.indexOf('=');
  const name = equals < 0 ? text : text.slice(0, equals);
  if (!NAME.test(name))
    throw usageError(
      `${option} '${text}': a name is letters, digits, '.', '_' or '-' (up to 64), then '=' and an address`,
    );
  return [name, equals < 0 ? undefined : text.slice(equals + 1)];
}

function parsePort(text: string, where: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(port) || port > 65535)
    throw usageError(`${where}: '${text}' is not a port (0 to 65535)`);
  return port;
}

interface ParsedAddress {
  transport: BridgeTransport;
  host: string | undefined;
  port: number | undefined;
  path: string;
}

function parseAddress(text: string, where: string): ParsedAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(
      `${where}: '${text}' is not an address like tcp://127.0.0.1:2323, http://... or ws://...`,
    );
  }
  const transport = SCHEMES[url.protocol];
  if (!transport)
    throw usageError(
      `${where}: scheme '${url.protocol}' is not one of tcp:, http:, ws: (wss: is not supported)`,
    );
  if (url.username || url.password)
    throw usageError(`${where}: credentials in the address are not supported`);
  const path = `${url.pathname === '/' && !text.endsWith('/') ? '' : url.pathname}${url.search}`;
  if (transport === 'tcp' && path !== '') throw usageError(`${where}: a tcp:// address has no path`);
  return {
    transport,
    host: url.hostname === '' ? undefined : url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? undefined : Number(url.port),
    path,
  };
}

/**
 * The transport and port a bare name or port means: the protocol of that id, from its `transport` (the
 * bridge knows transports, never a protocol).
 */
function protocolDefaults(name: string, protocols: readonly Protocol[]) {
  const protocol = protocols.find((candidate) => candidate.id === name);
  if (!protocol) return undefined;
  const transport = protocol.transport;
  return {
    transport: transport.kind,
    port: transport.defaultPort,
    path: transport.kind === 'websocket' ? (transport.path ?? '') : '',
  };
}

/**
 * Reads `NAME=tcp://HOST:PORT`, `NAME=http://HOST:PORT`, `NAME=ws://HOST:PORT/PATH`, or, when NAME is a
 * protocol id, `NAME=PORT` and `NAME` alone (that protocol's transport, default port, 127.0.0.1).
 */
export function parseTarget(text: string, protocols: readonly Protocol[], option = '--target'): TargetSpec {
  const [name, value] = splitAssignment(text, option);
  const where = `${option} ${name}`;
  const defaults = protocolDefaults(name, protocols);
  if (value === undefined || /^\d+$/.test(value)) {
    if (!defaults)
      throw usageError(
        `${where}: '${name}' is not a protocol id (${protocols.map((p) => p.id).join(', ')}), so give an address: ${name}=tcp://127.0.0.1:2323`,
      );
    const port = value === undefined ? defaults.port : parsePort(value, where);
    if (port === 0) throw usageError(`${where}: a target needs a port other than 0`);
    return { name, transport: defaults.transport, host: '127.0.0.1', port, path: defaults.path };
  }
  const address = parseAddress(value, where);
  if (address.host === undefined) throw usageError(`${where}: '${value}' names no host`);
  const port =
    address.port ?? (address.transport === 'http' || address.transport === 'websocket' ? 80 : undefined);
  if (port === undefined || port === 0) throw usageError(`${where}: '${value}' names no port`);
  return { name, transport: address.transport, host: address.host, port, path: address.path };
}

/**
 * Reads `NAME=PORT` (NAME a protocol id: its transport), `NAME=tcp://:PORT`, `NAME=http://127.0.0.1:PORT`,
 * `NAME=ws://:PORT/PATH`. A host other than loopback is refused unless the bridge itself binds one.
 */
export function parseListen(
  text: string,
  protocols: readonly Protocol[],
  bridgeHost: string,
  option = '--listen',
): ListenSpec {
  const [name, value] = splitAssignment(text, option);
  const where = `${option} ${name}`;
  const defaults = protocolDefaults(name, protocols);
  if (value === undefined || /^\d+$/.test(value)) {
    if (!defaults)
      throw usageError(
        `${where}: '${name}' is not a protocol id (${protocols.map((p) => p.id).join(', ')}), so say the transport: ${name}=tcp://:2323`,
      );
    const port = value === undefined ? defaults.port : parsePort(value, where);
    return { name, transport: defaults.transport, host: bridgeHost, port, path: defaults.path };
  }
  const address = parseAddress(value.replace(/^(tcp|http|ws):\/\/:/, '$1://0.0.0.0:'), where);
  const named = value.match(/^[a-z]+:\/\/:/) ? undefined : address.host;
  const host = named ?? bridgeHost;
  if (!isLoopbackHost(host) && host !== bridgeHost)
    throw usageError(
      `${where}: listening on ${host} would let other machines in; start the bridge with --host ${host} to allow it`,
    );
  if (address.port === undefined) throw usageError(`${where}: '${value}' names no port`);
  return { name, transport: address.transport, host, port: address.port, path: address.path };
}

/** The config file's shape (docs/bridge.md). */
interface ConfigFile {
  targets?: Record<string, string>;
  listens?: Record<string, string | number>;
  origins?: string[];
  limits?: Partial<Record<keyof BridgeLimits, number>>;
}

/** What a config file adds to the command line's options. */
export interface ConfigFileContents {
  targets: TargetSpec[];
  listens: ListenSpec[];
  origins: string[];
  limits: Partial<BridgeLimits>;
}

/** Reads a config file's JSON text; every mistake names the file and the key. */
export function parseConfigFile(
  text: string,
  file: string,
  protocols: readonly Protocol[],
  bridgeHost: string,
): ConfigFileContents {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw usageError(`${file}: not JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw usageError(`${file}: expected a JSON object with "targets", "listens", "origins", "limits"`);
  const config = json as ConfigFile;
  for (const key of Object.keys(config))
    if (!['targets', 'listens', 'origins', 'limits'].includes(key))
      throw usageError(`${file}: unknown key "${key}" (known: targets, listens, origins, limits)`);
  const table = (key: 'targets' | 'listens') => {
    const value = config[key];
    if (value === undefined) return [];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw usageError(`${file}: "${key}" must map names to addresses`);
    return Object.entries(value).map(([name, address]) => {
      if (typeof address !== 'string' && typeof address !== 'number')
        throw usageError(`${file}: ${key}.${name} must be an address string (or a port)`);
      return `${name}=${address}`;
    });
  };
  const origins = config.origins ?? [];
  if (!Array.isArray(origins) || origins.some((origin) => typeof origin !== 'string'))
    throw usageError(`${file}: "origins" must be a list of strings`);
  const limits: Partial<BridgeLimits> = {};
  for (const [key, value] of Object.entries(config.limits ?? {})) {
    if (!(key in DEFAULT_LIMITS))
      throw usageError(`${file}: unknown limit "${key}" (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
      throw usageError(`${file}: limits.${key} must be a positive whole number`);
    limits[key as keyof BridgeLimits] = value;
  }
  return {
    targets: table('targets').map((entry) => parseTarget(entry, protocols, `${file}: targets`)),
    listens: table('listens').map((entry) => parseListen(entry, protocols, bridgeHost, `${file}: listens`)),
    origins: origins.map((origin) => normalizeOrigin(origin, file)),
    limits,
  };
}

/** `http://localhost:4173` from what a person typed (a trailing slash, a path); a usage error otherwise. */
export function normalizeOrigin(text: string, where = '--origin'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${where}: '${text}' is not an origin like http://localhost:4173`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(`${where}: '${text}' is not an http(s) origin`);
  return url.origin;
}

/** Fails on two targets or two listens of one name. */
export function checkUniqueNames(targets: readonly TargetSpec[], listens: readonly ListenSpec[]): void {
  for (const [what, list] of [
    ['target', targets],
    ['listen', listens],
  ] as const) {
    const seen = new Set<string>();
    for (const item of list) {
      if (seen.has(item.name)) throw usageError(`two ${what}s are named '${item.name}'`);
      seen.add(item.name);
    }
  }
}

/** `tcp://127.0.0.1:2323`, `ws://127.0.0.1:3001/path`: the address as people write it. */
export function endpointUrl(spec: {
  transport: BridgeTransport;
  host: string;
  port: number;
  path: string;
}): string {
  const scheme = spec.transport === 'websocket' ? 'ws' : spec.transport;
  const host = isIP(spec.host) === 6 ? `[${spec.host}]` : spec.host;
  return `${scheme}://${host}:${spec.port}${spec.path}`;
}
