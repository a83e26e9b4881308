// Where the athlete is in a clip, sample by sample: the boxes the social cut's frame and the
// spotlight ring follow, and the review's API shows so what was found can be checked. A clip
// found on a tracked person (people/decide.ts) follows that person's box for as long as they are
// tracked, face or no face; a clip found by face alone follows the face.
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { faceDetections, personTracks } from '../db/schema';
import { decodePersonBoxes } from '../people/track-boxes';

export interface AthleteBox {
  /** Seconds in the footage file. */
  t: number;
  x: number;
  y: number;
  w: number;
  h: number;
  quality: number;
}

export interface ClipTracks {
  startS: number;
  endS: number;
  trackIds: string[];
  personTrackIds?: string[];
}

export interface ClipBoxes {
  /** What the boxes are of: the tracked person, or the face. */
  of: 'person' | 'face';
  boxes: AthleteBox[];
}

/** Each clip's boxes within its span, in the clips' order; one query for persons, one for faces. */
export async function athleteBoxesOf(db: Db, clips: ClipTracks[]): Promise<ClipBoxes[]> {
  const personIds = [...new Set(clips.flatMap((c) => c.personTrackIds ?? []))];
  const faceIds = [...new Set(clips.filter((c) => !c.personTrackIds?.length).flatMap((c) => c.trackIds))];
  const people = personIds.length ? await db.select({ id: personTracks.id, boxes: personTracks.boxes }).from(personTracks).where(inArray(personTracks.id, personIds)) : [];
  const boxesOf = new Map(people.map((p) => [p.id, decodePersonBoxes(p.boxes)]));
  const faces = faceIds.length
    ? await db
        .select({ trackId: faceDetections.trackId, t: faceDetections.t, x: faceDetections.x, y: faceDetections.y, w: faceDetections.w, h: faceDetections.h, quality: faceDetections.quality })
        .from(faceDetections)
        .where(inArray(faceDetections.trackId, faceIds))
        .orderBy(faceDetections.t)
    : [];
  return clips.map((clip) => {
    const within = (t: number) => t >= clip.startS && t <= clip.endS;
    if (clip.personTrackIds?.length) {
      const boxes = clip.personTrackIds
        .flatMap((id) => boxesOf.get(id) ?? [])
        .filter(([t]) => within(t))
        .map(([t, x, y, w, h, score]) => ({ t, x, y, w, h, quality: score / 100 }))
        .sort((a, b) => a.t - b.t);
      return { of: 'person', boxes };
    }
    return { of: 'face', boxes: faces.filter((d) => clip.trackIds.includes(d.trackId) && within(d.t)).map(({ trackId: _id, ...box }) => box) };
  });
}

/** A head's height in a standing person's box: the social cut frames a person by their head, as it frames a face. */
const HEAD_SHARE = 0.16;

/** The box the social cut and the ring follow: the face itself, or a tracked person's head. */
export function followedBox(box: AthleteBox, of: ClipBoxes['of']): AthleteBox {
  if (of === 'face') return box;
  const side = Math.max(8, Math.round(box.h * HEAD_SHARE));
  return { t: box.t, x: Math.round(box.x + box.w / 2 - side / 2), y: box.y, w: side, h: side, quality: box.quality };
}
