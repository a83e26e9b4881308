// People in the face index (issue 35 item 2): a camera file of real people (the calibration group
// photos, panned, with a cut between them) is indexed into person tracks beside its face tracks;
// each person stays one track within the shot and none crosses the cut; a face names the person
// it lies in; the index job stores them and a re-index replaces them; an admin's data purge takes
// them with the faces; PERSON_DETECT_ROWS=0 indexes faces only.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { faceTracks, footage, personTracks } from '../../src/server/db/schema';
import { indexSettings, purgeExpiredIndexes } from '../../src/server/faces/indexing';
import { hexToLab, teamOfKit } from '../../src/server/people/kit';
import { decodePersonBoxes } from '../../src/server/people/track-boxes';
import type { SegmentResult } from '../../src/server/faces/types';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { uploadFootage } from '../support/footage-upload';
import { jsonOf } from '../support/http';
import { eventually } from '../support/purchase';

const run = promisify(execFile);
const CALIBRATION = path.resolve(import.meta.dirname, '../../../shared/faces-calibration');
const EVENT = 'austin-fall-league-2024';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-people-'));
const FILE = path.join(work, 'two-shots.mp4');
let app: TestApp;
let admin: { cookie: string; userId: string };

/**
 * 8 s at 1280 × 720, 25 fps: the four seated people of bbt1 while the camera pans slowly right,
 * then from 4 s the five of bbt5 (another room, other people).
 */
async function twoShots(file: string) {
  const still = (photo: string) => ['-loop', '1', '-t', '4', '-i', path.join(CALIBRATION, photo)];
  const panA = "scale=1440:-2,crop=1280:720:'min(t*20,150)':0,setsar=1,fps=25";
  const panB = 'scale=1480:-2,crop=1280:720:(iw-1280)/2:0,setsar=1,fps=25';
  await run('ffmpeg', [
    '-v', 'error', '-y', ...still('bbt1.jpg'), ...still('bbt5.jpg'),
    '-filter_complex', `[0:v]${panA}[a];[1:v]${panB}[b];[a][b]concat=n=2:v=1[v]`,
    '-map', '[v]', '-c:v', 'libx264', '-g', '12', '-pix_fmt', 'yuv420p', file,
  ]);
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await createVerifiedUser(app, { fullName: 'Footage Admin' });
  await makeAdmin(app, admin.userId);
  await twoShots(FILE);
}, 120_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('people in the index', () => {
  it('tracks each person within the shot, ends every track at the cut, and ties faces to the people they lie in', async () => {
    const settings = indexSettings(app.server.deps.config);
    expect(settings.people).toMatchObject({ rows: 2 });
    const result = await app.server.deps.faces.run<SegmentResult>({ op: 'index-segment', segment: { file: FILE, startS: 0, endS: 8, width: 1280, height: 720 }, settings });
    expect(result.shotCuts).toContain(4);
    const people = result.people;
    // No person track crosses the cut.
    expect(people.filter((p) => p.startS < 4 && p.endS >= 4)).toEqual([]);
    // Before the cut four people sit through the whole shot (8 samples): each one track, seen in every sample.
    const firstShot = people.filter((p) => p.startS === 0 && p.endS === 3.5 && p.boxes.length === 8);
    expect(firstShot.length).toBeGreaterThanOrEqual(4);
    // After it, the five of the other photo: at least four of them tracked through all 8 samples.
    expect(people.filter((p) => p.startS === 4 && p.endS === 7.5 && p.boxes.length === 8).length).toBeGreaterThanOrEqual(4);
    // The boxes move with the pan (20 px a second to the left on screen) and stay the person's size.
    for (const person of firstShot) {
      const xs = person.boxes.map((b) => b[1]! + b[3]! / 2);
      expect(xs[0]! - xs.at(-1)!).toBeGreaterThan(30);
      expect(xs[0]! - xs.at(-1)!).toBeLessThan(120);
      expect(Math.max(...person.boxes.map((b) => b[4]!)) / Math.min(...person.boxes.map((b) => b[4]!))).toBeLessThan(1.4);
    }
    // Faces found on people name them: every face track lies in one person of its own shot.
    const named = people.filter((p) => p.faceTracks.length > 0);
    expect(named.length).toBeGreaterThanOrEqual(6);
    for (const person of named) {
      for (const index of person.faceTracks) {
        const face = result.tracks[index]!;
        expect(face.startS).toBeGreaterThanOrEqual(person.startS);
        expect(face.endS).toBeLessThanOrEqual(person.endS);
      }
    }
    const faceOwners = new Map<number, number>();
    for (const person of people) for (const index of person.faceTracks) faceOwners.set(index, (faceOwners.get(index) ?? 0) + 1);
    expect([...faceOwners.values()].every((n) => n === 1)).toBe(true);
    expect(result.stats.people).toBeGreaterThan(0);
  }, 180_000);

  it('the index job stores the person tracks with their face tracks, once, and the purge removes them', async () => {
    const gameId = (await jsonOf<{ id: string }>(await app.fetch(`/api/admin/events/${EVENT}/games`, { method: 'POST', json: { label: 'Game 4' }, cookie: admin.cookie }))).id;
    const footageId = await uploadFootage(app, admin.cookie, FILE, { gameId, camera: 'Camera 1', filename: 'two-shots.mp4' });
    const indexed = async () =>
      eventually(async () => {
        const [f] = await app.db.select().from(footage).where(eq(footage.id, footageId));
        return f?.indexState === 'indexed' ? f : null;
      }, 150_000);
    const row = await indexed();
    expect(row.indexStats).toMatchObject({ people: expect.any(Number), personTracks: expect.any(Number) });
    const stored = await app.db.select().from(personTracks).where(eq(personTracks.footageId, footageId));
    expect(stored.length).toBe(row.indexStats!.personTracks);
    expect(stored.length).toBeGreaterThanOrEqual(8);
    const faceIds = new Set((await app.db.select({ id: faceTracks.id }).from(faceTracks).where(eq(faceTracks.footageId, footageId))).map((t) => t.id));
    const linked = stored.flatMap((p) => p.faceTrackIds);
    expect(linked.length).toBeGreaterThanOrEqual(6);
    expect(linked.every((id) => faceIds.has(id))).toBe(true);
    // Each track's boxes read back as the segment gave them: times on the sample grid, whole pixels.
    for (const p of stored) {
      const boxes = decodePersonBoxes(p.boxes);
      expect(boxes).toHaveLength(p.samples);
      expect(boxes[0]![0]).toBe(p.startS);
      expect(boxes.at(-1)![0]).toBe(p.endS);
      expect(boxes.every((b) => (b[0] * 2) % 1 === 0 && b[3] > 0 && b[4] >= 24 && b[5] >= 25 && b[5] <= 100)).toBe(true);
    }
    // Small enough for a camera-hour under 20 MB: bytes per sampled box as stored, all told.
    const sizes = (await app.db.execute(sql`select coalesce(sum(pg_column_size(boxes)), 0)::int as bytes from person_tracks where footage_id = ${footageId}`)) as unknown as { rows: Array<{ bytes: number }> };
    const boxCount = stored.reduce((n, p) => n + p.samples, 0);
    expect(sizes.rows[0]!.bytes / boxCount).toBeLessThan(16);

    // Re-indexed: the same people, once.
    expect((await app.fetch(`/api/admin/footage/${footageId}/reindex`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    await eventually(async () => {
      const [f] = await app.db.select().from(footage).where(eq(footage.id, footageId));
      return f?.indexState === 'indexing' || f?.indexState === 'queued' ? null : f;
    }, 150_000);
    await indexed();
    const again = await app.db.select().from(personTracks).where(eq(personTracks.footageId, footageId));
    const spans = (rows: typeof stored) => rows.map((p) => `${p.startS}-${p.endS}-${p.samples}`).sort();
    expect(spans(again)).toEqual(spans(stored));

    // Past the index's retention, the people go with the faces.
    await app.db.update(footage).set({ indexedAt: new Date(Date.now() - 400 * 24 * 60 * 60 * 1000) }).where(eq(footage.id, footageId));
    expect(await purgeExpiredIndexes(app.server.deps)).toBeGreaterThanOrEqual(1);
    expect(await app.db.select().from(personTracks).where(eq(personTracks.footageId, footageId))).toEqual([]);
  }, 400_000);

  it('gathers each person’s shirt colour and the number on it along the track, and says no number where none is legible', async () => {
    // The man on the right of the first group photo, a white 23 printed on his own green T-shirt.
    const still = path.join(work, 'numbered.png');
    const picture = await sharp(path.join(CALIBRATION, 'bbt1.jpg')).resize(1280, 720, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const shirt = { x: 920, y: 285, w: 150, h: 100 };
    const svg = `<svg width="1280" height="720"><text x="${shirt.x + shirt.w / 2}" y="${shirt.y + shirt.h * 0.85}" font-family="DejaVu Sans" font-weight="bold" font-size="${shirt.h}" fill="#ffffff" text-anchor="middle">23</text></svg>`;
    await sharp(picture.data, { raw: { width: 1280, height: 720, channels: 3 } }).composite([{ input: Buffer.from(svg) }]).png().toFile(still);
    const file = path.join(work, 'numbered.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-loop', '1', '-t', '4', '-i', still, '-vf', 'fps=25', '-c:v', 'libx264', '-g', '12', '-pix_fmt', 'yuv420p', file]);

    const settings = indexSettings(app.server.deps.config);
    const result = await app.server.deps.faces.run<SegmentResult>({ op: 'index-segment', segment: { file, startS: 0, endS: 4, width: 1280, height: 720 }, settings });
    // The person whose box holds the shirt.
    const holds = (b: number[]) => b[1]! <= shirt.x + 60 && b[1]! + b[3]! >= shirt.x + shirt.w - 60 && b[2]! <= shirt.y && b[2]! + b[4]! >= shirt.y + shirt.h / 2;
    const numbered = result.people.find((p) => holds(p.boxes[0]!));
    expect(numbered).toMatchObject({ startS: 0, endS: 3.5, jerseyNumber: 23 });
    expect(numbered!.numberReads).toBeGreaterThanOrEqual(2);
    // His shirt (a grey green, #667f6b where the light is even) is told from other teams' kits.
    const kits = [
      { teamId: 'green', colours: ['#667f6b'] },
      { teamId: 'orange', colours: ['#d2691e'] },
      { teamId: 'navy', colours: ['#1f2a5a', '#f2f2f2'] },
      { teamId: 'red', colours: ['#c8102e'] },
    ];
    expect(teamOfKit(hexToLab(numbered!.kit!), kits)?.teamId).toBe('green');
    // The others wear no numbers: none is read, none guessed.
    const others = result.people.filter((p) => p !== numbered);
    expect(others.length).toBeGreaterThanOrEqual(3);
    expect(others.map((p) => p.jerseyNumber)).toEqual(others.map(() => null));
    expect(others.filter((p) => p.kit !== null).length).toBeGreaterThanOrEqual(3);
    expect(result.stats.numberReads).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('PERSON_DETECT_ROWS sets the rows, and 0 indexes faces only', async () => {
    const rowsWith = (value: string | undefined) => {
      const before = process.env.PERSON_DETECT_ROWS;
      if (value === undefined) delete process.env.PERSON_DETECT_ROWS;
      else process.env.PERSON_DETECT_ROWS = value;
      try {
        return indexSettings(loadConfig({ dataDir: work })).people?.rows ?? 0;
      } finally {
        if (before === undefined) delete process.env.PERSON_DETECT_ROWS;
        else process.env.PERSON_DETECT_ROWS = before;
      }
    };
    expect([rowsWith(undefined), rowsWith('3'), rowsWith('9'), rowsWith('many'), rowsWith('0')]).toEqual([2, 3, 4, 2, 0]);
    const settings = { ...indexSettings(app.server.deps.config), people: null };
    const result = await app.server.deps.faces.run<SegmentResult>({ op: 'index-segment', segment: { file: FILE, startS: 0, endS: 2, width: 1280, height: 720 }, settings });
    expect(result.people).toEqual([]);
    expect(result.stats.people).toBe(0);
    expect(result.tracks.length).toBeGreaterThan(0);
  }, 120_000);
});
