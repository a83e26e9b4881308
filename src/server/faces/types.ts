// What crosses between the face worker threads and the server: plain, cloneable data.
import type { PersonSettings, StretchPerson } from '../people/stretch';
import type { TrackedFace } from './tracker';

export interface IndexSettings {
  /** Frames sampled per second of footage. */
  sampleFps: number;
  /** The frame's long side as the fast detector sees it, pixels: larger finds smaller faces, slower. */
  detectInputSize: number;
  minDetectScore: number;
  /** Faces smaller than this (pixels high) are ignored. */
  minFacePx: number;
  /** Faces smaller than this get no descriptor: too small to recognise. */
  minEmbedPx: number;
  /** A track not seen for longer than this ends. */
  maxGapS: number;
  /** One sample in this many is searched whole; the others look only around live tracks (see index-segment.ts). */
  fullLookEvery: number;
  /** People are detected and tracked on every sample too (people/stretch.ts); null: faces only. */
  people: PersonSettings | null;
}

/** One stretch of one footage file, indexed by one face thread. */
export interface Segment {
  file: string;
  startS: number;
  endS: number;
  width: number;
  height: number;
  /**
   * The file has a keyframe at least every sample: only keyframes are decoded, the frames
   * between them are skipped unread (see indexing.ts).
   */
  keyframesOnly?: boolean;
  /**
   * Otherwise each keyframe is decoded with the frames after it only up to the last sample it
   * serves (decode-plan.ts): the same samples for a part of the decoding. `everyFrame` decodes the
   * stretch whole instead (the reference the bench and tests compare with).
   */
  everyFrame?: boolean;
  /**
   * Frames no other frame refers to are skipped too; set when the file was checked to keep a
   * decoded frame within 1/15 s before every sample (indexing.ts `decodeChoice`).
   */
  skipNonReference?: boolean;
}

export interface SegmentTrack {
  startS: number;
  endS: number;
  best: TrackedFace;
  faceHeight: number;
  descriptors: number[][];
  /** The number read on the shirt under the face, when its readings agreed (faces/jersey.ts). */
  jerseyNumber: number | null;
  thumbnail: Buffer | Uint8Array | null;
  faces: TrackedFace[];
}

export interface SegmentStats {
  frames: number;
  faces: number;
  descriptors: number;
  detectMs: number;
  describeMs: number;
  /** Samples searched whole (the others only around live tracks), and their share of detectMs. */
  fullLooks: number;
  fullLookMs: number;
  /** Full looks' searched share of the frame, summed (a look at the whole frame counts 1: look-regions.ts). */
  fullLookShare: number;
  /** Regions looked at around live tracks, between full looks. */
  followLooks: number;
  /** People found, and the time spent finding and tracking them (and, of that, reading their numbers). */
  people: number;
  peopleMs: number;
  numberReads: number;
  numberMs: number;
  /** Shirts under described faces looked at for a number, and the time that took (part of describeMs). */
  shirtLooks: number;
  shirtMs: number;
}

/** A person's track in a stretch; `faceTracks` are indexes into the stretch's face tracks. */
export interface SegmentPerson extends Omit<StretchPerson, 'faceTracks'> {
  faceTracks: number[];
}

export interface SegmentResult {
  tracks: SegmentTrack[];
  /** Times of the samples right after a shot cut (index-segment.ts). */
  shotCuts: number[];
  stats: SegmentStats;
  /** Why the decode plan was given up for decoding the stretch whole, when it was. */
  planFallback?: string;
  /** The people of the stretch (empty when settings.people is null). */
  people: SegmentPerson[];
}

/** A face found on a photo, with what the reference checks need. */
export interface PhotoFace {
  box: { x: number; y: number; w: number; h: number };
  score: number;
  sharpness: number;
  frontalness: number;
  descriptor: number[];
}

export type WorkerTask =
  | { op: 'index-segment'; segment: Segment; settings: IndexSettings }
  | { op: 'analyze-photo'; rgb: Uint8Array; width: number; height: number };

/**
 * Why a task failed, when it matters to the caller: `undecodable`, ffmpeg could not decode the
 * file whole (reading it again gives the same); `stopped`, the caller stopped it.
 */
export type FaceTaskFailure = 'undecodable' | 'stopped';
