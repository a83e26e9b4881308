// The person under a hand-added clip (issue 35 item 4): a clip an admin adds by hand follows the
// athlete's person track as a found clip does (the review's boxes, the social cut's frame, the
// spotlight), chosen by the same evidence that matching weighs.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { highlightRequests, personTracks } from '../db/schema';
import { decidePerson } from './decide';
import { hexToLab, kitsAsSeen } from './kit';
import { labelsOf } from './labels';
import { shirtOfRequest } from './teams';

interface Clip {
  requestId: string;
  footageId: string;
  startS: number;
  endS: number;
}

/**
 * The person tracks under the clip that are the athlete, by time: those the admin pointed at,
 * else those holding a face found as the athlete in the clip, else those whose shirt is the
 * athlete's (their number, on their kit first). Never two at once (one person is in one place on
 * one camera), never one the admin said is not the athlete.
 */
export async function peopleUnderClip(db: Db, clip: Clip, athleteFaceTrackIds: string[]): Promise<string[]> {
  const tracks = await db
    .select({ id: personTracks.id, startS: personTracks.startS, endS: personTracks.endS, faceTrackIds: personTracks.faceTrackIds, kit: personTracks.kitColour, jerseyNumber: personTracks.jerseyNumber })
    .from(personTracks)
    .where(and(eq(personTracks.footageId, clip.footageId), lt(personTracks.startS, clip.endS), gt(personTracks.endS, clip.startS)));
  if (!tracks.length) return [];
  const labels = await labelsOf(db, clip.requestId);
  const [request] = await db.select().from(highlightRequests).where(eq(highlightRequests.id, clip.requestId));
  const shirt = request ? await shirtOfRequest(db, request) : null;
  // The teams as this file's camera shows them, learnt from all its tracks (as matching does).
  const fileKits = shirt?.teams.length ? await db.select({ kit: personTracks.kitColour }).from(personTracks).where(eq(personTracks.footageId, clip.footageId)) : [];
  const teams = shirt ? kitsAsSeen(fileKits.flatMap((t) => (t.kit ? [hexToLab(t.kit)] : [])), shirt.teams) : [];
  const faces = new Set(athleteFaceTrackIds);
  const weight = (t: (typeof tracks)[number]) => {
    if (labels.not.has(t.id)) return 0;
    if (labels.athlete.has(t.id)) return 4;
    if (t.faceTrackIds.some((id) => faces.has(id))) return 3;
    const verdict = shirt ? decidePerson({ jerseyNumber: t.jerseyNumber, kit: t.kit, faces: [] }, shirt.athlete, teams) : null;
    return verdict ? (verdict.unsure ? 1 : 2) : 0;
  };
  const chosen: typeof tracks = [];
  const ranked = tracks.map((t) => ({ t, w: weight(t) })).filter((c) => c.w > 0).sort((a, b) => b.w - a.w || b.t.endS - b.t.startS - (a.t.endS - a.t.startS));
  for (const { t } of ranked) if (!chosen.some((c) => c.startS < t.endS && t.startS < c.endS)) chosen.push(t);
  return chosen.sort((a, b) => a.startS - b.startS).map((t) => t.id);
}
