/**
 * A static file server for a built site: GET and HEAD of the files below one folder, with their media
 * types, and nothing else. Names are resolved inside the folder only (`..` and encoded tricks get 404);
 * a folder serves its `index.html`. Hashed build assets may be cached for good; every other file is
 * revalidated, so a new build (and its service worker) is picked up at the next load.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.rddl': 'text/plain; charset=utf-8',
};

/** Options of `StaticSite.start`. */
export interface StaticSiteOptions {
  /** The folder served at `/`. */
  root: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** A running static file server. */
export class StaticSite {
  readonly #server: Server;
  readonly #root: string;

  private constructor(server: Server, root: string) {
    this.#server = server;
    this.#root = root;
  }

  /** Listens; rejects with the listen error (EADDRINUSE...). */
  static async start({ root, host, port }: StaticSiteOptions): Promise<StaticSite> {
    const server = createServer();
    const site = new StaticSite(server, resolve(root));
    server.on('request', (request, response) => void site.#answer(request, response));
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(port, host, () => {
        server.off('error', failed);
        listening();
      });
    });
    return site;
  }

  /** The port it listens on. */
  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** Stops listening and ends open connections. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((closed) => this.#server.close(() => closed()));
  }

  async #answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('only GET and HEAD\n');
      return;
    }
    const file = await this.#find(request.url ?? '/');
    if (file && 'redirect' in file) {
      // A folder's page resolves its relative URLs against the folder only when its address ends in `/`.
      response.writeHead(301, { Location: file.redirect });
      response.end();
      return;
    }
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('not found\n');
      return;
    }
    response.writeHead(200, {
      'Content-Type': MEDIA_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': file.size,
      'Cache-Control': file.hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const stream = createReadStream(file.path);
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  }

  /** The file a request path names inside the root, a folder's address with its `/`, or undefined. */
  async #find(
    url: string,
  ): Promise<{ path: string; size: number; hashed: boolean } | { redirect: string } | undefined> {
    let pathname: string;
    let search: string;
    try {
      const parsed = new URL(url, 'http://site');
      pathname = decodeURIComponent(parsed.pathname);
      search = parsed.search;
    } catch {
      return undefined;
    }
    if (pathname.includes('\0')) return undefined;
    let path = resolve(this.#root, `.${pathname}`);
    if (path !== this.#root && !path.startsWith(this.#root + sep)) return undefined;
    try {
      let info = await stat(path);
      if (info.isDirectory()) {
        if (!pathname.endsWith('/')) return { redirect: `${encodeURI(pathname)}/${search}` };
        path = join(path, 'index.html');
        info = await stat(path);
      }
      if (!info.isFile()) return undefined;
      // Vite names what it builds into assets/ by content hash.
      const hashed = path.startsWith(join(this.#root, 'assets') + sep);
      return { path, size: info.size, hashed };
    } catch {
      return undefined;
    }
  }
}
