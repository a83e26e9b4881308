// The pieces of one person's track: the tracker loses a player who is hidden, or runs while the
// camera pans, and takes them up as a new track. Joining the pieces again is used where the index
// pools the evidence gathered along them (people/stretch.ts) and where the admin's "this is the
// athlete" labels the pieces that continue the track pointed at (people/labels.ts).
import { hexToLab, kitDistance, median } from './kit';
import type { StoredBox } from './track-boxes';
import { upperBodyOf } from './tracker';

/** Without the event's teams to name a kit by, two kits this close are one. */
export const SAME_KIT = 12;

/** A track piece as continuation needs it: where and when it was, and its shirt. */
export interface TrackPiece {
  id: string;
  footageId: string;
  boxes: StoredBox[];
  kitColour: string | null;
}

/**
 * A piece starting this soon (seconds) after another ends may continue it, or this long before it
 * ends: the tracker often takes a player up as a new track while the old one still holds a box
 * for a sample or two (the player's own, found twice, or the one beside them).
 */
const CONTINUE_GAP_S = 2;
export const CONTINUE_OVERLAP_S = 1;
/** ...where its first box is within this many heights of where the other was then (or where its motion carried it, after a gap), */
const CONTINUE_REACH_HEIGHTS = 3;
/**
 * ...of a like height (the shorter over half the taller: within the tracker's own tracks on the
 * person bench's tune clips, a box under half the height of the same track's box up to 2 s off
 * is under 1 in 100 pairs, a crouch or a tracker's slip),
 */
const CONTINUE_LIKE_SIZE = 0.5;
/** ...and every other such piece is at least this many times farther away. */
const CONTINUE_CLEAR = 2;
/** A piece's motion at its end is taken over this long (seconds): where it was going is where to look for the next. */
const MOTION_SPAN_S = 1;
/** The camera's move between two samples is the median move of the people seen at both, when at least this many were. */
const CAMERA_MIN_PEOPLE = 3;

/**
 * The pieces that continue a track within its shot, forwards and backwards, piece after piece:
 * the tracker loses a player who is hidden, or runs while the camera pans, and takes them up as
 * a new track. A piece continues another when it starts within CONTINUE_GAP_S of its end (or up
 * to CONTINUE_OVERLAP_S before it, and goes on after it), with no shot cut between, on a shirt of
 * the same colour and of a like height, near where the other was at that moment (after a gap:
 * where its own motion over its last second carried it, and the camera's move since, told by
 * where the others seen then went), and clearly nearer than any other such piece (two teammates
 * side by side continue nobody; the player's upper body, found apart, is no rival).
 */
export function continuationsOf(pointed: TrackPiece, pieces: TrackPiece[], shotCuts: number[]): Set<string> {
  return continuationFinder(pieces, shotCuts)(pointed);
}

/**
 * continuationsOf for many pointed pieces of one set: the pieces are filed once by the second
 * they start and end in, so each step looks only at the few that start or end near the moment a
 * piece ends or starts (an hour of a crowded camera is tens of thousands of pieces). `withinS`
 * stops the walk at pieces that far from the pointed one.
 */
export function continuationFinder(pieces: TrackPiece[], shotCuts: number[]): (pointed: TrackPiece, withinS?: number) => Set<string> {
  const centre = (b: StoredBox) => [b[1] + b[3] / 2, b[2] + b[4] / 2] as const;
  const kits = new Map(pieces.map((p) => [p, p.kitColour ? hexToLab(p.kitColour) : null]));
  const kitOf = (p: TrackPiece) => (kits.has(p) ? kits.get(p)! : p.kitColour ? hexToLab(p.kitColour) : null);
  const sameShirt = (a: TrackPiece, b: TrackPiece) => {
    const [ka, kb] = [kitOf(a), kitOf(b)];
    return !ka || !kb || kitDistance(ka, kb) < SAME_KIT;
  };
  const fileBy = (second: (p: TrackPiece) => number) => {
    const filed = new Map<number, TrackPiece[]>();
    for (const p of pieces) {
      if (!p.boxes.length) continue;
      const key = Math.floor(second(p));
      const under = filed.get(key);
      if (under) under.push(p);
      else filed.set(key, [p]);
    }
    return filed;
  };
  // Where everyone was at each sample, to tell the camera's move from a player's own.
  const seenAt = new Map<number, Map<TrackPiece, readonly [number, number]>>();
  const moment = (t: number) => Math.round(t * 1000);
  for (const p of pieces) {
    for (const box of p.boxes) {
      const at = seenAt.get(moment(box[0])) ?? new Map<TrackPiece, readonly [number, number]>();
      at.set(p, centre(box));
      seenAt.set(moment(box[0]), at);
    }
  }
  /** How far the picture moved from time a to time b: the median move of the people seen at both, when enough were. */
  const cameraMove = (a: number, b: number): readonly [number, number] | null => {
    const [atA, atB] = [seenAt.get(moment(a)), seenAt.get(moment(b))];
    if (!atA || !atB) return null;
    const dx: number[] = [];
    const dy: number[] = [];
    for (const [p, [xa, ya]] of atA) {
      const inB = atB.get(p);
      if (!inB) continue;
      dx.push(inB[0] - xa);
      dy.push(inB[1] - ya);
    }
    return dx.length >= CAMERA_MIN_PEOPLE ? [median(dx), median(dy)] : null;
  };
  /**
   * Where a piece's person would be at time `t` past its end (or before its start): moving on the
   * ground as over its last (first) second, or its whole length when shorter, and with the camera
   * as the others seen then moved; by their motion on screen alone where too few were seen. A
   * piece seen at one sample only moves with the camera alone.
   */
  const carried = (p: TrackPiece, forwards: boolean, t: number): readonly [number, number] => {
    const n = p.boxes.length;
    const at = (i: number) => p.boxes[forwards ? n - 1 - i : i]!;
    const edge = at(0);
    let i = 1;
    while (i < n && Math.abs(at(i)[0] - edge[0]) < MOTION_SPAN_S) i++;
    // A piece shorter than MOTION_SPAN_S moves as over its whole length: half a second of motion
    // says more of where a fast runner went than none.
    const before = i < n ? at(i) : n > 1 ? at(n - 1) : null;
    const c = centre(edge);
    const pictureSince = cameraMove(edge[0], t);
    // Seen once (or with a long gap inside it): no motion of its own to go by, but the camera's move still tells where the spot went.
    if (!before || Math.abs(before[0] - edge[0]) > 2 * MOTION_SPAN_S) return pictureSince ? [c[0] + pictureSince[0], c[1] + pictureSince[1]] : c;
    const span = Math.abs(edge[0] - before[0]);
    const gap = Math.abs(t - edge[0]);
    const b = centre(before);
    const pictureThen = cameraMove(before[0], edge[0]);
    if (!pictureThen || !pictureSince) return [c[0] + ((c[0] - b[0]) / span) * gap, c[1] + ((c[1] - b[1]) / span) * gap];
    const own = [(c[0] - b[0] - pictureThen[0]) / span, (c[1] - b[1] - pictureThen[1]) / span];
    return [c[0] + own[0]! * gap + pictureSince[0], c[1] + own[1]! * gap + pictureSince[1]];
  };
  const byStart = fileBy((p) => p.boxes[0]![0]);
  const byEnd = fileBy((p) => p.boxes.at(-1)![0]);
  /** The pieces filed under the seconds from..to. */
  const near = (filed: Map<number, TrackPiece[]>, from: number, to: number) => {
    const out: TrackPiece[] = [];
    for (let key = Math.floor(from); key <= Math.floor(to); key++) out.push(...(filed.get(key) ?? []));
    return out;
  };
  return (pointed, withinS = Infinity) => {
    const found = new Set<string>([pointed.id]);
    const [lookFrom, lookTo] = [pointed.boxes[0]![0] - withinS, pointed.boxes.at(-1)![0] + withinS];
    const next = (from: TrackPiece, forwards: boolean): TrackPiece | null => {
      const [first, last] = [from.boxes[0]!, from.boxes.at(-1)!];
      const fromAt = new Map(from.boxes.map((box) => [box[0], box]));
      // A piece continuing forwards starts near this one's end; backwards, it ends near this one's start.
      const nearby = forwards ? near(byStart, last[0] - CONTINUE_OVERLAP_S, last[0] + CONTINUE_GAP_S) : near(byEnd, first[0] - CONTINUE_GAP_S, first[0] + CONTINUE_OVERLAP_S);
      const candidates = nearby
        .filter((p) => p.footageId === from.footageId && !found.has(p.id) && sameShirt(from, p))
        .map((p) => {
          const touch = forwards ? p.boxes[0]! : p.boxes.at(-1)!;
          // It must reach past the other's end, starting near it: a piece within the other's time is someone else beside them.
          const beyond = forwards ? p.boxes.at(-1)![0] > last[0] : p.boxes[0]![0] < first[0];
          const gap = forwards ? touch[0] - last[0] : first[0] - touch[0];
          if (!beyond || gap < -CONTINUE_OVERLAP_S || gap > CONTINUE_GAP_S) return null;
          const [from0, to0] = forwards ? [last[0], touch[0]] : [touch[0], first[0]];
          if (shotCuts.some((cut) => cut > Math.min(from0, to0) && cut <= Math.max(from0, to0))) return null;
          // Where the other was when this piece touches it: its box then, or where its motion carried it from its last (first) box.
          const edge = gap > 0 ? (forwards ? last : first) : from.boxes.reduce((a, b) => (Math.abs(b[0] - touch[0]) < Math.abs(a[0] - touch[0]) ? b : a));
          // Half the player's height or less is someone farther off (or a part of someone), not them
          // a moment later; where the two overlap in time, at every sample both hold.
          const pairs = gap > 0 ? [[edge, touch]] : p.boxes.flatMap((box) => (fromAt.has(box[0]) ? [[fromAt.get(box[0])!, box]] : []));
          if (pairs.some(([a, b]) => Math.min(a![4], b![4]) / Math.max(a![4], b![4]) <= CONTINUE_LIKE_SIZE)) return null;
          const [ex, ey] = gap > 0 ? carried(from, forwards, touch[0]) : centre(edge);
          const distance = Math.hypot(centre(touch)[0] - ex, centre(touch)[1] - ey) / Math.max(edge[4], touch[4]);
          return distance <= CONTINUE_REACH_HEIGHTS ? { p, distance } : null;
        })
        .filter((c): c is { p: TrackPiece; distance: number } => c !== null)
        .sort((a, b) => a.distance - b.distance);
      // A piece that is only the upper body of another candidate (the detector found the player
      // twice) is neither the player's continuation nor a rival to it: the whole is.
      const wholes = candidates.filter((c) => !candidates.some((other) => other !== c && partOf(c.p, other.p)));
      const [best, second] = wholes;
      if (!best || (second && second.distance < best.distance * CONTINUE_CLEAR)) return null;
      return best.p;
    };
    for (const forwards of [true, false]) {
      let at: TrackPiece | null = pointed;
      // Piece after piece, as far as the caller looks: no farther than withinS from the pointed piece.
      while ((at = next(at, forwards)) && at.boxes.at(-1)![0] >= lookFrom && at.boxes[0]![0] <= lookTo) found.add(at.id);
    }
    return found;
  };
}

/**
 * Whether piece `a` is the upper body of `b`'s person, found apart by the detector: at every
 * sample both hold (one at least), as the tracker tells one (people/tracker.ts upperBodyOf).
 */
function partOf(a: TrackPiece, b: TrackPiece): boolean {
  const theirs = new Map(b.boxes.map((box) => [box[0], box]));
  let shared = 0;
  for (const [t, x, y, w, h] of a.boxes) {
    const whole = theirs.get(t);
    if (!whole) continue;
    shared++;
    const [, wx, wy, ww, wh] = whole;
    if (!upperBodyOf({ x, y, w, h }, { x: wx, y: wy, w: ww, h: wh })) return false;
  }
  return shared > 0;
}
