// Where a request's reel stands, as its family sees it (issue 22). An event whose reels are made
// from the provider's footage (its reel source, or footage uploaded to it) gets its reel from the
// reel builder: the family sees a watermarked preview once a render is ready and may pay only
// then; before, they are told the footage is not in yet, that the athlete is being looked for, or
// that nothing was found and what helps. An event made by hand keeps the spec's original flow: the
// team makes the videos after payment (issue 34, item 3).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { highlightRequests, userProfiles } from '../db/schema';
import { addresseeOf } from '../family/members';
import { rosterAllowsPurchase } from '../rosters/link';
import type { AppDeps } from '../deps';
import { jobIdFor } from '../jobs/queue';
import { handPickText, nothingFoundText, readyToPurchaseMail, type TeamText } from '../mail/templates';
import { tellTeam } from '../team/notices';
import { paidRequestIds } from '../orders/queries';
import { mediaUrl } from '../storage/keys';

export type ReelState = 'awaiting_footage' | 'finding' | 'not_found' | 'no_consent' | 'preview';

export interface ReelProgress {
  /** The reel is made from the event's footage (else by hand, after payment). */
  fromFootage: boolean;
  /** For a reel from footage: what the family is told; null otherwise. */
  state: ReelState | null;
  /** The watermarked preview of the latest ready render, served by /api/media to owner and admins. */
  previewUrl: string | null;
  /** While the athlete is looked for: files of the requested games not searched yet (not indexed, or failed). */
  camerasNotSearched?: number;
}

type RequestRow = typeof highlightRequests.$inferSelect;

/**
 * Footage of the request's event is still to be indexed (which would match again), or failed to
 * be: a camera nobody has searched yet is no ground for "not found" (the team sees the failure,
 * and a new upload or Re-index searches it).
 */
const footageWaiting = sql`exists (select 1 from footage f where f.event_id = highlight_requests.event_id
  and f.index_state not in ('indexed', 'purged'))`;
/** How many files of the requested games (all the event's when none are named) matching has not searched: not indexed yet, or failed. */
const camerasNotSearched = sql<number>`(select count(*)::int from footage f join event_games g on g.id = f.game_id
  where f.event_id = highlight_requests.event_id and f.index_state not in ('indexed', 'purged')
  and (jsonb_array_length(highlight_requests.games) = 0 or highlight_requests.games ? g.label))`;
const footageIn = sql<boolean>`exists (select 1 from footage f where f.event_id = highlight_requests.event_id)`;
/** The reel is built from footage: the event says so, or footage of it is in whatever it says. */
const fromFootage = sql<boolean>`(${footageIn} or coalesce((select e.reel_source = 'footage' from events e where e.id = highlight_requests.event_id), false))`;
/**
 * Matching has finished and found the athlete nowhere: no clip (proposed or hand-added) for the
 * request, and no footage of the event still waiting to be indexed.
 */
const foundNowhere = sql<boolean>`coalesce(highlight_requests.event_id is not null
  and highlight_requests.matching_state in ('ready', 'no_reference')
  and not exists (select 1 from appearances a where a.request_id = highlight_requests.id)
  and ${footageIn} and not ${footageWaiting}, false)`;

/**
 * What decides where a request's reel stands, as columns of a query on highlight_requests: the
 * database answers them for a whole list of requests in one statement (the dashboard, the admin's
 * users list), each from an index (footage by event, renders and clips by request). The rules
 * live here alone, in SQL, so a list that the database writes as JSON says what the others say.
 */
export const reelFactColumns = {
  // Written out with their tables: drizzle leaves a column in a subquery unqualified.
  fromFootage,
  footageIn,
  previewKey: sql<string | null>`(select r.preview_key from reel_renders r
    where r.request_id = highlight_requests.id and r.state = 'ready' and r.preview_key is not null
    order by r.created_at desc limit 1)`,
  foundNowhere,
  camerasNotSearched,
  /** The admin's "nothing found" mark on a request of a reel from footage, until it is delivered. */
  markedNothingFound: sql<boolean>`(highlight_requests.status <> 'delivered' and ${foundNowhere})`,
};
export interface ReelFacts {
  fromFootage: boolean;
  /** Footage of the event has been uploaded (a reel from footage waits for it before anything else). */
  footageIn: boolean;
  previewKey: string | null;
  foundNowhere: boolean;
  camerasNotSearched: number;
  markedNothingFound: boolean;
}

/** The facts of each listed request, by id. */
export async function reelFactsOf(db: Db, requestIds: string[]): Promise<Map<string, ReelFacts>> {
  if (!requestIds.length) return new Map();
  const rows = await db.select({ id: highlightRequests.id, ...reelFactColumns }).from(highlightRequests).where(inArray(highlightRequests.id, requestIds));
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}

/** Where the request's reel stands, from its facts. */
export function progressFrom(request: Pick<RequestRow, 'matchingState'>, facts: ReelFacts): ReelProgress {
  if (!facts.fromFootage) return { fromFootage: false, state: null, previewUrl: null };
  if (facts.previewKey) return { fromFootage: true, state: 'preview', previewUrl: mediaUrl(facts.previewKey) };
  if (!facts.footageIn) return { fromFootage: true, state: 'awaiting_footage', previewUrl: null };
  if (request.matchingState === 'no_consent') return { fromFootage: true, state: 'no_consent', previewUrl: null };
  if (facts.foundNowhere) return { fromFootage: true, state: 'not_found', previewUrl: null };
  return { fromFootage: true, state: 'finding', previewUrl: null, camerasNotSearched: facts.camerasNotSearched };
}

/** One request's facts; null for a request that is gone. */
export async function reelFactsOfRequest(db: Db, requestId: string): Promise<ReelFacts | null> {
  return (await reelFactsOf(db, [requestId])).get(requestId) ?? null;
}

export async function nothingFound(db: Db, request: Pick<RequestRow, 'id'>): Promise<boolean> {
  const facts = await reelFactsOfRequest(db, request.id);
  return Boolean(facts?.foundNowhere);
}

export async function reelProgress(db: Db, request: RequestRow): Promise<ReelProgress> {
  const facts = await reelFactsOfRequest(db, request.id);
  return facts ? progressFrom(request, facts) : { fromFootage: false, state: null, previewUrl: null };
}

/**
 * Tells the family their reel can be bought, once per request (the mail job's id comes from the
 * request): a reel from footage once a render with its preview is ready, a hand-made one at
 * approval. Nothing for a request already paid, or no longer waiting to be bought.
 */
export async function announceReadyToPurchase(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, requestId: string): Promise<boolean> {
  const { db } = deps;
  const [request] = await db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
  if (!request || request.status !== 'ready_to_purchase') return false;
  if ((await paidRequestIds(db, request.userId)).has(request.id)) return false;
  // A doubtful roster link is bought only once the team confirms it: the mail waits for that (rosters/link.ts).
  if (!(await rosterAllowsPurchase(db, request))) return false;
  const facts = await reelFactsOfRequest(db, request.id);
  if (!facts) return false;
  const fromFootage = facts.fromFootage;
  if (fromFootage && !facts.previewKey) return false;
  const addressee = await addresseeOf(db, request.userId);
  if (!addressee) return false;
  await deps.mailer.send(
    readyToPurchaseMail({
      to: addressee.email,
      firstName: addressee.greeting,
      athleteName: addressee.athleteName,
      event: request.event,
      preview: fromFootage,
      dashboardUrl: `${deps.config.baseUrl}${addressee.dashboardPath}${fromFootage ? '#reel-preview' : ''}`,
    }),
    { id: jobIdFor(`ready-to-purchase:${requestId}`) },
  );
  return true;
}

/**
 * Tells the team about a request, once (team/notices.ts keys it by `kind` and the request), when
 * `applies` says the request is in that state; the notice names the athlete and links the review.
 */
async function tellTeamAbout(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  requestId: string,
  kind: 'hand_pick' | 'nothing_found',
  applies: (request: RequestRow, facts: ReelFacts) => boolean,
  text: (p: { athleteName: string; event: string }) => TeamText,
): Promise<boolean> {
  const [request] = await deps.db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
  const facts = request && (await reelFactsOfRequest(deps.db, request.id));
  if (!request || !facts || !applies(request, facts)) return false;
  const [profile] = await deps.db
    .select({ firstName: userProfiles.firstName, lastName: userProfiles.lastName, email: userProfiles.email })
    .from(userProfiles)
    .where(eq(userProfiles.id, request.userId));
  await tellTeam(deps, {
    key: `${kind}:${requestId}`,
    kind,
    ...text({ athleteName: [profile?.firstName, profile?.lastName].filter(Boolean).join(' '), event: request.event }),
    link: `${deps.config.baseUrl}/admin/requests/${request.id}`,
    replyTo: profile?.email ?? null,
    userId: request.userId,
  });
  return true;
}

/**
 * Tells the team, once per request, that a family declined face matching: the athlete's clips of
 * a reel from footage are theirs to pick by hand (issue 34, item 5).
 */
export function announceHandPick(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, requestId: string): Promise<boolean> {
  return tellTeamAbout(deps, requestId, 'hand_pick', (r, facts) => facts.fromFootage && r.status !== 'delivered' && r.matchingState === 'no_consent', handPickText);
}

/** Tells the team, once per request, that matching found the athlete nowhere in the footage. */
export function announceNothingFound(deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>, requestId: string): Promise<boolean> {
  return tellTeamAbout(deps, requestId, 'nothing_found', (_, facts) => facts.markedNothingFound, nothingFoundText);
}

/**
 * New faces to look for (a reference photo added, face matching turned on): the family's open
 * requests that matching found nothing for, or could not run, are matched again, which takes
 * them out of "we couldn't find …" until the job's result.
 */
export async function matchAgainWithNewFaces(deps: Pick<AppDeps, 'db' | 'jobs' | 'bus'>, userId: string): Promise<number> {
  const { db } = deps;
  const open = await db
    .select()
    .from(highlightRequests)
    .where(and(eq(highlightRequests.userId, userId), eq(highlightRequests.status, 'ready_to_purchase'), inArray(highlightRequests.matchingState, ['ready', 'no_reference', 'no_consent'])));
  let sent = 0;
  for (const request of open) {
    const facts = await reelFactsOfRequest(db, request.id);
    if (!facts?.fromFootage || facts.previewKey) continue;
    if (request.matchingState === 'ready' && !facts.foundNowhere) continue;
    // Only the call that moves it to "matching" sends the job: many at once queue one match (issue 33).
    const [moved] = await db
      .update(highlightRequests)
      .set({ matchingState: 'matching' })
      .where(and(eq(highlightRequests.id, request.id), eq(highlightRequests.matchingState, request.matchingState!)))
      .returning({ id: highlightRequests.id });
    if (!moved) continue;
    await deps.jobs.send('faces.match-request', { requestId: request.id });
    await deps.bus.publish({ topic: 'highlight_requests', userId, action: 'update', id: request.id });
    sent++;
  }
  return sent;
}
