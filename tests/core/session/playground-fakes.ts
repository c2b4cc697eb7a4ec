/**
 * Stand-ins for what a playground runner gets from the page's session worker, shared by the runner
 * tests: services that record every update, a protocol's policy runtime in this thread, and the part of
 * the bridge an inbound run uses.
 */
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import type { SansIoEndpoint, WireData } from '../../../src/core/protocols/contract';
import type {
  ProtocolPlayground,
  PlaygroundServices,
  SessionUpdate,
} from '../../../src/core/protocols/session-contract';
import type { BridgeAccess } from '../../../src/core/session/bridge-route';

/** The protocol's policy runtime in this thread, as `spawnPolicy` would give it in a worker. */
export function inProcessPolicy(playground: ProtocolPlayground): () => PolicyEndpoint {
  return () => {
    const runtime = playground.loadPolicyRuntime();
    return {
      load: async (source) => (await runtime).load(source),
      call: async (hook, args, context) => (await runtime).call(hook, args, context),
      terminate: () => undefined,
    };
  };
}

/** For runs that ask no policy (an inbound run: the clients are real programs). */
function noPolicy(): PolicyEndpoint {
  throw new Error('an inbound run asks no policy');
}

/** What `recordingServices` records. */
export interface RecordedServices {
  services: PlaygroundServices;
  /** Every batch, its deferred messages and annotations merged in. */
  updates: SessionUpdate[];
  /** Every transcript the runner asked to keep, as its JSON pieces. */
  kept: string[][];
  /** Settles with the first batch that carries a final status. */
  ended: Promise<SessionUpdate>;
}

/** Services that record what a runner reports; frames come in later tasks, as in the page. */
export function recordingServices(spawnPolicy: () => PolicyEndpoint = noPolicy): RecordedServices {
  const updates: SessionUpdate[] = [];
  const kept: string[][] = [];
  let finish: (update: SessionUpdate) => void = () => undefined;
  const ended = new Promise<SessionUpdate>((resolve) => (finish = resolve));
  const services: PlaygroundServices = {
    spawnPolicy,
    listener: {
      update(json, deferred) {
        const update = JSON.parse(json) as SessionUpdate;
        if (deferred) Object.assign(update, JSON.parse(deferred));
        updates.push(update);
        if (update.status && ['finished', 'stopped', 'failed'].includes(update.status)) finish(update);
      },
    },
    nextFrame: (callback) => setTimeout(callback, 0),
    keepTranscript: async (json) => void kept.push([...json]),
  };
  return { services, updates, kept, ended };
}

/** The part of the bridge an inbound run uses: listen ports whose endpoints the test connects to. */
export function fakeListenBridge(address: string): {
  access: BridgeAccess;
  served: Map<string, SansIoEndpoint<WireData, WireData>>;
} {
  const served = new Map<string, SansIoEndpoint<WireData, WireData>>();
  const access: BridgeAccess = {
    connect: () => Promise.reject(new Error('no targets here')),
    serve(listen, endpoint) {
      served.set(listen, endpoint);
      return () => served.delete(listen);
    },
    describe: () => address,
    silenceMs: 30_000,
  };
  return { access, served };
}
