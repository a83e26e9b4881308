// Every encoding cameras and phones make is decoded into the very samples a plain decode of the
// whole file gives (issue 32): the stretches the index job cuts, with their boundaries before, on
// and just after keyframes and anywhere else (property-based), through the decode plan and through
// the choice the job makes (keyframes alone, frames nothing refers to skipped).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CAMERA_ENCODINGS, encodeCameraFile } from '../../../test/support/camera-encodings';
import { probeVideo, rewrapTransportStream, videoInput } from '../media/ffmpeg';
import { planDecode } from './decode-plan';
import { frames } from './index-segment';
import { decodeChoice } from './indexing';
import type { Segment } from './types';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-encodings-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const SAMPLE_FPS = 2;
const run = promisify(execFile);

async function samples(segment: Segment, fallbacks: string[] = []): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const frame of frames(segment, SAMPLE_FPS, { onFallback: (reason) => fallbacks.push(reason) })) out.push(Buffer.from(frame.data));
  return out;
}

describe('camera and phone encodings', () => {
  for (const encoding of CAMERA_ENCODINGS) {
    it(`${encoding.name}: every stretch gives the samples of a plain decode, pixel for pixel`, async () => {
      const encoded = await encodeCameraFile(work, encoding);
      // A transport stream is stored (and so indexed) as its MOV (footage/uploads.ts).
      const transport = encoding.ext === 'ts' || encoding.ext === 'm2ts';
      const file = transport ? `${encoded}.mov` : encoded;
      if (transport) await rewrapTransportStream(encoded, file);
      const probe = await probeVideo(file);
      expect([probe.width, probe.height]).toEqual(encoding.rotate ? [96, 160] : [160, 96]);
      const duration = probe.durationSeconds;
      const base = { file, width: probe.width, height: probe.height };
      // The truth: the whole file decoded from its start, every frame, one sample each half second.
      const truth = await samples({ ...base, startS: 0, endS: duration + 1, everyFrame: true });
      expect(truth.length).toBeGreaterThanOrEqual(Math.floor(duration * SAMPLE_FPS));
      if (transport) {
        // The MOV holds the very pictures of the transport stream, every one, and keeps how far
        // its sound leads its picture (the times the sound is lined up by, footage/sync.ts).
        const pictures = async (input: string) => (await run('ffmpeg', ['-v', 'error', ...(await videoInput(input)), '-map', '0:V:0', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 })).stdout;
        const [before, after] = [await pictures(encoded), await pictures(file)];
        expect(after.length).toBe(before.length);
        expect(after.equals(before)).toBe(true);
        const starts = async (input: string) => JSON.parse((await run('ffprobe', ['-v', 'error', '-show_entries', 'format=start_time:stream=codec_type,start_time', '-of', 'json', ...(await videoInput(input))])).stdout) as { format: { start_time: string }; streams: Array<{ codec_type: string; start_time: string }> };
        const lead = (info: Awaited<ReturnType<typeof starts>>) => Number(info.streams.find((st) => st.codec_type === 'video')!.start_time) - Number(info.format.start_time);
        expect(lead(await starts(file))).toBeCloseTo(lead(await starts(encoded)), 2);
      }
      const check = async (startS: number, endS: number) => {
        const fallbacks: string[] = [];
        const planned = await samples({ ...base, startS, endS }, fallbacks);
        const first = Math.round(startS * SAMPLE_FPS);
        const expected = truth.slice(first, first + planned.length);
        expect(planned.length, `[${startS}, ${endS})`).toBe(Math.min(truth.length - first, Math.ceil((endS - startS) * SAMPLE_FPS - 1e-9)));
        expect(
          planned.every((f, i) => f.equals(expected[i]!)),
          `[${startS}, ${endS}) sample ${planned.findIndex((f, i) => !f.equals(expected[i]!))}`,
        ).toBe(true);
        // The plan held: no stretch of these files needs the whole decode.
        expect(fallbacks, `[${startS}, ${endS})`).toEqual([]);
      };
      // Stretch boundaries just before, on and just after a keyframe, and the last stretch to the end.
      const key = Math.max(1, Math.min(encoding.keyframeS * 2, 4));
      for (const boundary of [key - 0.5, key, key + 0.5]) {
        await check(0, boundary);
        await check(boundary, duration + 1);
      }
      // Anywhere on the sample grid, any length.
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: Math.floor(duration * SAMPLE_FPS) - 1 }), fc.integer({ min: 1, max: 8 }), async (from, length) => {
          await check(from / SAMPLE_FPS, Math.min(duration + 1, (from + length) / SAMPLE_FPS));
        }),
        { numRuns: 4 },
      );
      // The choice the index job makes for the file gives one sample for each of the truth's.
      const choice = await decodeChoice(file, SAMPLE_FPS, probe.fps);
      // Keyframes many times a sample are most of the frames: the plan decodes only the sample's own.
      if (encoding.keyframeS < 1 / (2 * SAMPLE_FPS)) expect(choice.keyframesOnly).toBe(false);
      const chosen = await samples({ ...base, startS: 0, endS: duration + 1, ...choice });
      expect(chosen.length).toBe(truth.length);
      if (!choice.skipNonReference) expect(chosen.every((f, i) => f.equals(truth[i]!))).toBe(true);
    }, 60_000);
  }

  it('a keyframe every 2 s with B-frames: the plan of a stretch ending just after a keyframe is one ffmpeg accepts', async () => {
    const encoding = CAMERA_ENCODINGS.find((e) => e.name === 'h264-bframes-gop2')!;
    const file = await encodeCameraFile(work, { ...encoding, name: 'boundary' });
    const plan = await planDecode(await videoInput(file), 0, 4.5, SAMPLE_FPS);
    // The last piece is the keyframe at 4 s alone, decoded 2 frames before it is shown.
    expect(plan!.script).toMatch(/inpoint 4\.000000\noutpoint 4\.0\d+\n?/);
    const fallbacks: string[] = [];
    expect(await samples({ file, width: 160, height: 96, startS: 0, endS: 4.5 }, fallbacks)).toHaveLength(9);
    expect(fallbacks).toEqual([]);
  }, 30_000);

  it('a camera at 29.97 fps with a keyframe every 15 frames: each sample from the keyframes alone is the keyframe at its time, not the one half a second before', async () => {
    const encoding = { ...CAMERA_ENCODINGS.find((e) => e.name === 'h264-29.97fps')!, name: 'ntsc-gop15', keyframeS: 0.5, audio: false };
    const file = await encodeCameraFile(work, encoding);
    const probe = await probeVideo(file);
    const choice = await decodeChoice(file, SAMPLE_FPS, probe.fps);
    expect(choice.keyframesOnly).toBe(true);
    // The keyframes, in order: keyframe k is shown at k × 0.5005 s, a frame or less after sample k.
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-skip_frame', 'nokey', '-i', file, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 26 });
    const size = probe.width * probe.height * 3;
    const keyframes = Array.from({ length: stdout.length / size }, (_, k) => stdout.subarray(k * size, (k + 1) * size));
    const chosen = await samples({ file, width: probe.width, height: probe.height, startS: 0, endS: probe.durationSeconds + 1, ...choice });
    expect(chosen.length).toBeGreaterThanOrEqual(keyframes.length - 1);
    expect(chosen.slice(0, keyframes.length).map((f, k) => f.equals(keyframes[k]!))).toEqual(keyframes.map(() => true));
  }, 30_000);
});
