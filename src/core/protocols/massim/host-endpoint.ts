/**
 * The emulated MASSim server as a sans-IO endpoint: any byte transport (the command line's TCP server, a
 * test) connects, feeds what an agent sends and carries out what comes back. Each connection is one
 * `MassimHostConnection` of one `MassimHost`, so accounts, ids, the tournament and the real server's quirks
 * are the host's. On top of it the endpoint writes the frames the host sends in one go (sim-start and the
 * first request-action) in one `send`, follows which agent is logged in on which connection, and names
 * logins, refusals and disconnections in log lines.
 */
import type { SansIoEndpoint, WirePeer, WireSink } from '../contract';
import { encodeNulFrame } from '../../transport/nul-framing';
import type { MassimHost, MassimHostConnection } from './host';
import type { MassimOutgoingFrame } from './outgoing';

/** Options of the endpoint. */
export interface MassimHostEndpointOptions {
  /** One line per event worth an operator's attention (`agentA1 logged in (...)`). */
  log(line: string): void;
  /** An agent logged in, or its logged-in connection closed. */
  onAgentsChanged?(): void;
}

/** A connection as transports see it: a peer named in logs by its transcript id (`agentA1.conn1`). */
export type MassimServedPeer = WirePeer<Uint8Array> & {
  readonly label: string;
  /** A logged-in agent: the server speaks next (sim-start, the next step), so silence is no idleness. */
  readonly waitingForServer: boolean;
};

/** `MassimHost` behind the one sans-IO shape every transport serves. */
export class MassimHostEndpoint implements SansIoEndpoint<Uint8Array, Uint8Array> {
  readonly host: MassimHost;
  readonly #options: MassimHostEndpointOptions;
  /** The logged-in connection of every agent that has one open. */
  readonly #agents = new Map<string, MassimHostConnection>();

  constructor(host: MassimHost, options: MassimHostEndpointOptions) {
    this.host = host;
    this.#options = options;
  }

  /** Agents with an open, logged-in connection. */
  get loggedIn(): ReadonlySet<string> {
    return new Set(this.#agents.keys());
  }

  connect(sink: WireSink<Uint8Array>, connection: { id: string; remote?: string }): MassimServedPeer {
    const remote = connection.remote ?? connection.id;
    const batch = new FrameBatch(sink);
    let agent: string | undefined;
    const hostConnection: MassimHostConnection = this.host.connect({
      deliver: (frame) => {
        batch.add(frame);
        if (frame.type === 'auth-response') agent = this.#loggedIn(hostConnection, frame, remote);
        else if (frame.type === 'status-response')
          this.#options.log(`${hostConnection.id}: status-request from ${remote}`);
      },
      close: () => batch.close(),
    });
    return {
      get label() {
        return hostConnection.id;
      },
      get waitingForServer() {
        return agent !== undefined;
      },
      receive: (bytes) => hostConnection.receive(bytes),
      end: () => {
        batch.discard();
        hostConnection.disconnect();
        if (agent && this.#agents.get(agent) === hostConnection) {
          this.#agents.delete(agent);
          this.#options.log(`${agent} disconnected (${hostConnection.id})`);
          this.#options.onAgentsChanged?.();
        }
      },
    };
  }

  /** An auth-response left: which agent logged in, if one did. */
  #loggedIn(
    connection: MassimHostConnection,
    frame: MassimOutgoingFrame,
    remote: string,
  ): string | undefined {
    const { log } = this.#options;
    const ok = (frame.message.content as { result?: string }).result === 'ok';
    if (!ok) {
      log(`${connection.id}: login refused (unknown user or wrong password) from ${remote}`);
      return undefined;
    }
    // Connection ids of logged-in agents are `<agent>.conn<k>`.
    const agent = connection.id.replace(/\.conn\d+$/, '');
    const previous = this.#agents.get(agent);
    this.#agents.set(agent, connection);
    log(
      previous
        ? `${agent} logged in again (${connection.id} from ${remote}), replacing ${previous.id}`
        : `${agent} logged in (${connection.id} from ${remote})`,
    );
    this.#options.onAgentsChanged?.();
    return agent;
  }
}

/**
 * Frames the host sends in one go, sent in one `send` once the current task is done: sim-start and the
 * first request-action leave together and never wait on Nagle or a delayed ACK.
 */
class FrameBatch {
  readonly #sink: WireSink<Uint8Array>;
  #frames: Uint8Array[] = [];
  #bytes = 0;
  #closeAfter = false;
  #scheduled = false;
  #discarded = false;

  constructor(sink: WireSink<Uint8Array>) {
    this.#sink = sink;
  }

  add(frame: MassimOutgoingFrame): void {
    if (this.#discarded) return;
    const bytes = encodeNulFrame(frame.text);
    this.#frames.push(bytes);
    this.#bytes += bytes.length;
    this.#schedule();
  }

  /** The host closes the connection, after what it sent. */
  close(): void {
    if (this.#discarded) return;
    this.#closeAfter = true;
    this.#schedule();
  }

  /** The connection is gone: nothing more is sent. */
  discard(): void {
    this.#discarded = true;
    this.#frames = [];
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#discarded) return;
    const frames = this.#frames;
    if (frames.length === 1) this.#sink.send(frames[0]!);
    else if (frames.length > 1) {
      const joined = new Uint8Array(this.#bytes);
      let offset = 0;
      for (const frame of frames) {
        joined.set(frame, offset);
        offset += frame.length;
      }
      this.#sink.send(joined);
    }
    this.#frames = [];
    this.#bytes = 0;
    if (this.#closeAfter) {
      this.#discarded = true;
      this.#sink.close();
    }
  }
}
