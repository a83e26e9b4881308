// The 'faces.index-footage' job: one footage file becomes its face index. The file is cut into
// as many stretches as there are face threads, each indexed in parallel (index-segment.ts); the
// tracks of all stretches are written in one transaction that first removes any earlier index of
// the file, so a re-run or a run after a crash leaves exactly one index. Requests already approved
// for the game are matched again afterwards.
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { appearances, events, faceTracks, footage, highlightRequests, personTracks } from '../db/schema';
import type { AppDeps } from '../deps';
import { FOOTAGE } from '../../common/admin-messages';
import { PermanentJobError, type JobHandler } from '../jobs/queue';
import { checkVideoReadable, DamagedVideoError, keyframeGaps, NotAVideoError, probeVideo, videoInput } from '../media/ffmpeg';
import { searchClipsOfFootage } from './clip-search';
import { storeIndex } from './index-store';
import { matchAgainAtEvent } from './matching';
import { nonReferenceSlack, referenceFrameTimes, SAMPLE_SLACK_S } from './decode-plan';
import type { SegmentResult } from './types';
import { indexSettings } from './index-settings';
import { decodePlanFallbacks, indexingSpeed, personStageSeconds } from '../observability/metrics';
import { FaceTaskError } from './pool';
import { logger } from '../observability/logger';
import { workFolder } from '../jobs/leftovers';

const PROGRESS_EVERY_MS = 1500;

export function indexFootage(deps: Pick<AppDeps, 'db' | 'storage' | 'bus' | 'faces' | 'config' | 'jobs'>): JobHandler<'faces.index-footage'> {
  const { db, storage, faces } = deps;
  return async ({ footageId }, ctx) => {
    const [row] = await db.select().from(footage).where(eq(footage.id, footageId));
    if (!row) return 'skipped'; // deleted while it waited
    if (row.indexState === 'indexed') return 'skipped';
    const update = async (values: Partial<typeof footage.$inferInsert>) => {
      await db.update(footage).set(values).where(eq(footage.id, footageId));
      await publishFootage(deps, row.eventId, footageId);
    };
    const work = await workFolder('footage');
    const started = performance.now();
    try {
      await update({ indexState: 'indexing', indexProgress: 0, indexError: null });
      // Read where it lies on this disk. From the bucket it is copied once: the check below and
      // the stretches read it through, which by range would fetch it twice.
      let source = storage.localPath(row.sourceKey);
      if (!source) {
        source = path.join(work, 'source');
        if (!(await storage.download(row.sourceKey, source))) throw new Error('The footage file is missing.');
      }
      // A file cut off or corrupt inside fails here, in seconds, rather than after its decoding.
      await checkVideoReadable(source);
      const probe = await probeVideo(source);
      await update({ durationSeconds: Math.round(probe.durationSeconds * 100) / 100, width: probe.width, height: probe.height, fps: probe.fps ? Math.round(probe.fps * 100) / 100 : null });
      const settings = indexSettings(deps.config);
      const duration = probe.durationSeconds;
      const { keyframesOnly, skipNonReference } = await decodeChoice(source, settings.sampleFps, probe.fps);
      const stretches = Math.max(1, Math.min(faces.size, Math.floor(duration / 10)));
      const done = new Array<number>(stretches).fill(0);
      let lastReport = 0;
      // One attempt at a time: when a stretch fails the others are stopped (their ffmpeg killed,
      // their threads freed) and nothing more is written before the job reports the failure.
      const stop = new AbortController();
      let progressWrite: Promise<unknown> = Promise.resolve();
      let firstFailure: unknown = null;
      const settled = await Promise.allSettled(
        Array.from({ length: stretches }, (_, i) => {
          // Stretches start on the sample grid, so samples fall at the same times (and on the
          // keyframes, when only those are decoded) however the file is cut.
          const onGrid = (at: number) => Math.round(at * settings.sampleFps) / settings.sampleFps;
          const startS = onGrid((duration / stretches) * i);
          const endS = i === stretches - 1 ? duration + 1 : onGrid((duration / stretches) * (i + 1));
          return faces.run<SegmentResult>(
            { op: 'index-segment', segment: { file: source, startS, endS, width: probe.width, height: probe.height, keyframesOnly, skipNonReference }, settings },
            (seconds) => {
              done[i] = seconds;
              const now = Date.now();
              if (stop.signal.aborted || now - lastReport < PROGRESS_EVERY_MS) return;
              lastReport = now;
              const progress = Math.min(99, Math.round((done.reduce((a, b) => a + b, 0) / Math.max(duration, 0.1)) * 100));
              progressWrite = update({ indexProgress: progress }).catch(() => {});
              void ctx.heartbeat().catch(() => {});
            },
            stop.signal,
          ).catch((error: unknown) => {
            if (!stop.signal.aborted) {
              firstFailure = error;
              stop.abort();
            }
            throw error;
          });
        }),
      );
      await progressWrite;
      if (firstFailure) throw firstFailure;
      const results = settled.map((r) => (r as PromiseFulfilledResult<SegmentResult>).value);
      const fallbacks = results.filter((r) => r.planFallback);
      for (const r of fallbacks) logger.warn({ footageId, reason: r.planFallback }, 'decode plan given up: the stretch was decoded whole');
      if (fallbacks.length) decodePlanFallbacks.inc(fallbacks.length);
      const indexMs = performance.now() - started;
      const storeStarted = performance.now();
      await storeIndex(deps, footageId, results);
      const stats = results.reduce(
        (sum, r) => ({
          frames: sum.frames + r.stats.frames,
          faces: sum.faces + r.stats.faces,
          descriptors: sum.descriptors + r.stats.descriptors,
          detectS: sum.detectS + r.stats.detectMs / 1000,
          describeS: sum.describeS + r.stats.describeMs / 1000,
          people: sum.people + r.stats.people,
          peopleS: sum.peopleS + r.stats.peopleMs / 1000,
          personTracks: sum.personTracks + r.people.length,
          numberReads: sum.numberReads + r.stats.numberReads,
          numberS: sum.numberS + r.stats.numberMs / 1000,
        }),
        { frames: 0, faces: 0, descriptors: 0, detectS: 0, describeS: 0, people: 0, peopleS: 0, personTracks: 0, numberReads: 0, numberS: 0 },
      );
      personStageSeconds.inc(stats.peopleS);
      await update({
        indexState: 'indexed',
        indexProgress: 100,
        indexedAt: new Date(),
        sampleFps: settings.sampleFps,
        indexStats: { ...stats, keyframesOnly: keyframesOnly ? 1 : 0, indexS: indexMs / 1000, storeS: (performance.now() - storeStarted) / 1000, realTimeFactor: duration / (indexMs / 1000) },
      });
      if (indexMs > 0) indexingSpeed.observe(duration / (indexMs / 1000));
      // The new index replaced every track of the file, those hand-added clips followed too.
      await searchClipsOfFootage(deps, footageId);
      await matchAgainAtEvent(deps, row.eventId, row.gameId);
      // The game's cameras are lined up again by their sound, this file among them (footage/sync.ts).
      await deps.jobs.send('footage.sync-game', { gameId: row.gameId });
      return 'done';
    } catch (error) {
      // Reading the file again cannot mend it: failed for good, said plainly, and no retries.
      if (error instanceof DamagedVideoError || error instanceof NotAVideoError) {
        await update({ indexState: 'failed', indexProgress: 0, indexError: FOOTAGE.damaged }).catch(() => {});
        throw new PermanentJobError(FOOTAGE.damaged);
      }
      // ffmpeg could not decode a stretch even whole, from this disk: the same again next time.
      if (error instanceof FaceTaskError && error.kind === 'undecodable') {
        await update({ indexState: 'failed', indexProgress: 0, indexError: FOOTAGE.undecodable }).catch(() => {});
        throw new PermanentJobError(`${FOOTAGE.undecodable} (${error.message})`);
      }
      // The tool's own words (temporary paths among them) stay in the failed jobs list. Progress
      // goes back to 0 with the state: a file waiting for its retry shows no progress.
      await update({ indexState: ctx.lastAttempt ? 'failed' : 'queued', indexProgress: 0, indexError: ctx.lastAttempt ? FOOTAGE.indexFailed : FOOTAGE.indexRetrying }).catch(() => {});
      throw error;
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  };
}

/**
 * True when the file has a keyframe at least every sample (one frame of slack) and not many more:
 * then decoding the keyframes alone gives the same samples, at a small part of the cost. Cameras
 * and encoders set to a keyframe every 0.5 s (15 frames at 30 fps) give this; for footage with
 * keyframes farther apart each keyframe is decoded with the frames after it up to its last sample
 * (decode-plan.ts). Footage with keyframes more than twice a sample (every frame is one in MJPEG,
 * ProRes and the intra-only modes of cameras) goes that way too: its keyframes alone are most of
 * its frames, and of the several in each sample's half-second the fps filter would take the
 * last, up to a quarter second after the sample's time, where the plan decodes the very frame.
 * Judged on the first minute.
 */
export async function keyframesSuffice(file: string, sampleFps: number, fps: number | null): Promise<boolean> {
  const gaps = await keyframeGaps(file, 60);
  const frame = 1 / (fps || 30);
  return gaps !== null && gaps.longest <= 1 / sampleFps + frame && gaps.median >= 1 / (2 * sampleFps) - frame;
}

/**
 * How the job decodes the file (docs/decisions/0014): the keyframes alone when they suffice;
 * otherwise each keyframe up to its last sample, also skipping the frames nothing refers to (the
 * B-frames of most cameras, half the decoding or more) when the first 2 s show that every sample
 * still has a decoded frame at most 1/15 s before it (one decoding of those 2 s).
 */
export async function decodeChoice(file: string, sampleFps: number, fps: number | null): Promise<{ keyframesOnly: boolean; skipNonReference: boolean }> {
  if (await keyframesSuffice(file, sampleFps, fps)) return { keyframesOnly: true, skipNonReference: false };
  const times = await referenceFrameTimes(await videoInput(file), 2).catch(() => []);
  return { keyframesOnly: false, skipNonReference: nonReferenceSlack(times, fps, sampleFps) <= SAMPLE_SLACK_S + 1e-3 };
}

export async function publishFootage(deps: Pick<AppDeps, 'bus'>, eventId: string, footageId: string) {
  // Admin screens listen to footage changes through the admins' topic.
  await deps.bus.publish({ topic: 'footage', userId: `event:${eventId}`, action: 'update', id: footageId });
}

/**
 * Face data is kept no longer than it must be (decision 0017). When an event's request window has
 * closed (its last day for requests, else FACE_REQUEST_WINDOW_DAYS after it started or the file was
 * indexed, whichever is later), the faces of its footage that no request matched are deleted, descriptors,
 * boxes and crops; the matched ones stay for their reels. FACE_INDEX_RETENTION_DAYS after
 * indexing the whole index goes. Either way the footage stays and can be indexed again, and its
 * index reads "purged". Returns how many files' indexes were cut.
 */
export async function purgeExpiredIndexes(deps: Pick<AppDeps, 'db' | 'config'>): Promise<number> {
  const { retentionDays, requestWindowDays } = deps.config.faces;
  const cutoff = new Date(Date.now() - retentionDays * 24 * 60 * 60 * 1000);
  const expired = await deps.db.select({ id: footage.id }).from(footage).where(and(eq(footage.indexState, 'indexed'), lt(footage.indexedAt, cutoff)));
  const closed = await deps.db
    .select({ id: footage.id })
    .from(footage)
    .innerJoin(events, eq(events.id, footage.eventId))
    .where(
      and(
        eq(footage.indexState, 'indexed'),
        // Footage indexed after the event began opens the window from then: families can ask
        // only once they can see the footage exists.
        sql`coalesce(${events.requestsCloseOn}, greatest(${events.startsOn}, (${footage.indexedAt} at time zone 'UTC')::date) + ${requestWindowDays}::int) < current_date`,
      ),
    );
  const whole = expired.map((f) => f.id);
  const unmatchedOnly = closed.map((f) => f.id).filter((id) => !whole.includes(id));
  if (!whole.length && !unmatchedOnly.length) return 0;
  await deps.db.transaction(async (tx) => {
    if (whole.length) await tx.delete(faceTracks).where(inArray(faceTracks.footageId, whole));
    // Where the people were goes with the faces: nothing a reel needs is kept by it yet.
    await tx.delete(personTracks).where(inArray(personTracks.footageId, [...whole, ...unmatchedOnly]));
    if (unmatchedOnly.length) {
      await tx.delete(faceTracks).where(
        and(
          inArray(faceTracks.footageId, unmatchedOnly),
          // Kept only for a proposal still to be decided or accepted, of a request not yet
          // delivered: a rejected proposal, or a delivered reel, needs no one's face any more (issue 33).
          sql`not exists (select 1 from ${appearances} a join ${highlightRequests} r on r.id = a.request_id
            where (a.track_id = ${faceTracks.id} or a.track_ids ? (${faceTracks.id})::text)
              and a.decision is distinct from 'rejected' and r.status <> 'delivered')`,
        ),
      );
    }
    await tx.update(footage).set({ indexState: 'purged', indexProgress: 0 }).where(inArray(footage.id, [...whole, ...unmatchedOnly]));
  });
  return whole.length + unmatchedOnly.length;
}
