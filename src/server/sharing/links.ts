// Share links (issue 34, item 2; decision 0034): a family makes a private, watch-only link to a
// delivered reel for relatives without an account. The secret is 32 random bytes in the address,
// in lower-case hex (page paths are lower-cased by the server: http/paths.ts);
// only its SHA-256 is stored, so the database alone opens nothing and the link is shown once.
// A link works until it expires or the family turns it off; each opening of its page is counted.
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { SHARE } from '../../common/dashboard-messages';
import type { Db } from '../db/client';
import { highlightRequests, shareLinks, userProfiles, userStills, userVideos } from '../db/schema';
import { requestPaidColumn } from '../orders/queries';

export const SHARE_PATH = '/share';
export const SHARE_DAYS_DEFAULT = 30;
export const SHARE_DAYS_MAX = 90;
/** Links of one reel that still work at once: plenty for a family, a bound for a script. */
export const SHARE_LINKS_MAX_ACTIVE = 20;

export class ShareRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** A token as the address carries it: 64 lower-case hex characters, nothing else. */
const TOKEN = /^[0-9a-f]{64}$/;

export type ShareLinkRow = typeof shareLinks.$inferSelect;

export function toShareLinkDto(row: ShareLinkRow, now = new Date()) {
  return {
    id: row.id,
    requestId: row.requestId,
    includePhotos: row.includePhotos,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state: row.revokedAt ? ('revoked' as const) : row.expiresAt <= now ? ('expired' as const) : ('active' as const),
    openCount: row.openCount,
    lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
  };
}
export type ShareLinkDto = ReturnType<typeof toShareLinkDto>;

/** The family's links, newest first, for their delivered requests. */
export async function listShareLinks(db: Db, userId: string): Promise<ShareLinkDto[]> {
  const rows = await db.select().from(shareLinks).where(eq(shareLinks.userId, userId)).orderBy(desc(shareLinks.createdAt));
  return rows.map((r) => toShareLinkDto(r));
}

/** Makes a link to the family's own delivered, paid request; the token is returned this once. */
export async function createShareLink(
  db: Db,
  userId: string,
  input: { requestId: string; days: number; includePhotos: boolean },
  now = new Date(),
): Promise<{ link: ShareLinkDto; token: string }> {
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > SHARE_DAYS_MAX) throw new ShareRefused(400, 'INVALID_DAYS', SHARE.invalidDays);
  const [request] = await db
    .select({ id: highlightRequests.id, status: highlightRequests.status, paid: requestPaidColumn })
    .from(highlightRequests)
    .where(and(eq(highlightRequests.id, input.requestId), eq(highlightRequests.userId, userId)));
  if (!request) throw new ShareRefused(404, 'NOT_FOUND', SHARE.notDelivered);
  if (request.status !== 'delivered' || !request.paid) throw new ShareRefused(409, 'NOT_DELIVERED', SHARE.notDelivered);
  const token = randomBytes(32).toString('hex');
  const row = await db.transaction(async (tx) => {
    // Counted with the request's row locked: two clicks at once cannot pass the limit together.
    await tx.select({ id: highlightRequests.id }).from(highlightRequests).where(eq(highlightRequests.id, request.id)).for('update');
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(shareLinks)
      .where(and(eq(shareLinks.requestId, request.id), isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now)));
    if (n >= SHARE_LINKS_MAX_ACTIVE) throw new ShareRefused(409, 'TOO_MANY_LINKS', SHARE.tooMany);
    const [created] = await tx
      .insert(shareLinks)
      .values({ userId, requestId: request.id, tokenHash: hashOf(token), includePhotos: input.includePhotos, expiresAt: new Date(now.getTime() + input.days * 24 * 3600 * 1000) })
      .returning();
    return created!;
  });
  return { link: toShareLinkDto(row, now), token };
}

/** Turns the family's own link off; null when it is not theirs (or does not exist). Turning off twice keeps the first time. */
export async function revokeShareLink(db: Db, userId: string, linkId: string): Promise<ShareLinkDto | null> {
  const [row] = await db.select().from(shareLinks).where(and(eq(shareLinks.id, linkId), eq(shareLinks.userId, userId)));
  if (!row) return null;
  if (row.revokedAt) return toShareLinkDto(row);
  const [updated] = await db.update(shareLinks).set({ revokedAt: new Date() }).where(eq(shareLinks.id, row.id)).returning();
  return toShareLinkDto(updated!);
}

export type SharedReel =
  | { state: 'unknown' }
  | { state: 'revoked' | 'expired'; link: ShareLinkRow }
  | {
      state: 'active';
      link: ShareLinkRow;
      firstName: string;
      event: string;
      videos: Array<{ id: string; videoType: string; width: number | null; height: number | null; thumbnailUrl: string | null; videoUrl: string }>;
      stills: Array<{ id: string; storageUrl: string }>;
    };

/** What a token opens: nothing, a link that no longer works, or the reel (first name only). */
export async function openShareLink(db: Db, token: string, now = new Date()): Promise<SharedReel> {
  if (!TOKEN.test(token)) return { state: 'unknown' };
  const [link] = await db.select().from(shareLinks).where(eq(shareLinks.tokenHash, hashOf(token)));
  if (!link) return { state: 'unknown' };
  if (link.revokedAt) return { state: 'revoked', link };
  if (link.expiresAt <= now) return { state: 'expired', link };
  const [request] = await db
    .select({ event: highlightRequests.event, status: highlightRequests.status, firstName: userProfiles.firstName })
    .from(highlightRequests)
    .innerJoin(userProfiles, eq(userProfiles.id, highlightRequests.userId))
    .where(eq(highlightRequests.id, link.requestId));
  // A request taken back from delivered (or its family's profile gone) shows nothing.
  if (!request || request.status !== 'delivered') return { state: 'revoked', link };
  const videos = (
    await db
      .select()
      .from(userVideos)
      .where(
        and(
          eq(userVideos.requestId, link.requestId),
          eq(userVideos.isVisible, true),
          eq(userVideos.isPaid, true),
          eq(userVideos.processingState, 'ready'),
          inArray(userVideos.videoType, ['highlight_reel', 'social_cut']),
        ),
      )
      .orderBy(asc(userVideos.createdAt))
  )
    .filter((v) => v.videoUrl)
    .map((v) => ({ id: v.id, videoType: v.videoType, width: v.width, height: v.height, thumbnailUrl: v.thumbnailUrl, videoUrl: v.videoUrl! }));
  const stills = link.includePhotos
    ? await db
        .select({ id: userStills.id, storageUrl: userStills.storageUrl })
        .from(userStills)
        .where(and(eq(userStills.requestId, link.requestId), eq(userStills.isVisible, true)))
        .orderBy(asc(userStills.orderPosition), asc(userStills.createdAt))
    : [];
  return { state: 'active', link, firstName: request.firstName.trim().split(/\s+/)[0] || 'Athlete', event: request.event, videos, stills };
}

/**
 * Messaging apps fetch a link as soon as it is pasted, to draw its preview: that is not a relative
 * opening it, and would make "Opened once" true before anyone has.
 */
const LINK_PREVIEW_AGENTS = /facebookexternalhit|whatsapp|slackbot|twitterbot|telegrambot|discordbot|linkedinbot|skypeuripreview|googlebot|bingbot|embedly|iframely|bot\b|crawler|spider|preview/i;

export function isLinkPreview(userAgent: string | undefined): boolean {
  return !userAgent || LINK_PREVIEW_AGENTS.test(userAgent);
}

/** Counts one opening of the link's page. */
export async function countOpening(db: Db, linkId: string): Promise<void> {
  await db.update(shareLinks).set({ openCount: sql`${shareLinks.openCount} + 1`, lastOpenedAt: new Date() }).where(eq(shareLinks.id, linkId));
}
