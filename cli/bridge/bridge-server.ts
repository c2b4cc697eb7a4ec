/**
 * The bridge: a WebSocket server for the page (loopback unless told otherwise), the allowlist of page
 * origins, the listen ports, and the pages currently connected. It knows transports, never a protocol.
 */
import { Agent, createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { BridgeCloseCode, DATA_HEADER_BYTES, type ListenInfo } from '../../src/core/bridge/control-protocol';
import type { BridgeConfig } from './bridge-config';
import { answer } from './http-relay';
import { ListenPorts } from './listen-ports';
import { PageSession } from './page-session';

/** How to start a bridge: its configuration, its token and where its log goes. */
export interface BridgeServerOptions extends BridgeConfig {
  token: string;
  log: (line: string) => void;
}

/** A running bridge. */
export class BridgeServer {
  private constructor(
    private readonly roster: PageRoster,
    private readonly http: Server,
    private readonly sockets: WebSocketServer,
    private readonly listenPorts: ListenPorts,
    private readonly httpAgent: Agent,
    /** The page's address of the bridge: `ws://127.0.0.1:8787`. */
    readonly url: string,
  ) {}

  /** The bound listen ports. */
  get listens(): readonly ListenInfo[] {
    return this.listenPorts.infos;
  }

  /** Pages connected now (welcomed or not). */
  get connectedPages(): number {
    return this.roster.pages.length;
  }

  /** Binds the page's port and the listen ports; rejects with a sentence when one cannot be bound. */
  static async start(options: BridgeServerOptions): Promise<BridgeServer> {
    const { limits } = options;
    // A page's frame holds at most one capped WebSocket frame, or one capped HTTP body as JSON (escaping
    // can double it); anything bigger is cut by `ws` with close code 1009.
    const maxPayload =
      Math.max(limits.websocketFrameBytes + DATA_HEADER_BYTES, 2 * limits.httpBodyBytes) + 64 * 1024;
    const sockets = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false });
    const http = createServer((_request, response) =>
      answer(response, 426, 'This is protoplay bridge: open the link it printed, the page connects here.\n'),
    );
    const httpAgent = new Agent({ keepAlive: true, maxSockets: limits.maxChannels });
    const roster = new PageRoster();
    const listenPorts = await ListenPorts.open(options.listens, {
      limits,
      currentPage: () => roster.current(),
      log: options.log,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (error: NodeJS.ErrnoException) => {
          const why = error.code === 'EADDRINUSE' ? 'the port is in use' : (error.code ?? error.message);
          reject(new Error(`cannot listen on ${options.host}:${options.port}: ${why}`));
        };
        http.once('error', fail);
        http.listen(options.port, options.host, () => {
          http.off('error', fail);
          resolve();
        });
      });
    } catch (error) {
      await listenPorts.close();
      throw error;
    }
    http.on('error', (error) => options.log(`bridge server error: ${error.message}`));
    const address = http.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const server = new BridgeServer(roster, http, sockets, listenPorts, httpAgent, `ws://${host}:${port}`);
    http.on('upgrade', (request, socket: Duplex, head) =>
      sockets.handleUpgrade(request, socket, head, (page) => {
        const origin = request.headers.origin;
        // The upgrade is accepted before refusing, so the page gets a close reason it can show.
        if (origin === undefined || !options.origins.includes(origin)) {
          const shown = origin === undefined ? 'no origin' : `origin ${origin.slice(0, 60)}`;
          options.log(`refused a page from ${shown}`);
          page.close(BridgeCloseCode.originNotAllowed, `${shown} is not allowed (see --origin)`);
          return;
        }
        if (roster.pages.length >= limits.maxPages) {
          options.log(`refused a page from ${origin}: ${limits.maxPages} pages are connected`);
          page.close(BridgeCloseCode.tooManyPages, `the bridge serves ${limits.maxPages} pages at once`);
          return;
        }
        roster.count += 1;
        const session = new PageSession(`page ${roster.count} (${origin})`, page, {
          token: options.token,
          targets: options.targets,
          listens: () => listenPorts.infos,
          limits,
          httpAgent,
          log: options.log,
          welcomed: (welcomed) => roster.promote(welcomed),
          gone: (gone) => roster.remove(gone),
        });
        roster.pages.push(session);
        session.log('connected');
      }),
    );
    return server;
  }

  /** Stops: every page is told the bridge is stopping, every channel and port closed. */
  async close(): Promise<void> {
    for (const page of [...this.roster.pages]) page.shutDown();
    await this.listenPorts.close();
    for (const client of this.sockets.clients) client.terminate();
    this.sockets.close();
    this.httpAgent.destroy();
    await new Promise<void>((done) => {
      this.http.close(() => done());
      this.http.closeAllConnections();
    });
  }
}

/** The pages connected now, in the order they said hello (the last one takes accepted connections). */
class PageRoster {
  readonly pages: PageSession[] = [];
  /** Pages ever connected, to number them in the log. */
  count = 0;

  current(): PageSession | undefined {
    for (let i = this.pages.length - 1; i >= 0; i--) if (this.pages[i]!.active) return this.pages[i];
    return undefined;
  }

  promote(session: PageSession): void {
    this.remove(session);
    this.pages.push(session);
  }

  remove(session: PageSession): void {
    const index = this.pages.indexOf(session);
    if (index >= 0) this.pages.splice(index, 1);
  }
}
