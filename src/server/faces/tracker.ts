// Links the faces of consecutive samples into tracks: one person's continuous presence in one
// camera. A face joins the live track whose last box it overlaps most (IoU), or whose last box is
// close for its size (a player running); a track not seen for longer than maxGapS ends. The
// indexer splits a track when a new descriptor says it is someone else (two players crossing).
import type { Box, DetectedFace } from './engine';
import type { JerseyRead } from '../people/numbers';
import { iou } from '../vision/boxes';

export { iou };

export interface TrackedFace extends DetectedFace {
  t: number;
  quality: number;
}

export interface Track {
  faces: TrackedFace[];
  descriptors: Float32Array[];
  /** Quality of the best face that has a descriptor, and when the last descriptor was taken. */
  describedQuality: number;
  lastDescribedT: number;
  best: TrackedFace;
  /** A JPEG-ready crop of the best face, kept by the indexer. */
  bestCrop?: unknown;
  /** Numbers read on the shirt under the face at described faces, and the looks that read none (people/numbers.ts). */
  jerseyReads: JerseyRead[];
  shirtMisses: number;
  shirtLookedPx: number;
  ended: boolean;
}


/** 0-1 affinity of a face to a track's last box: overlap, or nearness relative to the face size. */
function affinity(last: Box, face: Box): number {
  const overlap = iou(last, face);
  if (overlap > 0) return 0.5 + overlap / 2;
  const dx = last.x + last.w / 2 - (face.x + face.w / 2);
  const dy = last.y + last.h / 2 - (face.y + face.h / 2);
  const reach = Math.max(last.h, face.h) * 1.2;
  const sizeRatio = Math.min(last.h, face.h) / Math.max(last.h, face.h);
  const distance = Math.hypot(dx, dy);
  return distance < reach && sizeRatio > 0.6 ? 0.5 * (1 - distance / reach) : 0;
}

export class FaceTracker {
  readonly tracks: Track[] = [];
  constructor(private readonly maxGapS: number) {}

  /** Assigns the faces of the sample at time t; returns, per face, its track. */
  step(t: number, faces: TrackedFace[]): Track[] {
    const live = this.tracks.filter((track) => !track.ended);
    for (const track of live) if (t - track.faces.at(-1)!.t > this.maxGapS) track.ended = true;
    const candidates: Array<{ track: Track; face: number; score: number }> = [];
    for (const track of live) {
      if (track.ended) continue;
      const last = track.faces.at(-1)!;
      if (last.t === t) continue;
      faces.forEach((face, i) => {
        const score = affinity(last, face);
        if (score > 0) candidates.push({ track, face: i, score });
      });
    }
    candidates.sort((a, b) => b.score - a.score);
    const assigned = new Array<Track | undefined>(faces.length);
    const taken = new Set<Track>();
    for (const c of candidates) {
      if (assigned[c.face] || taken.has(c.track)) continue;
      assigned[c.face] = c.track;
      taken.add(c.track);
    }
    return faces.map((face, i) => {
      const track = assigned[i] ?? this.start();
      this.add(track, face);
      return track;
    });
  }

  /** Ends every live track (at a shot cut). */
  endAll() {
    for (const track of this.tracks) track.ended = true;
  }

  /** Moves a face (the last one added to `from`) into a new track of its own. */
  split(from: Track): Track {
    const face = from.faces.pop()!;
    if (from.best === face) from.best = from.faces.reduce((a, b) => (b.quality > a.quality ? b : a));
    from.ended = true;
    const track = this.start();
    this.add(track, face);
    return track;
  }

  private start(): Track {
    const track: Track = { faces: [], descriptors: [], jerseyReads: [], shirtMisses: 0, shirtLookedPx: 0, describedQuality: 0, lastDescribedT: -Infinity, best: undefined as unknown as TrackedFace, ended: false };
    this.tracks.push(track);
    return track;
  }

  private add(track: Track, face: TrackedFace) {
    track.faces.push(face);
    if (!track.best || face.quality > track.best.quality) track.best = face;
  }
}
