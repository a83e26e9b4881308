// Small video files encoded the ways cameras and phones encode them, made with ffmpeg for the
// decode tests (issue 32): H.264 with and without B-frames, open and closed GOPs, keyframes from
// every 0.5 s to every 10 s, the common frame rates, a phone's variable frame rate, HEVC in MOV,
// VP9 in WebM, H.264 in MKV, a display rotation, with and without sound; and what came in after:
// every frame a keyframe (MJPEG, the intra-only modes of cameras), a phone's 10-bit HDR HEVC, and a
// file cut by stream copy in the middle of a keyframe's run (its edit list hides the first frames),
// one with a cover picture beside its video, a fragmented MP4 that stores its sound ahead of
// its picture, and MPEG transport streams: an AVCHD camcorder's .M2TS (interlaced H.264, AC-3
// sound, 192-byte packets) and a recorder's .ts. The picture is ffmpeg's
// moving test pattern, so every frame differs from the next and a wrong frame shows.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CameraEncoding {
  name: string;
  /** The file's extension, which names its container. */
  ext: 'mp4' | 'mov' | 'webm' | 'mkv' | 'ts' | 'm2ts';
  seconds: number;
  /** Frames per second as ffmpeg's lavfi takes it (30000/1001 for 29.97). */
  rate: string;
  /** Seconds between keyframes. */
  keyframeS: number;
  codec: 'h264' | 'hevc' | 'vp9' | 'mjpeg';
  /** B-frames in a row (H.264 and HEVC); 0 for none. */
  bframes: number;
  openGop?: boolean;
  /** A phone's variable frame rate: frame durations that change, on a 600-tick time base. */
  variableRate?: boolean;
  /** Degrees in the display matrix, as a phone held upright writes. */
  rotate?: number;
  audio?: boolean;
  /** 10-bit HDR (HLG), as phones record HEVC by default. */
  hdr?: boolean;
  /** Cut from a longer file by stream copy from this second, as a phone's or an editor's quick trim does. */
  trimmedFromS?: number;
  /** A cover picture stored as a second video stream, with more pixels than the tests' tiny video. */
  cover?: boolean;
  /**
   * Fragmented MP4 (as recorders that must survive a power cut write it) with the sound track
   * first: each 2 s fragment holds its sound before its picture, so the demuxer reads sound up to
   * a second ahead of the picture, as in the files Apple's recorders write.
   */
  soundAhead?: boolean;
  /** Interlaced (field-coded, top field first), as AVCHD camcorders record 1080i. */
  interlaced?: boolean;
}

const base = { seconds: 8, rate: '30', keyframeS: 2, codec: 'h264', bframes: 3, ext: 'mp4' } as const;

/** The matrix the tests run, each file a few seconds of 160×96 pixels. */
export const CAMERA_ENCODINGS: CameraEncoding[] = [
  { ...base, name: 'h264-no-bframes-gop2' , bframes: 0 },
  { ...base, name: 'h264-bframes-gop0.5', keyframeS: 0.5 },
  { ...base, name: 'h264-bframes-gop1', keyframeS: 1 },
  { ...base, name: 'h264-bframes-gop2', audio: true },
  { ...base, name: 'h264-bframes-gop4', keyframeS: 4 },
  { ...base, name: 'h264-bframes-gop10', keyframeS: 10, seconds: 12 },
  { ...base, name: 'h264-open-gop2', openGop: true },
  { ...base, name: 'h264-25fps', rate: '25' },
  { ...base, name: 'h264-29.97fps', rate: '30000/1001', audio: true },
  { ...base, name: 'h264-50fps', rate: '50' },
  { ...base, name: 'h264-60fps', rate: '60' },
  { ...base, name: 'h264-phone-vfr', variableRate: true, keyframeS: 1, bframes: 0, ext: 'mov', audio: true },
  { ...base, name: 'hevc-phone-mov', codec: 'hevc', ext: 'mov', keyframeS: 1, audio: true },
  { ...base, name: 'hevc-bframes-gop2', codec: 'hevc' },
  { ...base, name: 'vp9-webm', codec: 'vp9', ext: 'webm', bframes: 0 },
  { ...base, name: 'h264-mkv', ext: 'mkv', audio: true },
  { ...base, name: 'h264-phone-rotated', rotate: 90, ext: 'mov', keyframeS: 1 },
  { ...base, name: 'h264-all-intra', keyframeS: 1 / 30, bframes: 0 },
  { ...base, name: 'mjpeg-mov', codec: 'mjpeg', ext: 'mov', keyframeS: 1 / 30, bframes: 0 },
  { ...base, name: 'hevc-hdr10-phone-mov', codec: 'hevc', ext: 'mov', keyframeS: 1, hdr: true, audio: true },
  { ...base, name: 'h264-trimmed-copy', trimmedFromS: 1.3 },
  { ...base, name: 'h264-with-cover', cover: true, audio: true },
  { ...base, name: 'h264-fragmented-sound-ahead', bframes: 0, audio: true, soundAhead: true },
  { ...base, name: 'h264-avchd-m2ts', ext: 'm2ts', keyframeS: 1, interlaced: true, audio: true },
  { ...base, name: 'h264-mpegts', ext: 'ts', keyframeS: 1, audio: true },
];

/** The frame rate as a number. */
export function rateOf(encoding: CameraEncoding): number {
  const [n, d] = encoding.rate.split('/').map(Number);
  return n! / (d ?? 1);
}

/**
 * At a camera's size, the rates cameras and phones record 1080p at (H.264 16 Mbit/s, HEVC 10, VP9
 * 8); the tests' tiny pictures keep the encoder's default quality (or `tiny`).
 */
const bitrate = (source: string | undefined, rate: string, tiny?: string) => (source ? ['-b:v', rate, '-maxrate', rate, '-bufsize', rate] : tiny ? ['-b:v', tiny] : []);

/**
 * Writes the encoding's file into `dir`; returns its path. The picture is ffmpeg's test pattern at
 * `size`, or the video of `source` (the bench's footage with people) at its own size and the
 * encoding's frame rate.
 */
export async function encodeCameraFile(dir: string, encoding: CameraEncoding, size = { width: 160, height: 96 }, source?: string): Promise<string> {
  const file = path.join(dir, `${encoding.name}.${encoding.ext}`);
  const fps = rateOf(encoding);
  const gop = Math.max(1, Math.round(encoding.keyframeS * fps));
  const args = ['-v', 'error', '-y', ...(source ? ['-i', source] : ['-f', 'lavfi', '-i', `testsrc2=size=${size.width}x${size.height}:rate=${encoding.rate}`])];
  if (encoding.audio) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000');
  const maps = encoding.soundAhead ? ['-map', '1:a', '-map', '0:v'] : ['-map', '0:v', ...(encoding.audio ? ['-map', '1:a'] : [])];
  args.push(...maps, '-t', String(encoding.seconds + (encoding.trimmedFromS ?? 0)));
  // Frame durations of 1/30 s and 1/20 s in turn, as a phone's camera gives in changing light.
  if (encoding.variableRate) args.push('-vf', "setpts='(N+floor(N/4)*0.5)/30/TB'", '-fps_mode', 'passthrough', '-video_track_timescale', '600');
  else if (source) args.push('-r', encoding.rate);
  if (encoding.codec === 'h264') {
    const params = [`bframes=${encoding.bframes}`, `keyint=${gop}`, `min-keyint=${gop}`, 'scenecut=0', ...(encoding.openGop ? ['open-gop=1'] : []), ...(encoding.interlaced ? ['interlaced=1', 'tff=1'] : [])];
    args.push('-c:v', 'libx264', '-preset', 'veryfast', '-x264-params', params.join(':'), ...bitrate(source, '16M'), '-pix_fmt', 'yuv420p');
  } else if (encoding.codec === 'hevc') {
    const params = [`bframes=${encoding.bframes}`, `keyint=${gop}`, `min-keyint=${gop}`, 'scenecut=0', 'log-level=error'];
    const hdr = encoding.hdr ? ['-pix_fmt', 'yuv420p10le', '-color_primaries', 'bt2020', '-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc'] : ['-pix_fmt', 'yuv420p'];
    args.push('-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', params.join(':'), ...bitrate(source, '10M'), '-tag:v', 'hvc1', ...hdr);
  } else if (encoding.codec === 'mjpeg') {
    args.push('-c:v', 'mjpeg', '-q:v', '3', '-pix_fmt', 'yuvj420p');
  } else {
    args.push('-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-g', String(gop), ...bitrate(source, '8M', '300k'), '-pix_fmt', 'yuv420p');
  }
  // AVCHD records its sound as AC-3; ffmpeg writes 192-byte packets for a .m2ts name.
  if (encoding.audio) args.push('-c:a', encoding.ext === 'webm' ? 'libopus' : encoding.ext === 'm2ts' ? 'ac3' : 'aac', '-shortest');
  if (encoding.soundAhead) args.push('-movflags', '+frag_keyframe+empty_moov', '-frag_duration', '2000000');
  if (encoding.trimmedFromS) {
    // Stream copy from a time between keyframes: the file starts at the keyframe before it, and
    // its edit list says to show from the time asked.
    const whole = path.join(dir, `${encoding.name}-whole.${encoding.ext}`);
    await run('ffmpeg', [...args, whole]);
    await run('ffmpeg', ['-v', 'error', '-y', '-ss', String(encoding.trimmedFromS), '-i', whole, '-c', 'copy', '-t', String(encoding.seconds), file]);
    return file;
  }
  if (encoding.cover) {
    const plain = path.join(dir, `${encoding.name}-plain.${encoding.ext}`);
    await run('ffmpeg', [...args, plain]);
    const cover = ['-f', 'lavfi', '-i', 'color=c=orange:s=240x240:d=0.04'];
    await run('ffmpeg', ['-v', 'error', '-y', '-i', plain, ...cover, '-map', '0', '-map', '1:v', '-c', 'copy', '-c:v:1', 'mjpeg', '-frames:v:1', '1', '-disposition:v:1', 'attached_pic', file]);
    return file;
  }
  if (!encoding.rotate) {
    await run('ffmpeg', [...args, file]);
    return file;
  }
  // ffmpeg writes the display matrix from the rotate tag only when it copies the stream.
  const upright = path.join(dir, `${encoding.name}-upright.${encoding.ext}`);
  await run('ffmpeg', [...args, upright]);
  await run('ffmpeg', ['-v', 'error', '-y', '-i', upright, '-c', 'copy', '-metadata:s:v:0', `rotate=${encoding.rotate}`, file]);
  return file;
}
