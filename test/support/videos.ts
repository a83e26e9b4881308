// Small real videos made with ffmpeg for tests (cached in the temp folder by their recipe).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface VideoRecipe {
  /** ts: a recorder's MPEG transport stream; m2ts: an AVCHD camcorder's (192-byte packets, AC-3 sound). */
  container: 'mp4' | 'mov' | 'webm' | 'ts' | 'm2ts';
  width?: number;
  height?: number;
  seconds?: number;
  /** A location in the file's metadata, as phones write it. */
  gps?: boolean;
  /** Index at the end (what many cameras write); processing must move it to the front. */
  indexAtEnd?: boolean;
  /** Seconds between keyframes, as a camera sets it (else the encoder's default, about 8 s here). */
  keyframeEveryS?: number;
}

export function makeVideo(recipe: VideoRecipe): string {
  const r = { width: 320, height: 240, seconds: 2, gps: false, indexAtEnd: false, ...recipe };
  const name = `giot-video-${createHash('sha1').update(JSON.stringify(r)).digest('hex').slice(0, 12)}.${r.container}`;
  const file = path.join(os.tmpdir(), name);
  if (fs.existsSync(file)) return file;
  const codecs =
    r.container === 'webm'
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '500k', '-c:a', 'libvorbis']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', r.container === 'm2ts' ? 'ac3' : 'aac'];
  const gps = r.gps ? ['-metadata', 'location=+40.7128-074.0060/', '-metadata', 'location-eng=+40.7128-074.0060/', '-metadata', 'com.apple.quicktime.location.ISO6709=+40.7128-074.0060/'] : [];
  const tmp = `${file}.${process.pid}.tmp.${r.container}`;
  execFileSync('ffmpeg', [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', `testsrc2=size=${r.width}x${r.height}:rate=30:duration=${r.seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${r.seconds}`,
    ...codecs, ...gps,
    ...(r.keyframeEveryS ? ['-g', String(Math.round(30 * r.keyframeEveryS))] : []),
    ...((r.container === 'mp4' || r.container === 'mov') && !r.indexAtEnd ? ['-movflags', '+faststart'] : []),
    ...(r.container === 'mov' ? ['-f', 'mov'] : []),
    tmp,
  ]);
  fs.renameSync(tmp, file);
  return file;
}

/** What ffprobe says of a file (streams and format with their tags). */
export function probe(file: string): { format: { format_name: string; duration: string; tags?: Record<string, string> }; streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; tags?: Record<string, string> }> } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]).toString());
}

/** True when the MP4's index (moov) comes before its media data (mdat): it starts playing at once. */
export function isFaststart(file: string): boolean {
  const head = fs.readFileSync(file).subarray(0, 1024 * 1024).toString('latin1');
  const moov = head.indexOf('moov');
  const mdat = head.indexOf('mdat');
  return moov !== -1 && (mdat === -1 || moov < mdat);
}
