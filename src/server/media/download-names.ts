// The names a family's downloads are saved under, decided here on the server and sent in
// Content-Disposition (media/serve.ts): "<Athlete> – <Event> – Highlight Reel.mp4",
// "<Athlete> – <Event> – Photo 3.jpg"; without a request, the video's own title or no event.
import { eq } from 'drizzle-orm';
import { DOWNLOAD_NAMES } from '../../common/dashboard-messages';
import type { Db } from '../db/client';
import { highlightRequests, userProfiles, type videoType } from '../db/schema';

type VideoKind = (typeof videoType.enumValues)[number];

/**
 * Characters no file name should carry: path separators, what Windows refuses, quotes, control
 * characters (C0, DEL, C1) and the bidirectional overrides that can disguise an extension.
 */
const UNSAFE = /[\\/:*?"<>|`\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** One part of a name made safe: no unsafe characters, single spaces, no edge dots, at most `max` characters. */
export function safeNamePart(text: string | null | undefined, max = 80): string {
  const clean = (text ?? '')
    .normalize('NFC')
    // An apostrophe stays readable (O’Brien) without being a quote in the header.
    .replace(/'/g, '’')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Count code points, not UTF-16 units, so a cut never splits a letter in two.
  const cut = Array.from(clean).slice(0, max).join('');
  return cut.replace(/^[.\s]+|[.\s]+$/g, '');
}

function joinName(parts: Array<string | null | undefined>, ext: string): string {
  return `${parts.filter(Boolean).join(DOWNLOAD_NAMES.separator)}.${ext}`;
}

export interface NamingContext {
  /** The athlete's first and last name from the profile ('' when the profile has none). */
  athlete: string;
  /** The event of the request the file belongs to; null for a file without a request. */
  event: string | null;
}

export function videoDownloadName(ctx: NamingContext, video: { videoTitle: string; videoType: VideoKind }): string {
  const athlete = safeNamePart(ctx.athlete, 60);
  const event = safeNamePart(ctx.event);
  if (event) return joinName([athlete, event, DOWNLOAD_NAMES.videoKinds[video.videoType]], 'mp4');
  // An upload that belongs to no request: its own title says what it is.
  return joinName([athlete, safeNamePart(video.videoTitle) || DOWNLOAD_NAMES.video], 'mp4');
}

export function stillDownloadName(ctx: NamingContext, number: number, storageKey: string): string {
  const ext = /\.(jpe?g|png|webp)$/i.exec(storageKey)?.[1]?.toLowerCase() ?? 'jpg';
  return joinName([safeNamePart(ctx.athlete, 60), safeNamePart(ctx.event), DOWNLOAD_NAMES.photo(number)], ext === 'jpeg' ? 'jpg' : ext);
}

/** The athlete's name of `userId`'s profile and the event of `requestId` (scoped to the same user). */
export async function namingContext(db: Db, userId: string, requestId: string | null): Promise<NamingContext> {
  const [profile] = await db
    .select({ firstName: userProfiles.firstName, lastName: userProfiles.lastName })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId));
  const [request] = requestId
    ? await db.select({ event: highlightRequests.event, userId: highlightRequests.userId }).from(highlightRequests).where(eq(highlightRequests.id, requestId))
    : [];
  return {
    athlete: `${profile?.firstName ?? ''} ${profile?.lastName ?? ''}`.trim(),
    event: request && request.userId === userId ? request.event : null,
  };
}
