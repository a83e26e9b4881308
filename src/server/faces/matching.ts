// Finds an athlete in the indexed footage of their request: every track of the requested games,
// on every camera, is compared with the athlete's reference faces (the closest pair counts).
// Close tracks become appearances: hits a few seconds apart merge, a little time is added before
// and after, and each gets a confidence. Tracks near the threshold are kept as "unsure" for the
// admin, never silently kept or dropped; faces about as close to another athlete of the event
// are marked as look-alikes and both requests flagged. The jersey number read under a face
// (faces/jersey.ts) settles a look-alike clip when it is the athlete's, and makes a clip unsure
// when it is another number. Runs as the 'faces.match-request' job
// when a request is approved, and again when more of its footage is indexed.
import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { appearances, athleteReferences, eventGames, faceTracks, footage, highlightRequests, personTracks, userProfiles } from '../db/schema';
import type { AppDeps } from '../deps';
import type { JobHandler } from '../jobs/queue';
import { announceHandPick, announceNothingFound } from '../requests/reel-progress';
import { base64Of, decodeBase64Embeddings, decodeEmbeddings } from './embeddings';
import { faceDistance } from './engine';
import { rankNumbers } from '../people/numbers';
import { confirmAcrossCameras, decidePerson, type AthleteShirt, type PersonReason, type PersonVerdict } from '../people/decide';
import { CONTINUE_OVERLAP_S } from '../people/continuations';
import { kitsAsSeenByFile, type TeamKits } from '../people/kit';
import { labelsOf } from '../people/labels';
import { shirtOfRequest } from '../people/teams';

/**
 * Below MATCH_DISTANCE: the same person; up to UNSURE_DISTANCE: for the admin to decide. Chosen on
 * real photos of the same people (docs/decisions/0016): two photos of one person are 0.31-0.72
 * apart (median 0.48), of two people 0.49-1.0 (1 % under 0.60).
 */
export const MATCH_DISTANCE = 0.5;
export const UNSURE_DISTANCE = 0.6;
/** A face this much closer to another athlete of the event than to this one is the other athlete's. */
const OTHER_ATHLETE_MARGIN = 0.02;
/** A face about as close to another athlete (within this) is marked a look-alike. */
const LOOKALIKE_MARGIN = 0.05;
/** An unsure face this close to a sure sighting of the athlete in the same game is sure. */
const VOUCH_DISTANCE = 0.45;
/** Sightings of the athlete on one camera at most this far apart, with no cut between, make one clip. */
const MERGE_GAP_S = 2;
/** Two sightings on one camera sharing this much time are two people. */
const SAME_TIME_S = 0.5;
/** A clip starts and ends this much before and after the face was seen. */
export const CLIP_PAD_S = 0.5;

export type MatchOutcome = 'ready' | 'no_consent' | 'no_reference' | 'not_found';

/** The closest distance between any descriptor of a face track and any reference face. */
export function distanceToReferences(track: Float32Array[], refs: Float32Array[]): number {
  let best = Infinity;
  for (const a of track) for (const b of refs) best = Math.min(best, faceDistance(a, b));
  return best;
}

/** 1 well inside the threshold, 0.5 at it, falling fast beyond. */
function confidenceOf(distance: number): number {
  return Math.round((1 / (1 + Math.exp((distance - MATCH_DISTANCE) / 0.03))) * 1000) / 1000;
}

export async function matchRequest(deps: Pick<AppDeps, 'db' | 'bus'>, requestId: string): Promise<MatchOutcome> {
  const { db } = deps;
  const [request] = await db.select().from(highlightRequests).where(eq(highlightRequests.id, requestId));
  if (!request || !request.eventId) return 'not_found';
  const finish = async (state: string, rows: (typeof appearances.$inferInsert)[], lookalike = false) => {
    await db.transaction(async (tx) => {
      // The admin's decisions and hand-added clips stay; a new proposal over a kept clip is dropped.
      await tx.delete(appearances).where(and(eq(appearances.requestId, requestId), isNull(appearances.decision), eq(appearances.manual, false)));
      const kept = await tx.select({ footageId: appearances.footageId, startS: appearances.startS, endS: appearances.endS }).from(appearances).where(eq(appearances.requestId, requestId));
      const fresh = rows.filter((r) => !kept.some((k) => k.footageId === r.footageId && k.startS < r.endS! && r.startS! < k.endS));
      for (let i = 0; i < fresh.length; i += 500) await tx.insert(appearances).values(fresh.slice(i, i + 500));
      await tx.update(highlightRequests).set({ matchingState: state, matchedAt: new Date(), lookalike }).where(eq(highlightRequests.id, requestId));
    });
    await deps.bus.publish({ topic: 'highlight_requests', userId: request.userId, action: 'update', id: requestId });
  };

  const [profile] = await db
    .select({ consent: userProfiles.faceMatchConsentAt, jerseyNumber: userProfiles.jerseyNumber })
    .from(userProfiles)
    .where(eq(userProfiles.id, request.userId));
  const refs = profile?.consent
    ? (await db.select({ embedding: athleteReferences.embedding }).from(athleteReferences).where(and(eq(athleteReferences.userId, request.userId), isNotNull(athleteReferences.embedding)))).flatMap((r) =>
        decodeEmbeddings(r.embedding),
      )
    : [];
  // Without faces to look for, the athlete can still be found by the number on their team's kit
  // (no face is compared: nothing biometric), where the event has teams and the request names one.
  const shirt = await shirtOfRequest(db, request);
  const facesOff: MatchOutcome | null = !profile?.consent ? 'no_consent' : !refs.length ? 'no_reference' : null;
  const labels = await labelsOf(db, requestId);
  const labelled = labels.athlete.size + labels.not.size > 0;
  if (facesOff && !shirt && !labelled) {
    await finish(facesOff, []);
    return facesOff;
  }

  // Other consenting athletes with a request for the same event: a face closer to one of them is
  // theirs, and those with an open request who look alike are flagged.
  const others = await db
    .select({ userId: athleteReferences.userId, embedding: athleteReferences.embedding, requestId: highlightRequests.id, status: highlightRequests.status })
    .from(athleteReferences)
    .innerJoin(highlightRequests, eq(highlightRequests.userId, athleteReferences.userId))
    .innerJoin(userProfiles, eq(userProfiles.id, athleteReferences.userId))
    .where(
      and(
        eq(highlightRequests.eventId, request.eventId),
        ne(athleteReferences.userId, request.userId),
        isNotNull(athleteReferences.embedding),
        isNotNull(userProfiles.faceMatchConsentAt),
      ),
    );
  const otherRefs = new Map<string, { requestId: string; open: boolean; refs: Float32Array[] }>();
  for (const o of others) {
    const entry = otherRefs.get(o.userId) ?? { requestId: o.requestId, open: false, refs: [] };
    // A reference repeated by a second request of the same athlete changes no closest distance.
    entry.refs.push(...decodeEmbeddings(o.embedding));
    if (o.status !== 'delivered') [entry.open, entry.requestId] = [true, o.requestId];
    otherRefs.set(o.userId, entry);
  }
  const lookalikes = [...otherRefs.values()].filter((o) => o.open && distanceToReferences(o.refs, refs) < UNSURE_DISTANCE);
  // Every other athlete counts in judging a face (a face closer to them is theirs), not only look-alikes.
  const allOtherRefs = [...otherRefs.values()].flatMap((o) => o.refs);

  // A request names its games by label (as the family saw them); footage by game id.
  const eventGameRows = await db.select({ id: eventGames.id, label: eventGames.label }).from(eventGames).where(eq(eventGames.eventId, request.eventId));
  const games = request.games.length ? eventGameRows.filter((g) => request.games.includes(g.label) || request.games.includes(g.id)).map((g) => g.id) : null;
  if (games && !games.length) {
    await finish('ready', []);
    return 'ready';
  }
  const files = await db
    .select({ id: footage.id, gameId: footage.gameId, camera: footage.camera, duration: footage.durationSeconds, shotCuts: footage.shotCuts })
    .from(footage)
    .where(and(eq(footage.eventId, request.eventId), eq(footage.indexState, 'indexed'), games ? inArray(footage.gameId, games) : undefined));
  const tracks = files.length && !facesOff
    ? await db
        .select({
          id: faceTracks.id,
          footageId: faceTracks.footageId,
          startS: faceTracks.startS,
          endS: faceTracks.endS,
          samples: faceTracks.samples,
          faceHeight: faceTracks.faceHeight,
          quality: faceTracks.quality,
          embeddings: base64Of(faceTracks.embeddings),
          jerseyNumber: faceTracks.jerseyNumber,
        })
        .from(faceTracks)
        .where(and(inArray(faceTracks.footageId, files.map((f) => f.id)), sql`length(${faceTracks.embeddings}) > 0`))
    : [];
  const weighPeopleToo = Boolean(shirt) || labelled;
  const people = weighPeopleToo && files.length ? await peopleOf(db, files.map((f) => f.id)) : [];
  const proposals = proposeAppearances(
    tracks.map((t) => ({ ...t, embeddings: decodeBase64Embeddings(t.embeddings) })),
    files,
    refs,
    allOtherRefs,
    shirt?.athlete.number ?? profile?.jerseyNumber ?? null,
    weighPeopleToo ? { people, athlete: shirt?.athlete ?? { teamId: null, number: null }, teams: shirt?.teams ?? [], labels } : null,
  );
  const rows: (typeof appearances.$inferInsert)[] = proposals.map((p) => ({ ...p, requestId }));
  // Found by the shirt alone, without faces: ready; found nowhere, the face state says why.
  if (facesOff && !rows.length) {
    await finish(facesOff, []);
    return facesOff;
  }
  await finish('ready', rows, lookalikes.length > 0);
  if (lookalikes.length) {
    await db.update(highlightRequests).set({ lookalike: true }).where(inArray(highlightRequests.id, lookalikes.map((l) => l.requestId)));
  }
  return 'ready';
}

/** The person tracks of these files, with their evidence (boxes are not needed to decide). */
async function peopleOf(db: AppDeps['db'], footageIds: string[]): Promise<IndexedPerson[]> {
  const rows = await db
    .select({
      id: personTracks.id,
      footageId: personTracks.footageId,
      startS: personTracks.startS,
      endS: personTracks.endS,
      samples: personTracks.samples,
      faceTrackIds: personTracks.faceTrackIds,
      kit: personTracks.kitColour,
      jerseyNumber: personTracks.jerseyNumber,
    })
    .from(personTracks)
    .where(inArray(personTracks.footageId, footageIds));
  return rows;
}

export interface IndexedTrack {
  id: string;
  footageId: string;
  startS: number;
  endS: number;
  /** How many samples saw the face. */
  samples: number;
  faceHeight: number;
  quality: number;
  embeddings: Float32Array[];
  /** The number read on the shirt under the face, if any. */
  jerseyNumber?: number | null;
}
/** A person track of the index (people/stretch.ts) with the evidence gathered along it. */
export interface IndexedPerson {
  id: string;
  footageId: string;
  startS: number;
  endS: number;
  samples: number;
  faceTrackIds: string[];
  kit: string | null;
  jerseyNumber: number | null;
}
/** What the people of the index are weighed against: the athlete's shirt, the event's kits and the admin's word. */
export interface PeopleToWeigh {
  people: IndexedPerson[];
  athlete: AthleteShirt;
  teams: TeamKits[];
  /** Tracks an admin said are the athlete, and tracks they said are not (people/labels.ts). */
  labels?: { athlete: Set<string>; not: Set<string> };
}
export interface IndexedFile {
  id: string;
  gameId: string;
  camera: string;
  duration: number | null;
  /** Shot cuts seen while indexing: no clip crosses one. */
  shotCuts: number[];
}
export interface ProposedAppearance {
  footageId: string;
  gameId: string;
  camera: string;
  startS: number;
  endS: number;
  /** First and last sighting of the face: the clip is this plus at most CLIP_PAD_S either side. */
  seenStartS: number;
  seenEndS: number;
  samples: number;
  distance: number;
  confidence: number;
  faceHeight: number;
  unsure: boolean;
  lookalike: boolean;
  /** The jersey number read in this clip, when one was. */
  jerseySeen: number | null;
  trackId: string | null;
  trackIds: string[];
  personTrackIds: string[];
  /** Why, when people were weighed (people/decide.ts); null for a clip found by face alone. */
  reason: PersonReason | null;
  rank: number;
}

interface Hit extends IndexedTrack {
  distance: number;
  unsure: boolean;
  lookalike: boolean;
  /** A person's track standing for the faces tied to it, or for no face at all. */
  person?: { ids: string[]; faceIds: string[]; reason: PersonReason; confidence: number };
}

/** Of the decision's reasons, the one a clip shows when it merges several: the strongest first. */
const REASON_ORDER: PersonReason[] = ['admin', 'number_and_kit', 'face', 'other_camera', 'number_without_kit', 'face_without_number', 'face_other_shirt'];
/** The confidence of a clip found without a face: an admin's word, the number on the team's kit, the number alone. */
const PERSON_CONFIDENCE: Record<PersonReason, number> = { admin: 1, number_and_kit: 0.9, face: 0.9, other_camera: 0.8, number_without_kit: 0.5, face_without_number: 0.5, face_other_shirt: 0.3 };

/**
 * The people of the index weighed (people/decide.ts): each person track the decision proposes
 * becomes one hit spanning the whole track, standing for the face hits tied to it (a face seen
 * for a second names the person for as long as they are tracked). Returns those hits and the
 * face hits they took in.
 */
function weighPeople(faceHits: Hit[], weigh: PeopleToWeigh, files: IndexedFile[]): { hits: Hit[]; absorbed: Set<string> } {
  const byId = new Map(faceHits.map((h) => [h.id, h]));
  const gameOf = new Map(files.map((f) => [f.id, f.gameId]));
  const absorbed = new Set<string>();
  const decided: Array<{ person: IndexedPerson; faces: Hit[]; verdict: PersonVerdict; footageId: string; gameId: string; startS: number; endS: number }> = [];
  // Each camera shows the kits in its own light: the teams' colours are learnt per file.
  const teamsIn = kitsAsSeenByFile(weigh.people, weigh.teams);
  for (const person of weigh.people) {
    const faces = person.faceTrackIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    // "Not the athlete": the track and the faces on it are out.
    if (weigh.labels?.not.has(person.id)) {
      for (const f of faces) absorbed.add(f.id);
      continue;
    }
    const verdict = weigh.labels?.athlete.has(person.id)
      ? { unsure: false, reason: 'admin' as const }
      : decidePerson({ jerseyNumber: person.jerseyNumber, kit: person.kit, faces: faces.map((f) => (!f.unsure && !f.lookalike ? 'sure' : 'unsure')) }, weigh.athlete, teamsIn(person.footageId));
    if (!verdict) continue;
    for (const f of faces) absorbed.add(f.id);
    decided.push({ person, faces, verdict, footageId: person.footageId, gameId: gameOf.get(person.footageId) ?? '', startS: person.startS, endS: person.endS });
  }
  for (const confirmed of confirmAcrossCameras(decided, weigh.athlete)) confirmed.verdict = { unsure: false, reason: 'other_camera' };
  const hits = decided.map(({ person, faces, verdict }): Hit => {
    const best = faces.reduce<Hit | null>((a, b) => (!a || b.distance < a.distance ? b : a), null);
    return {
      id: best?.id ?? person.id,
      footageId: person.footageId,
      startS: person.startS,
      endS: person.endS,
      samples: person.samples,
      faceHeight: Math.max(0, ...faces.map((f) => f.faceHeight)),
      quality: best?.quality ?? 0,
      embeddings: [],
      jerseyNumber: person.jerseyNumber,
      distance: best?.distance ?? 1,
      unsure: verdict.unsure,
      // The athlete's number on their kit settles a look-alike face.
      lookalike: verdict.reason !== 'number_and_kit' && verdict.reason !== 'admin' && faces.some((f) => f.lookalike),
      person: {
        ids: [person.id],
        faceIds: faces.map((f) => f.id),
        reason: verdict.reason,
        confidence: verdict.reason === 'admin' ? PERSON_CONFIDENCE.admin : best ? confidenceOf(best.distance) : PERSON_CONFIDENCE[verdict.reason],
      },
    };
  });
  return { hits, absorbed };
}

/**
 * Judges every described track against the athlete's references, the event's other athletes and
 * the athlete's other sightings in the same game:
 * - a face closer to another consenting athlete of the event than to this one is theirs: dropped;
 * - under MATCH_DISTANCE it is the athlete (sure); from there up to UNSURE_DISTANCE it is unsure;
 * - a face seen in one sample only is unsure, whatever its distance;
 * - an unsure face within VOUCH_DISTANCE of a sure sighting of the athlete in the same game, and
 *   clearly farther from every other athlete, is sure: the athlete's own sightings of that day
 *   (same light, same kit) vouch for it.
 */
function judgeTracks(tracks: IndexedTrack[], files: IndexedFile[], refs: Float32Array[], otherRefs: Float32Array[]): Hit[] {
  const gameOf = new Map(files.map((f) => [f.id, f.gameId]));
  const hits: Array<Hit & { other: number }> = [];
  for (const t of tracks) {
    const distance = distanceToReferences(t.embeddings, refs);
    if (distance >= UNSURE_DISTANCE) continue;
    const other = otherRefs.length ? distanceToReferences(t.embeddings, otherRefs) : Infinity;
    if (other < distance - OTHER_ATHLETE_MARGIN) continue;
    // A face seen in one sample only is a glimpse (half a second, one descriptor, perhaps a wrong
    // one at a cut the index did not see): never sure on its own, and never vouched for.
    hits.push({ ...t, distance, other, unsure: distance >= MATCH_DISTANCE || t.samples < 2, lookalike: other < distance + LOOKALIKE_MARGIN });
  }
  const sure = hits.filter((h) => !h.unsure && !h.lookalike);
  for (const hit of hits) {
    if (!hit.unsure || hit.samples < 2 || hit.other < hit.distance + LOOKALIKE_MARGIN) continue;
    const game = gameOf.get(hit.footageId);
    const vouched = sure.some((s) => s.id !== hit.id && gameOf.get(s.footageId) === game && distanceToReferences(hit.embeddings, s.embeddings) < VOUCH_DISTANCE);
    if (vouched) hit.unsure = false;
  }
  return hits;
}

/** How long two sightings on one camera were seen together, in seconds. */
const sharedS = (a: Hit, b: Hit) => Math.min(a.endS, b.endS) - Math.max(a.startS, b.startS);

/** One person track ends as the other starts, sharing at most the time the tracker takes to take a player up again (people/continuations.ts). */
const handover = (a: Hit, b: Hit) => {
  if (!a.person || !b.person || sharedS(a, b) > CONTINUE_OVERLAP_S) return false;
  const [first, second] = a.startS <= b.startS ? [a, b] : [b, a];
  return first.startS < second.startS && first.endS < second.endS;
};

/** Is a shot cut strictly between two times of a file? */
const cutBetween = (cuts: number[], from: number, to: number) => cuts.some((cut) => cut > from && cut <= to);

/**
 * The athlete's appearances in these files, ranked. Each described track is judged
 * (judgeTracks); the kept ones become clips per file: a clip spans what was seen, first to last
 * sighting, plus at most CLIP_PAD_S either side, never across a shot cut, and is merged with the
 * next only when it is on the same camera, less than MERGE_GAP_S later, with no cut between.
 * With the athlete's jersey number: a clip showing that number is no longer a look-alike (the
 * shirt tells the two apart), and a clip showing another number is unsure, whatever the face says.
 * Pure: the benchmarks run it on their own index.
 */
export function proposeAppearances(
  tracks: IndexedTrack[],
  files: IndexedFile[],
  refs: Float32Array[],
  otherRefs: Float32Array[],
  jerseyNumber: number | null = null,
  people: PeopleToWeigh | null = null,
): ProposedAppearance[] {
  const rows: ProposedAppearance[] = [];
  const faceHits = judgeTracks(tracks, files, refs, otherRefs);
  const weighed = people ? weighPeople(faceHits, people, files) : { hits: [], absorbed: new Set<string>() };
  const hits = [...faceHits.filter((h) => !weighed.absorbed.has(h.id)), ...weighed.hits];
  // Who is the athlete when two are seen at once: the admin's word, the number on the team's kit, then the closest face.
  const closeness = (h: Hit) => (h.person?.reason === 'admin' ? -2 : h.person?.reason === 'number_and_kit' ? -1 : h.distance);
  for (const file of files) {
    // The athlete is in one place at a time: of two faces seen together on one camera, the closer
    // one is the athlete and the other someone else. Two person tracks that share only their ends
    // are a handover: the tracker took the athlete up again while the old track still held them.
    const own: Hit[] = [];
    for (const hit of hits.filter((h) => h.footageId === file.id).sort((a, b) => closeness(a) - closeness(b))) {
      if (!own.some((o) => sharedS(o, hit) >= SAME_TIME_S && !handover(o, hit))) own.push(hit);
    }
    own.sort((a, b) => a.startS - b.startS);
    // Sightings merge into one clip when close in time with no cut between, and equally certain:
    // an unsure sighting is never hidden inside a sure clip.
    const groups: Hit[][] = [];
    for (const hit of own) {
      const group = groups.at(-1);
      const seenUntil = group ? Math.max(...group.map((g) => g.endS)) : -Infinity;
      if (group && group[0]!.unsure === hit.unsure && hit.startS - seenUntil <= MERGE_GAP_S && !cutBetween(file.shotCuts, seenUntil, hit.startS)) group.push(hit);
      else groups.push([hit]);
    }
    for (const group of groups) rows.push(clipOf(group, file, jerseyNumber));
  }
  // Rank: confidence first, then a bigger face, then a longer clip.
  const score = (r: ProposedAppearance) => r.confidence * 0.6 + Math.min(1, r.faceHeight / 200) * 0.25 + Math.min(1, (r.endS - r.startS) / 10) * 0.15;
  rows.sort((a, b) => score(b) - score(a)).forEach((r, i) => (r.rank = i + 1));
  return rows;
}

function clipOf(group: Hit[], file: IndexedFile, jerseyNumber: number | null): ProposedAppearance {
  const best = group.reduce((a, b) => (b.distance < a.distance ? b : a));
  // The face tracks of the clip: a face hit is its own track; a person's hit, the faces tied to it.
  const faced = group.filter((g) => !g.person || g.person.faceIds.length > 0);
  const reasons = group.flatMap((g) => (g.person ? [g.person.reason] : []));
  const reason = REASON_ORDER.find((r) => reasons.includes(r)) ?? null;
  const jerseySeen = rankNumbers(group.flatMap((g) => g.jerseyNumber ?? []))[0]?.[0] ?? null;
  const ownNumber = jerseyNumber !== null && jerseySeen === jerseyNumber;
  const otherNumber = jerseyNumber !== null && jerseySeen !== null && jerseySeen !== jerseyNumber;
  // The athlete's own number settles a look-alike; another number puts the clip to the admin.
  const lookalike = group.some((g) => g.lookalike) && !ownNumber;
  const unsure = group[0]!.unsure || otherNumber;
  const seenStartS = Math.min(...group.map((g) => g.startS));
  const seenEndS = Math.max(...group.map((g) => g.endS));
  // The padding stops at the shot cuts on either side and at the file's ends.
  const cutBefore = Math.max(0, ...file.shotCuts.filter((c) => c <= seenStartS));
  const cutAfter = Math.min(file.duration ?? Infinity, ...file.shotCuts.filter((c) => c > seenEndS));
  // Tenths of a second, rounded inwards so a clip never reaches past a cut.
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    footageId: file.id,
    gameId: file.gameId,
    camera: file.camera,
    startS: Math.max(0, Math.ceil(Math.max(cutBefore, seenStartS - CLIP_PAD_S) * 10 - 1e-6) / 10),
    endS: Math.floor(Math.min(cutAfter, seenEndS + CLIP_PAD_S) * 10 + 1e-6) / 10,
    seenStartS: round(seenStartS),
    seenEndS: round(seenEndS),
    samples: group.reduce((sum, g) => sum + g.samples, 0),
    distance: Math.round(best.distance * 1000) / 1000,
    confidence: best.person ? best.person.confidence : confidenceOf(best.distance),
    faceHeight: Math.max(...group.map((g) => g.faceHeight)),
    unsure,
    lookalike,
    jerseySeen,
    trackId: faced.length ? faced.reduce((a, b) => (b.quality > a.quality ? b : a)).id : null,
    trackIds: group.flatMap((g) => (g.person ? g.person.faceIds : [g.id])),
    personTrackIds: group.flatMap((g) => g.person?.ids ?? []),
    reason,
    rank: 0,
  };
}

/**
 * The event's approved requests are matched again: those that include this game when more of its
 * footage is indexed, or all of them when what the decision weighs changed for the whole event
 * (its teams, kits or rosters). The review screens read "Matching…" until the job writes its result.
 */
export async function matchAgainAtEvent(deps: Pick<AppDeps, 'db' | 'jobs'>, eventId: string, gameId: string | null = null) {
  let gameFilter = sql`true`;
  if (gameId) {
    const [game] = await deps.db.select({ label: eventGames.label }).from(eventGames).where(eq(eventGames.id, gameId));
    if (!game) return;
    // Requests name their games by label (or id); a request for all of an event's games names none.
    gameFilter = sql`(${highlightRequests.games} @> ${JSON.stringify([game.label])}::jsonb or ${highlightRequests.games} @> ${JSON.stringify([gameId])}::jsonb or jsonb_array_length(${highlightRequests.games}) = 0)`;
  }
  const requests = await deps.db
    .select({ id: highlightRequests.id })
    .from(highlightRequests)
    .where(and(eq(highlightRequests.eventId, eventId), eq(highlightRequests.status, 'ready_to_purchase'), gameFilter));
  if (!requests.length) return;
  await deps.db.update(highlightRequests).set({ matchingState: 'matching' }).where(inArray(highlightRequests.id, requests.map((r) => r.id)));
  for (const r of requests) await deps.jobs.send('faces.match-request', { requestId: r.id });
}

export function matchRequestJob(deps: Pick<AppDeps, 'db' | 'bus' | 'mailer' | 'config'>): JobHandler<'faces.match-request'> {
  return async ({ requestId }) => {
    const outcome = await matchRequest(deps, requestId);
    if (outcome === 'not_found') return 'skipped';
    // Declined face matching: the team picks the clips by hand, and the family still gets a reel.
    if (outcome === 'no_consent') {
      await announceHandPick(deps, requestId);
      return 'done';
    }
    // The athlete found nowhere: the team hears of it before the family is asked to pay.
    await announceNothingFound(deps, requestId);
    return 'done';
  };
}
