// The sound of a game heard by several cameras, made with ffmpeg: a crowd (pink noise from a
// seed, swelling and fading), a referee's whistles and claps at times drawn from the same seed.
// Each camera hears it from its own start, with its own gain, its own microphone hiss and
// colour, at its own sample rate, next to a tiny video stream (footage always has one).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A small deterministic random generator (mulberry32), so a seed gives the same game every time. */
export function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GameSound {
  seed: number;
  /** Seconds of game sound (the master recording every camera hears a part of). */
  seconds: number;
}

export interface CameraTake {
  /** Seconds into the game sound when this camera started. */
  startsAt: number;
  seconds: number;
  /** Linear gain of this camera's microphone. */
  gain?: number;
  /** Its own hiss (white noise from its own seed), as an amplitude. */
  hiss?: number;
  hissSeed?: number;
  sampleRate?: number;
  /** A low-pass at this frequency: a duller microphone. */
  lowpassHz?: number;
  /** No audio stream at all. */
  silent?: boolean;
}

/**
 * The ffmpeg filter graph of the game's sound, as one chain. Whistles and claps come on where a
 * product of two slow sines of unrelated frequencies (drawn from the seed) peaks: irregular
 * times that never repeat in step, written in a few characters.
 */
function gameSoundGraph(sound: GameSound): string {
  const random = seeded(sound.seed);
  const f = () => (0.05 + random() * 0.3).toFixed(4);
  const rate = 48000;
  const d = sound.seconds;
  const whistleOn = `gt(sin(2*PI*${f()}*t+1)*sin(2*PI*${f()}*t),0.85)`;
  const clapOn = `gt(sin(2*PI*${f()}*3*t)*sin(2*PI*${f()}*5*t+2),0.97)`;
  return [
    `anoisesrc=color=pink:seed=${sound.seed}:amplitude=0.25:sample_rate=${rate}:duration=${d},volume='0.55+0.45*sin(2*PI*${f()}*t)*sin(2*PI*0.031*t+1)':eval=frame[crowd]`,
    `aevalsrc='0.4*sin(2*PI*3150*t)*${whistleOn}':s=${rate}:d=${d}[whistle]`,
    `aevalsrc='0.8*(2*random(0)-1)*${clapOn}':s=${rate}:d=${d},highpass=f=700[clap]`,
    `[crowd][whistle][clap]amix=inputs=3:normalize=0`,
  ].join(';');
}

/** An MP4 as one camera recorded the game: H.264 at 160×120 and AAC (none with `silent`). */
export async function recordCamera(file: string, sound: GameSound, take: CameraTake): Promise<void> {
  const video = ['-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=10:duration=${take.seconds}`];
  const encode = ['-map', '0:v', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  if (take.silent) {
    await run('ffmpeg', ['-v', 'error', '-y', ...video, ...encode, '-t', String(take.seconds), file]);
    return;
  }
  const sampleRate = take.sampleRate ?? 48000;
  const hiss = take.hiss ?? 0.01;
  const chain = [
    `${gameSoundGraph(sound)},atrim=start=${take.startsAt}:duration=${take.seconds},asetpts=PTS-STARTPTS,volume=${take.gain ?? 1}${take.lowpassHz ? `,lowpass=f=${take.lowpassHz}` : ''}[heard]`,
    `anoisesrc=color=white:seed=${take.hissSeed ?? 99}:amplitude=${hiss}:sample_rate=48000:duration=${take.seconds}[hiss]`,
    `[heard][hiss]amix=inputs=2:normalize=0,aresample=${sampleRate}[a]`,
  ].join(';');
  await run('ffmpeg', ['-v', 'error', '-y', ...video, '-filter_complex', chain, ...encode, '-map', '[a]', '-c:a', 'aac', '-b:a', '96k', '-ar', String(sampleRate), '-t', String(take.seconds), file], { maxBuffer: 1 << 24 });
}
