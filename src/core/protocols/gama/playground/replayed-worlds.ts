/**
 * The world of an opened GAMA transcript, as far as it can be rebuilt. The world is never on the wire, but
 * Protoplay's world is deterministic: the scenario (named by the scenario message), the seed and the
 * actions (the API's replies, on the wire) decide every cycle. So an episode is replayed: a fresh GAMA
 * side (`GamaSimulation`) is fed the recorded replies in order, and every frame it sends is checked
 * against the recorded one, byte for byte. Where they all match, the rebuilt world is the recorded one;
 * from the first difference on (a real GAMA model's own map, another seed, another window) nothing more
 * is claimed, and the reason says why.
 *
 * The seed and switches come from the transcript's header when Protoplay wrote it (the playground's and
 * `run gama`'s transcripts); a frame log has none, so the defaults (seed 0, quirks off) are tried, with
 * the quirks on as a second guess, and the observation window is read from the requests' shape.
 */
import {
  findScavengerScenario,
  ScavengerWorld,
  type ObservationOptions,
  type ScavengerWorldSnapshot,
} from '../../../envs/scavenger';
import type { Transcript, TranscriptMessage } from '../../../transcript/model';
import { readGamaMessage, readReply } from '../codec';
import { readGamaOutline } from '../outline';
import { GamaSimulation } from '../simulation';
import type { GamaWorldView } from './options';
import { GamaWorldHistory } from './world-history';

/** What each scavenger did up to a cycle, read from the wire alone. */
export interface GamaWireScavenger {
  id: string;
  /** Rewards reported up to the cycle (an action's reward is reported in the scavenger's next request). */
  reward: number;
  /** Resources collected, as the rewards tell (5 each). */
  collected: number;
  /** It asked in the cycle (not asking means it was in time-out, or the episode had ended). */
  asked: boolean;
}

/** The answer to `world` when the world could not be rebuilt: why, and what the wire tells instead. */
export interface GamaWorldUnavailable {
  episode: number;
  cycle: number;
  unavailable: string;
  scavengers: GamaWireScavenger[];
}

/** One request on the wire. */
interface WireRequest {
  cycle: number;
  id: string;
  reward: number;
}

/** What was rebuilt of one episode. */
interface Rebuilt {
  /** Cycles whose world was verified (the world after cycle c, for c up to this). */
  verifiedCycles: number;
  /** Why no further, when the episode's worlds stop early or are missing. */
  reason?: string;
  /** How the worlds were made, for the view's caption. */
  source?: string;
  requests: WireRequest[];
  scavengers: string[];
}

/**
 * The worlds of an opened transcript, rebuilt an episode at a time as the views ask. A transcript still
 * being read from its file (`growing`) is followed: its episodes are found as they come, and an episode
 * is rebuilt once it is wholly read (a later one has begun, or the file is read), never from part of it.
 */
export class GamaReplayedWorlds {
  readonly #transcript: Transcript;
  readonly #growing: { readonly done: boolean } | undefined;
  /** The episodes: the connections that carry requests, in order (as the episodes' results count them). */
  readonly #connections: string[] = [];
  readonly #seen = new Set<string>();
  /** Messages looked through for connections so far. */
  #scanned = 0;
  readonly #episodes = new Map<number, Rebuilt>();
  #history: GamaWorldHistory | undefined;

  constructor(transcript: Transcript, growing?: { readonly done: boolean }) {
    this.#transcript = transcript;
    this.#growing = growing;
  }

  /** Takes in the messages added since last asked. */
  #follow(): void {
    const { messages } = this.#transcript;
    for (; this.#scanned < messages.length; this.#scanned++) {
      const message = messages[this.#scanned]!;
      if (this.#seen.has(message.conn)) continue;
      if (message.kind === 'data' && message.dir === 'c2s' && message.text?.includes('"request"')) {
        this.#seen.add(message.conn);
        this.#connections.push(message.conn);
      }
    }
  }

  /** The world after a cycle of an episode, or why it is not available and what the wire tells. */
  view(episode: number, cycle: number): GamaWorldView | GamaWorldUnavailable | undefined {
    if (!Number.isInteger(episode) || !Number.isInteger(cycle) || cycle < 0) return undefined;
    this.#follow();
    const conn = this.#connections[episode - 1];
    if (conn === undefined) return undefined;
    if (this.#growing && !this.#growing.done && episode === this.#connections.length)
      return {
        episode,
        cycle,
        unavailable: `episode ${episode} is still being read from the file: its world is rebuilt once all of it is read`,
        scavengers: [],
      };
    let rebuilt = this.#episodes.get(episode);
    if (!rebuilt) {
      rebuilt = this.#rebuild(episode, conn);
      this.#episodes.set(episode, rebuilt);
    }
    // Past its last cycle (the terminal round), a wholly rebuilt episode shows its last world.
    if (!rebuilt.reason && rebuilt.source) cycle = Math.min(cycle, rebuilt.verifiedCycles);
    if (cycle <= rebuilt.verifiedCycles && this.#history) {
      const view = this.#history.view(episode, cycle);
      if (view) return { ...view, ...(rebuilt.source ? { source: rebuilt.source } : {}) };
    }
    return {
      episode,
      cycle,
      unavailable:
        rebuilt.reason ?? `the world was rebuilt up to cycle ${rebuilt.verifiedCycles} of this episode only`,
      scavengers: wireSoFar(rebuilt, cycle),
    };
  }

  /** Replays an episode with the likeliest settings, keeping the worlds of every verified cycle. */
  #rebuild(episode: number, conn: string): Rebuilt {
    const messages = this.#transcript.messages.filter((m) => m.conn === conn && m.kind === 'data');
    const sent = messages.filter((m) => m.dir === 'c2s');
    const { requests, scavengers, scenarioName, state, cycles } = readWire(sent);
    const base = { requests, scavengers, verifiedCycles: 0 };
    if (scenarioName === undefined)
      return { ...base, reason: 'the recording has no scenario message, so the map is unknown' };
    const scenario = findScavengerScenario(scenarioName);
    if (!scenario)
      return {
        ...base,
        reason: `'${scenarioName}' is not one of Protoplay's scenarios: the map is not on the wire, so the world cannot be drawn`,
      };
    const meta = this.#transcript.meta as {
      seed?: unknown;
      faithfulQuirks?: unknown;
      cycles?: unknown;
      sendTerminal?: unknown;
    };
    const known = typeof meta.seed === 'number';
    const seed = (known ? (meta.seed as number) : 0) + episode - 1;
    const quirks =
      typeof meta.faithfulQuirks === 'boolean' ? [meta.faithfulQuirks] : ([false, true] as const);
    const lastCycle = cycles;
    const maxCycles = typeof meta.cycles === 'number' ? meta.cycles : lastCycle;
    let best: {
      verified: number;
      worlds: ScavengerWorldSnapshot[];
      tags: [number, string][];
      quirks: boolean;
    } = {
      verified: -1,
      worlds: [],
      tags: [],
      quirks: false,
    };
    for (const faithfulQuirks of quirks) {
      const replay = replayEpisode(messages, {
        scenario,
        seed,
        maxCycles,
        faithfulQuirks,
        observation: windowOf(state),
        sendTerminal: meta.sendTerminal !== false,
      });
      if (replay.verified > best.verified) best = { ...replay, quirks: faithfulQuirks };
      if (replay.complete) break;
    }
    const history = (this.#history ??= new GamaWorldHistory(scenario.width, scenario.height, best.quirks));
    if (best.worlds.length === 0)
      return {
        ...base,
        reason: `replaying the recorded answers on scenario ${scenario.name} with seed ${seed}${known ? '' : ' (the recording does not say its seed: the default was tried)'} does not give the recorded requests: the recording comes from another map, seed or version, so its world cannot be rebuilt`,
      };
    history.begin(episode, best.worlds[0]!);
    for (const world of best.worlds.slice(1)) history.cycleEnded(episode, world);
    for (const [cycle, shooter] of best.tags) history.tag(episode, cycle, shooter);
    const verifiedCycles = best.worlds.length - 1;
    const source = `rebuilt by replaying the recorded answers on ${scenario.name} with seed ${seed}${best.quirks ? ' and the faithful quirks' : ''}; every request matched (cells no scavenger saw are the replay's own)`;
    if (verifiedCycles >= lastCycle) return { ...base, verifiedCycles, source };
    return {
      ...base,
      verifiedCycles,
      source,
      reason: `the world was rebuilt up to cycle ${verifiedCycles} only: from there the recorded requests differ from a replay on ${scenario.name} with seed ${seed}`,
    };
  }
}

/** The window of observations the requests show: rows ahead and columns to each side (none behind). */
export function windowOf(state: unknown): ObservationOptions {
  const rgb = Array.isArray(state) && Array.isArray(state[0]) && Array.isArray(state[0][0]);
  const rows = (rgb ? (state as unknown[][][])[0] : (state as unknown[][] | undefined)) ?? [];
  const columns = rows[0]?.length ?? 11;
  return {
    kind: rgb ? 'rgb' : 'legend',
    ahead: Math.max(0, rows.length - 1),
    sides: Math.max(0, Math.floor((columns - 1) / 2)),
    behind: 0,
  };
}

/** The requests of an episode with their cycles (as the reader counts them), and the scenario named. */
export function readWire(sent: readonly TranscriptMessage[]) {
  const requests: WireRequest[] = [];
  const scavengers: string[] = [];
  let scenarioName: string | undefined;
  let state: unknown;
  let cycle = 0;
  let lastAsker = Infinity;
  for (const message of sent) {
    const text = message.text ?? '';
    const reading = readGamaOutline(text);
    if (!reading.ok) continue;
    const decoded = reading.message;
    if (decoded.type === 'scenario') scenarioName ??= decoded.scenario;
    else if (decoded.type === 'connect') {
      if (!scavengers.includes(decoded.id)) scavengers.push(decoded.id);
    } else {
      // The window is read from the first request's state: only that one is read whole.
      if (state === undefined) {
        const first = readGamaMessage(text);
        if (first.ok && first.message.type === 'request') state = first.message.state;
      }
      const asker = scavengers.indexOf(decoded.id);
      if (!decoded.terminal && (cycle === 0 || asker <= lastAsker)) cycle++;
      lastAsker = asker;
      requests.push({
        cycle: decoded.terminal ? cycle + 1 : cycle,
        id: decoded.id,
        reward: decoded.reward ?? 0,
      });
    }
  }
  return { requests, scavengers, scenarioName, state, cycles: cycle };
}

/** What the wire tells of each scavenger up to a cycle. */
function wireSoFar(rebuilt: Rebuilt, cycle: number): GamaWireScavenger[] {
  return rebuilt.scavengers.map((id) => {
    const mine = rebuilt.requests.filter((r) => r.id === id && r.cycle <= cycle + 1);
    // A request in cycle c + 1 reports what the scavenger collected up to the end of cycle c.
    const reward = mine.reduce((sum, r) => sum + r.reward, 0);
    return {
      id,
      reward,
      collected: Math.floor(reward / 5),
      asked: rebuilt.requests.some((r) => r.id === id && r.cycle === cycle),
    };
  });
}

/**
 * Plays an episode's recorded replies into a fresh GAMA side, checking each frame it sends against the
 * recording; keeps the world after every cycle whose frames all matched.
 */
function replayEpisode(
  messages: readonly TranscriptMessage[],
  options: ConstructorParameters<typeof GamaSimulation>[0],
): { verified: number; complete: boolean; worlds: ScavengerWorldSnapshot[]; tags: [number, string][] } {
  const recorded = messages.filter((m) => m.dir === 'c2s').map((m) => m.text ?? '');
  const replies = messages.filter((m) => m.dir === 's2c').map((m) => m.text ?? '');
  const pending: ScavengerWorldSnapshot[] = [];
  const worlds: ScavengerWorldSnapshot[] = [];
  const tags: [number, string][] = [];
  let next = 0;
  let diverged = false;
  let cycle = 1;
  const simulation = new GamaSimulation({
    ...options,
    onCycle: (world) => pending.push(world),
    onCycleEnd: (ended) => (cycle = ended + 1),
  });
  const sink = {
    send(text: string) {
      if (diverged) return;
      if (recorded[next] !== text) diverged = true;
      else next++;
    },
    close() {},
  };
  const peer = simulation.connect(sink);
  for (const reply of replies) {
    if (diverged) break;
    // The frames sent so far all matched: the worlds of the cycles they ended are the recorded ones.
    worlds.push(...pending.splice(0));
    const read = readReply(reply);
    if (read.ok && read.reply.action === 'tag' && cycle <= (options.maxCycles ?? Infinity))
      tags.push([cycle, read.reply.id]);
    peer.receive(reply);
  }
  if (!diverged) worlds.push(...pending.splice(0));
  peer.end('replayed');
  // The world before the first cycle, as GAMA's side starts it.
  const initial = new ScavengerWorld(options.scenario, {
    ...(options.faithfulQuirks !== undefined ? { faithfulQuirks: options.faithfulQuirks } : {}),
  }).snapshot();
  return {
    verified: diverged ? next : recorded.length,
    complete: !diverged && next === recorded.length,
    // The start is the scenario's only once the first request (what a scavenger saw of it) matched.
    worlds: next > recorded.findIndex((text) => text.includes('"request"')) ? [initial, ...worlds] : [],
    tags,
  };
}
