// What several scenarios need: game footage uploaded with tus as the admin's dialog does it, a
// render of a request put on the queue, and waiting, counting and checking helpers.
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';
import { eq } from 'drizzle-orm';
import { footage, highlightRequests, orders, reelRenders, userProfiles } from '../../src/server/db/schema';
import { composeFootage } from '../support/face-footage';
import { call, type Family } from './seed';
import { sleep, type LogLine, type Topology } from './topology';

const run = promisify(execFile);
export const GAME = 'austin-sat-1';
export const EVENT = 'austin-fall-league-2024';
export const FOOTAGE_PATH = '/api/admin/footage-uploads';

export const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-trust-work-'));

export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s`);
    await sleep(everyMs);
  }
}

export const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A plain H.264 game of `seconds` (testsrc2 and a tone), made with ffmpeg. */
export async function plainGame(seconds: number, size = '1280x720'): Promise<string> {
  const file = path.join(work, `game-${seconds}-${size}.mp4`);
  if (fs.existsSync(file)) return file;
  await run('ffmpeg', ['-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-b:v', '4M', '-c:a', 'aac', '-movflags', '+faststart', file]);
  return file;
}

/** Footage with two faces crossing the court for `seconds`: its index takes a while. */
export async function faceGame(seconds: number): Promise<string> {
  const file = path.join(work, `faces-${seconds}.mp4`);
  if (fs.existsSync(file)) return file;
  await composeFootage(file, {
    width: 1280,
    height: 720,
    seconds,
    audio: true,
    appearances: [
      { person: 'ava', from: 0.5, to: seconds - 0.5, faceHeight: 120, x: 0.15, y: 0.2, drift: 0.02 },
      { person: 'bea', from: 1, to: seconds - 1, faceHeight: 130, x: 0.6, y: 0.3 },
    ],
  });
  return file;
}

export interface UploadOptions {
  chunkSize?: number;
  /** Continue this upload (its URL on some instance) instead of starting one. */
  uploadUrl?: string;
  retryDelays?: number[];
  onProgress?: (sent: number, total: number) => void;
  onUrl?: (url: string) => void;
}

/** A tus upload of game footage; resolves with the server's answer ({ footageId }). */
export function uploadFootage(t: Topology, base: string, admin: Family, file: string, opts: UploadOptions = {}): { done: Promise<{ footageId: string }>; abort: () => Promise<void> } {
  let upload: tus.Upload;
  const done = new Promise<{ footageId: string }>((resolve, reject) => {
    upload = new tus.Upload(fs.readFileSync(file), {
      endpoint: `${base}${FOOTAGE_PATH}`,
      uploadUrl: opts.uploadUrl ?? null,
      chunkSize: opts.chunkSize ?? 4 * 1024 * 1024,
      retryDelays: opts.retryDelays ?? [],
      metadata: { gameId: GAME, camera: `Trust ${randomBytes(3).toString('hex')}`, filename: path.basename(file) },
      headers: { cookie: admin.cookie, origin: t.origin },
      onProgress: opts.onProgress,
      onUploadUrlAvailable: () => opts.onUrl?.(upload.url!),
      onSuccess: ({ lastResponse }) => {
        try {
          resolve(JSON.parse(lastResponse.getBody()) as { footageId: string });
        } catch {
          reject(new Error(`the finished upload answered without a footage id (status ${lastResponse.getStatus()}: ${lastResponse.getBody()})`));
        }
      },
      onError: reject,
    });
    upload.start();
  });
  return { done, abort: () => upload.abort(false) };
}

export async function footageIndexed(t: Topology, footageId: string, timeoutMs: number): Promise<typeof footage.$inferSelect> {
  return waitFor(
    `footage ${footageId} indexed`,
    async () => {
      const [row] = await t.deps.db.select().from(footage).where(eq(footage.id, footageId));
      if (row?.indexState === 'failed') throw new Error(`index failed: ${row.indexError}`);
      return row?.indexState === 'indexed' ? row : null;
    },
    timeoutMs,
    500,
  );
}

/** A family's request with a completed order, and a render of `footageId` from 1 s to `endS` put on the queue. */
export async function queueRender(t: Topology, admin: Family, family: Family, footageId: string, endS = 6): Promise<{ renderId: string; requestId: string }> {
  const db = t.deps.db;
  await db.update(userProfiles).set({ firstName: 'Ava', lastName: 'Stone', teamName: 'Austin Elite', jerseyNumber: 7 }).where(eq(userProfiles.id, family.userId));
  const [request] = await db.insert(highlightRequests).values({ userId: family.userId, status: 'ready_to_purchase', eventId: EVENT, event: 'Austin Fall League', games: [GAME] }).returning();
  await db.insert(orders).values({ userId: family.userId, requestId: request!.id, amount: 0, status: 'completed', provider: 'free', completedAt: new Date() });
  const [render] = await db
    .insert(reelRenders)
    .values({ requestId: request!.id, spotlight: false, clips: [{ appearanceId: randomUUID(), footageId, startS: 1, endS, rank: 1, trackIds: [] }], createdBy: admin.userId })
    .returning();
  await t.deps.jobs.send('reels.render', { renderId: render!.id }, { id: render!.id });
  return { renderId: render!.id, requestId: request!.id };
}

/** The process whose log says it started job `jobId` (after log index `since` of each). */
export function jobHolder(t: Topology, jobId: string): { worker: Topology['workers'][number]; line: LogLine } | null {
  for (const worker of t.workers) {
    const line = [...worker.logs].reverse().find((l) => l.jobId === jobId && l.msg === 'job started');
    if (line && worker.alive()) return { worker, line };
  }
  return null;
}

/** Every video a family's dashboard lists is whole: each one it can play reads to the end and ffprobe takes it. */
export async function dashboardVideosWhole(t: Topology, family: Family): Promise<{ playable: number; problems: string[] }> {
  const res = await call(t, t.api(), '/api/videos', { cookie: family.cookie });
  if (res.status !== 200) return { playable: 0, problems: [`GET /api/videos answered ${res.status}`] };
  const videos = (await res.json()) as Array<{ id: string; streamUrl: string | null }>;
  const problems: string[] = [];
  let playable = 0;
  for (const v of videos.filter((x) => x.streamUrl)) {
    const file = path.join(work, `check-${v.id}-${Date.now()}.mp4`);
    const stream = await call(t, t.api(), v.streamUrl!, { cookie: family.cookie });
    if (stream.status !== 200) {
      problems.push(`${v.id}: stream answered ${stream.status}`);
      continue;
    }
    fs.writeFileSync(file, Buffer.from(await stream.arrayBuffer()));
    const probed = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).catch((e: Error) => ({ stdout: '', stderr: e.message }));
    fs.rmSync(file, { force: true });
    if (!(Number(probed.stdout) > 0)) problems.push(`${v.id}: not a whole video`);
    else playable++;
  }
  return { playable, problems };
}

/** Reads a stored object whole and returns its SHA-256 (null when there is none). */
export async function storedSha256(t: Topology, key: string): Promise<string | null> {
  const stream = await t.deps.storage.read(key);
  if (!stream) return null;
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Sends a mail job as the product's mailer does, with a subject of its own; returns the subject. */
export async function queueMail(t: Topology, label: string): Promise<string> {
  const subject = `Trust ${label} ${randomBytes(4).toString('hex')}`;
  await t.deps.jobs.send('mail.deliver', { to: `${label.replace(/\W/g, '').toLowerCase()}@example.com`, subject, text: `A mail of the trust suite (${label}).` });
  return subject;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
