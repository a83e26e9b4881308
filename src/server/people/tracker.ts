// Stage "track": links the people of consecutive samples of one camera into tracks, one person's
// continuous presence within one shot. Written after ByteTrack (Zhang et al., 2022) and OC-SORT
// (Cao et al., 2023), small enough to read whole:
// - each live track predicts where its person is now from its recent motion (a constant velocity,
//   smoothed), so two players crossing each keep their own track;
// - confident boxes are matched to tracks first; boxes the detector was unsure of (a player half
//   hidden behind another), and a player's upper body found apart from their whole box, only carry
//   on a track that lost its box, never start one;
// - a track missing for up to maxGapS (hidden, or missed) takes up its person again where the
//   prediction says; after that it ends;
// - a player who stops or turns leaves their prediction behind: a track that no box matched looks
//   again where its person was last seen (OC-SORT's observation-centric recovery);
// - a camera that pans moves everyone at once: the shift that most people's boxes agree on
//   between two samples is the camera's, and every prediction moves with it (the people's own
//   motion is kept apart from the camera's); a zoom is no shift and is not modelled;
// - at a shot cut every track ends: the same place on screen is someone else after a cut.
import { iou, type Box, type ScoredBox } from '../vision/boxes';

export interface PersonTrackerSettings {
  /** Boxes scoring at least this are matched first and may start a track. */
  highScore: number;
  /** A track not matched for longer than this (seconds) ends. */
  maxGapS: number;
}

export interface TrackedBox extends ScoredBox {
  t: number;
}

export interface PersonTrack {
  id: number;
  boxes: TrackedBox[];
  /** Pixels per second of the box's centre on the ground (the camera's motion taken out), smoothed over the last moves. */
  vx: number;
  vy: number;
  /** Where the camera had moved the picture by (PersonTracker.camera) at the track's last box. */
  cameraAtLast: { x: number; y: number };
  ended: boolean;
}

/** The least overlap of a predicted box with a box for the two to be the same person. */
const MATCH_IOU = 0.2;
/** A box the detector was unsure of must overlap this much. */
const UNSURE_MATCH_IOU = 0.4;
/**
 * Without overlap, a box whose centre is this many of its heights from the prediction (and of a
 * like size) may still be the person: a track's second box, before it has a motion, or a far
 * player running further than their width between samples. Ranked after every overlap.
 */
const REACH_HEIGHTS_NEW = 1.5;
const REACH_HEIGHTS = 0.6;
const LIKE_SIZE = 0.7;
/** Weight of the newest move in the smoothed velocity. */
const VELOCITY_WEIGHT = 0.5;
/**
 * The camera moved when at least CAMERA_MIN_PEOPLE of the people seen at the last sample, and
 * more than stay where they were, have a box of like size within CAMERA_AGREE_HEIGHTS of their
 * height from where that shift puts them.
 */
const CAMERA_MIN_PEOPLE = 3;
const CAMERA_AGREE_HEIGHTS = 0.25;
/**
 * ...and no camera moves the picture more than this many of a player's heights a second: on the
 * person bench's tune clip the fastest pan was 5.2 a second, while a shift three players agreed
 * on by chance, carrying tracks onto strangers a thousand pixels off, was 21.
 */
const CAMERA_MAX_PAN_HEIGHTS_S = 12;
/**
 * An upper body found apart from its person's whole box is at most UPPER_BODY_HEIGHT of the
 * whole's height (head to hips is about half), and its top lies between UPPER_BODY_ABOVE of that
 * height above the whole's top and UPPER_BODY_BELOW below it. Two people side by side are of a
 * height; a taller person standing behind a seated one reaches well above them.
 */
const UPPER_BODY_HEIGHT = 0.7;
const UPPER_BODY_ABOVE = 0.1;
const UPPER_BODY_BELOW = 0.25;

/** Whether `part` is the upper body of `whole`'s person, found apart by the detector: a much shorter box, its centre inside the whole's, its top at the whole's. */
export function upperBodyOf(part: Box, whole: Box): boolean {
  const [cx, cy] = [part.x + part.w / 2, part.y + part.h / 2];
  const inside = cx >= whole.x && cx <= whole.x + whole.w && cy >= whole.y && cy <= whole.y + whole.h;
  const top = (part.y - whole.y) / whole.h;
  return inside && part.h <= UPPER_BODY_HEIGHT * whole.h && top >= -UPPER_BODY_ABOVE && top <= UPPER_BODY_BELOW;
}

export class PersonTracker {
  readonly tracks: PersonTrack[] = [];
  /** How far the camera has moved the picture since the shot began, pixels. */
  camera = { x: 0, y: 0 };
  private nextId = 1;
  private lastT: number | null = null;

  constructor(private readonly settings: PersonTrackerSettings) {}

  /** Where a track's person is predicted to be at time t: where they were last seen, moved by their own motion since. */
  predict(track: PersonTrack, t: number): Box {
    const seen = this.lastSeen(track);
    const dt = t - track.boxes.at(-1)!.t;
    return { ...seen, x: seen.x + track.vx * dt, y: seen.y + track.vy * dt };
  }

  /** Where a track's person was last seen, moved as the camera has moved the picture since: their own motion left out. */
  private lastSeen(track: PersonTrack): Box {
    const last = track.boxes.at(-1)!;
    return { x: last.x + this.camera.x - track.cameraAtLast.x, y: last.y + this.camera.y - track.cameraAtLast.y, w: last.w, h: last.h };
  }

  /** Assigns the boxes of the sample at time t; returns, per box, its track (undefined: left out). */
  step(t: number, boxes: ScoredBox[]): Array<PersonTrack | undefined> {
    for (const track of this.live()) if (t - track.boxes.at(-1)!.t > this.settings.maxGapS) track.ended = true;
    const live = this.live();
    const shift = this.cameraShift(t, live, boxes);
    this.camera = { x: this.camera.x + shift.x, y: this.camera.y + shift.y };
    this.lastT = t;
    const assigned = new Array<PersonTrack | undefined>(boxes.length);
    const confident = (box: ScoredBox) => box.score >= this.settings.highScore;
    // A confident box that is the upper body of another is the same player found twice: as a track
    // of its own it takes over the player's whole box whenever their prediction runs ahead of them.
    const isSure = boxes.map((box) => confident(box) && !boxes.some((whole) => whole !== box && confident(whole) && upperBodyOf(box, whole)));
    const sure = boxes.map((b, i) => i).filter((i) => isSure[i]);
    const unsure = boxes.map((b, i) => i).filter((i) => !isSure[i]);
    const free = new Set(live);
    // Tracks seen at the last sample first: a track that has been lost a while is the less sure guess.
    const recentFirst = [...live].sort((a, b) => b.boxes.at(-1)!.t - a.boxes.at(-1)!.t);
    this.match(t, recentFirst, sure, boxes, assigned, free, MATCH_IOU, true);
    this.match(t, [...free], sure, boxes, assigned, free, MATCH_IOU, false, (track) => this.lastSeen(track));
    this.match(t, [...free], unsure, boxes, assigned, free, UNSURE_MATCH_IOU, false);
    for (const i of sure) assigned[i] ??= this.start();
    boxes.forEach((box, i) => {
      const track = assigned[i];
      if (track) this.add(track, { ...box, t });
    });
    return assigned;
  }

  /** Ends every live track (at a shot cut). */
  endAll() {
    for (const track of this.tracks) track.ended = true;
  }

  /**
   * The camera's move since the last sample: of the shifts that carry one person seen then onto a
   * box of like size now, the one most of them agree on, if it beats standing still.
   */
  private cameraShift(t: number, live: PersonTrack[], boxes: ScoredBox[]): { x: number; y: number } {
    const none = { x: 0, y: 0 };
    const seen = live.filter((track) => track.boxes.at(-1)!.t === this.lastT).map((track) => this.predict(track, t));
    if (seen.length < CAMERA_MIN_PEOPLE || boxes.length < CAMERA_MIN_PEOPLE) return none;
    const centre = (b: Box) => [b.x + b.w / 2, b.y + b.h / 2] as const;
    const like = (a: Box, b: Box) => Math.min(a.h, b.h) / Math.max(a.h, b.h) >= LIKE_SIZE;
    const support = (dx: number, dy: number) => {
      let agree = 0;
      for (const p of seen) {
        const [px, py] = centre(p);
        if (boxes.some((b) => like(p, b) && Math.hypot(centre(b)[0] - px - dx, centre(b)[1] - py - dy) < CAMERA_AGREE_HEIGHTS * p.h)) agree++;
      }
      return agree;
    };
    const still = support(0, 0);
    let best = { x: 0, y: 0, agree: still };
    const dt = t - (this.lastT ?? t);
    for (const p of seen) {
      for (const b of boxes) {
        if (!like(p, b)) continue;
        const [dx, dy] = [centre(b)[0] - centre(p)[0], centre(b)[1] - centre(p)[1]];
        // Farther than a camera pans: three of a crowd of players line up with some shift by chance.
        if (Math.hypot(dx, dy) > CAMERA_MAX_PAN_HEIGHTS_S * p.h * dt) continue;
        const agree = support(dx, dy);
        if (agree > best.agree) best = { x: dx, y: dy, agree };
      }
    }
    return best.agree >= CAMERA_MIN_PEOPLE && best.agree > still ? { x: best.x, y: best.y } : none;
  }

  private live() {
    return this.tracks.filter((track) => !track.ended);
  }

  /**
   * Greedy matching of the boxes not yet assigned, by affinity to where each track's person is
   * looked for (`expected`: the prediction, unless given), best pairs first; `byNearness`: without
   * overlap too.
   */
  private match(
    t: number,
    tracks: PersonTrack[],
    indexes: number[],
    boxes: ScoredBox[],
    assigned: Array<PersonTrack | undefined>,
    free: Set<PersonTrack>,
    least: number,
    byNearness: boolean,
    expected: (track: PersonTrack) => Box = (track) => this.predict(track, t),
  ) {
    const pairs: Array<{ track: PersonTrack; box: number; overlap: number }> = [];
    for (const track of tracks) {
      if (!free.has(track)) continue;
      const lookedFor = expected(track);
      const reach = !byNearness ? 0 : track.boxes.length === 1 ? REACH_HEIGHTS_NEW : REACH_HEIGHTS;
      for (const i of indexes) {
        if (assigned[i]) continue;
        const overlap = affinity(lookedFor, boxes[i]!, least, reach);
        if (overlap > 0) pairs.push({ track, box: i, overlap });
      }
    }
    pairs.sort((a, b) => b.overlap - a.overlap);
    for (const pair of pairs) {
      if (assigned[pair.box] || !free.has(pair.track)) continue;
      assigned[pair.box] = pair.track;
      free.delete(pair.track);
    }
  }

  private start(): PersonTrack {
    const track: PersonTrack = { id: this.nextId++, boxes: [], vx: 0, vy: 0, cameraAtLast: this.camera, ended: false };
    this.tracks.push(track);
    return track;
  }

  private add(track: PersonTrack, box: TrackedBox) {
    const last = track.boxes.at(-1);
    if (last && box.t > last.t) {
      const dt = box.t - last.t;
      // The person's own move: from where they were last seen, the camera's move since taken out.
      const seen = this.lastSeen(track);
      const vx = (box.x + box.w / 2 - (seen.x + seen.w / 2)) / dt;
      const vy = (box.y + box.h / 2 - (seen.y + seen.h / 2)) / dt;
      const first = track.boxes.length === 1;
      track.vx = first ? vx : VELOCITY_WEIGHT * vx + (1 - VELOCITY_WEIGHT) * track.vx;
      track.vy = first ? vy : VELOCITY_WEIGHT * vy + (1 - VELOCITY_WEIGHT) * track.vy;
    }
    track.boxes.push(box);
    track.cameraAtLast = this.camera;
  }
}

/**
 * How likely a box is the predicted person: 0.5–1 by overlap (at least `least`), else under 0.5
 * by nearness (within `reach` heights, like size), else 0.
 */
function affinity(predicted: Box, box: Box, least: number, reach: number): number {
  const overlap = iou(predicted, box);
  if (overlap >= least) return 0.5 + overlap / 2;
  if (Math.min(predicted.h, box.h) / Math.max(predicted.h, box.h) < LIKE_SIZE) return 0;
  const distance = Math.hypot(predicted.x + predicted.w / 2 - (box.x + box.w / 2), predicted.y + predicted.h / 2 - (box.y + box.h / 2));
  const limit = reach * Math.max(predicted.h, box.h);
  return distance < limit ? 0.5 * (1 - distance / limit) : 0;
}
