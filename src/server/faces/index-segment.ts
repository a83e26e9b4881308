// Indexes one stretch of one footage file, inside a face worker thread: ffmpeg hands over only the
// sampled frames (fps filter, no sound; only keyframes decoded when they suffice), the fast
// detector finds faces on each, the tracker links them, and a descriptor is computed only where
// it adds something: the first face of a track big enough to recognise, then a clearly better
// view at most every 2 s, 5 at most a track. Frames where a track simply continues cost one
// detection and nothing else.
import { spawn } from 'node:child_process';
import sharp from 'sharp';
import { videoInput } from '../media/ffmpeg';
import { planDecode, type DecodePlan } from './decode-plan';
import { faceDistance, type DetectedFace, type FaceEngine } from './engine';
import { cropRgb, expand, type RgbFrame } from '../vision/frames';
import { jerseyOf, readShirtUnder } from '../people/numbers';
import { shotChange, shotSignature, type ShotSignature } from './shot-cuts';
import { FaceTracker, iou, type Track, type TrackedFace } from './tracker';
import { LookRegions } from './look-regions';
import { insideShare, union, type Box } from '../vision/boxes';
import type { IndexSettings, Segment, SegmentPerson, SegmentResult, SegmentTrack } from './types';
import { PeopleInStretch } from '../people/stretch';

const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
/** A new descriptor farther than this from the track's is someone else: the track splits. */
const SPLIT_DISTANCE = 0.68;
/**
 * At a possible shot cut a track goes on only with a face that may be the same person: nearer
 * than matching's bar for an unsure sighting (matching.ts UNSURE_DISTANCE). Two calibration
 * people 0.64 apart were told apart across a mirrored room; one face 0.49 from itself went on.
 */
const CUT_CHECK_DISTANCE = 0.6;

/** Quality of a face: its size, then (once described) its sharpness and how frontal it is. */
function qualityOf(h: number, score: number, described?: { sharpness: number; frontalness: number }) {
  const size = Math.min(1, h / 160);
  const look = described ? (0.4 + 0.6 * described.sharpness) * (0.4 + 0.6 * described.frontalness) : 0.5;
  return Math.round(size * score * look * 1000) / 1000;
}

/**
 * ffmpeg exited with an error while decoding a stretch whole. The file was read from this disk,
 * so reading it again gives the same error: the job fails for good (indexing.ts).
 */
export class FootageDecodeError extends Error {
  constructor(detail: string) {
    super(`ffmpeg could not decode the footage: ${detail}`);
    this.name = 'FootageDecodeError';
  }
}

/** The decoding was stopped from outside (a sibling stretch failed): nothing to report. */
export class DecodeStoppedError extends Error {
  constructor() {
    super('The decoding was stopped.');
    this.name = 'DecodeStoppedError';
  }
}

export interface FrameOptions {
  signal?: AbortSignal;
  /** The plan was refused or came out short, and the stretch is decoded whole instead. */
  onFallback?: (reason: string) => void;
}

/**
 * The stretch's sampled frames as RGB, one per sample from its start (exported for the tests).
 *
 * Keyframes farther apart than the samples: each keyframe and the frames after it only up to
 * the last sample it serves (decode-plan.ts): the same samples, pixel for pixel; with a keyframe
 * every 2 s, 46 frames in 60. Frames nothing refers to are skipped as well where the file
 * allows it (a sample then lands at most 1/15 s early). Measured on 5 min of 1080p30 with a
 * keyframe every 2 s: 5.0× real time (3.4× with the pieces alone, 3.1× decoding every frame;
 * ffmpeg's own full decode of the file 3.9× in the same run): docs/decisions/0014.
 *
 * The plan never costs the file (docs/decisions/0030): when ffmpeg refuses it, or it gives fewer
 * samples than the file holds, the stretch is decoded whole from its start and the samples
 * already handed over are skipped, so the caller sees one unbroken run of samples.
 */
export async function* frames(segment: Segment, sampleFps: number, options: FrameOptions = {}): AsyncGenerator<RgbFrame> {
  const input = await videoInput(segment.file);
  const plan = segment.keyframesOnly || segment.everyFrame ? null : await planDecode(input, segment.startS, segment.endS, sampleFps).catch(() => null);
  let handedOver = 0;
  if (plan) {
    let reason: string;
    try {
      for await (const frame of decodeSamples(segment, sampleFps, input, plan, options.signal)) {
        handedOver++;
        yield frame;
        if (handedOver >= plan.maxSamples) return;
      }
      if (handedOver >= plan.samples) return;
      reason = `the plan gave ${handedOver} of ${plan.samples} samples`;
    } catch (error) {
      if (!(error instanceof FootageDecodeError)) throw error;
      reason = `ffmpeg refused the plan: ${error.message}`;
    }
    options.onFallback?.(reason);
  }
  let skip = handedOver;
  for await (const frame of decodeSamples(segment, sampleFps, input, null, options.signal)) {
    if (skip > 0) skip--;
    else yield frame;
  }
}

/** Frames decoded ahead of the face work, at most this many a stretch (6 MB each at 1080p). */
const READ_AHEAD_FRAMES = 4;

/**
 * Whole frames cut from a pipe of raw frames, read up to READ_AHEAD_FRAMES ahead of the reader.
 * A frame handed out is the reader's until it asks for the next one; its buffer is then filled
 * again (a new 6 MB buffer a sample cost the indexer a tenth of its time in garbage collection).
 */
class FrameReadAhead {
  private readonly ready: Uint8Array[] = [];
  private readonly spare: Uint8Array[] = [];
  private lent: Uint8Array | null = null;
  private frame: Uint8Array;
  private filled = 0;
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly pipe: NodeJS.ReadableStream,
    private readonly size: number,
  ) {
    this.frame = new Uint8Array(size);
    pipe.on('data', (chunk: Buffer) => this.take(chunk));
    pipe.on('end', () => this.finish(null));
    pipe.on('error', (error: Error) => this.finish(error));
  }

  /** The next whole frame, or null once the pipe has ended (a part frame at its end is dropped). */
  async next(): Promise<Uint8Array | null> {
    if (this.lent) this.spare.push(this.lent);
    this.lent = null;
    for (;;) {
      if (this.ready.length) {
        this.lent = this.ready.shift()!;
        if (this.pipe.isPaused() && !this.ended) this.pipe.resume();
        return this.lent;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private take(chunk: Buffer) {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(this.size - this.filled, chunk.length - offset);
      this.frame.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === this.size) {
        this.ready.push(this.frame);
        this.frame = this.spare.pop() ?? new Uint8Array(this.size);
        this.filled = 0;
      }
    }
    if (this.ready.length >= READ_AHEAD_FRAMES) this.pipe.pause();
    this.wakeReader();
  }

  private finish(error: Error | null) {
    this.ended = true;
    this.failure = error;
    this.wakeReader();
  }

  private wakeReader() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/** One ffmpeg run giving the stretch's samples: through the plan's pieces, or decoding it whole. */
async function* decodeSamples(segment: Segment, sampleFps: number, input: string[], plan: DecodePlan | null, signal?: AbortSignal): AsyncGenerator<RgbFrame> {
  if (signal?.aborted) throw new DecodeStoppedError();
  const size = segment.width * segment.height * 3;
  const args = ['-v', 'error', '-nostdin', '-threads', '1'];
  // Decoding every frame costs more than half a core per second of 1080p footage; keyframes
  // alone cost a small part of that, and the fps filter below still picks one per sample.
  if (segment.keyframesOnly) args.push('-skip_frame', 'nokey');
  if (segment.skipNonReference && !segment.keyframesOnly) args.push('-skip_frame', 'noref');
  if (plan) args.push(...plan.args, '-an', '-sn', '-dn');
  else {
    // Without an exact seek the frames from the keyframe before the start come out too (times
    // below 0), so the first sample takes the last frame at or before it, as a decode from the
    // file's start would (an exact seek drops that frame and takes the next).
    if (segment.startS > 0) args.push('-ss', String(segment.startS), '-noaccurate_seek');
    args.push(...input, '-t', String(segment.endS - segment.startS), '-an', '-sn', '-dn');
  }
  // round=up takes the frame at each sample's time (the default takes one up to half a sample
  // later). Keyframes alone take the keyframe nearest the sample's time: a camera at 29.97 fps
  // with a keyframe every 15 frames puts each one a frame or more after its sample's time, and
  // rounding up would hand every sample the keyframe half a second before it (the boxes of a
  // player running, and the clips, half a second out). eof_action=pass keeps the last one.
  const rounding = segment.keyframesOnly ? 'near' : 'up';
  // The file's first video stream, as the probe and the plan read it: left to itself ffmpeg takes
  // the one with the most pixels, which can be a cover picture stored beside the video.
  args.push('-map', '0:V:0', '-vf', `fps=${sampleFps}:start_time=0:round=${rounding}:eof_action=pass,scale=${segment.width}:${segment.height}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1');
  const child = spawn(FFMPEG, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const stop = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', stop, { once: true });
  child.stdin.on('error', () => {}); // ffmpeg gone before reading it: its exit code says why
  child.stdin.end(plan?.script ?? '');
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
  // Each frame is copied once, chunk by chunk, into a whole-frame buffer (joining the pipe's 64 KB
  // chunks one by one copied a 6 MB frame about fifty times over). The pipe is read ahead of the
  // face work by a few frames: read only when asked, ffmpeg stopped at each sample until the last
  // one's faces were done, and a full look's hundred milliseconds were a hundred milliseconds of
  // the core left idle. Each frame is the caller's until it asks for the next (its buffer is
  // used again then).
  const ahead = new FrameReadAhead(child.stdout, size);
  try {
    for (let frame = await ahead.next(); frame; frame = await ahead.next()) yield { data: frame, width: segment.width, height: segment.height };
    const end = await exited;
    if (signal?.aborted) throw new DecodeStoppedError();
    const detail = stderr.trim().split('\n').slice(-2).join(' / ');
    // Killed from outside (memory, a shutdown): another try may go through.
    if (end.signal) throw new Error(`ffmpeg was stopped (${end.signal}) while decoding the footage`);
    if (end.code !== 0) throw new FootageDecodeError(detail || `exit code ${end.code}`);
  } finally {
    signal?.removeEventListener('abort', stop);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** How much the full look shrinks a frame: its long side becomes the detector size. */
function detectScale(frame: { width: number; height: number }, settings: IndexSettings) {
  return Math.min(1, settings.detectInputSize / Math.max(frame.width, frame.height));
}

/**
 * The net finds faces best when they are about 30 to 130 of its pixels high: the fine look that
 * finds small faces misses some big ones, so every other full look also looks at half that scale
 * (a third of the fine look's time) and keeps the better of overlapping boxes. A big face, once
 * found, is followed at its own scale in between.
 */
async function detectWhole(engine: FaceEngine, frame: RgbFrame, settings: IndexSettings, coarse: boolean): Promise<DetectedFace[]> {
  const scale = detectScale(frame, settings);
  return engine.detectFast(frame, coarse ? [scale, scale / 2] : [scale], settings.minDetectScore);
}

/**
 * A full look at the parts of the frame that changed since they were last searched, at the whole
 * look's scales, and around the live tracks elsewhere (look-regions.ts): a face that kept still
 * is followed as between full looks, a face that came or turned is found as by a whole look.
 */
async function detectChanged(engine: FaceEngine, frame: RgbFrame, regions: Box[], live: Track[], settings: IndexSettings, coarse: boolean): Promise<DetectedFace[]> {
  const scale = detectScale(frame, settings);
  const found: DetectedFace[] = [];
  // A region that cuts through a followed face takes all of it in, with room around: a big face
  // whose edge moved is searched whole, not in part.
  const lastFaces = live.map((track) => track.faces.at(-1)!);
  const grown = regions.map((region) => lastFaces.filter((face) => insideShare(face, region) > 0).reduce((r, face) => union(r, expand(face, 0.5, frame)), region));
  for (const region of grown) {
    const faces = await engine.detectFast(cropRgb(frame, region), coarse ? [scale, scale / 2] : [scale], settings.minDetectScore);
    for (const f of faces) {
      const face = { ...f, x: f.x + region.x, y: f.y + region.y };
      // Two regions grown over one followed face both see it: keep it once.
      if (!found.some((g) => iou(g, face) > 0.5)) found.push(face);
    }
  }
  const elsewhere = live.filter((track) => !grown.some((region) => insideShare(track.faces.at(-1)!, region) > 0.5));
  for (const face of await detectAround(engine, frame, elsewhere, settings)) if (!found.some((g) => iou(g, face) > 0.5)) found.push(face);
  return found;
}

/** A followed face is looked for at about this height in the detector's pixels. */
const FOLLOW_FACE_PX = 80;

/** Faces near the live tracks' last boxes, found in small crops, each at a scale fit for its face. */
async function detectAround(engine: FaceEngine, frame: RgbFrame, live: Track[], settings: IndexSettings): Promise<DetectedFace[]> {
  const found: DetectedFace[] = [];
  for (const track of live) {
    const last = track.faces.at(-1)!;
    const region = expand(last, 1, frame);
    // Never below the net's smallest useful input (64 px).
    const scale = Math.max(Math.min(1, FOLLOW_FACE_PX / last.h), 64 / Math.max(region.w, region.h));
    const faces = await engine.detectFast(cropRgb(frame, region), [scale], settings.minDetectScore);
    for (const f of faces) {
      const face = { ...f, x: f.x + region.x, y: f.y + region.y };
      // Two tracks close together see the same face: keep it once.
      if (!found.some((g) => iou(g, face) > 0.5)) found.push(face);
    }
  }
  return found;
}

export async function indexSegment(
  engine: FaceEngine,
  segment: Segment,
  settings: IndexSettings,
  onProgress: (seconds: number) => void,
  signal?: AbortSignal,
): Promise<SegmentResult> {
  const tracker = new FaceTracker(settings.maxGapS);
  const crops = new Map<Track, RgbFrame>();
  const stats = { frames: 0, faces: 0, descriptors: 0, detectMs: 0, describeMs: 0, fullLooks: 0, fullLookMs: 0, fullLookShare: 0, followLooks: 0, people: 0, peopleMs: 0, numberReads: 0, numberMs: 0, shirtLooks: 0, shirtMs: 0 };
  const people = settings.people ? new PeopleInStretch(settings.people) : null;
  const shotCuts: number[] = [];
  const lookRegions = new LookRegions();
  let previousSignature: ShotSignature | null = null;
  let cutJustNow = false;
  let index = 0;
  let lastReport = 0;
  let planFallback: string | undefined;
  const onFallback = (reason: string) => (planFallback = reason);
  for await (const frame of frames(segment, settings.sampleFps, { signal, onFallback })) {
    const t = Math.round((segment.startS + index / settings.sampleFps) * 1000) / 1000;
    index++;
    if (t >= segment.endS) break;
    // A shot cut ends every track: a face on the other side of it is a new sighting, even when
    // someone else stands where the athlete stood.
    const signature = shotSignature(frame);
    const change = previousSignature === null ? 'same' : shotChange(previousSignature, signature);
    previousSignature = signature;
    cutJustNow = change === 'cut';
    // At a possible cut a track goes on only where its face is described again and is the same
    // person. Clips end at both kinds: past the athlete's last sighting, a clip that stops at a
    // camera's fast move loses little, one that runs on into another shot shows someone else.
    const checkPeople = change === 'maybe';
    if (change !== 'same') shotCuts.push(t);
    if (cutJustNow) tracker.endAll();
    let started = performance.now();
    // Between full looks a sample only looks where live tracks are: a face that keeps going is
    // found in a small crop around its last box, and a new face waits for the next full look.
    const live = tracker.tracks.filter((tr) => !tr.ended && t - tr.faces.at(-1)!.t <= settings.maxGapS);
    const fullLook = (index - 1) % settings.fullLookEvery === 0 || cutJustNow || checkPeople;
    const coarse = stats.fullLooks % 2 === 0;
    const look = fullLook ? lookRegions.plan(signature, frame, change !== 'same') : null;
    const detected = (
      look === null
        ? await detectAround(engine, frame, live, settings)
        : look.regions === null
          ? await detectWhole(engine, frame, settings, coarse)
          : await detectChanged(engine, frame, look.regions, live, settings, coarse)
    ).filter((f) => f.h >= settings.minFacePx);
    if (look) {
      stats.fullLooks++;
      stats.fullLookMs += performance.now() - started;
      stats.fullLookShare += look.share;
    } else stats.followLooks += live.length;
    stats.detectMs += performance.now() - started;
    stats.frames++;
    stats.faces += detected.length;
    const faces: TrackedFace[] = detected.map((f) => ({ ...f, t, quality: qualityOf(f.h, f.score) }));
    const tracks = tracker.step(t, faces);
    started = performance.now();
    for (let i = 0; i < faces.length; i++) {
      let track = tracks[i]!;
      const face = faces[i]!;
      const continued = track.faces.length > 1;
      if (checkPeople && continued && (face.h < settings.minEmbedPx || track.descriptors.length === 0)) {
        // Nothing to tell the person by: a new sighting, as after a cut.
        tracks[i] = track = tracker.split(track);
      }
      const wanted =
        face.h >= settings.minEmbedPx &&
        (track.descriptors.length === 0 ||
          (checkPeople && continued) ||
          (track.descriptors.length < 5 && t - track.lastDescribedT >= 2 && face.quality > track.describedQuality * 1.2));
      if (!wanted) continue;
      const described = await engine.describe(frame, face);
      stats.descriptors++;
      face.quality = qualityOf(face.h, face.score, described);
      const bar = checkPeople && continued ? CUT_CHECK_DISTANCE : SPLIT_DISTANCE;
      if (track.descriptors.length && Math.min(...track.descriptors.map((d) => faceDistance(d, described.descriptor))) > bar) {
        tracks[i] = track = tracker.split(track);
      }
      // A check at a possible cut keeps the track's five descriptors and shirt reads as they were.
      if (track.descriptors.length >= 5) continue;
      track.descriptors.push(described.descriptor);
      // The shirt is read where the face is described (at most 5 times a track), while reading it
      // again can still tell something.
      const shirtStarted = performance.now();
      if (await readShirtUnder(track, frame, face)) {
        stats.shirtLooks++;
        stats.shirtMs += performance.now() - shirtStarted;
      }
      track.describedQuality = Math.max(track.describedQuality, face.quality);
      track.lastDescribedT = t;
      if (track.best.quality <= face.quality) track.best = face;
    }
    stats.describeMs += performance.now() - started;
    // People are tracked within a shot: a possible cut ends their tracks too.
    await people?.sample(frame, t, change !== 'same', faces.map((face, i) => ({ box: face, track: tracks[i] })));
    // The crop of each track's best face, cut now while the frame is here.
    for (const track of new Set(tracks)) if (track.best.t === t) crops.set(track, cropRgb(frame, expand(track.best, 0.25, frame)));
    if (t - lastReport >= 2) {
      lastReport = t;
      onProgress(t - segment.startS);
    }
  }
  const result: SegmentTrack[] = [];
  const indexOf = new Map<Track, number>();
  for (const track of tracker.tracks) {
    if (!track.faces.length) continue;
    indexOf.set(track, result.length);
    const crop = crops.get(track);
    const thumbnail = crop
      ? await sharp(Buffer.from(crop.data), { raw: { width: crop.width, height: crop.height, channels: 3 } })
          .resize({ height: 160, width: 160, fit: 'cover' })
          .jpeg({ quality: 80 })
          .toBuffer()
      : null;
    result.push({
      startS: track.faces[0]!.t,
      endS: track.faces.at(-1)!.t,
      best: track.best,
      faceHeight: Math.round(Math.max(...track.faces.map((f) => f.h))),
      descriptors: track.descriptors.map((d) => Array.from(d)),
      jerseyNumber: jerseyOf(track.jerseyReads),
      thumbnail,
      faces: track.faces,
    });
  }
  const persons: SegmentPerson[] = (people?.result() ?? []).map((person) => ({
    ...person,
    faceTracks: person.faceTracks.flatMap((track) => (indexOf.has(track as Track) ? [indexOf.get(track as Track)!] : [])),
  }));
  if (people) Object.assign(stats, people.stats);
  return { tracks: result, shotCuts, stats, people: persons, ...(planFallback ? { planFallback } : {}) };
}
