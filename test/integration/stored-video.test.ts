// A video in the bucket is read by ffmpeg through media/stored-video.ts: served on loopback by range,
// so a frame or a few seconds read only their part of the file, not the whole object first.
// Against a real S3 server (s3rver) and the disk driver.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudioMono, extractFrame, NotAVideoError, probeVideo, videoInput } from '../../src/server/media/ffmpeg';
import { openStoredVideo } from '../../src/server/media/stored-video';
import { createStorage, type Storage } from '../../src/server/storage/storage';
import { startTestS3, type TestS3 } from '../support/s3';
import { makeVideo } from '../support/videos';

const KEY = 'game-footage/event-1/camera-1.mp4';

let s3: TestS3;
let bucket: Storage;
let disk: Storage;
let work: string;
/** 20 s of 1280x720 with its index at the end and a keyframe every second, as many cameras write it. */
let source: string;

beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'stored-video-'));
  s3 = await startTestS3();
  bucket = createStorage({ dataDir: path.join(work, 'bucket-side'), s3: s3.config });
  disk = createStorage({ dataDir: path.join(work, 'disk'), s3: null });
  source = makeVideo({ container: 'mp4', width: 1280, height: 720, seconds: 20, indexAtEnd: true, keyframeEveryS: 1 });
  await bucket.putFile(KEY, source, 'video/mp4');
  await disk.putFile(KEY, source, 'video/mp4');
}, 60_000);

afterAll(async () => {
  await s3?.close();
  await fsp.rm(work, { recursive: true, force: true });
});

describe('a video stored in the bucket', () => {
  it('is served on loopback: ffmpeg probes it and takes a frame as from the file, reading a small part of it', async () => {
    const video = (await openStoredVideo(bucket, KEY))!;
    try {
      expect(video.input).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{64}\.mp4$/);
      expect(await videoInput(video.input)).toEqual(['-protocol_whitelist', 'http,tcp', '-reconnect', '1', '-reconnect_delay_max', '3', '-rw_timeout', '20000000', '-format_whitelist', 'mov', '-f', 'mov', '-i', video.input]);
      expect(await probeVideo(video.input)).toEqual(await probeVideo(source));
      const fromBucket = path.join(work, 'bucket.jpg');
      const fromFile = path.join(work, 'file.jpg');
      await extractFrame(video.input, fromBucket, 15);
      await extractFrame(source, fromFile, 15);
      expect(fs.readFileSync(fromBucket).equals(fs.readFileSync(fromFile))).toBe(true);
      const size = fs.statSync(source).size;
      expect(video.bytesRead()).toBeGreaterThan(0);
      // The index at the end, the frame three quarters in: a few megabytes, not the whole file.
      expect(video.bytesRead()).toBeLessThan(size / 4);
    } finally {
      await video.close();
    }
  });

  it("the game's sound is read from it as from the file", async () => {
    const video = (await openStoredVideo(bucket, KEY))!;
    try {
      const opts = { sampleRate: 8000, maxSeconds: 5 };
      expect(await decodeAudioMono(video.input, opts)).toEqual(await decodeAudioMono(source, opts));
    } finally {
      await video.close();
    }
  });

  it('answers nothing but its own address, and nothing once closed', async () => {
    const video = (await openStoredVideo(bucket, KEY))!;
    const url = new URL(video.input);
    const other = `${url.origin}/${'0'.repeat(64)}.mp4`;
    expect((await fetch(other)).status).toBe(404);
    expect((await fetch(video.input, { method: 'POST', body: 'x' })).status).toBe(404);
    const ranged = await fetch(video.input, { headers: { range: 'bytes=4-11' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 4-11/${fs.statSync(source).size}`);
    expect(Buffer.from(await ranged.arrayBuffer()).toString('latin1')).toBe(fs.readFileSync(source).subarray(4, 12).toString('latin1'));
    expect((await fetch(video.input, { headers: { range: 'bytes=999999999-' } })).status).toBe(416);
    await video.close();
    await video.close();
    await expect(fetch(video.input)).rejects.toThrow();
  });

  it('an object gone from the bucket while ffmpeg reads it makes ffmpeg fail in seconds, not wait', async () => {
    const key = 'game-footage/event-1/camera-2.mp4';
    await bucket.putFile(key, source, 'video/mp4');
    const video = (await openStoredVideo(bucket, key))!;
    try {
      await bucket.delete(key);
      const started = Date.now();
      await expect(extractFrame(video.input, path.join(work, 'gone.jpg'), 15)).rejects.toThrow(/ffmpeg exited/);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await video.close();
    }
  });

  it('an object that is not a whole video is refused before anything is served; a missing one is null', async () => {
    await bucket.put('game-footage/event-1/manifest.mp4', Buffer.from('#EXTM3U\n#EXT-X-VERSION:3\nhttp://169.254.169.254/latest\n'), 'video/mp4');
    await expect(openStoredVideo(bucket, 'game-footage/event-1/manifest.mp4')).rejects.toBeInstanceOf(NotAVideoError);
    expect(await openStoredVideo(bucket, 'game-footage/event-1/none.mp4')).toBeNull();
  });
});

describe('a video on this disk', () => {
  it('is its own file: nothing is served', async () => {
    const video = (await openStoredVideo(disk, KEY))!;
    expect(video.input).toBe(disk.localPath(KEY));
    expect(video.bytesRead()).toBe(0);
    await video.close();
    expect(await openStoredVideo(disk, 'game-footage/event-1/none.mp4')).toBeNull();
  });
});
