// The data path of an admin upload (uploads/tus-patch.ts, issue 23): a tus PATCH streamed from the
// raw Node request into the upload's file. Its protocol edges against the real server over real
// HTTP: a wrong offset, a wrong content type, someone else's upload, more bytes than announced, a
// connection dropped half-way and resumed, and two PATCHes to one upload at once. After each, the
// file on disk is checked byte for byte.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED, AUTH_REQUIRED } from '../../src/common/messages';
import { userVideos } from '../../src/server/db/schema';
import { cookiesFrom, markVerified, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { insertPerson, makeAdmin, readStored } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';
import { makeVideo } from '../support/videos';

type User = { cookie: string; userId: string };
let app: TestApp;
let admin: User;
let otherAdmin: User;
let member: User;
let athleteId: string;
let clip: Buffer;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Signs up and signs in directly (this app runs no worker, so no mail goes out). */
async function signIn(fullName: string): Promise<User> {
  const email = uniqueEmail('patch');
  await app.fetch('/api/account/sign-up', { method: 'POST', json: { fullName, email, password: 'secret123' } });
  await markVerified(app, email);
  const res = await app.fetch('/api/auth/sign-in/email', { method: 'POST', json: { email, password: 'secret123' } });
  return { cookie: cookiesFrom(res), userId: (await jsonOf<{ user: { id: string } }>(res)).user.id };
}

beforeAll(async () => {
  // No worker: a finished upload's original stays in storage exactly as it arrived, to be compared.
  app = await startTestApp({ runWorker: false, rateLimitScale: 50 });
  admin = await signIn('Pat Patcher');
  otherAdmin = await signIn('Otto Other');
  member = await signIn('Mia Member');
  await makeAdmin(app, admin.userId);
  await makeAdmin(app, otherAdmin.userId);
  athleteId = await insertPerson(app, { firstName: 'Ada', lastName: 'Athlete' });
  clip = fs.readFileSync(makeVideo({ container: 'mp4', width: 640, height: 360, seconds: 6 }));
});
afterAll(async () => {
  await app?.close();
});

const metadata = () =>
  Object.entries({ userId: athleteId, title: 'Patched Upload', paid: 'false', filename: 'game.mp4' })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** Starts an upload of `length` bytes (tus POST); returns its path. */
async function create(length: number, who: User = admin): Promise<string> {
  const res = await app.fetch('/api/admin/uploads', {
    method: 'POST',
    cookie: who.cookie,
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': metadata() },
  });
  expect(res.status).toBe(201);
  return new URL(res.headers.get('location')!, app.url).pathname;
}

const fileOf = (url: string) => path.join(app.dataDir, 'uploads', url.split('/').pop()!);
const stored = (url: string) => (fs.existsSync(fileOf(url)) ? fs.readFileSync(fileOf(url)) : null);
const tusHeaders = (who: User | null, offset: number) => ({
  ...(who ? { cookie: who.cookie } : {}),
  origin: app.origin,
  'tus-resumable': '1.0.0',
  'upload-offset': String(offset),
  'content-type': 'application/offset+octet-stream',
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A PATCH over a socket of its own. `parts` are written one after another (`pauseMs` apart);
 * `hold` keeps the request open after them (no end) until the returned `end` or `drop` is called.
 */
function patch(url: string, headers: Record<string, string>, parts: Buffer[], opts: { pauseMs?: number; hold?: boolean } = {}) {
  const req = http.request(`${app.url}${url}`, { method: 'PATCH', headers, agent: false });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // A socket the server closed is an answer too, for these tests.
  answer.catch(() => {});
  const sent = (async () => {
    for (const [i, part] of parts.entries()) {
      if (i > 0 && opts.pauseMs) await sleep(opts.pauseMs);
      if (req.destroyed) return;
      req.write(part);
    }
    if (!opts.hold) req.end();
  })();
  return {
    answer,
    sent,
    drop: () => req.destroy(),
    end: () => req.end(),
  };
}

const head = async (url: string, who: User = admin) => {
  const res = await app.fetch(url, { method: 'HEAD', cookie: who.cookie, headers: { 'tus-resumable': '1.0.0' } });
  return { status: res.status, offset: Number(res.headers.get('upload-offset')) };
};

/** Waits until the upload's file on disk holds `bytes` bytes. */
const untilStored = (url: string, bytes: number) => expect.poll(() => stored(url)?.length, { timeout: 10_000, interval: 20 }).toBe(bytes);

describe('the offset and the protocol headers', () => {
  it('a PATCH at the wrong offset is refused with 409 and nothing is written', async () => {
    const url = await create(clip.length);
    const first = await patch(url, { ...tusHeaders(admin, 0), 'content-length': '1000' }, [clip.subarray(0, 1000)]).answer;
    expect(first).toMatchObject({ status: 204, headers: { 'upload-offset': '1000', 'tus-resumable': '1.0.0' } });
    for (const offset of [0, 500, 2000]) {
      const res = await patch(url, { ...tusHeaders(admin, offset), 'content-length': '100' }, [Buffer.alloc(100, 9)]).answer;
      expect(res.status, `offset ${offset}`).toBe(409);
      expect(res.body).toBe('Upload-Offset conflict\n');
    }
    expect(sha(stored(url)!)).toBe(sha(clip.subarray(0, 1000)));
    expect(await head(url)).toEqual({ status: 200, offset: 1000 });
  });

  it('a PATCH without the tus content type is refused with 415; without Tus-Resumable 412; without or with a bad offset 403/400; nothing is written', async () => {
    const url = await create(clip.length);
    const body = [clip.subarray(0, 100)];
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ ...tusHeaders(admin, 0), 'content-type': 'application/octet-stream' }, 415, 'Content-Type must be application/offset+octet-stream\n'],
      [Object.fromEntries(Object.entries(tusHeaders(admin, 0)).filter(([k]) => k !== 'content-type')), 415, 'Content-Type must be application/offset+octet-stream\n'],
      [Object.fromEntries(Object.entries(tusHeaders(admin, 0)).filter(([k]) => k !== 'tus-resumable')), 412, 'Tus-Resumable Required\n'],
      [{ ...tusHeaders(admin, 0), 'tus-resumable': '0.2.2' }, 400, 'Invalid tus-resumable\n'],
      [Object.fromEntries(Object.entries(tusHeaders(admin, 0)).filter(([k]) => k !== 'upload-offset')), 403, 'Upload-Offset header required\n'],
      [{ ...tusHeaders(admin, 0), 'upload-offset': '-1' }, 400, 'Invalid upload-offset\n'],
      [{ ...tusHeaders(admin, 0), 'upload-offset': '0x10' }, 400, 'Invalid upload-offset\n'],
    ];
    for (const [headers, status, text] of cases) {
      const res = await patch(url, { ...headers, 'content-length': '100' }, body).answer;
      expect({ status: res.status, body: res.body }, JSON.stringify(headers)).toEqual({ status, body: text });
    }
    expect(stored(url)!.length).toBe(0);
  });
});

describe('who may send data', () => {
  it("another admin's PATCH answers 404 as for a missing upload; a member 403, a visitor 401; nothing is written", async () => {
    const url = await create(clip.length);
    const part = [clip.subarray(0, 100)];
    const other = await patch(url, { ...tusHeaders(otherAdmin, 0), 'content-length': '100' }, part).answer;
    const missing = await patch(`/api/admin/uploads/${'0'.repeat(32)}`, { ...tusHeaders(admin, 0), 'content-length': '100' }, part).answer;
    const malformed = await patch('/api/admin/uploads/%E0%A4%A', { ...tusHeaders(admin, 0), 'content-length': '100' }, part).answer;
    expect(malformed).toMatchObject({ status: 404, body: JSON.stringify({ code: 'NOT_FOUND', message: 'Not found' }) });
    expect(other).toMatchObject({ status: 404, body: JSON.stringify({ code: 'NOT_FOUND', message: 'Not found' }) });
    expect(missing).toMatchObject({ status: 404, body: other.body });
    const byMember = await patch(url, { ...tusHeaders(member, 0), 'content-length': '100' }, part).answer;
    expect(byMember.status).toBe(403);
    expect(JSON.parse(byMember.body)).toMatchObject({ code: 'NOT_ADMIN', message: ACCESS_DENIED.description });
    const byVisitor = await patch(url, { ...tusHeaders(null, 0), 'content-length': '100' }, part).answer;
    expect(byVisitor.status).toBe(401);
    expect(JSON.parse(byVisitor.body)).toMatchObject({ code: 'UNAUTHENTICATED', message: AUTH_REQUIRED.description });
    expect(stored(url)!.length).toBe(0);
    // The admin who started it still can.
    expect((await patch(url, { ...tusHeaders(admin, 0), 'content-length': '100' }, part).answer).status).toBe(204);
  });
});

describe('the announced size', () => {
  it('a PATCH announcing more than the upload has room for is refused before a byte is written', async () => {
    const url = await create(1000);
    const res = await patch(url, { ...tusHeaders(admin, 0), 'content-length': '1500' }, [clip.subarray(0, 1500)]).answer;
    expect(res).toMatchObject({ status: 413, body: "upload's size exceeded\n" });
    expect(stored(url)!.length).toBe(0);
  });

  it('a body sent without a length that runs past the size is cut off: nothing beyond the size is stored', async () => {
    const url = await create(1000);
    // Chunked transfer: the server learns the length only as the bytes come.
    const res = await patch(url, tusHeaders(admin, 0), [clip.subarray(0, 600), clip.subarray(600, 1400)], { pauseMs: 200 }).answer;
    expect(res).toMatchObject({ status: 413, body: "upload's size exceeded\n" });
    const kept = stored(url)!;
    expect(kept.length).toBeLessThanOrEqual(1000);
    expect(sha(kept)).toBe(sha(clip.subarray(0, kept.length)));
    expect(await head(url)).toEqual({ status: 200, offset: kept.length });
  });
});

describe('resuming', () => {
  it('a connection dropped half-way leaves what arrived; HEAD + PATCH finish it, and the stored original is byte-identical', async () => {
    const url = await create(clip.length);
    const half = Math.floor(clip.length / 2);
    const cut = patch(url, { ...tusHeaders(admin, 0), 'content-length': String(clip.length) }, [clip.subarray(0, half)], { hold: true });
    await cut.sent;
    await untilStored(url, half);
    cut.drop();
    // Once the server has let go of the dropped request, HEAD tells where to go on.
    await expect.poll(async () => (await head(url)).offset, { timeout: 10_000 }).toBe(half);
    const rest = await patch(url, { ...tusHeaders(admin, half), 'content-length': String(clip.length - half) }, [clip.subarray(half)]).answer;
    expect(rest.status).toBe(200);
    expect(rest.headers['upload-offset']).toBe(String(clip.length));
    const { videoId } = JSON.parse(rest.body) as { videoId: string };
    const [row] = await app.db.select().from(userVideos).where(eq(userVideos.id, videoId));
    expect(row).toMatchObject({ userId: athleteId, uploadedBy: admin.userId, processingState: 'queued' });
    expect(sha(await readStored(app.server.deps.storage, row!.sourceKey!))).toBe(sha(clip));
    // Finished: the upload's files are gone, and a PATCH to it now finds nothing.
    expect(fs.existsSync(fileOf(url))).toBe(false);
    expect((await patch(url, { ...tusHeaders(admin, clip.length), 'content-length': '0' }, []).answer).status).toBe(404);
  });

  it('two PATCHes to one upload at once: the stale one gives way to the retry, and the file is the source byte for byte', async () => {
    const url = await create(clip.length);
    const third = Math.floor(clip.length / 3);
    // A stale request: it sent a third and then went quiet, still open (a phone that lost its signal).
    const stale = patch(url, { ...tusHeaders(admin, 0), 'content-length': String(clip.length) }, [clip.subarray(0, third)], { hold: true });
    await stale.sent;
    await untilStored(url, third);
    // The client retries: its HEAD waits for the upload, so the stale request is told to give way
    // (after the drain time) and is answered with what it stored; HEAD then says where to go on.
    const started = Date.now();
    const { offset } = await head(url);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(offset).toBe(third);
    expect(await stale.answer).toMatchObject({ status: 204, headers: { 'upload-offset': String(third), connection: 'close' } });
    // Bytes the stale client sends now go nowhere; the retry finishes the upload.
    stale.end();
    const done = await patch(url, { ...tusHeaders(admin, offset), 'content-length': String(clip.length - offset) }, [clip.subarray(offset)]).answer;
    expect(done.status).toBe(200);
    const { videoId } = JSON.parse(done.body) as { videoId: string };
    const [row] = await app.db.select().from(userVideos).where(eq(userVideos.id, videoId));
    expect(sha(await readStored(app.server.deps.storage, row!.sourceKey!))).toBe(sha(clip));
  });

  it('a PATCH while another is still sending waits for it to give way, and the stale one is told the offset it reached', async () => {
    const url = await create(clip.length);
    const third = Math.floor(clip.length / 3);
    const stale = patch(url, { ...tusHeaders(admin, 0), 'content-length': String(clip.length) }, [clip.subarray(0, third)], { hold: true });
    await stale.sent;
    await untilStored(url, third);
    // No HEAD this time: the second PATCH itself asks the first to give way, and waits for it.
    const started = Date.now();
    const second = await patch(url, { ...tusHeaders(admin, third), 'content-length': String(clip.length - third) }, [clip.subarray(third)]).answer;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(second.status).toBe(200);
    expect(await stale.answer).toMatchObject({ status: 204, headers: { 'upload-offset': String(third), connection: 'close' } });
    const [row] = await app.db.select().from(userVideos).where(eq(userVideos.id, (JSON.parse(second.body) as { videoId: string }).videoId));
    expect(sha(await readStored(app.server.deps.storage, row!.sourceKey!))).toBe(sha(clip));
  });

  it('a PATCH made from an offset that went stale while another one was sending is refused, and the file holds only the source\'s bytes', async () => {
    const url = await create(clip.length);
    const quarter = Math.floor(clip.length / 4);
    const parts = [0, 1, 2, 3].map((i) => clip.subarray(i * quarter, i === 3 ? clip.length : (i + 1) * quarter));
    // The first sends a quarter every 2 s; the second comes right after the first quarter.
    const first = patch(url, { ...tusHeaders(admin, 0), 'content-length': String(clip.length) }, parts, { pauseMs: 2000 });
    await untilStored(url, quarter);
    const second = patch(url, { ...tusHeaders(admin, quarter), 'content-length': String(clip.length - quarter) }, [Buffer.alloc(clip.length - quarter, 0xee)]);
    // The first goes on for the drain time (it sends its second quarter meanwhile), then gives way
    // with what it stored; the second then finds the file moved on from its offset.
    expect(await first.answer).toMatchObject({ status: 204, headers: { 'upload-offset': String(2 * quarter), connection: 'close' } });
    expect(await second.answer).toMatchObject({ status: 409, body: 'Upload-Offset conflict\n' });
    expect(sha(stored(url)!)).toBe(sha(clip.subarray(0, 2 * quarter)));
    // The client carries on from HEAD and the upload ends as the source.
    const { offset } = await head(url);
    const rest = await patch(url, { ...tusHeaders(admin, offset), 'content-length': String(clip.length - offset) }, [clip.subarray(offset)]).answer;
    expect(rest.status).toBe(200);
    const [row] = await app.db.select().from(userVideos).where(eq(userVideos.id, (JSON.parse(rest.body) as { videoId: string }).videoId));
    expect(sha(await readStored(app.server.deps.storage, row!.sourceKey!))).toBe(sha(clip));
  });
});
