// How the server hands out the built web app (issue 7): the prerendered public pages, the app
// shell for everything else, precompressed copies for browsers that take them, and never a
// dotfile or a source map.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';

let app: TestApp;
let webDir: string;
const script = 'console.log("the app");'.repeat(200);

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-web-'));
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(webDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(webDir, rel), content);
  };
  write('index.html', '<!doctype html><title>shell</title><div id="root"></div>');
  write('pages/index.html', '<!doctype html><title>home</title><div id="root">prerendered home</div>');
  write('pages/about.html', '<!doctype html><title>about</title><div id="root">prerendered about</div>');
  write('assets/app-1.js', script);
  write('assets/app-1.js.br', zlib.brotliCompressSync(script));
  write('assets/app-1.js.gz', zlib.gzipSync(script));
  write('.build-stamp', '2026-11-22');
  app = await startTestApp({ webDir });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const text = async (pathname: string, headers: Record<string, string> = {}) => {
  const res = await app.fetch(pathname, { headers });
  return { res, body: await res.text() };
};

describe('pages', () => {
  it('a public page comes prerendered; a page without its own prerender gets the shell', async () => {
    expect((await text('/')).body).toContain('prerendered home');
    expect((await text('/about')).body).toContain('prerendered about');
    expect((await text('/signup')).body).toContain('shell');
    expect((await text('/no-such-page')).body).toContain('shell');
  });

  it('with a query the page renders in the browser (the prerender knows no query)', async () => {
    expect((await text('/?utm_source=flyer')).body).toContain('shell');
    expect((await text('/about?x=1')).body).toContain('shell');
  });

  it('pages are never cached stale', async () => {
    expect((await text('/about')).res.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('assets', () => {
  it('a browser that takes brotli gets the brotli copy, one that takes only gzip the gzip copy, others the file', async () => {
    const br = await app.fetch('/assets/app-1.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(await br.text()).toBe(script); // fetch decodes it
    const gz = await app.fetch('/assets/app-1.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(script);
    const plain = await app.fetch('/assets/app-1.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(script)));
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('a range request gets bytes of the file itself, never of a compressed copy', async () => {
    const res = await app.fetch('/assets/app-1.js', { headers: { 'accept-encoding': 'br', range: 'bytes=0-9' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(script.slice(0, 10));
  });

  it('dotfiles (the build stamp) are never served', async () => {
    expect((await app.fetch('/.build-stamp')).status).toBe(404);
    expect((await app.fetch('/assets/.hidden')).status).toBe(404);
  });
});
