// The person stages for one stretch of one footage file, run by the index beside the face stages
// (faces/index-segment.ts): each sample's people are detected (people/detector.ts) and tracked
// (people/tracker.ts), tracks end where the shot changes, and every face the face tracker placed
// is tied to the person whose box holds it, so a face seen once names the person's whole track.
// Along each track the evidence of who it is is gathered, never from one frame: the shirt's
// colour (people/kit.ts) and the number on it (Tesseract for tall players, people/numbers.ts; the
// number net for far ones, people/number-net.ts; voted along the track).
import { insideShare, partOf, type Box } from '../vision/boxes';
import type { RgbFrame } from '../vision/frames';
import { chestRegion, jerseyOf, MIN_JERSEY_FACE_PX, readNumberIn, type JerseyRead } from './numbers';
import { readNumberByNet } from './number-net';
import { detectPeople, type PersonDetectSettings } from './detector';
import { groundBeside, kitOfTrack, labToHex, shirtBand, shirtColour, torsoRegion, type Lab } from './kit';
import { PersonTracker, type PersonTrack, type PersonTrackerSettings } from './tracker';
import { continuationFinder, type TrackPiece } from './continuations';
import type { StoredBox } from './track-boxes';

export type PersonSettings = PersonDetectSettings & PersonTrackerSettings;

/** One person's track in a stretch, as the index stores it. */
export interface StretchPerson {
  startS: number;
  endS: number;
  /** Every sampled box: [t, x, y, w, h, score × 100], whole pixels of the source frame. */
  boxes: number[][];
  /** The face tracks (the caller's keys) whose faces lay in this person's box. */
  faceTracks: unknown[];
  /** The shirt's colour along the track, `#rrggbb`, when it was seen clear of others. */
  kit: string | null;
  /** The number on the shirt when its readings agreed (people/numbers.ts jerseyOf), and how many were legible. */
  jerseyNumber: number | null;
  numberReads: number;
}

/** Evidence gathered along one track. */
interface Evidence {
  kits: Lab[];
  reads: JerseyRead[];
  looks: NumberLooks;
}

/** The Tesseract looks a track has had: full reads, confirming reads, and when the last was. */
export interface NumberLooks {
  reads: number;
  confirms: number;
  lastT: number;
}

/**
 * A shirt that another person's shirt covers this much of may show parts of both: no evidence is
 * taken from it. Another box lying mostly inside this one is a part of the same person the
 * detector found twice; a box that overlaps only this one's legs or head (a seated person's legs
 * found apart) takes nothing from the shirt.
 */
const SHIRTS_OVERLAP = 0.2;
const PART_INSIDE = 0.7;
/** Shirt colours kept a track (enough for a steady median), and the least box height to read one. */
const KIT_SAMPLES = 24;
const KIT_MIN_PERSON_PX = 40;
/**
 * The number is read on people at least this tall (its digits then about 18 px and more), at most
 * this many times a track, a second apart at least: Tesseract costs about as much as a face look.
 */
export const NUMBER_MIN_PERSON_PX = 110;
/**
 * Shorter people, down to this, are read by Tesseract too, once the number net has read a number
 * on their track: at that size Tesseract reads one digit of two as often as the number, so its
 * read there only confirms the net's (JerseyRead.confirmsOnly; decision 0038). The net alone
 * needs two sure reads alike, which a far player's "10" seldom gives.
 */
export const NUMBER_CONFIRM_MIN_PX = 95;
/**
 * Full reads and confirming reads have budgets of their own, so a player first seen at 95–110 px
 * still has every full read left when they come nearer.
 */
export const NUMBER_READS = 5;
export const NUMBER_CONFIRMS = 3;
export const NUMBER_EVERY_S = 1;
/**
 * Numbers on people at least NET_MIN_PERSON_PX tall (digits of about 7 px and more) are read by
 * the number net (people/number-net.ts) at every sample where the shirt is clear, a read costing
 * a few milliseconds; a reading counts when the net is at least NET_SURE of it (chosen on the
 * person bench's tune clips, decision 0038). Tesseract still reads the taller ones as above.
 */
export const NET_MIN_PERSON_PX = 60;
export const NET_SURE = 0.8;

/** Where a shirt's number is, front or back: the chest or back, arm to arm. */
export function numberRegion(box: Box, frame: { width: number; height: number }): Box | null {
  const [top, bottom] = shirtBand(box, [0.15, 0.55], [0.4, 0.97]);
  return partOf(box, frame, { left: 0.15, right: 0.85, top, bottom }, 8);
}

/** The shirt just under a face, one face wide: plain cloth on most shirts, above a print or a number. */
export function upperChest(face: Box, frame: { width: number; height: number }): Box | null {
  return partOf(face, frame, { left: 0, right: 1, top: 1.3, bottom: 2.1 }, 3);
}

/**
 * Which Tesseract look a person gets at this sample: a full read ('read'), a read that can only
 * confirm the number net's ('confirm'), or none. `chestFaceH` is the height of the face above the
 * chest when the shirt is read under a face (a close camera), `netNamed` whether the number net
 * has a sure read on the track.
 */
export function numberLookAt(person: { h: number; chestFaceH: number | null; netNamed: boolean }, t: number, looks: NumberLooks): 'read' | 'confirm' | null {
  if (t - looks.lastT < NUMBER_EVERY_S) return null;
  const fullLeft = looks.reads < NUMBER_READS;
  if (person.chestFaceH !== null) return person.chestFaceH >= MIN_JERSEY_FACE_PX && fullLeft ? 'read' : null;
  if (person.h >= NUMBER_MIN_PERSON_PX) return fullLeft ? 'read' : null;
  if (person.h >= NUMBER_CONFIRM_MIN_PX && person.netNamed && looks.confirms < NUMBER_CONFIRMS) return 'confirm';
  return null;
}

/** A face lies in a person when its centre is inside the box's top part and the box is this many faces tall. */
const HEAD_SHARE = 0.4;
const PERSON_FACES_TALL = 1.8;

/** The person box (of those given) whose head holds the face, if any: the nearest to the face's centre. */
export function personOfFace<T extends Box>(face: Box, people: T[]): T | undefined {
  const cx = face.x + face.w / 2;
  const cy = face.y + face.h / 2;
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const person of people) {
    if (person.h < face.h * PERSON_FACES_TALL) continue;
    if (cx < person.x || cx > person.x + person.w || cy < person.y || cy > person.y + person.h * HEAD_SHARE) continue;
    const distance = Math.hypot(cx - (person.x + person.w / 2), cy - person.y);
    if (distance < bestDistance) {
      best = person;
      bestDistance = distance;
    }
  }
  return best;
}

export class PeopleInStretch {
  private readonly tracker: PersonTracker;
  private readonly faceLinks = new Map<PersonTrack, Set<unknown>>();
  private readonly evidence = new Map<PersonTrack, Evidence>();
  private readonly shotCuts: number[] = [];
  readonly stats = { people: 0, peopleMs: 0, numberReads: 0, numberMs: 0 };

  constructor(private readonly settings: PersonSettings) {
    this.tracker = new PersonTracker(settings);
  }

  /**
   * One sample: `shotChanged` ends every track first; `faces` are the sample's faces with the
   * face track each joined.
   */
  async sample(frame: RgbFrame, t: number, shotChanged: boolean, faces: Array<{ box: Box; track: unknown }>): Promise<void> {
    const started = performance.now();
    if (shotChanged) {
      this.tracker.endAll();
      this.shotCuts.push(t);
    }
    const people = await detectPeople(frame, this.settings);
    const tracks = this.tracker.step(t, people);
    this.stats.people += people.length;
    this.stats.peopleMs += performance.now() - started;
    const placed = people.flatMap((box, i) => (tracks[i] ? [{ ...box, track: tracks[i] }] : []));
    const faceIn = new Map<PersonTrack, Box>();
    for (const face of faces) {
      const person = personOfFace(face.box, placed);
      if (!person) continue;
      const links = this.faceLinks.get(person.track) ?? new Set();
      links.add(face.track);
      this.faceLinks.set(person.track, links);
      if ((faceIn.get(person.track)?.h ?? 0) < face.box.h) faceIn.set(person.track, face.box);
    }
    await this.gatherEvidence(frame, t, placed, faceIn);
  }

  /**
   * Shirt colour and number from the boxes of this sample that are sure and clear of anyone else.
   * Where a face shows, the shirt is the chest under it (a close camera's box may hold only the
   * upper body); elsewhere it is placed by the proportions of a whole person.
   */
  private async gatherEvidence(frame: RgbFrame, t: number, placed: Array<Box & { score: number; track: PersonTrack }>, faceIn: Map<PersonTrack, Box>) {
    for (const person of placed) {
      if (person.score < this.settings.highScore) continue;
      const shirtOf = (box: Box) => numberRegion(box, frame);
      const own = shirtOf(person);
      const crowded = placed.some((other) => {
        if (other === person || insideShare(other, person) >= PART_INSIDE) return false;
        const theirs = shirtOf(other);
        return Boolean(own && theirs && insideShare(own, theirs) > SHIRTS_OVERLAP);
      });
      if (crowded) continue;
      const evidence = this.evidence.get(person.track) ?? { kits: [], reads: [], looks: { reads: 0, confirms: 0, lastT: -Infinity } };
      this.evidence.set(person.track, evidence);
      const face = faceIn.get(person.track);
      const chest = face ? chestRegion(face, frame) : null;
      const shirt = face ? upperChest(face, frame) : person.h >= KIT_MIN_PERSON_PX ? torsoRegion(person, frame) : null;
      if (shirt && evidence.kits.length < KIT_SAMPLES) evidence.kits.push(shirtColour(frame, shirt, face ? null : groundBeside(frame, person)));
      if (!chest && person.h >= NET_MIN_PERSON_PX) this.readByNet(frame, person, evidence);
      const look = numberLookAt({ h: person.h, chestFaceH: chest ? face!.h : null, netNamed: evidence.reads.some((r) => r.byNet) }, t, evidence.looks);
      if (!look) continue;
      const region = chest ?? numberRegion(person, frame);
      if (!region) continue;
      const started = performance.now();
      if (look === 'read') evidence.looks.reads++;
      else evidence.looks.confirms++;
      evidence.looks.lastT = t;
      const read = await readNumberIn(frame, region);
      this.stats.numberMs += performance.now() - started;
      if (read) {
        evidence.reads.push(look === 'confirm' ? { ...read, confirmsOnly: true } : read);
        this.stats.numberReads++;
      }
    }
  }

  /** The number net's reading of a person's number region, kept when the net is sure of it. */
  private readByNet(frame: RgbFrame, person: Box, evidence: Evidence) {
    const region = numberRegion(person, frame);
    if (!region) return;
    const started = performance.now();
    const reading = readNumberByNet(frame, region);
    this.stats.numberMs += performance.now() - started;
    if (reading.number === null || reading.probability < NET_SURE) return;
    evidence.reads.push({ number: reading.number, confidence: Math.round(reading.probability * 100), byNet: true });
    this.stats.numberReads++;
  }

  /** The stretch's people: tracks seen in two samples or more, or holding a face, with the evidence along them. */
  result(): StretchPerson[] {
    const kept = this.tracker.tracks.filter((track) => track.boxes.length >= 2 || this.faceLinks.has(track));
    const pieces = kept.map((track) => ({
      boxes: track.boxes.map((b): StoredBox => [b.t, Math.round(b.x), Math.round(b.y), Math.round(b.w), Math.round(b.h), Math.round(b.score * 100)]),
      kits: this.evidence.get(track)?.kits ?? [],
      reads: this.evidence.get(track)?.reads ?? [],
    }));
    const evidence = evidenceAlongPieces(pieces, this.shotCuts);
    return kept.map((track, i) => ({
      startS: track.boxes[0]!.t,
      endS: track.boxes.at(-1)!.t,
      boxes: pieces[i]!.boxes,
      faceTracks: [...(this.faceLinks.get(track) ?? [])],
      ...evidence[i]!,
      numberReads: pieces[i]!.reads.length,
    }));
  }
}

/**
 * A piece pools the evidence of the pieces that continue it this far (seconds) from its own time,
 * no farther: every handover is a small chance of taking up the wrong player, and a chain of them
 * through a whole game would carry one number onto a teammate.
 */
const POOL_WITHIN_S = 30;

/**
 * Each track's kit and number. A track the tracker lost and took up again
 * (people/continuations.ts) is one person's: where a piece's own reads name no number, or its
 * shirt was never seen clear, the evidence of the pieces that continue it, within POOL_WITHIN_S,
 * decides: two sure net reads of a 24 on two pieces are as good as two on one (decision 0038).
 */
export function evidenceAlongPieces(pieces: Array<{ boxes: StoredBox[]; kits: Lab[]; reads: JerseyRead[] }>, shotCuts: number[]): Array<{ kit: string | null; jerseyNumber: number | null }> {
  const hex = (kit: Lab | null) => (kit ? labToHex(kit) : null);
  const kits = pieces.map((piece) => hex(kitOfTrack(piece.kits)));
  const asPieces: TrackPiece[] = pieces.map((piece, i) => ({ id: String(i), footageId: '', boxes: piece.boxes, kitColour: kits[i]! }));
  const continuationsOf = continuationFinder(asPieces, shotCuts);
  return pieces.map((piece, i) => {
    const chain = [...continuationsOf(asPieces[i]!, POOL_WITHIN_S)].map((id) => pieces[Number(id)]!);
    const pooled = chain.length > 1;
    return {
      kit: kits[i] ?? (pooled ? hex(kitOfTrack(chain.flatMap((c) => c.kits))) : null),
      jerseyNumber: jerseyOf(piece.reads, { oneDigitOnce: false }) ?? (pooled ? jerseyOf(chain.flatMap((c) => c.reads), { oneDigitOnce: false }) : null),
    };
  });
}
