// Issue 21, finding 2: an uploaded "video" is judged by its structure, not by four bytes, and
// ffmpeg is told what it reads. A 400-byte DASH manifest starting `<!--free--><MPD` read as "free"
// at bytes 4–8, passed for a MOV, and ffmpeg then opened as DASH the other family's hidden video
// it named. Here the attack is replayed end to end as a family's video and as game footage.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, FOOTAGE } from '../../src/common/admin-messages';
import { eventGames, events, footage, userVideos } from '../../src/server/db/schema';
import { NotAVideoError, probeVideo, rewrapTransportStream, videoInput } from '../../src/server/media/ffmpeg';
import { readVideoContainer, startsLikeVideo } from '../../src/server/media/video-type';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { eventually } from '../support/purchase';
import { makeVideo } from '../support/videos';

let app: TestApp;
let admin: { cookie: string; userId: string };
let familyA: { cookie: string; userId: string };
let familyB: { cookie: string; userId: string };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-containers-'));
const gameId = 'containers-cup-g1';

interface Result {
  status: number;
  body: Record<string, unknown> | null;
}

function tusUpload(endpoint: string, data: Buffer, metadata: Record<string, string>): Promise<Result> {
  return new Promise((resolve) => {
    new tus.Upload(data, {
      endpoint: `${app.url}${endpoint}`,
      chunkSize: 256 * 1024,
      retryDelays: [],
      metadata,
      headers: { cookie: admin.cookie, origin: app.origin },
      onSuccess: ({ lastResponse }) => resolve({ status: lastResponse.getStatus(), body: JSON.parse(lastResponse.getBody() || 'null') as Record<string, unknown> }),
      onError: (error) => {
        const res = (error as tus.DetailedError).originalResponse;
        resolve({ status: res?.getStatus() ?? 0, body: res ? (JSON.parse(res.getBody() || 'null') as Record<string, unknown>) : null });
      },
    }).start();
  });
}

const videoFor = (userId: string, title: string, paid: 'true' | 'false') => ({ userId, title, paid, filename: 'clip.mov' });

/** The manifest of the attack: text that has "free" at bytes 4–8 and names a local video file. */
function dashManifest(target: string): Buffer {
  return Buffer.from(
    `<!--free--><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" codecs="avc1.640015" width="320" height="240"><BaseURL>file:${target}</BaseURL><SegmentBase/></Representation></AdaptationSet></Period></MPD>\n`,
  );
}

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Cora Containers' });
  await makeAdmin(app, admin.userId);
  familyA = await createVerifiedUser(app, { fullName: 'Abe Attacked' });
  familyB = await createVerifiedUser(app, { fullName: 'Bea Hidden' });
  await app.db.insert(events).values({ id: 'containers-cup', name: 'Containers Cup', location: 'Austin', dates: 'May 1' });
  await app.db.insert(eventGames).values({ id: gameId, eventId: 'containers-cup', label: 'Game 1', position: 1 });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('what a video file is, by its structure', () => {
  it('real MP4 (index first or last, fragmented), MOV and WebM files are what they say', async () => {
    expect(await readVideoContainer(makeVideo({ container: 'mp4' }))).toBe('mp4');
    expect(await readVideoContainer(makeVideo({ container: 'mp4', indexAtEnd: true }))).toBe('mp4');
    expect(await readVideoContainer(makeVideo({ container: 'mov' }))).toBe('mov');
    expect(await readVideoContainer(makeVideo({ container: 'webm' }))).toBe('webm');
    const fragmented = path.join(work, 'fragmented.mp4');
    execFileSync('ffmpeg', ['-y', '-v', 'error', '-i', makeVideo({ container: 'mp4' }), '-c', 'copy', '-movflags', 'frag_keyframe+empty_moov', fragmented]);
    expect(await readVideoContainer(fragmented)).toBe('mp4');
  });

  it('a DASH manifest, a truncated file and a garbled box structure are not videos', async () => {
    const write = (name: string, bytes: Buffer) => {
      fs.writeFileSync(path.join(work, name), bytes);
      return path.join(work, name);
    };
    const mp4 = fs.readFileSync(makeVideo({ container: 'mp4' }));
    const webm = fs.readFileSync(makeVideo({ container: 'webm' }));
    const garbled = Buffer.from(mp4);
    garbled.writeUInt32BE(garbled.readUInt32BE(0) + 4, 0); // the ftyp box claims 4 bytes more
    const noMovie = Buffer.from(mp4);
    noMovie.write('moox', mp4.indexOf('moov'), 'latin1');
    for (const [name, bytes] of [
      ['manifest.mov', dashManifest('/elsewhere/video.mp4')],
      ['truncated.mp4', mp4.subarray(0, Math.floor(mp4.length * 0.6))],
      ['garbled.mp4', garbled],
      ['no-movie.mp4', noMovie],
      ['trailing.mp4', Buffer.concat([mp4, Buffer.from('<MPD>')])],
      ['truncated.webm', webm.subarray(0, Math.floor(webm.length * 0.6))],
      ['text.mp4', Buffer.from('not a video at all, just some text to read\n'.repeat(20))],
      ['empty.mp4', Buffer.alloc(0)],
    ] as const) {
      expect(await readVideoContainer(write(name, bytes)), name).toBeNull();
    }
    // ffmpeg and ffprobe are never run on such a file, even one already in storage.
    await expect(probeVideo(path.join(work, 'manifest.mov'))).rejects.toBeInstanceOf(NotAVideoError);
  });

  it("a camera's transport stream (a recorder's .ts, AVCHD's .m2ts with 192-byte packets) is one; cut off, garbled or without its programme table it is not", async () => {
    const ts = makeVideo({ container: 'ts' });
    const m2ts = makeVideo({ container: 'm2ts' });
    expect(await readVideoContainer(ts)).toBe('ts');
    expect(await readVideoContainer(m2ts)).toBe('m2ts');
    expect((await videoInput(m2ts)).slice(2, 6)).toEqual(['-format_whitelist', 'mpegts', '-f', 'mpegts']);
    const write = (name: string, bytes: Buffer) => {
      fs.writeFileSync(path.join(work, name), bytes);
      return path.join(work, name);
    };
    const bytes = fs.readFileSync(m2ts);
    const cut = write('cut.m2ts', bytes.subarray(0, bytes.length - 100));
    expect(await readVideoContainer(cut)).toBeNull();
    expect(await startsLikeVideo(cut)).toBe(true); // cut off on its way: damaged, to upload again
    const garbled = Buffer.from(bytes);
    garbled.fill(0x20, 192 * 200, 192 * 203);
    expect(await readVideoContainer(write('garbled.m2ts', garbled))).toBeNull();
    // Packets that all start right but hold no programme table (null packets only): no video in it.
    const nulls = Buffer.alloc(188 * 400, 0xff);
    for (let at = 0; at < nulls.length; at += 188) nulls.set([0x47, 0x1f, 0xff, 0x10], at);
    expect(await readVideoContainer(write('nulls.ts', nulls))).toBeNull();
    // A text file of the letter G (the sync byte) is no transport stream either.
    expect(await readVideoContainer(write('letters.ts', Buffer.alloc(188 * 50, 'G')))).toBeNull();
  });

  it('ffmpeg is told the container, local files only, and no other demuxer', async () => {
    const file = makeVideo({ container: 'webm' });
    expect(await videoInput(file)).toEqual(['-protocol_whitelist', 'file', '-format_whitelist', 'matroska', '-f', 'matroska', '-i', `file:${file}`]);
    expect((await videoInput(makeVideo({ container: 'mov' })))[5]).toBe('mov');
  });
});

describe('the DASH-manifest attack, replayed', () => {
  let target: string;

  beforeAll(async () => {
    // Family B's video, Not Yet Paid: hidden from everyone but admins.
    const hidden = await tusUpload('/api/admin/uploads', fs.readFileSync(makeVideo({ container: 'mp4' })), videoFor(familyB.userId, 'Hidden Until Paid', 'false'));
    expect(hidden.status).toBe(200);
    const id = hidden.body!.videoId as string;
    const row = await eventually(async () => {
      const [video] = await app.db.select().from(userVideos).where(eq(userVideos.id, id));
      return video?.processingState === 'ready' && video;
    }, 60_000);
    target = path.join(app.dataDir, 'storage', row.videoUrl!);
    expect(fs.existsSync(target)).toBe(true);
  });

  it("as family A's video: refused as not a video; no row, no file, nothing of family B's shown", async () => {
    const before = await app.db.select().from(userVideos);
    const result = await tusUpload('/api/admin/uploads', dashManifest(target), videoFor(familyA.userId, 'Innocent Clip', 'true'));
    expect(result).toEqual({ status: 415, body: { code: 'INVALID_FILE_TYPE', message: ADMIN.video.invalidTypeText, title: ADMIN.video.invalidType } });
    expect(await app.db.select().from(userVideos)).toHaveLength(before.length);
    expect(await app.db.select().from(userVideos).where(eq(userVideos.userId, familyA.userId))).toEqual([]);
    expect(fs.readdirSync(path.join(app.dataDir, 'uploads'))).toEqual([]);
    expect(await app.server.deps.storage.list(`user-videos/${familyA.userId}/`)).toEqual([]);
    const listed = await app.fetch('/api/videos', { cookie: familyA.cookie });
    expect(await listed.json()).toEqual([]);
  });

  it('as game footage: refused as not a video; nothing stored or indexed', async () => {
    const result = await tusUpload('/api/admin/footage-uploads', dashManifest(target), { gameId, camera: 'Camera 1', filename: 'court.mov' });
    expect(result).toEqual({ status: 415, body: { code: 'INVALID_FILE_TYPE', message: FOOTAGE.notVideo } });
    expect(await app.db.select().from(footage)).toEqual([]);
    expect(fs.readdirSync(path.join(app.dataDir, 'footage-uploads'))).toEqual([]);
    expect(await app.server.deps.storage.list('footage/')).toEqual([]);
  });

  it('a truncated MP4 is refused, as a video and as footage (footage: as a damaged file, to upload again)', async () => {
    const mp4 = fs.readFileSync(makeVideo({ container: 'mp4', seconds: 3 }));
    const cut = mp4.subarray(0, Math.floor(mp4.length / 2));
    const video = await tusUpload('/api/admin/uploads', cut, videoFor(familyA.userId, 'Half A Clip', 'true'));
    expect(video.status).toBe(415);
    expect(video.body).toMatchObject({ message: ADMIN.video.invalidTypeText });
    const game = await tusUpload('/api/admin/footage-uploads', cut, { gameId, camera: 'Camera 2', filename: 'half.mp4' });
    expect(game).toEqual({ status: 415, body: { code: 'DAMAGED_FILE', message: FOOTAGE.damaged } });
    expect(await app.db.select().from(userVideos).where(eq(userVideos.userId, familyA.userId))).toEqual([]);
    expect(await app.db.select().from(footage)).toEqual([]);
  });

  it("an AVCHD camcorder's .m2ts is taken as footage, stored as a MOV of the same pictures and sound; as a family's reel it is refused", async () => {
    const m2ts = makeVideo({ container: 'm2ts', seconds: 3 });
    const game = await tusUpload('/api/admin/footage-uploads', fs.readFileSync(m2ts), { gameId, camera: 'Camcorder', filename: '00012.MTS' });
    expect(game.status).toBe(200);
    const [row] = await app.db.select().from(footage).where(eq(footage.id, game.body!.footageId as string));
    expect(row).toMatchObject({ camera: 'Camcorder', originalName: '00012.MTS' });
    const stored = path.join(app.dataDir, 'storage', row!.sourceKey);
    expect(await readVideoContainer(stored)).toBe('mov');
    expect(row!.sizeBytes).toBe(fs.statSync(stored).size);
    const [before, after] = [await probeVideo(m2ts), await probeVideo(stored)];
    expect(after).toMatchObject({ videoCodec: 'h264', audioCodec: 'ac3', width: before.width, height: before.height });
    expect(after.durationSeconds).toBeCloseTo(before.durationSeconds, 1);
    // Neither the transport stream nor its MOV is left in the uploads' folder.
    expect(fs.readdirSync(path.join(app.dataDir, 'footage-uploads'))).toEqual([]);
    // Indexed as any camera file is.
    await eventually(async () => {
      const [now] = await app.db.select().from(footage).where(eq(footage.id, row!.id));
      return now?.indexState === 'indexed';
    }, 60_000);

    const video = await tusUpload('/api/admin/uploads', fs.readFileSync(m2ts), videoFor(familyA.userId, 'Camcorder Clip', 'true'));
    expect(video).toEqual({ status: 415, body: { code: 'INVALID_FILE_TYPE', message: ADMIN.video.invalidTypeText, title: ADMIN.video.invalidType } });
    expect(await app.db.select().from(userVideos).where(eq(userVideos.userId, familyA.userId))).toEqual([]);
    expect(fs.readdirSync(path.join(app.dataDir, 'uploads'))).toEqual([]);
  });

  it("a professional camcorder's LPCM sound, which MOV cannot hold as it is, is kept as 24-bit PCM, its pictures untouched", async () => {
    const m2ts = path.join(work, 'lpcm.m2ts');
    execFileSync('ffmpeg', ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x96:rate=30:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2:sample_rate=48000', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_bluray', '-ac', '2', m2ts]);
    expect((await probeVideo(m2ts)).audioCodec).toBe('pcm_bluray');
    const mov = path.join(work, 'lpcm.mov');
    await rewrapTransportStream(m2ts, mov);
    expect(await readVideoContainer(mov)).toBe('mov');
    expect(await probeVideo(mov)).toMatchObject({ videoCodec: 'h264', audioCodec: 'pcm_s24le', width: 160, height: 96 });
    const pictures = async (file: string) => execFileSync('ffmpeg', ['-v', 'error', ...(await videoInput(file)), '-map', '0:V:0', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
    expect((await pictures(mov)).equals(await pictures(m2ts))).toBe(true);
  });

  it('a transport stream cut off on its way is refused as footage as a damaged file, and nothing is stored', async () => {
    const bytes = fs.readFileSync(makeVideo({ container: 'ts', seconds: 3 }));
    const before = await app.db.select().from(footage);
    const game = await tusUpload('/api/admin/footage-uploads', bytes.subarray(0, Math.floor(bytes.length / 2) + 7), { gameId, camera: 'Recorder', filename: 'game.ts' });
    expect(game).toEqual({ status: 415, body: { code: 'DAMAGED_FILE', message: FOOTAGE.damaged } });
    expect(await app.db.select().from(footage)).toHaveLength(before.length);
    expect(fs.readdirSync(path.join(app.dataDir, 'footage-uploads'))).toEqual([]);
  });
});
