// ffprobe and ffmpeg, run as child processes on files (Debian's ffmpeg in CI; FFMPEG_PATH and
// FFPROBE_PATH name others). Nothing here holds a video in memory. Every uploaded file is read
// through `videoInput`: its container named from its own structure, local files only, and no other
// demuxer (issue 21: a DASH manifest that passed for MOV made ffmpeg read another family's video).
import { spawn } from 'node:child_process';
import { DEMUXER, loopbackVideoContainer, readVideoContainer } from './video-type';

const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';

export interface VideoProbe {
  durationSeconds: number;
  /** As displayed: a phone video recorded upright is taller than wide, whatever its raw frames. */
  width: number;
  height: number;
  container: string;
  videoCodec: string | null;
  audioCodec: string | null;
  pixelFormat: string | null;
  fps: number | null;
}

function run(bin: string, args: string[], onStdout?: (chunk: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      if (onStdout) onStdout(text);
      else out += text;
    });
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}`))));
  });
}

/** A file given as a video that is not a whole MP4, MOV, WebM, MKV or transport stream by its structure. */
export class NotAVideoError extends Error {
  constructor() {
    super('The file is not an MP4, MOV, WebM, MKV or MPEG-TS video.');
    this.name = 'NotAVideoError';
  }
}

/**
 * A video whose data cannot be read whole: cut off (media data or index missing) or corrupt
 * inside. It stays so however often it is read again; only a new upload cures it.
 */
export class DamagedVideoError extends Error {
  constructor() {
    super('The video file is damaged.');
    this.name = 'DamagedVideoError';
  }
}

/** What ffmpeg says when it meets data it cannot use (the demuxer's and the parsers'). */
const DAMAGE_SIGNS = /corrupt|partial file|error while decoding|invalid nal unit|invalid data found|error splitting the input|moov atom not found/i;

/**
 * Reads every packet of the file once, without decoding the pictures (a few seconds for hours of
 * footage): throws DamagedVideoError when ffmpeg cannot read it through or meets corrupt data.
 */
export async function checkVideoReadable(file: string): Promise<void> {
  const input = await videoInput(file);
  try {
    const stderr = await runCollectingErrors(FFMPEG, ['-v', 'error', '-nostdin', '-xerror', ...input, '-map', '0:v', '-map', '0:a?', '-c', 'copy', '-f', 'null', '-']);
    if (DAMAGE_SIGNS.test(stderr)) throw new DamagedVideoError();
  } catch (error) {
    if (error instanceof DamagedVideoError || (error as { exitCode?: number }).exitCode !== undefined) throw new DamagedVideoError();
    throw error; // ffmpeg could not be started: nothing is known about the file
  }
}

/** Runs a tool; resolves with what it wrote to stderr, rejects with `exitCode` set when it fails. */
function runCollectingErrors(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(err) : reject(Object.assign(new Error(`${bin} exited with ${code}`), { exitCode: code }))));
  });
}

/**
 * ffmpeg's and ffprobe's input options for an uploaded video (put other input options such as
 * `-ss` before them): the container judged by the file's own structure (media/video-type.ts) is
 * named with `-f`, only that demuxer may open anything (nothing nested: no manifest, playlist or
 * concat script inside the file is followed) and only local files. Throws NotAVideoError when the
 * file is not an MP4, MOV or WebM. The one way this code base reads an uploaded video.
 *
 * A video in the bucket is read through media/stored-video.ts, which judged its structure before
 * serving it on loopback: for that address only plain HTTP over TCP is allowed, and nothing else.
 */
export async function videoInput(file: string): Promise<string[]> {
  const served = loopbackVideoContainer(file);
  // A read that hangs longer than 20 s ends ffmpeg: the loopback server belongs to the process
  // that started it, and once that process is gone nothing will ever answer (issue 32).
  if (served) return ['-protocol_whitelist', 'http,tcp', '-reconnect', '1', '-reconnect_delay_max', '3', '-rw_timeout', '20000000', '-format_whitelist', DEMUXER[served], '-f', DEMUXER[served], '-i', file];
  const container = await readVideoContainer(file);
  if (!container) throw new NotAVideoError();
  const demuxer = DEMUXER[container];
  return ['-protocol_whitelist', 'file', '-format_whitelist', demuxer, '-f', demuxer, '-i', `file:${file}`];
}

function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [n, d] = rate.split('/').map(Number);
  return n && d ? n / d : null;
}

export async function probeVideo(file: string): Promise<VideoProbe> {
  const json = await run(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...(await videoInput(file))]);
  const info = JSON.parse(json) as {
    format?: { format_name?: string; duration?: string };
    streams?: Array<{
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
      avg_frame_rate?: string;
      duration?: string;
      tags?: { rotate?: string };
      disposition?: { attached_pic?: number };
      side_data_list?: Array<{ rotation?: number }>;
    }>;
  };
  // A cover picture stored as a video stream is not the video (ffmpeg's `V` streams everywhere else).
  const video = info.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video?.width || !video.height) throw new Error('The file has no video stream.');
  const audio = info.streams?.find((s) => s.codec_type === 'audio');
  const rotation = Math.abs(Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0)) % 180;
  // The video's own length: a file cut by stream copy keeps the frames before its cut for its
  // decoder, and its movie header may count them (a real broadcast clip said 25.8 s of 21.0 s).
  const own = Number(video.duration);
  const duration = Number.isFinite(own) && own > 0 ? own : Number(info.format?.duration ?? 0);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    width: rotation === 90 ? video.height : video.width,
    height: rotation === 90 ? video.width : video.height,
    container: info.format?.format_name ?? '',
    videoCodec: video.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    pixelFormat: video.pix_fmt ?? null,
    fps: parseRate(video.avg_frame_rate),
  };
}

/**
 * The stretches between keyframes in the first `withinSeconds` of the video, in seconds: the
 * longest and the middle one of them, read from the packets' flags (nothing is decoded); null
 * when fewer than two keyframes are there.
 */
export async function keyframeGaps(file: string, withinSeconds: number): Promise<{ longest: number; median: number } | null> {
  const csv = await run(FFPROBE, ['-v', 'error', '-select_streams', 'V:0', '-read_intervals', `%+${withinSeconds}`, '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', ...(await videoInput(file))]);
  const keyframes = csv
    .split('\n')
    .map((line) => line.split(','))
    .filter(([time, flags]) => flags?.startsWith('K') && time && Number.isFinite(Number(time)))
    .map(([time]) => Number(time))
    .sort((a, b) => a - b);
  if (keyframes.length < 2) return null;
  const gaps = keyframes.slice(1).map((time, i) => time - keyframes[i]!).sort((a, b) => a - b);
  return { longest: gaps.at(-1)!, median: gaps[gaps.length >> 1]! };
}

/** True when browsers play the file as it is: H.264 (8-bit 4:2:0) with AAC or no sound, in MP4/MOV. */
export function isWebPlayable(p: VideoProbe): boolean {
  return (
    /mp4|mov/.test(p.container) &&
    p.videoCodec === 'h264' &&
    (p.pixelFormat === 'yuv420p' || p.pixelFormat === 'yuvj420p') &&
    (p.audioCodec === null || p.audioCodec === 'aac')
  );
}

/**
 * Writes a web-playable MP4 with its index at the front (faststart) and no metadata at all (GPS,
 * device, dates): stream copy when the streams already play, H.264/AAC otherwise. `onProgress`
 * hears the fraction done.
 */
export async function makeWebVideo(input: string, output: string, probe: VideoProbe, onProgress?: (fraction: number) => void): Promise<'copied' | 'transcoded'> {
  const copy = isWebPlayable(probe);
  const codecs = copy
    ? ['-c', 'copy']
    : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '22', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '160k', '-ac', '2'];
  const args = [
    '-y', '-v', 'error', '-nostats', '-progress', 'pipe:1',
    ...(await videoInput(input)),
    // The first video and (if any) audio stream only: data tracks can carry a location.
    '-map', '0:V:0', '-map', '0:a:0?',
    '-map_metadata', '-1', '-map_chapters', '-1',
    ...codecs,
    '-movflags', '+faststart',
    '-f', 'mp4', output,
  ];
  await runFfmpeg(args, probe.durationSeconds, onProgress);
  return copy ? 'copied' : 'transcoded';
}

/**
 * A camera's MPEG transport stream (AVCHD's .MTS and .M2TS, a recorder's .ts) rewrapped as MOV:
 * every picture packet as it was (stream copy), the first sound track copied too (PCM, such as the
 * LPCM of AVCHD's professional models, which MOV cannot hold as it is, as 24-bit PCM: lossless for
 * 16 and 24 bits), the index at the front and no metadata (an AVCHD camcorder can write its position there). A
 * transport stream has no index: a reader seeking in one lands on whatever packet is nearest,
 * not on a keyframe, so the face index's plan, a clip's first frame and a thumbnail would each
 * be a guess; in the MOV they are exact, as for every other file.
 */
export async function rewrapTransportStream(input: string, output: string): Promise<void> {
  const probe = await probeVideo(input);
  const sound = probe.audioCodec === null ? [] : ['-map', '0:a:0', '-c:a', probe.audioCodec.startsWith('pcm_') ? 'pcm_s24le' : 'copy'];
  const inputArgs = await videoInput(input);
  const args = (audio: string[]) => ['-y', '-v', 'error', '-nostdin', ...inputArgs, '-map', '0:V:0', '-c:v', 'copy', ...audio, '-map_metadata', '-1', '-map_chapters', '-1', '-movflags', '+faststart', '-f', 'mov', output];
  try {
    await run(FFMPEG, args(sound));
  } catch (error) {
    // A sound codec MOV cannot hold as it is (rare in cameras): the sound as AAC, the picture still untouched.
    if (!sound.length) throw error;
    await run(FFMPEG, args(['-map', '0:a:0', '-c:a', 'aac', '-b:a', '192k']));
  }
}

/**
 * Runs ffmpeg with `args` (which should hold `-progress pipe:1`); `onProgress` hears the fraction
 * of `durationSeconds` written so far.
 */
export async function runFfmpeg(args: string[], durationSeconds: number, onProgress?: (fraction: number) => void): Promise<void> {
  let buffered = '';
  await run(FFMPEG, args, (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m && durationSeconds > 0 && onProgress) onProgress(Math.min(1, Number(m[1]) / 1e6 / durationSeconds));
    }
  });
}

/** One full-resolution frame at `atSeconds` as PNG (lossless, for stills). */
export async function extractFullFrame(input: string, output: string, atSeconds: number): Promise<void> {
  await run(FFMPEG, ['-y', '-v', 'error', '-ss', String(Math.max(0, atSeconds)), ...(await videoInput(input)), '-frames:v', '1', '-c:v', 'png', '-f', 'image2', output]);
}

/** A JPEG frame at `atSeconds`, at most 1280 px wide. */
export async function extractFrame(input: string, output: string, atSeconds: number): Promise<void> {
  await run(FFMPEG, ['-y', '-v', 'error', '-ss', String(Math.max(0, atSeconds)), ...(await videoInput(input)), '-frames:v', '1', '-vf', "scale='min(1280,iw)':-2", '-q:v', '3', output]);
}

/**
 * The first audio stream's first `maxSeconds`, mixed to mono and resampled to `sampleRate`, as
 * 32-bit float samples; null when the file has no audio stream.
 */
export async function decodeAudioMono(file: string, opts: { sampleRate: number; maxSeconds: number }): Promise<Float32Array | null> {
  const input = await videoInput(file);
  const streams = await run(FFPROBE, ['-v', 'error', ...input, '-select_streams', 'a', '-show_entries', 'stream=index', '-of', 'csv=p=0']);
  if (!streams.trim()) return null;
  const args = ['-v', 'error', '-nostdin', ...input, '-map', '0:a:0', '-vn', '-sn', '-dn', '-t', String(opts.maxSeconds), '-ac', '1', '-ar', String(opts.sampleRate), '-f', 'f32le', 'pipe:1'];
  const bytes = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn(FFMPEG, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${FFMPEG} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}`))));
  });
  const samples = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readFloatLE(i * 4);
  return samples;
}
