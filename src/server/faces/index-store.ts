// Writing a file's index: its face tracks (every sampled box, the descriptors and crop sealed)
// and its person tracks, replacing the old index in one transaction, so a re-run or a run after a
// crash leaves exactly one index; the admin's labels on people move to the new tracks of the same
// people.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { faceDetections, faceTracks, footage, personLabels, personTracks } from '../db/schema';
import type { AppDeps } from '../deps';
import { successorTracks } from '../people/labels';
import { decodePersonBoxes, encodePersonBoxes } from '../people/track-boxes';
import { encodeEmbeddings } from './embeddings';
import { sealFaceData } from './face-data-seal';
import type { SegmentResult, SegmentTrack } from './types';

/** Replaces the file's index with these tracks, in one transaction. */
export async function storeIndex(deps: Pick<AppDeps, 'db'>, footageId: string, results: SegmentResult[]) {
  await deps.db.transaction(async (tx) => {
    // The admin's word on the people of this file, kept to be given to the new tracks of the same people.
    const labelled = await tx
      .select({ label: personLabels, boxes: personTracks.boxes })
      .from(personLabels)
      .innerJoin(personTracks, eq(personTracks.id, personLabels.personTrackId))
      .where(eq(personTracks.footageId, footageId));
    await tx.delete(faceTracks).where(eq(faceTracks.footageId, footageId));
    await tx.delete(personTracks).where(eq(personTracks.footageId, footageId));
    await tx.update(footage).set({ shotCuts: results.flatMap((r) => r.shotCuts).sort((a, b) => a - b) }).where(eq(footage.id, footageId));
    const fresh: Array<{ id: string; boxes: ReturnType<typeof decodePersonBoxes> }> = [];
    for (const result of results) {
      const ids: string[] = [];
      for (const track of result.tracks) ids.push(await insertTrack(tx, footageId, track));
      const people = result.people.map((person) => ({
        footageId,
        startS: person.startS,
        endS: person.endS,
        boxes: encodePersonBoxes(person.boxes),
        faceTrackIds: person.faceTracks.map((i) => ids[i]!),
        samples: person.boxes.length,
        kitColour: person.kit,
        jerseyNumber: person.jerseyNumber,
        numberReads: person.numberReads,
      }));
      for (let i = 0; i < people.length; i += 200) {
        const inserted = await tx.insert(personTracks).values(people.slice(i, i + 200)).returning({ id: personTracks.id, boxes: personTracks.boxes });
        fresh.push(...inserted.map((t) => ({ id: t.id, boxes: decodePersonBoxes(t.boxes) })));
      }
    }
    if (labelled.length) {
      const old = [...new Map(labelled.map((l) => [l.label.personTrackId, { id: l.label.personTrackId, boxes: decodePersonBoxes(l.boxes) }])).values()];
      const successor = successorTracks(old, fresh);
      const carried = labelled.flatMap(({ label }) => {
        const personTrackId = successor.get(label.personTrackId);
        return personTrackId ? [{ requestId: label.requestId, personTrackId, isAthlete: label.isAthlete, createdBy: label.createdBy, createdAt: label.createdAt }] : [];
      });
      if (carried.length) await tx.insert(personLabels).values(carried).onConflictDoNothing();
    }
  });
}

/** One track of a file with every sampled face box; returns its id. Runs inside the caller's transaction. */
export async function insertTrack(tx: Db, footageId: string, track: SegmentTrack): Promise<string> {
  const [inserted] = await tx
    .insert(faceTracks)
    .values({
      footageId,
      startS: track.startS,
      endS: track.endS,
      bestS: track.best.t,
      box: { x: Math.round(track.best.x), y: Math.round(track.best.y), w: Math.round(track.best.w), h: Math.round(track.best.h) },
      faceHeight: track.faceHeight,
      score: track.best.score,
      quality: track.best.quality,
      embeddings: encodeEmbeddings(track.descriptors),
      thumbnail: track.thumbnail ? sealFaceData(track.thumbnail) : null,
      jerseyNumber: track.jerseyNumber,
      samples: track.faces.length,
    })
    .returning({ id: faceTracks.id });
  const rows = track.faces.map((f) => ({ trackId: inserted!.id, t: f.t, x: Math.round(f.x), y: Math.round(f.y), w: Math.round(f.w), h: Math.round(f.h), score: f.score, quality: f.quality }));
  for (let i = 0; i < rows.length; i += 500) await tx.insert(faceDetections).values(rows.slice(i, i + 500));
  return inserted!.id;
}
