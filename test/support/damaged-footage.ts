// Damaged footage as cameras and transfers make it, built from a real clip (ffmpeg's lavfi testsrc,
// index first): cut off half-way, cut off with its last box mended so the file still adds up
// (its media data half missing), and random bytes written inside its media data.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface DamagedFootage {
  /** The whole clip. */
  intact: string;
  /** The first half of the file only: its boxes do not add up. */
  cutOff: string;
  /** Cut half-way through its media data, the `mdat` box's size set to what is left. */
  mediaMissing: string;
  /** Whole in structure, with random bytes written all through its media data. */
  scrambled: string;
}

/** A 4 s clip (320×240, sound), then its damaged copies, all in `dir`. */
export function makeDamagedFootage(dir: string): DamagedFootage {
  const intact = path.join(dir, 'intact.mp4');
  execFileSync('ffmpeg', [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30:duration=4',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest',
    '-movflags', '+faststart', intact,
  ]);
  const bytes = fs.readFileSync(intact);
  const mdat = bytes.indexOf(Buffer.from('mdat')) - 4;
  if (mdat < 0) throw new Error('the clip has no mdat box');
  const half = mdat + Math.floor((bytes.length - mdat) / 2);

  const cutOff = path.join(dir, 'cut-off.mp4');
  fs.writeFileSync(cutOff, bytes.subarray(0, Math.floor(bytes.length / 2)));

  const mediaMissing = path.join(dir, 'media-missing.mp4');
  const mended = Buffer.from(bytes.subarray(0, half));
  mended.writeUInt32BE(half - mdat, mdat);
  fs.writeFileSync(mediaMissing, mended);

  const scrambled = path.join(dir, 'scrambled.mp4');
  const noisy = Buffer.from(bytes);
  // A fixed pattern, so every run damages the same bytes.
  for (let at = mdat + 1000, n = 1; at < noisy.length; at += 47, n = (n * 75 + 74) % 65537) noisy[at] = n & 0xff;
  fs.writeFileSync(scrambled, noisy);

  return { intact, cutOff, mediaMissing, scrambled };
}
