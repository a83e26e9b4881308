// The person stages for one stretch of one footage file, run by the index beside the face stages
// (faces/index-segment.ts): each sample's people are detected (people/detector.ts) and tracked
// (people/tracker.ts), tracks end where the shot changes, and every face the face tracker placed
// is tied to the person whose box holds it, so a face seen once names the person's whole track.
import type { Box } from '../vision/boxes';
import type { RgbFrame } from '../faces/engine';
import { detectPeople, type PersonDetectSettings } from './detector';
import { PersonTracker, type PersonTrack, type PersonTrackerSettings } from './tracker';

export type PersonSettings = PersonDetectSettings & PersonTrackerSettings;

/** One person's track in a stretch, as the index stores it. */
export interface StretchPerson {
  startS: number;
  endS: number;
  /** Every sampled box: [t, x, y, w, h, score × 100], whole pixels of the source frame. */
  boxes: number[][];
  /** The face tracks (the caller's keys) whose faces lay in this person's box. */
  faceTracks: unknown[];
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
  readonly stats = { people: 0, peopleMs: 0 };

  constructor(private readonly settings: PersonSettings) {
    this.tracker = new PersonTracker(settings);
  }

  /**
   * One sample: `shotChanged` ends every track first; `faces` are the sample's faces with the
   * face track each joined.
   */
  async sample(frame: RgbFrame, t: number, shotChanged: boolean, faces: Array<{ box: Box; track: unknown }>): Promise<void> {
    const started = performance.now();
    if (shotChanged) this.tracker.endAll();
    const people = await detectPeople(frame, this.settings);
    const tracks = this.tracker.step(t, people);
    this.stats.people += people.length;
    this.stats.peopleMs += performance.now() - started;
    const placed = people.flatMap((box, i) => (tracks[i] ? [{ ...box, track: tracks[i] }] : []));
    for (const face of faces) {
      const person = personOfFace(face.box, placed);
      if (!person) continue;
      const links = this.faceLinks.get(person.track) ?? new Set();
      links.add(face.track);
      this.faceLinks.set(person.track, links);
    }
  }

  /** The stretch's people: tracks seen in two samples or more, or holding a face. */
  result(): StretchPerson[] {
    return this.tracker.tracks
      .filter((track) => track.boxes.length >= 2 || this.faceLinks.has(track))
      .map((track) => ({
        startS: track.boxes[0]!.t,
        endS: track.boxes.at(-1)!.t,
        boxes: track.boxes.map((b) => [b.t, Math.round(b.x), Math.round(b.y), Math.round(b.w), Math.round(b.h), Math.round(b.score * 100)]),
        faceTracks: [...(this.faceLinks.get(track) ?? [])],
      }));
  }
}
