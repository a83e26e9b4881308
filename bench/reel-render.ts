// Benchmark: rendering the reel, and approve → delivered reel.
//
// 1. Render speed: builds a 1080p30 H.264/AAC source of BENCH_SOURCE_SECONDS (default 120; cached
//    in the temp folder), cuts BENCH_CLIPS (default 12) clips of 8 s from it with a face track
//    each, and renders them with the product's renderer (server/reels/render.ts) as the
//    highlight reel (1920×1080, cards, cross-fades, spotlight) and as the social cut (1080×1920,
//    the face-following crop). In the same run it times the floor: ffmpeg re-encoding the same
//    seconds of source to 1080p with the same encoder settings and nothing else. Prints each as
//    a multiple of real time (output seconds per wall second). Goal: both ≥ 1×.
// 2. Approve → delivered: starts the real app in-process (PGlite, or PostgreSQL with
//    TEST_DATABASE_URL), an event with 2 games × 2 cameras of BENCH_GAME_SECONDS (default 40) of
//    1080p footage each, indexed first (not timed), a consenting athlete with a reference photo
//    and a request for both games, paid for as soon as it is approved. Then times, through the
//    API and the job queue as an admin works: approve → proposals → every proposal accepted →
//    Render → the request delivered. Goal: < 10 minutes.
//
//   npx tsx bench/reel-render.ts
//
// BENCH_SKIP_RENDER=1 or BENCH_SKIP_DELIVERY=1 run one half.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { footage, highlightRequests, promoCodes, reelRenders } from '../src/server/db/schema';
import { introCard, outroCard } from '../src/server/reels/cards';
import { FORMATS, renderOutput, type ClipInput } from '../src/server/reels/render';
import { storageKeys } from '../src/server/storage/keys';
import { createVerifiedUser, startTestApp } from '../test/support/app';
import { makeAdmin } from '../test/support/dashboard-fixtures';
import { composeFootage, referencePhoto, type Appearance } from '../test/support/face-footage';
import { eventually } from '../test/support/purchase';
import { intFromEnv, runBenchmark, settleConnections } from './support';

const run = promisify(execFile);
const SOURCE_S = intFromEnv('BENCH_SOURCE_SECONDS', 120);
const CLIPS = intFromEnv('BENCH_CLIPS', 12);
const GAME_S = intFromEnv('BENCH_GAME_SECONDS', 40);
const CLIP_S = 8;
const since = (from: number) => (performance.now() - from) / 1000;
const x = (v: number) => `${v.toFixed(2)}×`;

async function renderSpeed() {
  const source = path.join(os.tmpdir(), `giot-bench-render-${SOURCE_S}s.mp4`);
  // One person walking across the frame, 150 px face, over the whole source.
  const walk: Appearance = { person: 'ava', from: 0, to: SOURCE_S, faceHeight: 150, x: 0.1, y: 0.2, drift: 0.005 };
  if (!fs.existsSync(source)) {
    console.log(`building ${SOURCE_S} s of 1080p30 footage with sound (once; cached at ${source})…`);
    // Grain of a camera's sensor (noise 5), not the heavy grain the face tests use: that much
    // noise in every frame costs the encoder several times what a real game does.
    await composeFootage(`${source}.tmp.mp4`, { width: 1920, height: 1080, seconds: SOURCE_S, appearances: [walk], preset: 'veryfast', audio: true, noise: 5 });
    fs.renameSync(`${source}.tmp.mp4`, source);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-bench-render-'));
  try {
    const clips: ClipInput[] = Array.from({ length: CLIPS }, (_, i) => {
      const startS = ((i * 9.7) % (SOURCE_S - CLIP_S - 1)) + 0.5;
      const faces = Array.from({ length: CLIP_S * 2 }, (_, k) => {
        const t = startS + k / 2;
        return { t: k / 2, x: Math.round((walk.x + walk.drift! * t) * 1920) % 1700, y: Math.round(walk.y * 1080), w: 130, h: 150 };
      });
      return { file: source, startS, durationS: CLIP_S, width: 1920, height: 1080, hasAudio: true, faces };
    });
    const total = CLIPS * CLIP_S;

    // The floor: the same seconds of source re-encoded to 1080p with the renderer's encoder settings, nothing else.
    let started = performance.now();
    await run('ffmpeg', ['-v', 'error', '-y', '-i', source, '-t', String(total), '-c:v', 'libx264', '-preset', 'ultrafast', '-x264-params', 'cabac=1:deblock=1', '-crf', '21', '-pix_fmt', 'yuv420p', '-r', '30', '-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart', path.join(work, 'floor.mp4')]);
    const floorS = since(started);

    const results: Record<string, { seconds: number; wall: number }> = {};
    for (const kind of ['reel', 'social'] as const) {
      const { width, height } = FORMATS[kind];
      const intro = path.join(work, `intro-${kind}.png`);
      const outro = path.join(work, `outro-${kind}.png`);
      fs.writeFileSync(intro, await introCard({ name: 'Ava Stone', teamName: 'Hawks', jerseyNumber: 7, event: 'Bench Classic' }, width, height));
      fs.writeFileSync(outro, await outroCard(width, height));
      started = performance.now();
      const out = await renderOutput({ kind, clips, introPng: intro, outroPng: outro, spotlight: true, work, output: path.join(work, `${kind}.mp4`) });
      results[kind] = { seconds: out.durationS, wall: since(started) };
    }
    console.log(`\nrender speed, ${CLIPS} clips of ${CLIP_S} s from 1080p30 (${os.cpus().length} cores)`);
    console.log(`  floor: re-encode ${total} s of source     ${floorS.toFixed(1).padStart(6)} s   ${x(total / floorS)} real time`);
    for (const [kind, r] of Object.entries(results)) {
      console.log(`  ${kind.padEnd(6)}: ${r.seconds.toFixed(1)} s of output          ${r.wall.toFixed(1).padStart(6)} s   ${x(r.seconds / r.wall)} real time  (${x(r.seconds / r.wall / (total / floorS))} of the floor)`);
    }
    console.log('  goal: highlight reel and social cut each ≥ 1× real time');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function approveToDelivered() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-bench-deliver-'));
  const app = await startTestApp();
  try {
    const admin = await createVerifiedUser(app, { fullName: 'Bench Admin' });
    await makeAdmin(app, admin.userId);
    const athlete = await createVerifiedUser(app, { fullName: 'Ava Stone' });
    await referencePhoto('ava', path.join(work, 'ava.jpg'));
    await app.fetch('/api/profile/face-matching', { method: 'PUT', json: { consent: true }, cookie: athlete.cookie });
    const form = new FormData();
    form.append('photo', new Blob([fs.readFileSync(path.join(work, 'ava.jpg'))], { type: 'image/jpeg' }), 'ava.jpg');
    await app.fetch('/api/profile/reference-photos', { method: 'POST', body: form, cookie: athlete.cookie });
    await app.db.insert(promoCodes).values({ code: 'BENCHFREE', discountPercent: 100, active: true });

    // 2 games × 2 cameras, the athlete three times in each file among other people; indexed first.
    const eventId = 'austin-fall-league-2024';
    console.log(`\nbuilding and indexing 2 games × 2 cameras of ${GAME_S} s (not timed)…`);
    const games: string[] = [];
    for (const label of ['Bench game 1', 'Bench game 2']) {
      const res = await app.fetch(`/api/admin/events/${eventId}/games`, { method: 'POST', json: { label }, cookie: admin.cookie });
      games.push(((await res.json()) as { id: string }).id);
    }
    for (const [g, gameId] of games.entries()) {
      for (const camera of ['Camera 1', 'Camera 2']) {
        const file = path.join(work, `${g}-${camera}.mp4`);
        const third = GAME_S / 3;
        await composeFootage(file, {
          width: 1920,
          height: 1080,
          seconds: GAME_S,
          audio: camera === 'Camera 1',
          appearances: [0, 1, 2].flatMap((k) => [
            { person: 'ava' as const, from: k * third + 1, to: k * third + 7, faceHeight: camera === 'Camera 1' ? 140 : 110, x: 0.1 + k * 0.2, y: 0.2, drift: 0.01 },
            { person: 'bea' as const, from: k * third + 4, to: k * third + 10, faceHeight: 120, x: 0.6, y: 0.4 },
          ]),
          noise: 5,
        });
        const [row] = await app.db.insert(footage).values({ eventId, gameId, camera, sourceKey: 'pending', sizeBytes: fs.statSync(file).size, indexState: 'queued' }).returning();
        const key = storageKeys.footage(eventId, row!.id);
        await app.server.deps.storage.putFile(key, file, 'application/octet-stream', { move: true });
        await app.db.update(footage).set({ sourceKey: key }).where(eq(footage.id, row!.id));
        await app.server.deps.jobs.send('faces.index-footage', { footageId: row!.id });
      }
    }
    await eventually(async () => (await app.db.select().from(footage)).every((f) => f.indexState === 'indexed'), 30 * 60_000);
    await settleConnections(app);
    await app.fetch('/api/requests', { method: 'POST', json: { eventId, games }, cookie: athlete.cookie });
    const [request] = await app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, athlete.userId));
    const id = request!.id;

    // Timed from here, as the admin and the family would go.
    const started = performance.now();
    await app.fetch(`/api/admin/requests/${id}/acknowledge`, { method: 'POST', cookie: admin.cookie });
    await app.fetch('/api/checkout', { method: 'POST', json: { requestId: id, promoCode: 'BENCHFREE' }, cookie: athlete.cookie });
    const review = await eventually(async () => {
      const body = (await (await app.fetch(`/api/admin/requests/${id}/review`, { cookie: admin.cookie })).json()) as { request: { matchingState: string }; clips: Array<{ id: string }> };
      return body.request.matchingState === 'ready' ? body : null;
    }, 60_000);
    const proposedAt = since(started);
    for (const clip of review.clips) await app.fetch(`/api/admin/requests/${id}/clips/${clip.id}/decision`, { method: 'PUT', json: { decision: 'accepted' }, cookie: admin.cookie });
    const reviewedAt = since(started);
    await app.fetch(`/api/admin/requests/${id}/render`, { method: 'POST', json: { spotlight: true }, cookie: admin.cookie });
    await eventually(async () => {
      const [row] = await app.db.select({ status: highlightRequests.status }).from(highlightRequests).where(eq(highlightRequests.id, id));
      return row?.status === 'delivered';
    }, 30 * 60_000);
    const deliveredAt = since(started);
    const [render] = await app.db.select().from(reelRenders).where(eq(reelRenders.requestId, id));
    console.log(`approve → delivered, 2 games × 2 cameras of ${GAME_S} s, ${review.clips.length} clips accepted (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
    console.log(`  approve → proposals ready     ${proposedAt.toFixed(1).padStart(6)} s`);
    console.log(`  every proposal accepted       ${reviewedAt.toFixed(1).padStart(6)} s`);
    console.log(`  render: reel ${render!.stats?.reelS ?? '?'} s (${render!.stats?.reelDurationS ?? '?'} s long), social ${render!.stats?.socialS ?? '?'} s (${render!.stats?.socialDurationS ?? '?'} s long), stills ${render!.stats?.stillsS ?? '?'} s`);
    console.log(`  approve → delivered           ${deliveredAt.toFixed(1).padStart(6)} s   (goal < 600 s)`);
  } finally {
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBenchmark(async () => {
  if (!process.env.BENCH_SKIP_RENDER) await renderSpeed();
  if (!process.env.BENCH_SKIP_DELIVERY) await approveToDelivered();
});
