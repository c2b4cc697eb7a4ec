import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaticSite } from '../../../cli/open/static-site';
import { runInProcess } from '../run-cli';

let folder: string;
let site: StaticSite;

/** A raw request (fetch would normalise `..` in the path before sending it). */
function get(
  path: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((done, failed) => {
    const sent = request({ host: '127.0.0.1', port: site.port, path, method }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => done({ status: response.statusCode!, headers: response.headers, body }));
    });
    sent.once('error', failed);
    sent.end();
  });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'protoplay-site-'));
  await mkdir(join(folder, 'site/assets'), { recursive: true });
  await mkdir(join(folder, 'site/examples'));
  await writeFile(join(folder, 'site/index.html'), '<!doctype html><title>home</title>');
  await writeFile(join(folder, 'site/examples/index.html'), 'examples');
  await writeFile(join(folder, 'site/assets/index-abc123.js'), 'export {};');
  await writeFile(join(folder, 'site/sw.js'), '// worker');
  await writeFile(join(folder, 'secret.txt'), 'outside');
  site = await StaticSite.start({ root: join(folder, 'site'), host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await site?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the static file server of protoplay open', () => {
  it('serves index.html for the root, with its media type, revalidated', async () => {
    const page = await get('/');
    expect(page).toMatchObject({ status: 200, body: '<!doctype html><title>home</title>' });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('lets hashed assets be cached for good, and nothing else', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/sw.js')).headers['cache-control']).toBe('no-cache');
  });

  it('redirects a folder without its slash, so relative URLs resolve inside it', async () => {
    const folderPage = await get('/examples?x=1');
    expect(folderPage.status).toBe(301);
    expect(folderPage.headers.location).toBe('/examples/?x=1');
    expect((await get('/examples/')).body).toBe('examples');
  });

  it('never serves a file outside its folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/a%00b']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('outside');
    }
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('/index.html', 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(String('<!doctype html><title>home</title>'.length));
    const post = await get('/', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('protoplay open', () => {
  it('refuses a port out of range as a usage error', async () => {
    const result = await runInProcess(['open', '--port', '70000']);
    expect(result.code).toBe(2);
  });
});
