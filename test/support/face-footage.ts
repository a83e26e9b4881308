// Test footage with known ground truth, built with ffmpeg from the group photos that ship in
// @vladmandic/face-api (demo/sample1-6.jpg: 22 different people, one photo each). Each person is
// a head-and-shoulders cut-out of their photo, scaled to a chosen face height and moved across a
// plain court for the seconds the script says. A reference photo of a person is made from the
// same source photo but as a different picture: mirrored, recoloured, rotated, re-cropped and
// re-compressed; the project has no second real photo of anyone (see docs/decisions/0011).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const demo = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

/** Face boxes (x, y, w, h) in the sample photos, measured once with the SSD detector. */
export const PEOPLE = {
  ava: { sample: 4, box: [988, 180, 169, 228] },
  bea: { sample: 5, box: [1406, 390, 166, 271] },
  cleo: { sample: 5, box: [597, 415, 167, 248] },
  dana: { sample: 5, box: [377, 859, 172, 301] },
  eve: { sample: 6, box: [681, 320, 160, 308] },
  fay: { sample: 6, box: [1487, 262, 212, 297] },
  gia: { sample: 3, box: [1075, 215, 221, 299] },
  hope: { sample: 1, box: [414, 355, 177, 239] },
  iris: { sample: 2, box: [902, 220, 150, 234] },
  june: { sample: 3, box: [1514, 292, 170, 280] },
  kim: { sample: 4, box: [257, 185, 162, 246] },
  lea: { sample: 6, box: [1181, 305, 188, 279] },
} as const;
export type Person = keyof typeof PEOPLE;

export interface Appearance {
  /** One of PEOPLE, or anyone else when `photo` says where their face is. */
  person: Person | (string & {});
  /** A photo of the person and their face box in it (x, y, w, h); PEOPLE's sample photo if absent. */
  photo?: { file: string; box: readonly [number, number, number, number] };
  /** Softens the face (Gaussian blur, sigma in pixels of the footage). */
  blur?: number;
  /** Hides the lower part of the face (mouth and chin) behind a bar, as a raised arm or a ball would. */
  covered?: boolean;
  from: number;
  to: number;
  /** Face height in the footage, pixels. */
  faceHeight: number;
  /** Where the face starts, as fractions of the frame; it drifts right by `drift` a second. */
  x: number;
  y: number;
  drift?: number;
  /** A shirt under the face with this number on it, white on blue (for the jersey reader). */
  jersey?: number;
}

const JERSEY_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** A crop around the face: the head with some margin (within the photo), as ffmpeg's crop expects. */
function headCrop(box: readonly [number, number, number, number], photo = { width: Infinity, height: Infinity }) {
  const [x, y, w, h] = box;
  const left = Math.max(0, Math.round(x + w / 2 - w * 0.9));
  const top = Math.max(0, Math.round(y - h * 0.35));
  const cw = Math.min(Math.round(w * 1.8), photo.width - left);
  const ch = Math.min(Math.round(h * 1.7), photo.height - top);
  return { x: left, y: top, w: cw - (cw % 2), h: ch - (ch % 2), faceH: h };
}

function sourceOf(a: Pick<Appearance, 'person' | 'photo'>) {
  if (a.photo) return a.photo;
  const person = PEOPLE[a.person as Person];
  if (!person) throw new Error(`no photo of ${a.person}`);
  return { file: samplePhoto(a.person as Person), box: person.box };
}

export function samplePhoto(person: Person): string {
  return path.join(demo, `sample${PEOPLE[person].sample}.jpg`);
}

/** Writes an H.264 MP4 of `seconds` at width×height, 30 fps, with the given appearances. */
/**
 * `preset` is x264's: ultrafast (the default) for tests, veryfast for footage like a camera's.
 * `keyframeEvery` is the keyframe interval in frames (60 unless told: one every 2 s).
 */
export async function composeFootage(
  file: string,
  opts: {
    width: number;
    height: number;
    seconds: number;
    appearances: Appearance[];
    preset?: string;
    audio?: boolean;
    noise?: number;
    keyframeEvery?: number;
    /**
     * Keyframes exactly every `keyframeEvery` frames and nowhere else, as a camera set to a fixed
     * keyframe interval makes them (x264 otherwise puts each one a frame early: 59 frames for 60).
     */
    fixedKeyframes?: boolean;
    /** Shot cuts: at each of these times the scene changes (another background), as an edit would. */
    cuts?: number[];
    /** A video to use as the scene instead of the grainy court (scaled to the frame). */
    backdrop?: string;
  },
) {
  const { width, height, seconds, appearances } = opts;
  // A grainy court: noise made at a quarter of the size and scaled up, which costs far less.
  const quarter = `${Math.round(width / 8) * 2}x${Math.round(height / 8) * 2}`;
  // After every other cut the scene is the stands: a darker, warmer picture.
  const cuts = [...(opts.cuts ?? []), seconds];
  const stands = cuts.flatMap((at, i) => (i % 2 === 0 && i + 1 < cuts.length ? [`drawbox=x=0:y=0:w=iw:h=ih:color=0x5a3b2a:t=fill:enable='between(t,${at},${cuts[i + 1]! - 0.001})'`] : []));
  const court = [`color=c=0x3a5f3a:s=${quarter}:r=30:d=${seconds}`, ...stands, `noise=alls=${opts.noise ?? 14}:allf=t`, `scale=${width}:${height}`].join(',');
  const inputs: string[] = opts.backdrop ? ['-i', opts.backdrop] : ['-f', 'lavfi', '-i', court];
  const filters: string[] = [];
  let last = '0:v';
  // Each cut-out is made once as a small PNG; looping it costs little, unlike the whole photo.
  const cutouts = await Promise.all(
    appearances.map(async (a, i) => {
      const source = sourceOf(a);
      const crop = headCrop(source.box, a.photo ? await photoSize(source.file) : undefined);
      const scale = a.faceHeight / crop.faceH;
      const w = Math.max(2, Math.round((crop.w * scale) / 2) * 2);
      const h = Math.max(2, Math.round((crop.h * scale) / 2) * 2);
      const png = `${file}.cutout-${i}.png`;
      let filter = `crop=${crop.w}:${crop.h}:${crop.x}:${crop.y},scale=${w}:${h},format=rgb24`;
      if (a.blur) filter += `,gblur=sigma=${a.blur}`;
      // The bar covers the face's lower 40 % (the face sits 0.35 face-heights below the crop's top).
      if (a.covered) filter += `,drawbox=x=0:y=${Math.round(a.faceHeight * (0.35 + 0.6))}:w=iw:h=${Math.round(a.faceHeight * 0.45)}:color=0xd9d9d9:t=fill`;
      if (a.jersey !== undefined) {
        // The shirt: 2.2 faces high under the cut-out, the number about a face high on it.
        const shirt = Math.round((a.faceHeight * 2.2) / 2) * 2;
        filter += `,pad=iw:ih+${shirt}:0:0:color=0x1f3a93,drawtext=fontfile=${JERSEY_FONT}:text='${a.jersey}':fontsize=${Math.round(a.faceHeight * 0.8)}:fontcolor=white:x=(w-tw)/2:y=h-${shirt}+(${shirt}-th)/2`;
      }
      await run('ffmpeg', ['-v', 'error', '-y', '-i', source.file, '-vf', filter, '-frames:v', '1', png]);
      return png;
    }),
  );
  appearances.forEach((a, i) => {
    inputs.push('-loop', '1', '-framerate', '30', '-t', String(seconds), '-i', cutouts[i]!);
    const x = `${Math.round(a.x * width)}+${Math.round((a.drift ?? 0) * width)}*(t-${a.from})`;
    filters.push(`[${last}][${i + 1}:v]overlay=x='${x}':y=${Math.round(a.y * height)}:enable='between(t,${a.from},${a.to})':shortest=1[v${i}]`);
    last = `v${i}`;
  });
  // A tone as the game's sound, when asked: the reel's sound is then the camera's, not silence.
  if (opts.audio) inputs.push('-f', 'lavfi', '-t', String(seconds), '-i', `sine=f=330:sample_rate=48000`);
  const args = ['-v', 'error', '-y', ...inputs];
  if (filters.length) args.push('-filter_complex', filters.join(';'), '-map', `[${last}]`);
  else args.push('-map', '0:v');
  if (opts.audio) args.push('-map', `${appearances.length + 1}:a`, '-c:a', 'aac', '-b:a', '96k');
  args.push('-t', String(seconds), '-c:v', 'libx264', '-preset', opts.preset ?? 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p', '-g', String(opts.keyframeEvery ?? 60));
  if (opts.fixedKeyframes) args.push('-keyint_min', String(opts.keyframeEvery ?? 60), '-sc_threshold', '0');
  args.push('-movflags', '+faststart', file);
  try {
    await run('ffmpeg', args, { maxBuffer: 1 << 24 });
  } finally {
    await Promise.all(cutouts.map((png) => fs.rm(png, { force: true })));
  }
}

/** A reference photo of a person: the same face as a different picture (see the top of this file). */
export async function referencePhoto(person: Person, file: string) {
  const crop = headCrop(PEOPLE[person].box);
  const grow = Math.round(crop.w * 0.15);
  await run('ffmpeg', [
    '-v', 'error', '-y', '-i', samplePhoto(person),
    '-vf', `crop=${crop.w + grow}:${crop.h + grow}:${Math.max(0, crop.x - grow / 2)}:${Math.max(0, crop.y - grow / 2)},hflip,rotate=4*PI/180:fillcolor=white,eq=brightness=0.06:saturation=0.8:gamma=1.1,scale=480:-2`,
    '-q:v', '6', file,
  ]);
}

async function photoSize(file: string): Promise<{ width: number; height: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
  const [width, height] = stdout.trim().split(',').map(Number);
  return { width: width!, height: height! };
}

/** A photo with no face: a plain picture of the court. */
export async function photoWithoutFace(file: string) {
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x3a5f3a:s=640x480,noise=alls=20:allf=t', '-frames:v', '1', file]);
}

/** A group photo: several faces. */
export function groupPhoto(): string {
  return path.join(demo, 'sample1.jpg');
}

/** A photo of one person whose face is too small to match (about 70 pixels high). */
export async function smallFacePhoto(person: Person, file: string) {
  const [x, y, w, h] = PEOPLE[person].box.map((v) => v / 2) as [number, number, number, number];
  await run('ffmpeg', [
    '-v', 'error', '-y', '-i', samplePhoto(person),
    '-vf', `scale=960:-2,crop=${Math.round(w * 2.6)}:${Math.round(h * 2.2)}:${Math.round(x - w * 0.8)}:${Math.round(y - h * 0.5)},scale=120:-2`,
    file,
  ]);
}
