// The cameras of one game, put on one clock by their sound. Cameras are started by hand at
// different times; each hears the same game (crowd, whistles, the ball, the buzzer), so the
// offset between two of them is where their sounds line up best:
//  1. the first SYNC_MAX_SECONDS of each file's sound, mono at 8 kHz (media/ffmpeg.ts);
//  2. an onset envelope of each, 200 values a second: how much the sound got louder, band by
//     band, from one 32 ms frame to the next (log energies, so a camera's gain and its
//     microphone's colour cancel out);
//  3. the envelopes' cross-correlation (media/fft.ts) over every lag that leaves enough overlap;
//     its highest peak, placed between values with a parabola, is the coarse offset, and the
//     peak's height against the rest says whether it is a real match;
//  4. the samples themselves, a window around that lag, correlated with the phase transform
//     (GCC-PHAT): a sharp peak to a fraction of a millisecond, kept when it is clear.
// A weak or ambiguous peak is "not found", never a guess. See docs/decisions/0015.
import { and, asc, eq, isNull, ne, or } from 'drizzle-orm';
import { isDamagedFootage } from '../../common/footage-state';
import { footage } from '../db/schema';
import { publishFootage } from '../faces/indexing';
import type { AppDeps } from '../deps';
import type { JobHandler } from '../jobs/queue';
import { decodeAudioMono } from '../media/ffmpeg';
import { openStoredVideo } from '../media/stored-video';
import { crossCorrelate, fft } from '../media/fft';

export const SYNC_SAMPLE_RATE = 8000;
/** Only the start of each file is heard: offsets up to a few minutes are what hand-started cameras give. */
export const SYNC_MAX_SECONDS = 600;
/** An offset (admin's or found) is at most this far either way. */
export const MAX_OFFSET_S = 6 * 60 * 60;

const FRAME = 256; // 32 ms
const HOP = 40; // 5 ms: 200 envelope values a second
export const ENVELOPE_RATE = SYNC_SAMPLE_RATE / HOP;
/** Peaks closer than this to the best one are its own shoulders, not rivals. */
const PEAK_HALF_WIDTH_S = 0.25;
/** The best peak must stand this many standard deviations above the other lags... */
export const MIN_PEAK_Z = 9;
/** ...and be this much higher (above the mean) than the best peak elsewhere. */
export const MIN_PEAK_RATIO = 1.4;
/** A file whose sound's RMS stays under this (−70 dBFS) is silent: a muted microphone. */
const SILENT_RMS = 10 ** (-70 / 20);

export type SyncSource = 'reference' | 'audio' | 'admin' | 'no_audio' | 'not_found';

export interface OffsetEstimate {
  /** Seconds to add to the other recording's time to get the reference's (null: not found). */
  offsetS: number | null;
  /** How far the envelope peak stands above the other lags, in standard deviations. */
  peakZ: number;
  /** The peak's height over the best rival peak's (above the mean). */
  peakRatio: number;
  /** Whether the samples' phase correlation refined the envelope's offset. */
  refined: boolean;
}

/** Log-spaced bands from about 90 Hz to 4 kHz, as FFT bins of one frame. */
const BANDS = (() => {
  const edges: number[] = [];
  const lo = 3;
  const hi = FRAME / 2;
  const count = 20;
  for (let i = 0; i <= count; i++) edges.push(Math.round(lo * (hi / lo) ** (i / count)));
  return [...new Set(edges)];
})();

/**
 * The onset envelope: per 5 ms, the sum over bands of how much the band's log energy rose since
 * the last frame; then its slow trend (1 s) taken out and scaled to unit variance.
 */
export function onsetEnvelope(samples: Float32Array): Float64Array {
  const frames = Math.max(0, Math.floor((samples.length - FRAME) / HOP) + 1);
  const bands = BANDS.length - 1;
  const energy = new Float64Array(frames * bands);
  const window = new Float64Array(FRAME);
  for (let i = 0; i < FRAME; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  // Two frames per transform: one as the real part, the next as the imaginary part.
  for (let t = 0; t < frames; t += 2) {
    const second = t + 1 < frames;
    for (let i = 0; i < FRAME; i++) {
      re[i] = samples[t * HOP + i]! * window[i]!;
      im[i] = second ? samples[(t + 1) * HOP + i]! * window[i]! : 0;
    }
    fft(re, im);
    for (let b = 0; b < bands; b++) {
      let e1 = 0;
      let e2 = 0;
      for (let k = BANDS[b]!; k < BANDS[b + 1]!; k++) {
        const m = FRAME - k;
        const ar = (re[k]! + re[m]!) / 2;
        const ai = (im[k]! - im[m]!) / 2;
        const br = (im[k]! + im[m]!) / 2;
        const bi = (re[m]! - re[k]!) / 2;
        e1 += ar * ar + ai * ai;
        e2 += br * br + bi * bi;
      }
      energy[t * bands + b] = e1;
      if (second) energy[(t + 1) * bands + b] = e2;
    }
  }
  // A floor 30 dB under each band's mean, so near-silence does not swing the logs.
  const floor = new Float64Array(bands);
  for (let t = 0; t < frames; t++) for (let b = 0; b < bands; b++) floor[b] = floor[b]! + energy[t * bands + b]!;
  for (let b = 0; b < bands; b++) floor[b] = (floor[b]! / Math.max(1, frames)) * 1e-3 + 1e-20;
  const flux = new Float64Array(frames);
  for (let t = 1; t < frames; t++) {
    let sum = 0;
    for (let b = 0; b < bands; b++) {
      const rise = Math.log(energy[t * bands + b]! + floor[b]!) - Math.log(energy[(t - 1) * bands + b]! + floor[b]!);
      if (rise > 0) sum += rise;
    }
    flux[t] = sum;
  }
  // Take out the trend (a centred 1 s mean), then scale to unit variance.
  const half = Math.round(ENVELOPE_RATE / 2);
  const out = new Float64Array(frames);
  let running = 0;
  let lo = 0;
  let hi = 0;
  for (let t = 0; t < frames; t++) {
    while (hi < Math.min(frames, t + half + 1)) running += flux[hi++]!;
    while (lo < t - half) running -= flux[lo++]!;
    out[t] = flux[t]! - running / (hi - lo);
  }
  let sq = 0;
  for (let t = 0; t < frames; t++) sq += out[t]! * out[t]!;
  const sd = Math.sqrt(sq / Math.max(1, frames)) || 1;
  for (let t = 0; t < frames; t++) out[t] = out[t]! / sd;
  return out;
}

/** Where a peak at i of f really lies, between samples: the vertex of the parabola through i-1, i, i+1. */
function parabolicPeak(f: (i: number) => number, i: number): number {
  const l = f(i - 1);
  const c = f(i);
  const r = f(i + 1);
  const d = l - 2 * c + r;
  return d < 0 ? i + Math.max(-0.5, Math.min(0.5, (l - r) / (2 * d))) : i;
}

export function rms(samples: Float32Array): number {
  let sq = 0;
  for (let i = 0; i < samples.length; i++) sq += samples[i]! * samples[i]!;
  return Math.sqrt(sq / Math.max(1, samples.length));
}

/**
 * The offset of `other` against `reference` (both mono at SYNC_SAMPLE_RATE): seconds to add to
 * the other recording's time to reach the reference's. Null when no lag stands out clearly.
 */
export function estimateOffset(reference: Float32Array, other: Float32Array): OffsetEstimate {
  const a = onsetEnvelope(reference);
  const b = onsetEnvelope(other);
  const none = { offsetS: null, peakZ: 0, peakRatio: 0, refined: false };
  if (a.length < ENVELOPE_RATE * 2 || b.length < ENVELOPE_RATE * 2) return none;
  // Lags that leave at least 20 s in common (half the shorter recording when it is shorter).
  const minOverlap = Math.min(20 * ENVELOPE_RATE, Math.floor(Math.min(a.length, b.length) / 2));
  const first = -(b.length - minOverlap);
  const last = a.length - minOverlap;
  const corr = crossCorrelate(a, b);
  let best = first;
  for (let k = first; k <= last; k++) if (corr.at(k) > corr.at(best)) best = k;
  // The peak against the other lags: its z-score and its height over the best rival's.
  const exclude = Math.round(PEAK_HALF_WIDTH_S * ENVELOPE_RATE);
  let n = 0;
  let sum = 0;
  let sq = 0;
  let rival = -Infinity;
  for (let k = first; k <= last; k++) {
    if (Math.abs(k - best) <= exclude) continue;
    const v = corr.at(k);
    n++;
    sum += v;
    sq += v * v;
    if (v > rival) rival = v;
  }
  if (n < 10) return none;
  const mean = sum / n;
  const sd = Math.sqrt(Math.max(1e-12, sq / n - mean * mean));
  const peak = corr.at(best);
  const peakZ = (peak - mean) / sd;
  const peakRatio = (peak - mean) / Math.max(1e-12, rival - mean);
  if (peakZ < MIN_PEAK_Z || peakRatio < MIN_PEAK_RATIO) return { ...none, peakZ, peakRatio };
  const coarseS = parabolicPeak(corr.at, best) / ENVELOPE_RATE;
  const fine = refineOffset(reference, other, coarseS);
  return { offsetS: fine ?? coarseS, peakZ, peakRatio, refined: fine !== null };
}

/** 2^17 samples (about 16 s) of each recording where they overlap, for the fine look. */
const FINE_WINDOW = 1 << 17;
/** How far the fine look may move the envelope's offset. */
const FINE_SEARCH_S = 0.02;

/**
 * The offset to a fraction of a millisecond: the samples of a window where both recordings
 * overlap, correlated with the phase transform near `coarseS`. Null when its peak is not clear
 * (the microphones too far apart, one too noisy): the envelope's offset then stands.
 */
export function refineOffset(reference: Float32Array, other: Float32Array, coarseS: number): number | null {
  const lag = Math.round(coarseS * SYNC_SAMPLE_RATE);
  // The overlap in the other recording's samples: reference[i + lag] ~ other[i].
  const from = Math.max(0, -lag);
  const to = Math.min(other.length, reference.length - lag);
  if (to - from < SYNC_SAMPLE_RATE * 4) return null;
  const length = Math.min(FINE_WINDOW, to - from);
  const start = from + Math.floor((to - from - length) / 2);
  const b = other.subarray(start, start + length);
  const a = reference.subarray(start + lag, start + lag + length);
  const corr = crossCorrelate(a, b, { phat: true });
  const search = Math.round(FINE_SEARCH_S * SYNC_SAMPLE_RATE);
  let best = -search;
  for (let k = -search; k <= search; k++) if (corr.at(k) > corr.at(best)) best = k;
  // Clear: far above the correlation at lags well away from it (a few seconds either side).
  let sq = 0;
  let n = 0;
  for (let k = SYNC_SAMPLE_RATE; k < SYNC_SAMPLE_RATE * 3; k += 7) {
    sq += corr.at(k) ** 2 + corr.at(-k) ** 2;
    n += 2;
  }
  const noise = Math.sqrt(sq / n);
  if (corr.at(best) < noise * 8) return null;
  return (lag + parabolicPeak(corr.at, best)) / SYNC_SAMPLE_RATE;
}

/** A footage file's sound for syncing: null when it has no audio stream or only silence. */
export async function syncAudioOf(file: string): Promise<Float32Array | null> {
  // Read as the container its structure names, or refused (media/ffmpeg.ts videoInput).
  const samples = await decodeAudioMono(file, { sampleRate: SYNC_SAMPLE_RATE, maxSeconds: SYNC_MAX_SECONDS });
  return samples && samples.length >= SYNC_SAMPLE_RATE && rms(samples) >= SILENT_RMS ? samples : null;
}

export interface CameraSync {
  footageId: string;
  camera: string;
  syncOffsetS: number;
  syncSource: SyncSource;
  /** The envelope peak's z-score, when the file was compared with the reference. */
  peakZ?: number;
}

/** Milliseconds are plenty: a frame lasts 33. */
const toMs = (s: number) => Math.round(s * 1000) / 1000;

/**
 * Puts every camera of a game on the game's clock. The reference is the earliest-uploaded file
 * with sound (offset 0, or the admin's offset if one was set on it); every other file gets its
 * offset from the sound against it, unless an admin set one ('admin' is never overwritten).
 * Files without sound get 'no_audio', sound that matches nowhere clearly 'not_found', both with
 * offset 0 until an admin sets one. The same files give the same offsets: a re-run changes nothing.
 */
export async function syncGame(deps: Pick<AppDeps, 'db' | 'storage' | 'bus'>, gameId: string, opts: { heartbeat?: () => Promise<void> } = {}): Promise<CameraSync[]> {
  // A damaged file is left out: its sound cannot be read, and it must not become the reference.
  const files = (await deps.db.select().from(footage).where(eq(footage.gameId, gameId)).orderBy(asc(footage.createdAt), asc(footage.id))).filter((f) => !isDamagedFootage(f));
  if (!files.length) return [];
  // Read where it lies, one file at a time (in the bucket, only the first minutes' bytes).
  const soundOf = async (row: (typeof files)[number]) => {
    const stored = await openStoredVideo(deps.storage, row.sourceKey);
    if (!stored) throw new Error(`The footage ${row.id} is missing.`);
    try {
      return await syncAudioOf(stored.input);
    } finally {
      await stored.close();
      await opts.heartbeat?.();
    }
  };
  const results: CameraSync[] = [];
  let reference: { row: (typeof files)[number]; samples: Float32Array; offsetS: number } | null = null;
  for (const row of files) {
    const admin = row.syncSource === 'admin';
    // Before the reference is found every file is heard (the first with sound is it); after,
    // an admin's offset needs no listening.
    if (reference && admin) {
      results.push({ footageId: row.id, camera: row.camera, syncOffsetS: row.syncOffsetS, syncSource: 'admin' });
      continue;
    }
    const samples = await soundOf(row);
    if (!reference && samples) {
      reference = { row, samples, offsetS: admin ? row.syncOffsetS : 0 };
      results.push({ footageId: row.id, camera: row.camera, syncOffsetS: reference.offsetS, syncSource: admin ? 'admin' : 'reference' });
    } else if (admin) {
      results.push({ footageId: row.id, camera: row.camera, syncOffsetS: row.syncOffsetS, syncSource: 'admin' });
    } else if (!samples) {
      results.push({ footageId: row.id, camera: row.camera, syncOffsetS: 0, syncSource: 'no_audio' });
    } else {
      const estimate = estimateOffset(reference!.samples, samples);
      const found = estimate.offsetS !== null && Math.abs(reference!.offsetS + estimate.offsetS) <= MAX_OFFSET_S;
      results.push({
        footageId: row.id,
        camera: row.camera,
        syncOffsetS: found ? toMs(reference!.offsetS + estimate.offsetS!) : 0,
        syncSource: found ? 'audio' : 'not_found',
        peakZ: Math.round(estimate.peakZ * 10) / 10,
      });
    }
  }
  for (const result of results) {
    const row = files.find((f) => f.id === result.footageId)!;
    if (result.syncSource === 'admin' || (row.syncOffsetS === result.syncOffsetS && row.syncSource === result.syncSource)) continue;
    // An admin's offset saved while this ran stays.
    const [changed] = await deps.db
      .update(footage)
      .set({ syncOffsetS: result.syncOffsetS, syncSource: result.syncSource })
      .where(and(eq(footage.id, row.id), or(isNull(footage.syncSource), ne(footage.syncSource, 'admin'))))
      .returning({ id: footage.id });
    if (changed) await publishFootage(deps, row.eventId, row.id);
  }
  return results;
}

/** The 'footage.sync-game' job: sent when a file of the game is indexed and when an admin changes an offset. */
export function syncGameJob(deps: Pick<AppDeps, 'db' | 'storage' | 'bus'>): JobHandler<'footage.sync-game'> {
  return async ({ gameId }, ctx) => {
    const results = await syncGame(deps, gameId, { heartbeat: ctx.heartbeat });
    return results.length ? 'done' : 'skipped';
  };
}
