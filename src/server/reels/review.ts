// The admin's review of a request's clips (reel builder part 2): the proposed appearances grouped
// into moments (the same stretch of a game seen by several cameras), and the admin's decisions,
// trims, hand-added clips and order. Every change is one statement or one transaction on the
// server, so a reload or a second admin sees exactly what was saved.
import { and, asc, desc, eq, isNotNull, max, sql } from 'drizzle-orm';
import { REVIEW } from '../../common/admin-messages';
import type { Db } from '../db/client';
import { isUuid } from '../db/errors';
import { appearances, eventGames, footage, highlightRequests, orders, reelRenders, rosterEntries, userProfiles, userVideos } from '../db/schema';
import { eventTeamNames, rosterDoubts } from '../rosters/link';
import { searchClipFace, type FaceSearch } from '../faces/clip-search';
import type { JobQueue } from '../jobs/queue';
import { publishReview, type EventBus } from '../realtime/bus';
import type { Storage } from '../storage/storage';
import { clipThumbnailKey, clipThumbnailUrl } from './clip-thumbnail';
import { nothingFound } from '../requests/reel-progress';
import { athleteBoxesOf } from './athlete-boxes';
import type { PersonReason } from '../people/decide';

export type AppearanceRow = typeof appearances.$inferSelect;

/** Trim handles move in tenths of a second; a clip is at least this long, at most this long. */
export const CLIP_MIN_S = 1;
export const CLIP_MAX_S = 120;
/** The most clips a reel holds (accepted ones); more is refused with REVIEW.tooManyClips. */
export const MAX_REEL_CLIPS = 100;
const tenth = (s: number) => Math.round(s * 10) / 10;

export class ReviewRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface Moment {
  gameId: string;
  /** On the game's clock: the cameras' own times plus their offsets (footage/sync.ts). */
  startS: number;
  endS: number;
  /** The clips of this moment, one per camera angle, biggest face first. */
  appearanceIds: string[];
  /** The angle preselected: where the athlete's face is largest. */
  preferredId: string;
}

/**
 * Clips of the same game whose times overlap on the game's clock, on different cameras, are one
 * moment seen from several angles. A clip's times are its file's own; `offsetOf` gives the
 * seconds to add to a file's time to reach the game's clock (none known: 0). Rejected clips
 * still belong to their moment (the admin may change their mind).
 */
export function groupMoments(
  rows: Pick<AppearanceRow, 'id' | 'footageId' | 'gameId' | 'camera' | 'startS' | 'endS' | 'faceHeight' | 'rank'>[],
  offsetOf: (footageId: string) => number = () => 0,
): Moment[] {
  const moments: Moment[] = [];
  const byGame = new Map<string, Array<(typeof rows)[number] & { clockStartS: number; clockEndS: number }>>();
  for (const r of rows) {
    const offset = offsetOf(r.footageId);
    byGame.set(r.gameId, [...(byGame.get(r.gameId) ?? []), { ...r, clockStartS: r.startS + offset, clockEndS: r.endS + offset }]);
  }
  for (const [gameId, list] of byGame) {
    const sorted = [...list].sort((a, b) => a.clockStartS - b.clockStartS);
    let group: typeof list = [];
    let groupEnd = -Infinity;
    const flush = () => {
      if (!group.length) return;
      const angles = [...group].sort((a, b) => b.faceHeight - a.faceHeight || a.rank - b.rank);
      moments.push({ gameId, startS: Math.min(...group.map((g) => g.clockStartS)), endS: groupEnd, appearanceIds: angles.map((a) => a.id), preferredId: angles[0]!.id });
      group = [];
    };
    for (const r of sorted) {
      // Only another camera makes another angle; two clips of one camera stay two moments.
      const overlaps = r.clockStartS < groupEnd && !group.some((g) => g.camera === r.camera);
      if (!overlaps) flush();
      group.push(r);
      groupEnd = group.length === 1 ? r.clockEndS : Math.max(groupEnd, r.clockEndS);
    }
    flush();
  }
  // Best moment first, as the matching ranked its clips.
  const bestRank = new Map(rows.map((r) => [r.id, r.rank]));
  return moments.sort((a, b) => Math.min(...a.appearanceIds.map((id) => bestRank.get(id)!)) - Math.min(...b.appearanceIds.map((id) => bestRank.get(id)!)));
}

/**
 * Where the request's reel stands, for the review's header: waiting for approval, ready for
 * review, rendering, rendered (hidden until paid, or visible), delivered; a failed render says so.
 * A render under way comes first: rendering a delivered request again shows it.
 */
export type ReviewStage = 'awaiting_approval' | 'ready' | 'rendering' | 'render_failed' | 'rendered_unpaid' | 'rendered' | 'delivered';
export function reviewStage(status: string, renderState: string | null, paid: boolean): ReviewStage {
  if (renderState === 'queued' || renderState === 'rendering') return 'rendering';
  if (status === 'delivered') return 'delivered';
  if (status === 'pending') return 'awaiting_approval';
  if (renderState === 'ready') return paid ? 'rendered' : 'rendered_unpaid';
  if (renderState === 'failed') return 'render_failed';
  return 'ready';
}

async function requestOf(db: Db, requestId: string) {
  const [request] = isUuid(requestId) ? await db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId)) : [];
  if (!request) throw new ReviewRefused(404, REVIEW.notFound);
  return request;
}

/**
 * The files of the requested games (all the event's when the request names none) that matching
 * could not search, each with why: waiting to index, indexing, failed (and its words), deleted.
 */
function unsearchedCameras(requested: string[], games: Array<typeof eventGames.$inferSelect>, files: Array<typeof footage.$inferSelect>) {
  const labels = new Map(games.map((g) => [g.id, g.label]));
  return files
    .filter((f) => f.indexState !== 'indexed' && (!requested.length || requested.includes(labels.get(f.gameId) ?? '')))
    .map((f) => ({ footageId: f.id, game: labels.get(f.gameId) ?? '', camera: f.camera, indexState: f.indexState, reason: f.indexError }));
}

/** The request's link to the event's roster as the review shows it; null at an event without rosters. */
async function rosterLinkOfRequest(db: Db, request: typeof highlightRequests.$inferSelect) {
  if (!request.eventId || request.teamName === null || !(await eventTeamNames(db, [request.eventId])).size) return null;
  const [entry] = request.rosterEntryId
    ? await db.select({ name: rosterEntries.athleteName }).from(rosterEntries).where(eq(rosterEntries.id, request.rosterEntryId))
    : [];
  return {
    team: request.teamName,
    jerseyNumber: request.jerseyNumber,
    rosterName: entry?.name ?? null,
    doubts: await rosterDoubts(db, request),
    confirmedAt: request.rosterConfirmedAt?.toISOString() ?? null,
  };
}

export async function loadReview(db: Db, requestId: string) {
  const request = await requestOf(db, requestId);
  const [profile] = await db
    .select({ firstName: userProfiles.firstName, lastName: userProfiles.lastName, teamName: userProfiles.teamName, jerseyNumber: userProfiles.jerseyNumber })
    .from(userProfiles)
    .where(eq(userProfiles.id, request.userId));
  const files = request.eventId
    ? await db.select().from(footage).where(eq(footage.eventId, request.eventId)).orderBy(asc(footage.gameId), asc(footage.camera))
    : [];
  const games = request.eventId ? await db.select().from(eventGames).where(eq(eventGames.eventId, request.eventId)).orderBy(asc(eventGames.position)) : [];
  const rows = await db.select().from(appearances).where(eq(appearances.requestId, requestId)).orderBy(asc(appearances.rank));
  const followed = await athleteBoxesOf(db, rows);
  const [render] = await db.select().from(reelRenders).where(eq(reelRenders.requestId, requestId)).orderBy(desc(reelRenders.createdAt)).limit(1);
  const outputs = await db
    .select({ id: userVideos.id, videoType: userVideos.videoType, durationSeconds: userVideos.durationSeconds, isVisible: userVideos.isVisible })
    .from(userVideos)
    .where(and(eq(userVideos.requestId, requestId), isNotNull(userVideos.renderId)));
  const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.requestId, requestId), eq(orders.status, 'completed'))).limit(1);
  return {
    request: {
      id: request.id,
      userId: request.userId,
      status: request.status,
      event: request.event,
      eventId: request.eventId,
      games: request.games,
      matchingState: request.matchingState,
      lookalike: request.lookalike,
      paid: Boolean(order),
      stage: reviewStage(request.status, render?.state ?? null, Boolean(order)),
      /** Matching found the athlete nowhere: the family is asked for reference photos, not to pay. */
      nothingFound: await nothingFound(db, request),
      /** Cameras of the requested games whose footage is not indexed: matching has not searched them. */
      unsearched: unsearchedCameras(request.games, games, files),
      /** At an event with rosters: the team and number named, the roster's name for them, and what is doubtful. */
      roster: await rosterLinkOfRequest(db, request),
    },
    athlete: {
      name: [profile?.firstName, profile?.lastName].filter(Boolean).join(' '),
      teamName: profile?.teamName ?? null,
      jerseyNumber: profile?.jerseyNumber ?? null,
    },
    games: games.map((g) => ({ id: g.id, label: g.label })),
    // Each file's place on its game's clock: a clip at t in the file is at t + syncOffsetS.
    footage: files.map((f) => ({ id: f.id, gameId: f.gameId, camera: f.camera, durationSeconds: f.durationSeconds, width: f.width, height: f.height, indexState: f.indexState, syncOffsetS: f.syncOffsetS, syncSource: f.syncSource, streamUrl: `/api/admin/footage/${f.id}/stream` })),
    clips: rows.map((a, i) => ({
      id: a.id,
      footageId: a.footageId,
      gameId: a.gameId,
      camera: a.camera,
      startS: a.startS,
      endS: a.endS,
      // What the face index saw: first and last sighting, how many samples, how close to the references.
      seenStartS: a.seenStartS,
      seenEndS: a.seenEndS,
      samples: a.samples,
      distance: a.distance,
      confidence: a.confidence,
      faceHeight: a.faceHeight,
      unsure: a.unsure,
      lookalike: a.lookalike,
      // The number read on the shirt in this clip, and whether it is the athlete's (null: the
      // profile has no number to compare with).
      jersey: a.jerseySeen === null ? null : { number: a.jerseySeen, athletes: profile?.jerseyNumber == null ? null : a.jerseySeen === profile.jerseyNumber },
      /** Why the clip was proposed where people were weighed (the shirt, the face, what was missing); null: by face alone. */
      reason: a.reason as PersonReason | null,
      /** The athlete's box at each sample, [t, x, y, w, h] in the file's seconds and pixels: what the social cut follows. */
      athlete: { of: followed[i]!.of, boxes: followed[i]!.boxes.map((b) => [b.t, b.x, b.y, b.w, b.h]) },
      rank: a.rank,
      decision: a.decision,
      position: a.position,
      manual: a.manual,
      /** A hand-added clip's search for the athlete's face: looking, found or none. */
      faceSearch: a.faceSearch as FaceSearch | null,
      // The face the index saw; else (a clip added by hand, its athlete not found) a frame of it.
      thumbnailUrl: a.trackId ? `/api/admin/face-tracks/${a.trackId}/thumbnail` : clipThumbnailUrl(request.id, a),
    })),
    moments: groupMoments(
      rows.filter((r) => !r.manual),
      (id) => files.find((f) => f.id === id)?.syncOffsetS ?? 0,
    ),
    render: render
      ? {
          id: render.id,
          state: render.state,
          stage: render.stage,
          progress: render.progress,
          error: render.error,
          spotlight: render.spotlight,
          createdAt: render.createdAt.toISOString(),
          finishedAt: render.finishedAt?.toISOString() ?? null,
          stats: render.stats,
        }
      : null,
    outputs,
  };
}
export type ReviewDto = Awaited<ReturnType<typeof loadReview>>;

async function clipOf(db: Db, requestId: string, appearanceId: string): Promise<AppearanceRow> {
  const [row] = isUuid(appearanceId) ? await db.select().from(appearances).where(and(eq(appearances.id, appearanceId), eq(appearances.requestId, requestId))) : [];
  if (!row) throw new ReviewRefused(404, REVIEW.clipNotFound);
  return row;
}

/** Accepted clips numbered 1..n again in their current order (after one leaves the reel). */
async function renumber(db: Db, requestId: string) {
  const accepted = await db
    .select({ id: appearances.id })
    .from(appearances)
    .where(and(eq(appearances.requestId, requestId), eq(appearances.decision, 'accepted')))
    .orderBy(asc(appearances.position), asc(appearances.rank));
  for (const [i, a] of accepted.entries()) await db.update(appearances).set({ position: i + 1 }).where(eq(appearances.id, a.id));
}

/**
 * Accept puts the clip at the end of the reel; reject or undecide takes it out. A clip added by
 * hand exists only to be in the reel: taking it out deletes it.
 */
export async function decideClip(deps: { db: Db; bus: EventBus; storage: Storage }, requestId: string, appearanceId: string, decision: 'accepted' | 'rejected' | null) {
  await requestOf(deps.db, requestId);
  const deleted = await deps.db.transaction(async (tx) => {
    const row = await clipOf(tx, requestId, appearanceId);
    if (row.decision === decision) return null;
    if (row.manual && decision !== 'accepted') {
      await tx.delete(appearances).where(eq(appearances.id, appearanceId));
      await renumber(tx, requestId);
      const [file] = await tx.select({ eventId: footage.eventId }).from(footage).where(eq(footage.id, row.footageId));
      return file ? clipThumbnailKey(file.eventId, row.id) : null;
    } else if (decision === 'accepted') {
      await refuseOverCap(tx, requestId);
      const [{ last } = { last: 0 }] = await tx.select({ last: max(appearances.position) }).from(appearances).where(eq(appearances.requestId, requestId));
      await tx.update(appearances).set({ decision, position: (last ?? 0) + 1 }).where(eq(appearances.id, appearanceId));
    } else {
      await tx.update(appearances).set({ decision, position: null }).where(eq(appearances.id, appearanceId));
      await renumber(tx, requestId);
    }
    return null;
  });
  // The deleted clip's picture goes with it.
  if (deleted) await deps.storage.delete(deleted).catch(() => {});
  await publishReview(deps.bus, requestId);
}

async function footageOfRequest(db: Db, request: { eventId: string | null }, footageId: string) {
  const [file] = isUuid(footageId) && request.eventId ? await db.select().from(footage).where(and(eq(footage.id, footageId), eq(footage.eventId, request.eventId))) : [];
  if (!file) throw new ReviewRefused(404, REVIEW.footageNotFound);
  return file;
}

/**
 * A clip's start and end, checked against its footage, in tenths of a second. Footage whose length
 * is not known (not indexed yet, or its indexing failed) takes no clip: nothing could be checked.
 */
function checkedSpan(startS: number, endS: number, durationS: number | null): { startS: number; endS: number } {
  if (durationS === null || !Number.isFinite(durationS) || durationS <= 0) throw new ReviewRefused(409, REVIEW.durationUnknown);
  const start = tenth(startS);
  const end = tenth(endS);
  if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end > tenth(durationS) + 0.05) throw new ReviewRefused(400, REVIEW.outsideFootage);
  if (end - start < CLIP_MIN_S - 1e-6) throw new ReviewRefused(400, REVIEW.tooShort);
  if (end - start > CLIP_MAX_S + 1e-6) throw new ReviewRefused(400, REVIEW.tooLong);
  return { startS: start, endS: end };
}

export async function trimClip(deps: { db: Db; bus: EventBus; storage: Storage }, requestId: string, appearanceId: string, span: { startS: number; endS: number }) {
  const request = await requestOf(deps.db, requestId);
  const row = await clipOf(deps.db, requestId, appearanceId);
  const file = await footageOfRequest(deps.db, request, row.footageId);
  const checked = checkedSpan(span.startS, span.endS, file.durationSeconds);
  await deps.db.update(appearances).set(checked).where(eq(appearances.id, appearanceId));
  // A frame from the old span no longer shows the clip: the next look makes a new one.
  await deps.storage.delete(clipThumbnailKey(file.eventId, row.id)).catch(() => {});
  await publishReview(deps.bus, requestId);
  return checked;
}

/**
 * A clip the face search did not find, added by hand from any footage of the event; accepted at
 * the end of the reel. The athlete's face is then looked for in its span (faces/clip-search.ts),
 * so the render follows them as in a found clip; `faceSearch` says how that went.
 */
export async function addClip(deps: { db: Db; bus: EventBus; jobs: JobQueue }, requestId: string, input: { footageId: string; startS: number; endS: number }) {
  const request = await requestOf(deps.db, requestId);
  const file = await footageOfRequest(deps.db, request, input.footageId);
  const span = checkedSpan(input.startS, input.endS, file.durationSeconds);
  const id = await deps.db.transaction(async (tx) => {
    await refuseOverCap(tx, requestId);
    const [{ last, lastRank } = { last: 0, lastRank: 0 }] = await tx
      .select({ last: max(appearances.position), lastRank: max(appearances.rank) })
      .from(appearances)
      .where(eq(appearances.requestId, requestId));
    const [row] = await tx
      .insert(appearances)
      .values({
        requestId,
        footageId: file.id,
        gameId: file.gameId,
        camera: file.camera,
        ...span,
        confidence: 1,
        distance: 0,
        faceHeight: 0,
        manual: true,
        faceSearch: 'looking',
        decision: 'accepted',
        position: (last ?? 0) + 1,
        // After every found clip: the social cut keeps found clips first when it must drop some.
        rank: (lastRank ?? 0) + 1,
      })
      .returning({ id: appearances.id });
    return row!.id;
  });
  // Publishes the clip with its search's state: found from the index at once, or looking.
  const faceSearch = await searchClipFace(deps, id);
  return { id, faceSearch };
}

/** Refuses one more accepted clip past MAX_REEL_CLIPS; the request row's lock makes two at once count right. */
async function refuseOverCap(tx: Parameters<Parameters<Db['transaction']>[0]>[0], requestId: string): Promise<void> {
  await tx.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.id, requestId)).for('update');
  const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(appearances).where(and(eq(appearances.requestId, requestId), isNotNull(appearances.position)));
  if (n >= MAX_REEL_CLIPS) throw new ReviewRefused(409, REVIEW.tooManyClips);
}

/** The reel's order: exactly the accepted clips, each once. */
export async function reorderClips(deps: { db: Db; bus: EventBus }, requestId: string, ids: string[]) {
  await requestOf(deps.db, requestId);
  await deps.db.transaction(async (tx) => {
    const accepted = await tx.select({ id: appearances.id }).from(appearances).where(and(eq(appearances.requestId, requestId), eq(appearances.decision, 'accepted')));
    const known = new Set(accepted.map((a) => a.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) throw new ReviewRefused(409, REVIEW.orderChanged);
    for (const [i, id] of ids.entries()) await tx.update(appearances).set({ position: i + 1 }).where(eq(appearances.id, id));
  });
  await publishReview(deps.bus, requestId);
}

/** The accepted clips in reel order, as the render takes them. */
export async function acceptedClips(db: Db, requestId: string) {
  return db
    .select()
    .from(appearances)
    .where(and(eq(appearances.requestId, requestId), eq(appearances.decision, 'accepted')))
    .orderBy(asc(appearances.position));
}
