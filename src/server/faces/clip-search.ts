// The athlete's face in a clip added by hand (reels/review.ts addClip), so the spotlight and the
// social cut's crop follow them as in any found clip. First the file's face index: its tracks in
// the clip's span, the ones close enough to the athlete's references kept. When the index has
// none (the footage is not indexed yet, or nobody there was close enough), a closer look at just
// those frames runs as the 'faces.find-in-clip' job, and the track(s) it finds are stored with
// the file's index. The clip's `faceSearch` says where it stands: looking, found or none.
import { and, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { appearances, athleteReferences, faceTracks, footage, highlightRequests, userProfiles } from '../db/schema';
import type { AppDeps } from '../deps';
import { jobIdFor, type JobHandler } from '../jobs/queue';
import { probeVideo } from '../media/ffmpeg';
import { openStoredVideo, type StoredVideo } from '../media/stored-video';
import { decodeEmbeddings } from './embeddings';
import { indexSettings } from './index-settings';
import { insertTrack } from './index-store';
import { distanceToReferences, UNSURE_DISTANCE } from './matching';
import type { SegmentResult } from './types';
import { publishReview } from '../realtime/bus';
import { peopleUnderClip } from '../people/clip-people';

export type FaceSearch = 'looking' | 'found' | 'none';

const HEARTBEAT_EVERY_MS = 5000;

interface Candidate {
  startS: number;
  endS: number;
  quality: number;
  faceHeight: number;
  embeddings: Float32Array[];
}

/**
 * The tracks that are the athlete: closer than UNSURE_DISTANCE to a reference, closest first, and
 * never two at the same moment (one person is in one place at a time on one camera). Sorted by
 * time; the first of the result's `best` is the closest, for the thumbnail.
 */
export function pickAthleteTracks<T extends Candidate>(tracks: T[], refs: Float32Array[]): { tracks: T[]; best: T | null; distance: number } {
  const close = tracks
    .map((track) => ({ track, distance: track.embeddings.length ? distanceToReferences(track.embeddings, refs) : Infinity }))
    .filter((c) => c.distance < UNSURE_DISTANCE)
    .sort((a, b) => a.distance - b.distance);
  const chosen: typeof close = [];
  for (const c of close) if (!chosen.some((k) => k.track.startS <= c.track.endS && c.track.startS <= k.track.endS)) chosen.push(c);
  return {
    tracks: chosen.map((c) => c.track).sort((a, b) => a.startS - b.startS),
    best: chosen[0]?.track ?? null,
    distance: chosen[0]?.distance ?? Infinity,
  };
}

/** The athlete's reference descriptors, or none without the family's consent. */
async function referencesOf(db: Db, requestId: string): Promise<Float32Array[]> {
  const [owner] = await db
    .select({ userId: highlightRequests.userId, consent: userProfiles.faceMatchConsentAt })
    .from(highlightRequests)
    .innerJoin(userProfiles, eq(userProfiles.id, highlightRequests.userId))
    .where(eq(highlightRequests.id, requestId));
  if (!owner?.consent) return [];
  const rows = await db
    .select({ embedding: athleteReferences.embedding })
    .from(athleteReferences)
    .where(and(eq(athleteReferences.userId, owner.userId), isNotNull(athleteReferences.embedding)));
  return rows.flatMap((r) => decodeEmbeddings(r.embedding));
}

/** The fields a clip gets when its face is found. */
function foundValues(picked: { tracks: Array<{ id: string; faceHeight: number }>; best: { id: string } | null; distance: number }) {
  return {
    faceSearch: 'found' as FaceSearch,
    trackIds: picked.tracks.map((t) => t.id),
    trackId: picked.best!.id,
    faceHeight: Math.max(...picked.tracks.map((t) => t.faceHeight)),
    distance: Math.round(picked.distance * 1000) / 1000,
  };
}

/** The fresh look's job id: one per clip, span and state of the file's index, so a lost send can be repeated safely. */
function lookJobId(clip: { id: string; startS: number; endS: number }, indexedAt: Date | null) {
  return jobIdFor(`clip-face:${clip.id}:${clip.startS}:${clip.endS}:${indexedAt?.toISOString() ?? 'unindexed'}`);
}

/**
 * Looks for the athlete in a hand-added clip: in the file's index at once, or else through the
 * fresh-look job. Returns the clip's state after this call.
 */
export async function searchClipFace(deps: Pick<AppDeps, 'db' | 'bus' | 'jobs'>, appearanceId: string): Promise<FaceSearch | null> {
  const { db } = deps;
  const [clip] = await db.select().from(appearances).where(eq(appearances.id, appearanceId));
  if (!clip?.manual) return null;
  const [file] = await db.select().from(footage).where(eq(footage.id, clip.footageId));
  if (!file) return null;
  const refs = await referencesOf(db, clip.requestId);
  let values: Partial<typeof appearances.$inferInsert>;
  if (!refs.length) {
    // Nobody to look for (no consent, or no usable face photo): the crop stays centred.
    values = { faceSearch: 'none', trackIds: [], trackId: null };
  } else {
    const tracks =
      file.indexState === 'indexed'
        ? await db
            .select({ id: faceTracks.id, startS: faceTracks.startS, endS: faceTracks.endS, quality: faceTracks.quality, faceHeight: faceTracks.faceHeight, embeddings: faceTracks.embeddings })
            .from(faceTracks)
            .where(and(eq(faceTracks.footageId, file.id), lt(faceTracks.startS, clip.endS), gt(faceTracks.endS, clip.startS), sql`length(${faceTracks.embeddings}) > 0`))
        : [];
    const picked = pickAthleteTracks(tracks.map((t) => ({ ...t, embeddings: decodeEmbeddings(t.embeddings) })), refs);
    values = picked.best ? foundValues(picked) : { faceSearch: 'looking', trackIds: [], trackId: null };
  }
  // The person under the clip, found by face or by shirt, so the cut follows the athlete there.
  values.personTrackIds = file.indexState === 'indexed' ? await peopleUnderClip(db, clip, values.trackIds ?? []) : [];
  await db.update(appearances).set(values).where(eq(appearances.id, clip.id));
  if (values.faceSearch === 'looking') await deps.jobs.send('faces.find-in-clip', { appearanceId: clip.id }, { id: lookJobId(clip, file.indexedAt) });
  await publishReview(deps.bus, clip.requestId);
  return values.faceSearch as FaceSearch;
}

/** After a file is indexed again (its old tracks gone), each hand-added clip on it is searched again. */
export async function searchClipsOfFootage(deps: Pick<AppDeps, 'db' | 'bus' | 'jobs'>, footageId: string) {
  const clips = await deps.db.select({ id: appearances.id }).from(appearances).where(and(eq(appearances.footageId, footageId), eq(appearances.manual, true)));
  for (const clip of clips) await searchClipFace(deps, clip.id);
}

/**
 * The 'faces.find-in-clip' job: a closer look at the clip's frames than the index takes (every
 * sample searched whole, twice as many samples). The tracks found and the clip's new state are
 * written in one transaction, and only while the clip is still looking over the same span: a
 * run killed half-way runs again into one result, and a second run finds nothing left to do.
 */
export function findFaceInClip(deps: Pick<AppDeps, 'db' | 'bus' | 'jobs' | 'storage' | 'faces' | 'config'>): JobHandler<'faces.find-in-clip'> {
  const { db, storage, faces } = deps;
  return async ({ appearanceId }, ctx) => {
    const [clip] = await db.select().from(appearances).where(eq(appearances.id, appearanceId));
    if (!clip || clip.faceSearch !== 'looking') return 'skipped';
    const [file] = await db.select().from(footage).where(eq(footage.id, clip.footageId));
    if (!file) return 'skipped';
    const span = { startS: clip.startS, endS: clip.endS };
    /** Writes the outcome, unless another run wrote one or the clip changed meanwhile. */
    const finish = async (write: (tx: Db) => Promise<Partial<typeof appearances.$inferInsert>>): Promise<'done' | 'skipped'> => {
      const outcome = await db.transaction(async (tx) => {
        const [now] = await tx.select().from(appearances).where(eq(appearances.id, appearanceId)).for('update');
        if (!now || now.faceSearch !== 'looking') return 'gone';
        if (now.startS !== span.startS || now.endS !== span.endS) return 'trimmed';
        await tx.update(appearances).set(await write(tx)).where(eq(appearances.id, appearanceId));
        return 'written';
      });
      if (outcome === 'trimmed') {
        // Trimmed while this look ran: the new span gets its own look.
        const [now] = await db.select().from(appearances).where(eq(appearances.id, appearanceId));
        if (now) await deps.jobs.send('faces.find-in-clip', { appearanceId }, { id: lookJobId(now, file.indexedAt) });
      }
      if (outcome !== 'written') return 'skipped';
      await publishReview(deps.bus, clip.requestId);
      return 'done';
    };
    const refs = await referencesOf(db, clip.requestId);
    if (!refs.length) return finish(async () => ({ faceSearch: 'none' }));

    let stored: StoredVideo | null = null;
    try {
      // In the bucket only the clip's seconds are read (media/stored-video.ts).
      stored = await openStoredVideo(storage, file.sourceKey);
      if (!stored) throw new Error('The footage file is missing.');
      const source = stored.input;
      const size = file.width && file.height ? { width: file.width, height: file.height } : await probeVideo(source);
      const base = indexSettings(deps.config);
      // The file's people were tracked by its index; a hand-added clip looks for faces only.
      const settings = { ...base, sampleFps: base.sampleFps * 2, fullLookEvery: 1, people: null };
      let lastBeat = Date.now();
      const result = await faces.run<SegmentResult>(
        { op: 'index-segment', segment: { file: source, startS: span.startS, endS: span.endS, width: size.width, height: size.height }, settings },
        () => {
          if (Date.now() - lastBeat < HEARTBEAT_EVERY_MS) return;
          lastBeat = Date.now();
          void ctx.heartbeat().catch(() => {});
        },
      );
      const found = result.tracks.map((t, i) => ({ ...t, index: i, quality: t.best.quality, embeddings: t.descriptors.map((d) => Float32Array.from(d)) }));
      const picked = pickAthleteTracks(found, refs);
      return await finish(async (tx) => {
        if (!picked.best) return { faceSearch: 'none' };
        // Stored with the file's tracks: the render reads their face boxes like any other.
        const ids = new Map<number, string>();
        for (const track of picked.tracks) ids.set(track.index, await insertTrack(tx, file.id, result.tracks[track.index]!));
        return foundValues({
          tracks: picked.tracks.map((t) => ({ id: ids.get(t.index)!, faceHeight: t.faceHeight })),
          best: { id: ids.get(picked.best.index)! },
          distance: picked.distance,
        });
      });
    } catch (error) {
      // The last try gives up plainly: the clip is kept and its crop stays centred.
      if (ctx.lastAttempt) await finish(async () => ({ faceSearch: 'none' })).catch(() => {});
      throw error;
    } finally {
      await stored?.close();
    }
  };
}

/** Clips still looking whose job was never stored (the process stopped in between) get it again. */
export async function requeueFaceSearches(deps: Pick<AppDeps, 'db' | 'jobs'>): Promise<number> {
  const looking = await deps.db
    .select({ id: appearances.id, startS: appearances.startS, endS: appearances.endS, indexedAt: footage.indexedAt })
    .from(appearances)
    .innerJoin(footage, eq(footage.id, appearances.footageId))
    .where(and(eq(appearances.manual, true), eq(appearances.faceSearch, 'looking')));
  for (const clip of looking) await deps.jobs.send('faces.find-in-clip', { appearanceId: clip.id }, { id: lookJobId(clip, clip.indexedAt) });
  return looking.length;
}
