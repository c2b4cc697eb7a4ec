/**
 * An emulated aisysprojserver, sans-IO: every HTTP request it receives gets one response, as the real
 * server (0.1.3, Flask and Werkzeug 3) would give it, byte for byte where the research found out how:
 *
 * - routes: `/act/<env>` (GET and PUT; POST and others get Werkzeug's 405 page), the admin routes
 *   `/makeenv/<env>` (PUT), `/makeagent/<env>/<agent>` (POST), `/blockagent` and `/unblockagent` (PUT),
 *   `/errors`, and the public `/results` and `/results/<env>` (cached for 10 s, as the real server caches
 *   them); OPTIONS on any route; any other path gets the 404 page. Leading double slashes (`//act/nim`,
 *   what the simple clients send) route as one;
 * - `/act` reads its body in the real order: Content-Type (415), size (413, over 1,000,000 bytes), JSON
 *   (400), an empty body (`Expected JSON body`), the protocol version (`true` and `1.0` are 1), the schema
 *   (pydantic's first problem), then the environment, agent, password, locked agent and abandoning;
 * - errors come in the server's three shapes (`http-responses.ts`); a crash names the exception, or shows
 *   a traceback to a request carrying the admin password;
 * - protocol version 0 is answered in its own format.
 *
 * With `faithfulBugs` (the default) the real server's bugs stay: finished runs are not guarded (see
 * `server.ts`), a bare number or `true` as the body crashes the request, and block/unblock answer 500 although
 * they work. Without it, those requests get the answer a fixed server would give.
 */
import type { AisysEnvironmentClass, EnvRandom, JsonValue } from '../../envs/aisys/api';
import { pythonRepr, pythonTruthy } from '../../envs/aisys/python';
import { Rng } from '../../random';
import type { HttpMessage, SansIoEndpoint, WirePeer, WireSink } from '../contract';
import {
  loadsFailure,
  MAX_CONTENT_LENGTH,
  readActRequest,
  readJsonBody,
  receivedActionReprs,
  type JsonBodyReading,
} from './act-request';
import { AISYS_ENVIRONMENT_CLASSES } from './environments';
import {
  crashResponse,
  htmlErrorResponse,
  jsonErrorResponse,
  jsonResponse,
  optionsResponse,
} from './http-responses';
import type { AisysResponse, AisysResponseV0, ProtocolVersion } from './messages';
import { PythonFloat } from './python-json';
import { pythonJsonLoads, type PythonJson } from './python-loads';
import { describeSchemaProblem, readMakeEnvBody } from './request-schema';
import { AisysServer, HttpProblem } from './server';

/** How long `/results` answers are cached, in ms (Flask-Caching's `timeout=10`). */
const RESULTS_CACHE_MS = 10_000;
/** Tracebacks `/errors` keeps. */
const ERROR_BUFFER_SIZE = 50;

/** Options of an emulated server. */
export interface AisysHostOptions {
  /** Seed of every run's randomness and of generated passwords (default 0). */
  seed?: number | string;
  /** The classes `makeenv` knows (default: Nim, the Wumpus cave and the Halma-like game). */
  environmentClasses?: readonly AisysEnvironmentClass[];
  /** The admin password; without one, admin routes answer `admin access is not configured`. */
  adminPassword?: string;
  /** Keep the real server's bugs (see the module comment). Default true. */
  faithfulBugs?: boolean;
  /** Randomness of a run; by default a stream seeded with `seed` and the run id. */
  randomForRun?: (runId: number, env: string) => EnvRandom;
  /** Id of the first run (default 1). */
  firstRunId?: number;
  /** Clock in ms, for the results cache (default `Date.now`). */
  now?: () => number;
  /** Told what each request did, for logs. */
  onEvent?: (event: AisysHostEvent) => void;
}

/** What the host reports as it serves. */
export type AisysHostEvent =
  | {
      kind: 'act';
      env: string;
      agent?: string;
      status: number;
      version?: ProtocolVersion;
      /** Runs that finished in this request, with their outcomes. */
      finished: Record<string, JsonValue>;
      /** A crash's exception name. */
      crash?: string;
    }
  | {
      kind: 'admin';
      action: 'makeenv' | 'makeagent' | 'blockagent' | 'unblockagent';
      env: string;
      agent?: string;
    };

/** A route of the server, with what OPTIONS and 405 pages say it allows. */
interface Route {
  name: 'act' | 'makeenv' | 'makeagent' | 'blockagent' | 'unblockagent' | 'results' | 'errors';
  params: string[];
  methods: readonly string[];
  allow: string;
}

const ROUTES: readonly { segments: readonly string[]; route: Omit<Route, 'params'> }[] = [
  {
    segments: ['act', '*'],
    route: { name: 'act', methods: ['GET', 'HEAD', 'PUT'], allow: 'OPTIONS, HEAD, GET, PUT' },
  },
  { segments: ['makeenv', '*'], route: { name: 'makeenv', methods: ['PUT'], allow: 'OPTIONS, PUT' } },
  {
    segments: ['makeagent', '*', '*'],
    route: { name: 'makeagent', methods: ['POST'], allow: 'OPTIONS, POST' },
  },
  {
    segments: ['blockagent', '*', '*'],
    route: { name: 'blockagent', methods: ['PUT'], allow: 'OPTIONS, PUT' },
  },
  {
    segments: ['unblockagent', '*', '*'],
    route: { name: 'unblockagent', methods: ['PUT'], allow: 'OPTIONS, PUT' },
  },
  {
    segments: ['results'],
    route: { name: 'results', methods: ['GET', 'HEAD'], allow: 'OPTIONS, HEAD, GET' },
  },
  {
    segments: ['results', '*'],
    route: { name: 'results', methods: ['GET', 'HEAD'], allow: 'OPTIONS, HEAD, GET' },
  },
  { segments: ['errors'], route: { name: 'errors', methods: ['GET', 'HEAD'], allow: 'OPTIONS, HEAD, GET' } },
];

/** An exception the real server's own code raises (not a plugin's), named as Python names it. */
class PythonException extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** The emulated server. */
export class AisysHost implements SansIoEndpoint<HttpMessage, HttpMessage> {
  readonly server: AisysServer;
  /** The tracebacks `/errors` shows, oldest first. */
  readonly errors: string[] = [];
  /**
   * The largest body the server reads (Werkzeug's `MAX_CONTENT_LENGTH`). A request declaring a longer one
   * is answered from its head alone, whatever its body (413 where the body would be read, the usual answer
   * where it would not), so a transport may hand it over before its body, and without it, as the real
   * server answers it (the command line's HTTP server does).
   */
  readonly maxDeclaredBodyBytes = MAX_CONTENT_LENGTH;
  readonly #options: AisysHostOptions;
  readonly #classes: readonly AisysEnvironmentClass[];
  readonly #passwords: Rng;
  readonly #now: () => number;
  readonly #cache = new Map<string, { until: number; response: HttpMessage }>();

  constructor(options: AisysHostOptions = {}) {
    this.#options = options;
    const seed = options.seed ?? 0;
    this.#classes = options.environmentClasses ?? AISYS_ENVIRONMENT_CLASSES;
    this.#passwords = new Rng(`${seed}/passwords`);
    this.#now = options.now ?? Date.now;
    this.server = new AisysServer({
      faithfulBugs: options.faithfulBugs ?? true,
      randomForRun: options.randomForRun ?? ((runId) => new Rng(`${seed}/run ${runId}`)),
      ...(options.firstRunId !== undefined ? { firstRunId: options.firstRunId } : {}),
    });
  }

  /** Whether the real server's bugs are kept. */
  get faithfulBugs(): boolean {
    return this.server.faithfulBugs;
  }

  /** Sets up an environment of a known class (the command line's `--env`, tests). */
  addEnvironment(id: string, envClass: string, config: JsonValue, displayName = id): void {
    const known = this.#findClass(envClass);
    if (!known) throw new Error(`unknown environment class '${envClass}'`);
    this.server.makeEnvironment(id, known, config, { displayName, className: envClass, overwrite: true });
  }

  /** Creates an agent account and returns its password (a fresh 43-character token unless given). */
  addAgent(env: string, name: string, password = this.#newPassword()): string {
    this.server.makeAgent(env, name, password, { overwrite: true });
    return password;
  }

  connect(sink: WireSink<HttpMessage>): WirePeer<HttpMessage> {
    return {
      receive: (request) => sink.send(this.handle(request)),
      end: () => undefined,
    };
  }

  /** Answers one request. */
  handle(request: HttpMessage): HttpMessage {
    const method = (request.meta.method ?? 'GET').toUpperCase();
    const found = matchRoute(request.meta.path ?? '/');
    if (!found) return htmlErrorResponse(404);
    if (method === 'OPTIONS') return optionsResponse(found.allow);
    if (!found.methods.includes(method)) return htmlErrorResponse(405, undefined, { allow: found.allow });
    const call = new RequestCall(request);
    try {
      return this.#dispatch(found, call);
    } catch (error) {
      if (error instanceof HttpProblem) return jsonErrorResponse(error.status, error.description);
      return this.#crash(error, call);
    }
  }

  #dispatch(route: Route, call: RequestCall): HttpMessage {
    switch (route.name) {
      case 'act':
        return this.#act(route.params[0]!, call);
      case 'makeenv':
        return this.#makeEnvironment(route.params[0]!, call);
      case 'makeagent':
        return this.#makeAgent(route.params[0]!, route.params[1]!, call);
      case 'blockagent':
      case 'unblockagent':
        return this.#setBlocked(route.name, route.params[0]!, route.params[1]!, call);
      case 'results':
        return this.#results(route.params[0]);
      case 'errors':
        this.#requireAdmin(call);
        return jsonResponse(this.errors);
    }
  }

  #act(envId: string, call: RequestCall): HttpMessage {
    const reading = readActRequest(call.request, { faithfulBugs: this.faithfulBugs });
    if (!reading.ok) {
      const crash = 'crash' in reading ? { crash: reading.crash.name } : {};
      this.#options.onEvent?.({ kind: 'act', env: envId, status: reading.status, finished: {}, ...crash });
      if ('crash' in reading) throw new PythonException(reading.crash.name, reading.crash.message);
      throw new HttpProblem(reading.status, reading.description);
    }
    const { request, version } = reading;
    const event = { kind: 'act' as const, env: envId, agent: request.agent, version };
    let response: AisysResponse;
    try {
      response = this.server.act(envId, request, receivedActionReprs(call.request, request));
    } catch (error) {
      const status = error instanceof HttpProblem ? error.status : 500;
      const crash = error instanceof HttpProblem ? {} : { crash: exceptionName(error) };
      this.#options.onEvent?.({ ...event, status, finished: {}, ...crash });
      throw error;
    }
    this.#options.onEvent?.({ ...event, status: 200, finished: response.finished_runs });
    return jsonResponse(version === 0 ? responseV0(response) : response);
  }

  #makeEnvironment(envId: string, call: RequestCall): HttpMessage {
    this.#requireAdmin(call);
    const content = call.json();
    if (!pythonTruthy(content)) throw new HttpProblem(400, 'Expected JSON body');
    if (!/^[a-zA-Z0-9-.]+$/.test(envId))
      throw new HttpProblem(400, `Illegal environment name ${pythonRepr(envId)}`);
    const reading = readMakeEnvBody(content, () => call.exact());
    if (!reading.ok) throw new HttpProblem(400, describeSchemaProblem(reading.loc, reading.msg));
    const body = reading.value;
    const known = this.#findClass(body.env_class);
    if (!known) {
      const module = body.env_class.split(':')[0]!.split('.')[0]!;
      throw new PythonException('ModuleNotFoundError', `No module named ${pythonRepr(module)}`);
    }
    this.server.makeEnvironment(envId, known, body.config, {
      displayName: body.display_name,
      overwrite: body.overwrite,
      className: body.env_class,
    });
    this.#options.onEvent?.({ kind: 'admin', action: 'makeenv', env: envId });
    return jsonResponse({ success: true });
  }

  #makeAgent(envId: string, name: string, call: RequestCall): HttpMessage {
    const content = call.json();
    if (!pythonTruthy(content)) throw new HttpProblem(400, 'Expected JSON body');
    this.#requireAdmin(call);
    if (!this.server.environments.has(envId)) throw new HttpProblem(400, `No such environment ${envId}`);
    // The real pattern is not anchored at the end, so only the first character counts; the view returns
    // (does not raise) its BadRequest, which Flask sends as the HTML page.
    if (!/^[a-zA-Z0-9 [\]_()-]/.test(name)) return htmlErrorResponse(400, `Illegal agent name "${name}"`);
    const overwrite = pythonIn('overwrite', content) && pythonTruthy(objectField(content, 'overwrite'));
    const password = this.#newPassword();
    this.server.makeAgent(envId, name, password, { overwrite });
    this.#options.onEvent?.({ kind: 'admin', action: 'makeagent', env: envId, agent: name });
    return jsonResponse({ agent: name, pwd: password, env: envId });
  }

  /** `/blockagent` (the agent's own password or admin) and `/unblockagent` (admin). */
  #setBlocked(
    action: 'blockagent' | 'unblockagent',
    envId: string,
    name: string,
    call: RequestCall,
  ): HttpMessage {
    const content = call.json();
    if (!pythonTruthy(content)) throw new HttpProblem(400, 'Expected JSON body');
    if (pythonIn('agent', content))
      throw new HttpProblem(400, 'Did not expect an agent to be specified in the request body');
    const agent = this.server.agents.get(`${envId}/${name}`);
    if (!agent) throw new HttpProblem(401, 'unknown agent');
    let authenticated = false;
    if (pythonIn('pwd', content)) {
      const pwd = objectField(content, 'pwd');
      if (typeof pwd !== 'string') throw new HttpProblem(400, 'Bad value for field "pwd"');
      if (pwd !== agent.password) throw new HttpProblem(401, 'wrong password');
      authenticated = true;
    }
    if (action === 'unblockagent' || !authenticated) this.#requireAdmin(call);
    agent.active = action === 'unblockagent';
    this.#options.onEvent?.({ kind: 'admin', action, env: envId, agent: name });
    // The real views return nothing, which Flask turns into a 500 after the change is made.
    return this.faithfulBugs ? jsonErrorResponse(500) : jsonResponse({ success: true });
  }

  /** `/results` and `/results/<env>`: best ratings, cached for 10 s per path as the real server does. */
  #results(envId: string | undefined): HttpMessage {
    const key = envId ?? '';
    const now = this.#now();
    const cached = this.#cache.get(key);
    if (cached && cached.until > now) return cached.response;
    let body: Record<string, unknown>;
    if (envId === undefined) {
      body = {};
      for (const id of this.server.environments.keys()) body[id] = this.#environmentResults(id);
    } else {
      if (!this.server.environments.has(envId)) throw new HttpProblem(404);
      body = this.#environmentResults(envId);
    }
    const response = jsonResponse(body);
    this.#cache.set(key, { until: now + RESULTS_CACHE_MS, response });
    return response;
  }

  #environmentResults(envId: string): Record<string, unknown> {
    const results: Record<string, unknown> = {};
    for (const [key, data] of this.server.results) {
      const slash = key.indexOf('/');
      if (key.slice(0, slash) !== envId) continue;
      results[key.slice(slash + 1)] = {
        rating: new PythonFloat(data.bestRating),
        'fully-evaluated': data.fullyEvaluated,
        'total-runs': data.totalRuns,
      };
    }
    return results;
  }

  /**
   * The real `require_admin_auth`: the password in `Authorization: Basic <base64(password)>`, or as
   * `admin-pwd` in the JSON body.
   */
  #requireAdmin(call: RequestCall): void {
    const header = call.header('authorization');
    let password: JsonValue | undefined;
    if (header !== undefined) {
      const parts = header.split(/\s+/).filter(Boolean);
      if (parts.length !== 2) throw new HttpProblem(400, 'Bad value for Authorization header');
      if (parts[0] !== 'Basic')
        throw new HttpProblem(400, 'Bad authentication scheme in Authorization header');
      password = decodeBasicPassword(parts[1]!);
    } else {
      const content = call.json();
      if (content === null || !pythonIn('admin-pwd', content))
        throw new HttpProblem(401, 'admin authorization is required');
      password = objectField(content, 'admin-pwd');
    }
    if (typeof password !== 'string') throw new HttpProblem(400, 'Bad value for "admin-pwd"');
    if (this.#options.adminPassword === undefined)
      throw new HttpProblem(401, 'admin access is not configured');
    if (password !== this.#options.adminPassword) throw new HttpProblem(401, 'wrong password');
  }

  /**
   * The real server's handler for an unhandled exception: the exception's name, or its traceback when the
   * request carries the admin password. If checking that fails itself, Flask's generic 500 (shape 1).
   */
  #crash(error: unknown, call: RequestCall): HttpMessage {
    let admin = false;
    try {
      this.#requireAdmin(call);
      admin = true;
    } catch (problem) {
      if (!(problem instanceof HttpProblem && problem.status === 401)) return jsonErrorResponse(500);
    }
    const traceback = pythonTraceback(error);
    this.errors.push(traceback);
    if (this.errors.length > ERROR_BUFFER_SIZE) this.errors.shift();
    return crashResponse(admin ? traceback : exceptionName(error));
  }

  #findClass(name: string): AisysEnvironmentClass | undefined {
    return this.#classes.find((known) => known.id === name || known.aliases?.includes(name));
  }

  /** A password like `secrets.token_urlsafe(32)`: 32 random bytes, base64url without padding. */
  #newPassword(): string {
    const bytes = new Uint8Array(32);
    for (let i = 0; i < bytes.length; i++) bytes[i] = this.#passwords.nextInt(256);
    return btoa(String.fromCharCode(...bytes))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
  }
}

/** A body's reading, or the HTTP error or crash `get_json()` raises. */
function readOrThrow(reading: JsonBodyReading): JsonBodyReading & { ok: true } {
  if (reading.ok) return reading;
  throw bodyError(reading);
}

/** What `get_json()` raises for a body it cannot read: an HTTP error, or a Python exception. */
function bodyError(reading: JsonBodyReading & { ok: false }): Error {
  if ('crash' in reading) return new PythonException(reading.crash.name, reading.crash.message);
  return new HttpProblem(reading.status, reading.description);
}

/** One request being served: its headers and its JSON body, read once as Werkzeug's `get_json()`. */
class RequestCall {
  #json: (JsonBodyReading & { ok: true }) | undefined;

  constructor(readonly request: HttpMessage) {}

  header(name: string): string | undefined {
    return this.request.meta.headers?.[name];
  }

  /** Werkzeug's `get_json()`, read once. */
  json(): JsonValue {
    if (this.#json) return this.#json.value;
    const reading = readOrThrow(readJsonBody(this.request));
    this.#json = reading;
    return reading.value;
  }

  /** Python's reading of the JSON body (its ints exact, its floats floats), read when first asked for. */
  exact(): PythonJson {
    this.json();
    const json = this.#json!;
    if (json.python === undefined) {
      const loaded = pythonJsonLoads(json.text);
      if (!loaded.ok) throw bodyError(loadsFailure(loaded));
      json.python = loaded.value;
    }
    return json.python;
  }
}

/** The route a path names, or undefined (404). Leading slashes count as one; segments are URL-decoded. */
function matchRoute(path: string): Route | undefined {
  const bare = path.split('?')[0]!.replace(/^\/+/, '');
  let segments: string[];
  try {
    segments = bare.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  for (const { segments: pattern, route } of ROUTES) {
    if (pattern.length !== segments.length) continue;
    const params: string[] = [];
    const fits = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (part !== '*') return part === segment;
      params.push(segment);
      return segment.length > 0;
    });
    if (fits) return { ...route, params };
  }
  return undefined;
}

/** Python's `key in content` for a JSON body: a key of an object, an item of a list, a substring. */
function pythonIn(key: string, content: JsonValue): boolean {
  if (typeof content === 'string') return content.includes(key);
  if (Array.isArray(content)) return content.includes(key);
  if (content !== null && typeof content === 'object') return Object.hasOwn(content, key);
  throw new PythonException('TypeError', `argument of type '${typeof content}' is not iterable`);
}

/** `content[key]` where `pythonIn` found it (a list or string is indexed by a string: TypeError). */
function objectField(content: JsonValue, key: string): JsonValue {
  if (content !== null && typeof content === 'object' && !Array.isArray(content)) return content[key]!;
  throw new PythonException('TypeError', "indices must be integers, not 'str'");
}

/** The password of a Basic header, decoded as Python's lenient `base64.decodebytes` and strict UTF-8. */
function decodeBasicPassword(encoded: string): string {
  const data = encoded.replace(/[^A-Za-z0-9+/=]/g, '').split('=')[0]!;
  if (data.length % 4 === 1) throw new PythonException('binascii.Error', 'Incorrect padding');
  const padded = data + '='.repeat((4 - (data.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PythonException('UnicodeDecodeError', "'utf-8' codec can't decode the password");
  }
}

/** A version 1 response in version 0's format. */
function responseV0(response: AisysResponse): AisysResponseV0 {
  const line = (m: AisysResponse['messages'][number]) => `MessageType.${m.type}: Run ${m.run}: ${m.content}`;
  return {
    'action-requests': response.action_requests.map((r) => ({
      percept: r.percept,
      run: `${r.run}#${r.act_no}`,
    })),
    errors: response.messages.filter((m) => m.type === 'error').map(line),
    messages: response.messages.filter((m) => m.type !== 'error').map(line),
  };
}

/** The Python exception class an error stands for. */
function exceptionName(error: unknown): string {
  return error instanceof Error ? error.name : 'Exception';
}

/** What an admin sees of a crash: Python's traceback layout, without Python frames to show. */
function pythonTraceback(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return [
    'Traceback (most recent call last):',
    '  (emulated by Protoplay: no Python frames)',
    `${exceptionName(error)}${message ? `: ${message}` : ''}`,
    '',
  ].join('\n');
}
