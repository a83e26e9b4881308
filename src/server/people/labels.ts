// The admin points at the athlete (issue 35 item 5): on a frame of a clip the review shows the
// people the index tracked there; "this is the athlete" or "not the athlete" on one of them labels
// that track and every track its evidence links to (a face tied to both, or the same number read
// on the same team's kit in the same game), and matching runs again with the labels as the
// strongest evidence (people/decide.ts, faces/matching.ts).
import { and, eq, inArray, lte, gte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUuid } from '../db/errors';
import { footage, highlightRequests, personLabels, personTracks } from '../db/schema';
import { continuationsOf, SAME_KIT } from './continuations';
import { hexToLab, kitDistance, kitsAsSeenByFile, teamOfKit, type TeamKits } from './kit';
import { eventTeamKits } from './teams';
import { decodePersonBoxes, type StoredBox } from './track-boxes';
import { iou, type Box } from '../vision/boxes';

/** A box this near the asked time (seconds) is where the person is then. */
const NEAREST_SAMPLE_S = 0.5;

export class PeopleRefused extends Error {
  constructor(readonly status: 400 | 404) {
    super(status === 404 ? 'not found' : 'invalid');
  }
}

async function requestOf(db: Db, requestId: string) {
  const [request] = isUuid(requestId) ? await db.select({ id: highlightRequests.id, eventId: highlightRequests.eventId }).from(highlightRequests).where(eq(highlightRequests.id, requestId)) : [];
  if (!request?.eventId) throw new PeopleRefused(404);
  return { id: request.id, eventId: request.eventId };
}

/** A file of the request's event, or a refusal. */
async function fileOf(db: Db, eventId: string, footageId: string) {
  const [file] = isUuid(footageId) ? await db.select().from(footage).where(and(eq(footage.id, footageId), eq(footage.eventId, eventId))) : [];
  if (!file) throw new PeopleRefused(404);
  return file;
}

/** The file whose frame the admin looks at: one of the request's event. */
export async function peopleFrameSource(db: Db, requestId: string, footageId: string) {
  const request = await requestOf(db, requestId);
  return fileOf(db, request.eventId, footageId);
}

/** The people tracked in a file of the request's event at time t, each with its box then, its evidence and the admin's label. */
export async function peopleAt(db: Db, requestId: string, footageId: string, t: number) {
  const request = await requestOf(db, requestId);
  const file = await fileOf(db, request.eventId, footageId);
  const tracks = await db
    .select()
    .from(personTracks)
    .where(and(eq(personTracks.footageId, file.id), lte(personTracks.startS, t + NEAREST_SAMPLE_S), gte(personTracks.endS, t - NEAREST_SAMPLE_S)));
  const labels = tracks.length
    ? await db.select().from(personLabels).where(and(eq(personLabels.requestId, request.id), inArray(personLabels.personTrackId, tracks.map((p) => p.id))))
    : [];
  const people = tracks.flatMap((track) => {
    const nearest = decodePersonBoxes(track.boxes).reduce<number[] | null>((best, box) => (!best || Math.abs(box[0] - t) < Math.abs(best[0]! - t) ? box : best), null);
    if (!nearest || Math.abs(nearest[0]! - t) > NEAREST_SAMPLE_S) return [];
    const label = labels.find((l) => l.personTrackId === track.id);
    return [
      {
        id: track.id,
        box: { x: nearest[1]!, y: nearest[2]!, w: nearest[3]!, h: nearest[4]! },
        jerseyNumber: track.jerseyNumber,
        kit: track.kitColour,
        label: label ? (label.isAthlete ? ('athlete' as const) : ('not' as const)) : null,
      },
    ];
  });
  // Front to back: the bigger boxes (nearer the camera) last, so they are on top and easiest to click.
  people.sort((a, b) => a.box.w * a.box.h - b.box.w * b.box.h);
  return { footageId: file.id, t, width: file.width, height: file.height, people };
}

/**
 * Labels a person track for the request, the pieces that continue it in its shot
 * (continuationsOf), and every track of the same game its evidence links to;
 * returns the ids labelled. The caller runs matching again.
 */
export async function labelPerson(db: Db, requestId: string, personTrackId: string, isAthlete: boolean, actorId: string): Promise<string[]> {
  const request = await requestOf(db, requestId);
  const [track] = isUuid(personTrackId) ? await db.select().from(personTracks).where(eq(personTracks.id, personTrackId)) : [];
  if (!track) throw new PeopleRefused(404);
  const file = await fileOf(db, request.eventId, track.footageId);
  const gameFiles = await db.select({ id: footage.id }).from(footage).where(and(eq(footage.eventId, request.eventId), eq(footage.gameId, file.gameId)));
  const others = await db.select().from(personTracks).where(inArray(personTracks.footageId, gameFiles.map((f) => f.id)));
  const teams = await eventTeamKits(db, request.eventId);
  // The pieces the tracker lost the player between, in the same shot, are theirs too.
  const pieces = others.filter((o) => o.footageId === track.footageId).map((o) => ({ id: o.id, footageId: o.footageId, boxes: decodePersonBoxes(o.boxes), kitColour: o.kitColour }));
  const continued = continuationsOf(pieces.find((p) => p.id === track.id)!, pieces, file.shotCuts);
  const teamsIn = kitsAsSeenByFile(others.map((o) => ({ footageId: o.footageId, kit: o.kitColour })), teams);
  const linked = others.filter((other) => continued.has(other.id) || linkedByEvidence(track, other, teamsIn(track.footageId), teamsIn(other.footageId)));
  await db.transaction(async (tx) => {
    for (const other of linked) {
      await tx
        .insert(personLabels)
        .values({ requestId: request.id, personTrackId: other.id, isAthlete, createdBy: actorId })
        .onConflictDoUpdate({ target: [personLabels.requestId, personLabels.personTrackId], set: { isAthlete, createdBy: actorId, createdAt: new Date() } });
    }
    await tx.update(highlightRequests).set({ matchingState: 'matching' }).where(eq(highlightRequests.id, request.id));
  });
  return linked.map((t) => t.id);
}

type TrackRow = typeof personTracks.$inferSelect;

/**
 * Two tracks of one game are one athlete's by their evidence: a face tied to both, or the same
 * number read on the same kit (each named against the teams as its own camera shows them).
 */
export function linkedByEvidence(a: Pick<TrackRow, 'faceTrackIds' | 'jerseyNumber' | 'kitColour'>, b: Pick<TrackRow, 'faceTrackIds' | 'jerseyNumber' | 'kitColour'>, teams: TeamKits[], teamsOfB = teams): boolean {
  if (a.faceTrackIds.some((id) => b.faceTrackIds.includes(id))) return true;
  if (a.jerseyNumber === null || a.jerseyNumber !== b.jerseyNumber || !a.kitColour || !b.kitColour) return false;
  const [ka, kb] = [hexToLab(a.kitColour), hexToLab(b.kitColour)];
  if (!teams.length) return kitDistance(ka, kb) < SAME_KIT;
  const team = teamOfKit(ka, teams);
  return team !== null && team.teamId === teamOfKit(kb, teamsOfB)?.teamId;
}

/** The request's labels: the tracks the admin said are the athlete, and those said not to be. */
export async function labelsOf(db: Db, requestId: string): Promise<{ athlete: Set<string>; not: Set<string> }> {
  const rows = await db.select({ id: personLabels.personTrackId, isAthlete: personLabels.isAthlete }).from(personLabels).where(eq(personLabels.requestId, requestId));
  return { athlete: new Set(rows.filter((r) => r.isAthlete).map((r) => r.id)), not: new Set(rows.filter((r) => !r.isAthlete).map((r) => r.id)) };
}

/** Two tracks follow the same person when their boxes overlap this much, on average, at the samples both have. */
const SAME_PERSON_IOU = 0.5;

/**
 * The admin's word survives a re-index: for each old track that carried a label, the new track that
 * follows the same person (its boxes overlapping the old ones most, at least SAME_PERSON_IOU on
 * average over at least half of the old track's samples), or none. Pure: old and new boxes in, a
 * map from old track id to new track id out.
 */
export function successorTracks(old: Array<{ id: string; boxes: StoredBox[] }>, fresh: Array<{ id: string; boxes: StoredBox[] }>): Map<string, string> {
  const out = new Map<string, string>();
  const asBox = ([, x, y, w, h]: StoredBox): Box => ({ x, y, w, h });
  for (const before of old) {
    let best: { id: string; overlap: number } | null = null;
    for (const after of fresh) {
      const byTime = new Map(after.boxes.map((b) => [Math.round(b[0] * 10), b]));
      let shared = 0;
      let sum = 0;
      for (const b of before.boxes) {
        const other = byTime.get(Math.round(b[0] * 10));
        if (!other) continue;
        shared++;
        sum += iou(asBox(b), asBox(other));
      }
      if (shared * 2 < before.boxes.length || !shared) continue;
      const overlap = sum / shared;
      if (overlap >= SAME_PERSON_IOU && (!best || overlap > best.overlap)) best = { id: after.id, overlap };
    }
    if (best) out.set(before.id, best.id);
  }
  return out;
}
