// Rendering a request's reel: the admin presses Render (startRender), the durable 'reels.render'
// job makes the highlight reel, the social cut and the stills from the accepted clips, and one
// transaction puts them in place of the previous render's. Every file name comes from the
// render's id, so a job killed half-way and run again writes the same files and the same rows
// once: the family never sees half a file or two versions.
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { REVIEW } from '../../common/admin-messages';
import { RENDERED_VIDEOS } from '../../common/dashboard-messages';
import { REEL_FORMAT } from '../../common/reel-format';
import { audit } from '../audit/log';
import type { Db } from '../db/client';
import { isUuid } from '../db/errors';
import { addresseeOf } from '../family/members';
import { footage, highlightRequests, orders, reelRenders, userProfiles, userStills, userVideos, type RenderClip } from '../db/schema';
import { athleteBoxesOf, followedBox } from './athlete-boxes';
import type { AppDeps } from '../deps';
import { jobIdFor, type JobHandler } from '../jobs/queue';
import { reelDeliveredMail } from '../mail/templates';
import { extractFrame, extractFullFrame, probeVideo } from '../media/ffmpeg';
import { openStoredVideo, type StoredVideo } from '../media/stored-video';
import { reencodeImage } from '../media/images';
import { storageKeys } from '../storage/keys';
import { introCard, outroCard } from './cards';
import type { FaceSample } from './crop-path';
import { FORMATS, pickSocialClips, renderOutput, type ClipInput, type OutputKind } from './render';
import { renderPreview } from './preview';
import { STILL_SHAPES, stillCrop } from './still-crops';
import { acceptedClips, ReviewRefused } from './review';
import { announceReadyToPurchase } from '../requests/reel-progress';
import { publishReview } from '../realtime/bus';
import { renderSpeed } from '../observability/metrics';
import { workFolder } from '../jobs/leftovers';

export const SOCIAL_MAX_S = REEL_FORMAT.socialMaxS;
/** Moments a reel's stills come from; each gives a portrait and a landscape. */
export const STILLS_MAX = 8;
const PROGRESS_EVERY_MS = 1000;

const VIDEO_TYPE: Record<OutputKind, 'highlight_reel' | 'social_cut'> = { reel: 'highlight_reel', social: 'social_cut' };
/** The id of a render's video of a kind: the same on every run of the job. */
export const renderVideoId = (renderId: string, kind: OutputKind) => jobIdFor(`${renderId}:${VIDEO_TYPE[kind]}`);

async function isPaid(db: Db, requestId: string): Promise<boolean> {
  const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.requestId, requestId), eq(orders.status, 'completed'))).limit(1);
  return Boolean(order);
}

const titles = (kind: OutputKind) => RENDERED_VIDEOS[VIDEO_TYPE[kind]];

/** Render pressed: the clips as they are now, checked, stored with the render, and the job sent. */
export async function startRender(deps: Pick<AppDeps, 'db' | 'jobs' | 'bus'>, requestId: string, adminId: string, opts: { spotlight: boolean }) {
  const render = await deps.db.transaction(async (tx) => {
    // One render at a time per request: the request row is the lock.
    const [request] = isUuid(requestId) ? await tx.select().from(highlightRequests).where(eq(highlightRequests.id, requestId)).for('update') : [];
    if (!request) throw new ReviewRefused(404, REVIEW.notFound);
    if (request.status === 'pending') throw new ReviewRefused(409, REVIEW.renderNotApproved);
    const [running] = await tx
      .select({ id: reelRenders.id })
      .from(reelRenders)
      .where(and(eq(reelRenders.requestId, requestId), inArray(reelRenders.state, ['queued', 'rendering'])));
    if (running) throw new ReviewRefused(409, REVIEW.renderBusy);
    const clips = await acceptedClips(tx, requestId);
    if (!clips.length) throw new ReviewRefused(400, REVIEW.renderNeedsClips);
    const snapshot: RenderClip[] = clips.map((c) => ({ appearanceId: c.id, footageId: c.footageId, startS: c.startS, endS: c.endS, rank: c.rank, trackIds: c.trackIds, personTrackIds: c.personTrackIds }));
    const [row] = await tx.insert(reelRenders).values({ requestId, spotlight: opts.spotlight, clips: snapshot, createdBy: adminId }).returning();

    // A family that has paid and has no reel yet sees "Video Being Processed" from now on.
    const [existing] = await tx.select({ id: userVideos.id }).from(userVideos).where(and(eq(userVideos.requestId, requestId), isNotNull(userVideos.renderId))).limit(1);
    if (!existing && (await isPaid(tx, requestId))) {
      await tx.insert(userVideos).values(
        (['reel', 'social'] as const).map((kind) => ({
          id: renderVideoId(row!.id, kind),
          userId: request.userId,
          videoTitle: titles(kind),
          tournamentName: request.event,
          videoType: VIDEO_TYPE[kind],
          isPaid: true,
          isVisible: true,
          processingState: 'processing',
          requestId,
          renderId: row!.id,
          uploadedBy: adminId,
        })),
      );
    }
    return { row: row!, userId: request.userId, placeholders: !existing };
  });
  await deps.jobs.send('reels.render', { renderId: render.row.id }, { id: render.row.id });
  await audit(deps.db, { actorId: adminId, action: 'reel.render', subjectUserId: render.userId, details: { requestId, renderId: render.row.id, clips: render.row.clips.length, spotlight: opts.spotlight } });
  await publishReview(deps.bus, requestId);
  await deps.bus.publish({ topic: 'user_videos', userId: render.userId, action: 'update' });
  return render.row;
}

/**
 * The request's rendered outputs follow its payment: once paid they are visible, and a request
 * with a finished reel moves to delivered and its family gets one mail. Called after a render and
 * after an order completes; whichever comes second delivers.
 */
export async function deliverIfReady(deps: Pick<AppDeps, 'db' | 'bus' | 'mailer' | 'config'>, requestId: string): Promise<boolean> {
  const { db } = deps;
  if (!(await isPaid(db, requestId))) return false;
  const [request] = await db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
  if (!request) return false;
  await db.update(userVideos).set({ isPaid: true, isVisible: true }).where(and(eq(userVideos.requestId, requestId), isNotNull(userVideos.renderId), eq(userVideos.isVisible, false)));
  await db.update(userStills).set({ isVisible: true }).where(and(eq(userStills.requestId, requestId), eq(userStills.isVisible, false)));
  const [ready] = await db.select({ id: reelRenders.id }).from(reelRenders).where(and(eq(reelRenders.requestId, requestId), eq(reelRenders.state, 'ready'))).limit(1);
  await deps.bus.publish({ topic: 'user_videos', userId: request.userId, action: 'update' });
  await deps.bus.publish({ topic: 'user_stills', userId: request.userId, action: 'update' });
  if (!ready) return false;
  const [moved] = await db
    .update(highlightRequests)
    .set({ status: 'delivered', updatedAt: new Date() })
    .where(and(eq(highlightRequests.id, requestId), eq(highlightRequests.status, 'ready_to_purchase')))
    .returning();
  if (!moved) return false;
  await deps.bus.publish({ topic: 'highlight_requests', userId: request.userId, action: 'update', id: requestId });
  const addressee = await addresseeOf(db, request.userId);
  const [{ stills } = { stills: 0 }] = await db.select({ stills: sql<number>`count(*)::int` }).from(userStills).where(eq(userStills.requestId, requestId));
  if (addressee) {
    await deps.mailer.send(
      reelDeliveredMail({ to: addressee.email, firstName: addressee.greeting, athleteName: addressee.athleteName, event: request.event, stills, dashboardUrl: `${deps.config.baseUrl}${addressee.dashboardPath}` }),
      { id: jobIdFor(`reel-delivered:${requestId}`) },
    );
  }
  return true;
}

interface StillPick {
  file: string;
  t: number;
  quality: number;
  order: number;
  /** The athlete's face in that frame, in the source's pixels: what the crops are cut around. */
  face: FaceSample;
  sourceW: number;
  sourceH: number;
}

/**
 * The athlete's best frame per clip (index quality: size × score × sharpness × frontalness, so
 * the sharpest frames where the athlete is largest), the best STILLS_MAX, in reel order.
 */
export function pickStills(clips: Array<{ file: string; width: number; height: number; startS: number; durationS: number; faces: Array<FaceSample & { quality: number }> }>): StillPick[] {
  const best: StillPick[] = [];
  clips.forEach((clip, order) => {
    const top = clip.faces.reduce<(FaceSample & { quality: number }) | null>((a, f) => (f.t >= 0 && f.t <= clip.durationS && (!a || f.quality > a.quality) ? f : a), null);
    if (top) best.push({ file: clip.file, t: clip.startS + top.t, quality: top.quality, order, face: top, sourceW: clip.width, sourceH: clip.height });
  });
  return best
    .sort((a, b) => b.quality - a.quality)
    .slice(0, STILLS_MAX)
    .sort((a, b) => a.order - b.order);
}

export function renderReelJob(deps: Pick<AppDeps, 'db' | 'storage' | 'bus' | 'mailer' | 'config'>): JobHandler<'reels.render'> {
  const { db, storage } = deps;
  return async ({ renderId }, ctx) => {
    const [render] = await db.select().from(reelRenders).where(eq(reelRenders.id, renderId));
    if (!render) return 'skipped';
    if (render.state === 'ready') return 'skipped';
    const [request] = await db.select().from(highlightRequests).where(eq(highlightRequests.id, render.requestId));
    if (!request) return 'skipped';
    const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.id, request.userId));

    let lastReport = 0;
    const update = async (values: Partial<typeof reelRenders.$inferInsert>, force = true) => {
      const now = Date.now();
      if (!force && now - lastReport < PROGRESS_EVERY_MS) return;
      lastReport = now;
      await db.update(reelRenders).set(values).where(eq(reelRenders.id, renderId));
      await publishReview(deps.bus, render.requestId);
      if (!force) await ctx.heartbeat().catch(() => {});
    };
    const stats: Record<string, number> = {};
    const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        stats[`${stage}S`] = Math.round((performance.now() - started) / 100) / 10;
      }
    };
    const work = await workFolder('render');
    const opened: StoredVideo[] = [];
    try {
      await update({ state: 'rendering', stage: 'reel', progress: 0, error: null });

      // The sources: each footage file once, read where it lies (in the bucket, only the clips'
      // seconds are read: media/stored-video.ts).
      const files = await db.select().from(footage).where(inArray(footage.id, [...new Set(render.clips.map((c) => c.footageId))]));
      const sources = new Map<string, { file: string; width: number; height: number; hasAudio: boolean }>();
      for (const f of files) {
        const stored = await openStoredVideo(storage, f.sourceKey);
        if (!stored) throw new Error(`The footage ${f.id} is missing.`);
        opened.push(stored);
        const probe = await probeVideo(stored.input);
        sources.set(f.id, { file: stored.input, width: probe.width, height: probe.height, hasAudio: probe.audioCodec !== null });
      }
      // What each clip follows: the tracked person's head, or the face (reels/athlete-boxes.ts).
      const followed = await athleteBoxesOf(db, render.clips);
      const clips = render.clips
        .map((c, i) => ({ c, followed: followed[i]! }))
        .filter(({ c }) => sources.has(c.footageId))
        .map(({ c, followed: { of, boxes } }) => {
          const source = sources.get(c.footageId)!;
          const durationS = Math.round((c.endS - c.startS) * 10) / 10;
          const faces = boxes.map((box) => followedBox(box, of)).map((f) => ({ ...f, t: f.t - c.startS }));
          return { ...source, startS: c.startS, durationS, rank: c.rank, faces } satisfies ClipInput & { rank: number };
        });
      if (!clips.length) throw new Error('None of the clips’ footage is there any more.');

      const intro = { name: [profile?.firstName, profile?.lastName].filter(Boolean).join(' '), teamName: profile?.teamName ?? null, jerseyNumber: profile?.jerseyNumber ?? null, event: request.event };
      const cards: Record<OutputKind, { intro: string; outro: string }> = { reel: { intro: '', outro: '' }, social: { intro: '', outro: '' } };
      for (const kind of ['reel', 'social'] as const) {
        const { width, height } = FORMATS[kind];
        cards[kind] = { intro: path.join(work, `intro-${kind}.png`), outro: path.join(work, `outro-${kind}.png`) };
        await fs.writeFile(cards[kind].intro, await introCard(intro, width, height));
        await fs.writeFile(cards[kind].outro, await outroCard(width, height));
      }

      const outputs: Record<OutputKind, string> = { reel: path.join(work, 'reel.mp4'), social: path.join(work, 'social.mp4') };
      const reel = await timed('reel', () =>
        renderOutput({ kind: 'reel', clips, introPng: cards.reel.intro, outroPng: cards.reel.outro, spotlight: render.spotlight, work, output: outputs.reel, onProgress: (f) => void update({ progress: Math.round(f * 55) }, false).catch(() => {}) }),
      );
      await update({ stage: 'social', progress: 55 });
      const socialClips = pickSocialClips(clips, SOCIAL_MAX_S);
      const social = await timed('social', () =>
        renderOutput({ kind: 'social', clips: socialClips, introPng: cards.social.intro, outroPng: cards.social.outro, spotlight: render.spotlight, work, output: outputs.social, onProgress: (f) => void update({ progress: 55 + Math.round(f * 30) }, false).catch(() => {}) }),
      );
      stats.reelDurationS = reel.durationS;
      if (stats.reelS) renderSpeed.observe({ output: 'reel' }, reel.durationS / stats.reelS);
      if (stats.socialS) renderSpeed.observe({ output: 'social' }, social.durationS / stats.socialS);
      stats.socialDurationS = social.durationS;

      await update({ stage: 'stills', progress: 85 });
      const picks = pickStills(clips);
      const stillFiles = await timed('stills', async () => {
        const out: Array<{ file: string; name: string }> = [];
        for (const [i, pick] of picks.entries()) {
          const png = path.join(work, `still-${i}.png`);
          await extractFullFrame(pick.file, png, pick.t);
          // A portrait and a landscape of the athlete, cut from the frame's own pixels (still-crops.ts).
          const { width = pick.sourceW, height = pick.sourceH } = await sharp(png).metadata();
          for (const shape of STILL_SHAPES) {
            const crop = stillCrop(pick.face, width, height, shape);
            const jpg = path.join(work, `still-${i}-${shape.name}.jpg`);
            // sharp writes no metadata unless asked: no camera, place or time leaves with a still.
            await sharp(png).extract(crop).jpeg({ quality: 92, mozjpeg: true }).toFile(jpg);
            out.push({ file: jpg, name: `highlight-${i + 1}-${shape.name}.jpg` });
          }
        }
        return out;
      });

      // The family's watermarked preview, from the reel just made: seen before they pay.
      const previewFile = path.join(work, 'preview.mp4');
      const reelProbe = await probeVideo(outputs.reel);
      await timed('preview', () => renderPreview({ reel: outputs.reel, reelDurationS: reelProbe.durationSeconds, hasAudio: reelProbe.audioCodec !== null, work, output: previewFile }));
      const previewKey = storageKeys.reelPreview(request.userId, renderId);
      await storage.putFile(previewKey, previewFile, 'video/mp4', { move: true });

      await update({ stage: 'storing', progress: 95 });
      const videos: Array<typeof userVideos.$inferInsert> = [];
      for (const kind of ['reel', 'social'] as const) {
        const id = renderVideoId(renderId, kind);
        const probe = await probeVideo(outputs[kind]);
        const frame = path.join(work, `frame-${kind}.jpg`);
        await extractFrame(outputs[kind], frame, FORMATS[kind].introS + 1);
        const thumbnail = await reencodeImage(await fs.readFile(frame), { maxBytes: 10 * 1024 * 1024, maxDimension: 1280 });
        const videoKey = storageKeys.video(request.userId, id, 'mp4');
        const thumbnailKey = storageKeys.videoAutoThumbnail(request.userId, id);
        const size = (await fs.stat(outputs[kind])).size;
        await storage.putFile(videoKey, outputs[kind], 'video/mp4', { move: true });
        await storage.put(thumbnailKey, thumbnail.data, thumbnail.contentType);
        videos.push({
          id,
          userId: request.userId,
          videoTitle: titles(kind),
          videoDescription: RENDERED_VIDEOS.description(kind === 'reel' ? clips.length : socialClips.length),
          tournamentName: request.event,
          videoType: VIDEO_TYPE[kind],
          videoUrl: videoKey,
          thumbnailUrl: thumbnailKey,
          durationSeconds: Math.round(probe.durationSeconds * 10) / 10,
          fileSizeMb: Math.round((size / (1024 * 1024)) * 100) / 100,
          width: probe.width,
          height: probe.height,
          isProcessed: true,
          processingState: 'ready',
          processingProgress: 100,
          requestId: request.id,
          renderId,
          uploadedBy: render.createdBy,
        });
      }
      const stillKeys: string[] = [];
      for (const [i, { file }] of stillFiles.entries()) {
        const key = storageKeys.renderedStill(request.userId, renderId, i);
        await storage.putFile(key, file, 'image/jpeg', { move: true });
        stillKeys.push(key);
      }

      // The swap: the new outputs in, the previous render's out, in one transaction.
      const replaced = await db.transaction(async (tx) => {
        // The family may have erased their account while this ran: then nothing is written back.
        const [still] = await tx.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.id, request.id)).for('update');
        if (!still) return null;
        const paid = await isPaid(tx, request.id);
        const oldVideos = await tx
          .delete(userVideos)
          .where(and(eq(userVideos.requestId, request.id), isNotNull(userVideos.renderId), ne(userVideos.renderId, renderId)))
          .returning({ videoUrl: userVideos.videoUrl, thumbnailUrl: userVideos.thumbnailUrl });
        for (const v of videos) {
          const values = { ...v, isPaid: paid, isVisible: paid };
          const { id: _id, ...changes } = values;
          await tx.insert(userVideos).values(values).onConflictDoUpdate({ target: userVideos.id, set: changes });
        }
        const oldStills = await tx
          .delete(userStills)
          .where(and(eq(userStills.requestId, request.id), isNotNull(userStills.renderId), ne(userStills.renderId, renderId)))
          .returning({ key: userStills.storageUrl });
        await tx.delete(userStills).where(eq(userStills.renderId, renderId));
        if (stillKeys.length) {
          await tx.insert(userStills).values(
            stillKeys.map((key, i) => ({ userId: request.userId, storageUrl: key, originalFilename: stillFiles[i]!.name, orderPosition: i, requestId: request.id, isVisible: paid, renderId })),
          );
        }
        const previous = and(eq(reelRenders.requestId, request.id), ne(reelRenders.id, renderId), isNotNull(reelRenders.previewKey));
        const oldPreviews = await tx.select({ key: reelRenders.previewKey }).from(reelRenders).where(previous);
        await tx.update(reelRenders).set({ previewKey: null }).where(previous);
        await tx.update(reelRenders).set({ state: 'ready', stage: null, progress: 100, error: null, finishedAt: new Date(), stats, previewKey }).where(eq(reelRenders.id, renderId));
        return [...oldVideos.flatMap((v) => [v.videoUrl, v.thumbnailUrl]), ...oldStills.map((s) => s.key), ...oldPreviews.map((p) => p.key)];
      });
      if (!replaced) {
        const written = [...videos.flatMap((v) => [v.videoUrl, v.thumbnailUrl]), ...stillKeys, previewKey];
        for (const key of written) if (key) await storage.delete(key).catch(() => {});
        console.log(`[reels] render ${renderId}: its request is gone (the account was erased); nothing kept`);
        return 'done';
      }
      for (const key of replaced) if (key) await storage.delete(key).catch((e: Error) => console.warn('[reels] could not remove', key, e.message));

      await publishReview(deps.bus, request.id);
      await deps.bus.publish({ topic: 'user_videos', userId: request.userId, action: 'update' });
      await deps.bus.publish({ topic: 'user_stills', userId: request.userId, action: 'update' });
      // Paid: delivered now. Not yet: the family is told, once, that the reel can be bought.
      if (!(await deliverIfReady(deps, request.id))) await announceReadyToPurchase(deps, request.id);
      return 'done';
    } catch (error) {
      await update({ state: ctx.lastAttempt ? 'failed' : 'queued', error: (error as Error).message.slice(0, 500) }).catch(() => {});
      throw error;
    } finally {
      await Promise.all(opened.map((v) => v.close()));
      await fs.rm(work, { recursive: true, force: true });
    }
  };
}

/**
 * A render whose job was never stored (the process stopped between the two) gets its job now,
 * rather than blocking the request's next Render for ever. The render's id is the job's id, so
 * this is harmless when the job is there after all.
 */
export async function requeueStuckRenders(deps: Pick<AppDeps, 'db' | 'jobs'>): Promise<number> {
  const stuck = await deps.db
    .select({ id: reelRenders.id })
    .from(reelRenders)
    .where(and(eq(reelRenders.state, 'queued'), lt(reelRenders.createdAt, new Date(Date.now() - 60_000))));
  for (const render of stuck) await deps.jobs.send('reels.render', { renderId: render.id }, { id: render.id });
  return stuck.length;
}
