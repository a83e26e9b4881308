// /api/admin/events, /api/admin/games, /api/admin/footage, matching a request again and face
// thumbnails: the admin side of the reel builder. Mounted behind the admin guard (admin/routes.ts).
import { Hono } from 'hono';
import { and, asc, desc, eq, inArray, max } from 'drizzle-orm';
import { z } from 'zod';
import { FOOTAGE, ROSTER } from '../../common/admin-messages';
import { cameraKey, nextCameraName } from '../../common/camera-names';
import { eventDatesText } from '../../common/event-dates';
import { uploadLimit } from '../http/uploads';
import { parseRoster, ROSTER_MAX_BYTES } from '../rosters/csv';
import { importRoster, listRoster, removeTeam } from '../rosters/service';
import { hasControlCharacters } from '../../common/schemas';
import type { ViewerEnv } from '../auth/session';
import { audit } from '../audit/log';
import { eventGames, events, faceTracks, footage, highlightRequests } from '../db/schema';
import { publishFootage } from '../faces/indexing';
import { matchAgainAtEvent } from '../faces/matching';
import type { AppDeps } from '../deps';
import { apiError } from '../http/errors';
import { retentionOfEvent } from './retention';
import { MAX_OFFSET_S } from './sync';
import { openFaceData } from '../faces/face-data-seal';

const text = (max: number) => z.string().trim().min(1).max(max).refine((v) => !hasControlCharacters(v), 'Control characters are not allowed.');
const day = z.string().date(FOOTAGE.eventDayInvalid);
const eventFields = z.object({
  name: text(120),
  location: text(120),
  /** As families read them; written from the first and last day when those are given. */
  dates: text(60).optional(),
  startsOn: day.nullish(),
  endsOn: day.nullish(),
  reelSource: z.enum(['footage', 'hand']).optional(),
});
/** The last day is never before the first. */
const daysInOrder = (v: { startsOn?: string | null; endsOn?: string | null }) => !v.endsOn || !v.startsOn || v.endsOn >= v.startsOn;
/** Dates or a first day; a last day only with a first. */
const daysGiven = (v: { dates?: string; startsOn?: string | null; endsOn?: string | null }) => Boolean(v.dates || v.startsOn) && (!v.endsOn || Boolean(v.startsOn));
const eventSchema = eventFields.refine(daysGiven, { message: FOOTAGE.eventNeedsFields }).refine(daysInOrder, { message: FOOTAGE.lastDayBeforeFirst });
/** A change names at least one field: an empty one has nothing to save (and the database refuses an empty SET). */
const changesSomething = (v: object) => Object.values(v).some((x) => x !== undefined);
const eventPatchSchema = eventFields.partial().extend({ archived: z.boolean().optional() }).refine(changesSomething, { message: FOOTAGE.eventNeedsFields });
const cameraSchema = z.object({ camera: text(60) }).strict();
const gameSchema = z.object({ label: text(80), court: text(60).nullish(), startsAt: z.string().datetime({ offset: true }).nullish() });
const gamePatchSchema = gameSchema.partial().extend({ archived: z.boolean().optional() }).refine(changesSomething);
/** An admin's offset in seconds (kept to the millisecond), or null to go back to the sound's. */
const offsetSchema = z.object({ offsetS: z.number().min(-MAX_OFFSET_S).max(MAX_OFFSET_S).nullable() });
const slug = (name: string) => `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'event'}-${Date.now().toString(36)}`;
const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** The first problem in the event's own words: a bad day, days out of order, or what is missing. */
const EVENT_PROBLEMS: string[] = [FOOTAGE.eventDayInvalid, FOOTAGE.eventNeedsFields, FOOTAGE.lastDayBeforeFirst];
const messageOf = (error: z.ZodError) => error.issues.map((i) => i.message).find((m) => EVENT_PROBLEMS.includes(m)) ?? FOOTAGE.eventNeedsFields;

async function readJson<T extends z.ZodTypeAny>(c: { req: { json(): Promise<unknown> } }, schema: T) {
  return schema.safeParse(await c.req.json().catch(() => null));
}

export function footageDto(row: typeof footage.$inferSelect) {
  return {
    id: row.id,
    eventId: row.eventId,
    gameId: row.gameId,
    camera: row.camera,
    originalName: row.originalName,
    sizeBytes: row.sizeBytes,
    durationSeconds: row.durationSeconds,
    width: row.width,
    height: row.height,
    fps: row.fps,
    indexState: row.indexState,
    indexProgress: row.indexProgress,
    indexError: row.indexError,
    indexedAt: row.indexedAt?.toISOString() ?? null,
    indexStats: row.indexStats,
    /** Seconds to add to this camera's time for the game's clock, and where that came from (footage/sync.ts). */
    syncOffsetS: row.syncOffsetS,
    syncSource: row.syncSource,
    createdAt: row.createdAt.toISOString(),
  };
}

export function footageRoutes(deps: AppDeps) {
  return new Hono<ViewerEnv>()
    .get('/events', async (c) => {
      const rows = await deps.db.select().from(events).orderBy(asc(events.startsOn), asc(events.name));
      const games = await deps.db.select().from(eventGames).orderBy(asc(eventGames.position));
      c.header('Cache-Control', 'no-store');
      return c.json(
        rows.map((e) => ({
          id: e.id,
          name: e.name,
          location: e.location,
          dates: e.dates,
          startsOn: e.startsOn,
          endsOn: e.endsOn,
          reelSource: e.reelSource,
          demo: e.demo,
          archived: !e.isActive,
          games: games.filter((g) => g.eventId === e.id).map((g) => ({ id: g.id, label: g.label, court: g.court, startsAt: g.startsAt?.toISOString() ?? null, archived: Boolean(g.archivedAt) })),
        })),
      );
    })
    .post('/events', async (c) => {
      const parsed = await readJson(c, eventSchema);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', messageOf(parsed.error));
      const { startsOn = null, endsOn = null } = parsed.data;
      const dates = startsOn ? eventDatesText(startsOn, endsOn) : parsed.data.dates!;
      const [row] = await deps.db
        .insert(events)
        .values({ id: slug(parsed.data.name), name: parsed.data.name, location: parsed.data.location, dates, startsOn, endsOn, reelSource: parsed.data.reelSource ?? 'footage' })
        .returning();
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'event.create', subjectUserId: null, details: { eventId: row!.id } });
      return c.json({ id: row!.id }, 201);
    })
    .patch('/events/:id', async (c) => {
      const parsed = await readJson(c, eventPatchSchema);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', messageOf(parsed.error));
      const { archived, ...fields } = parsed.data;
      const [current] = await deps.db.select().from(events).where(eq(events.id, c.req.param('id')));
      if (!current) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      // The days as they will be, so the text families read follows them and they stay in order.
      const startsOn = fields.startsOn === undefined ? current.startsOn : fields.startsOn;
      const endsOn = fields.endsOn === undefined ? current.endsOn : fields.endsOn;
      if (endsOn && !startsOn) return apiError(c, 400, 'VALIDATION_ERROR', FOOTAGE.eventNeedsFields);
      if (!daysInOrder({ startsOn, endsOn })) return apiError(c, 400, 'VALIDATION_ERROR', FOOTAGE.lastDayBeforeFirst);
      const daysChanged = fields.startsOn !== undefined || fields.endsOn !== undefined;
      const [row] = await deps.db
        .update(events)
        .set({ ...fields, ...(daysChanged && startsOn && !fields.dates ? { dates: eventDatesText(startsOn, endsOn) } : {}), ...(archived === undefined ? {} : { isActive: !archived }) })
        .where(eq(events.id, current.id))
        .returning();
      if (!row) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'event.update', subjectUserId: null, details: { eventId: row.id, ...parsed.data } });
      return c.json({ id: row.id });
    })
    .post('/events/:id/games', async (c) => {
      const parsed = await readJson(c, gameSchema);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', 'A game needs a name.');
      const eventId = c.req.param('id');
      const [event] = await deps.db.select({ id: events.id }).from(events).where(eq(events.id, eventId));
      if (!event) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      const [{ last } = { last: 0 }] = await deps.db.select({ last: max(eventGames.position) }).from(eventGames).where(eq(eventGames.eventId, eventId));
      const id = `${eventId}-g${Date.now().toString(36)}`;
      await deps.db.insert(eventGames).values({ id, eventId, label: parsed.data.label, court: parsed.data.court ?? null, startsAt: parsed.data.startsAt ? new Date(parsed.data.startsAt) : null, position: (last ?? 0) + 1 });
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'game.create', subjectUserId: null, details: { eventId, gameId: id } });
      return c.json({ id }, 201);
    })
    .patch('/games/:id', async (c) => {
      const parsed = await readJson(c, gamePatchSchema);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', 'A game needs a name.');
      const { archived, startsAt, ...fields } = parsed.data;
      const [row] = await deps.db
        .update(eventGames)
        .set({ ...fields, ...(startsAt === undefined ? {} : { startsAt: startsAt ? new Date(startsAt) : null }), ...(archived === undefined ? {} : { archivedAt: archived ? new Date() : null }) })
        .where(eq(eventGames.id, c.req.param('id')))
        .returning();
      if (!row) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'game.update', subjectUserId: null, details: { gameId: row.id, ...parsed.data } });
      return c.json({ id: row.id });
    })
    // The event's teams and rosters (issue 35, item 1): a roster file is taken whole or not at all.
    .get('/events/:id/roster', async (c) => {
      const [event] = await deps.db.select({ id: events.id }).from(events).where(eq(events.id, c.req.param('id')));
      if (!event) return apiError(c, 404, 'NOT_FOUND', ROSTER.eventNotFound);
      return c.json(await listRoster(deps.db, event.id));
    })
    .post('/events/:id/roster', uploadLimit(ROSTER_MAX_BYTES, { title: ROSTER.failedTitle, description: ROSTER.tooLarge }), async (c) => {
      const [event] = await deps.db.select({ id: events.id }).from(events).where(eq(events.id, c.req.param('id')));
      if (!event) return apiError(c, 404, 'NOT_FOUND', ROSTER.eventNotFound);
      const parsed = parseRoster(await c.req.text());
      if (!parsed.ok) {
        return c.json({ code: 'ROSTER_REFUSED', title: ROSTER.failedTitle, message: parsed.problem, lines: parsed.bad.map((b) => ROSTER.line(b.line, b.message)) }, 400);
      }
      const outcome = await importRoster(deps.db, event.id, parsed.rows);
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'roster.import', subjectUserId: null, details: { eventId: event.id, ...outcome } });
      // Who wears which number, and in which kit, is evidence: the event's reels are matched again.
      await matchAgainAtEvent(deps, event.id);
      return c.json({ ...outcome, teams: await listRoster(deps.db, event.id), teamCount: outcome.teams });
    })
    .delete('/events/:id/teams/:teamId', async (c) => {
      const teamId = c.req.param('teamId');
      if (!isUuid(teamId) || !(await removeTeam(deps.db, c.req.param('id'), teamId))) return apiError(c, 404, 'NOT_FOUND', ROSTER.notFound);
      await matchAgainAtEvent(deps, c.req.param('id'));
      return c.json({ removed: true });
    })
    .get('/events/:id/footage', async (c) => {
      const eventId = c.req.param('id');
      const rows = await deps.db.select().from(footage).where(eq(footage.eventId, eventId)).orderBy(asc(footage.gameId), asc(footage.camera), asc(footage.createdAt));
      // When each file goes under the retention policy (footage/retention.ts).
      const retention = await retentionOfEvent(deps.db, eventId, deps.config.footageRetentionDays);
      c.header('Cache-Control', 'no-store');
      return c.json(rows.map((row) => ({ ...footageDto(row), ...(retention.get(row.id) ?? { deletesOn: null, keptForRequest: false }) })));
    })
    .post('/footage/:id/reindex', async (c) => {
      const id = c.req.param('id');
      // Anything but a run in progress: a file waiting for its retry is indexed now, by the job
      // that waits (brought forward) rather than a second one beside it.
      // Not once its index was deleted under the retention policy: that would rebuild the faces of
      // children whose families never asked (issue 33, finding 2).
      const [row] = isUuid(id)
        ? await deps.db.update(footage).set({ indexState: 'queued', indexProgress: 0, indexError: null }).where(and(eq(footage.id, id), inArray(footage.indexState, ['indexed', 'failed', 'queued']))).returning()
        : [];
      if (!row) {
        const [current] = isUuid(id) ? await deps.db.select({ indexState: footage.indexState }).from(footage).where(eq(footage.id, id)) : [];
        if (!current) return apiError(c, 404, 'NOT_FOUND', 'Not found');
        if (current.indexState === 'purged') return apiError(c, 409, 'INDEX_PURGED', FOOTAGE.purgedNoReindex);
        return apiError(c, 409, 'STATE_CHANGED', 'This footage is being indexed already.');
      }
      if (!(await deps.jobs.runWaitingNow('faces.index-footage', { footageId: id }))) await deps.jobs.send('faces.index-footage', { footageId: id });
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'footage.reindex', subjectUserId: null, details: { footageId: id } });
      await publishFootage(deps, row.eventId, id);
      return c.json(footageDto(row));
    })
    .delete('/footage/:id', async (c) => {
      const id = c.req.param('id');
      const [row] = isUuid(id) ? await deps.db.delete(footage).where(eq(footage.id, id)).returning() : [];
      if (!row) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      await deps.storage.delete(row.sourceKey).catch(() => {});
      // The game's clock may have been this file's: the other cameras are lined up again.
      await deps.jobs.send('footage.sync-game', { gameId: row.gameId });
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'footage.delete', subjectUserId: null, details: { footageId: id } });
      await publishFootage(deps, row.eventId, id);
      return c.json({ id });
    })
    // A camera renamed after its upload: still once per game, the game's row locked as at upload.
    .patch('/footage/:id', async (c) => {
      const id = c.req.param('id');
      const parsed = await readJson(c, cameraSchema);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', FOOTAGE.invalid);
      const camera = parsed.data.camera;
      const outcome = !isUuid(id)
        ? null
        : await deps.db.transaction(async (tx) => {
            const [file] = await tx.select().from(footage).where(eq(footage.id, id));
            if (!file) return null;
            await tx.select({ id: eventGames.id }).from(eventGames).where(eq(eventGames.id, file.gameId)).for('update');
            const others = (await tx.select().from(footage).where(eq(footage.gameId, file.gameId))).filter((f) => f.id !== id);
            const taken = others.find((f) => cameraKey(f.camera) === cameraKey(camera));
            if (taken) return { taken: FOOTAGE.cameraTaken(taken.camera, nextCameraName([...others.map((f) => f.camera), camera])) };
            const [row] = await tx.update(footage).set({ camera }).where(eq(footage.id, id)).returning();
            return { row: row!, was: file.camera };
          });
      if (!outcome) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      if ('taken' in outcome) return apiError(c, 409, 'CAMERA_TAKEN', outcome.taken!);
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'footage.rename', subjectUserId: null, details: { footageId: id, from: outcome.was, to: camera } });
      await publishFootage(deps, outcome.row.eventId, id);
      return c.json(footageDto(outcome.row));
    })
    .put('/footage/:id/offset', async (c) => {
      const id = c.req.param('id');
      const parsed = await readJson(c, offsetSchema);
      if (!parsed.success) return apiError(c, 400, 'VALIDATION_ERROR', FOOTAGE.offsetInvalid);
      const { offsetS } = parsed.data;
      const [row] = isUuid(id)
        ? await deps.db
            .update(footage)
            .set(offsetS === null ? { syncOffsetS: 0, syncSource: null } : { syncOffsetS: Math.round(offsetS * 1000) / 1000, syncSource: 'admin' })
            .where(eq(footage.id, id))
            .returning()
        : [];
      if (!row) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      // Back to automatic: the sound decides again. A hand-set reference moves the game's clock:
      // the cameras lined up against it follow.
      await deps.jobs.send('footage.sync-game', { gameId: row.gameId });
      await audit(deps.db, { actorId: c.var.viewer.userId, action: 'footage.offset', subjectUserId: null, details: { footageId: id, offsetS } });
      await publishFootage(deps, row.eventId, id);
      return c.json(footageDto(row));
    })
    .post('/requests/:id/match', async (c) => {
      const id = c.req.param('id');
      const [request] = isUuid(id) ? await deps.db.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.id, id)) : [];
      if (!request) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      await deps.db.update(highlightRequests).set({ matchingState: 'matching' }).where(eq(highlightRequests.id, id));
      await deps.jobs.send('faces.match-request', { requestId: id });
      return c.json({ id, matchingState: 'matching' }, 202);
    })
    .get('/face-tracks/:id/thumbnail', async (c) => {
      const id = c.req.param('id');
      const [track] = isUuid(id) ? await deps.db.select({ thumbnail: faceTracks.thumbnail }).from(faceTracks).where(eq(faceTracks.id, id)) : [];
      if (!track?.thumbnail) return apiError(c, 404, 'NOT_FOUND', 'Not found');
      return c.body(new Uint8Array(openFaceData(track.thumbnail)), 200, { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, no-store' });
    })
    .get('/footage/latest', async (c) => {
      const rows = await deps.db.select().from(footage).orderBy(desc(footage.createdAt)).limit(50);
      return c.json(rows.map(footageDto));
    });
}
