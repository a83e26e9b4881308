// The matching decision and the clips it makes (issue 20): what a track's distances decide, and
// that a clip spans what was seen plus at most half a second, never crosses a shot cut, and is
// merged only with the same athlete on the same camera with no cut between.
import { describe, expect, it } from 'vitest';
import { faceDistance } from './engine';
import { CLIP_PAD_S, MATCH_DISTANCE, UNSURE_DISTANCE, proposeAppearances, type IndexedFile, type IndexedPerson, type IndexedTrack } from './matching';

/** A deterministic generator, so every run builds the same descriptors. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
}
const next = random(7);

function unit(): Float32Array {
  const v = Float32Array.from({ length: 128 }, () => next());
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** A descriptor exactly `distance` from `from` (in a direction of its own, about square to the others). */
function at(from: Float32Array, distance: number): Float32Array {
  const u = unit();
  const dot = u.reduce((sum, x, i) => sum + x * from[i]!, 0) / from.reduce((sum, x) => sum + x * x, 0);
  const side = u.map((x, i) => x - dot * from[i]!);
  const norm = Math.hypot(...side);
  return from.map((x, i) => x + (side[i]! / norm) * distance);
}

const athlete = unit();
const file = (id: string, over: Partial<IndexedFile> = {}): IndexedFile => ({ id, gameId: 'game-1', camera: `Camera ${id}`, duration: 60, shotCuts: [], ...over });
let trackNo = 0;
const track = (footageId: string, startS: number, endS: number, embeddings: Float32Array[], over: Partial<IndexedTrack> = {}): IndexedTrack => ({
  id: `t${++trackNo}`,
  footageId,
  startS,
  endS,
  samples: Math.round((endS - startS) * 2) + 1,
  faceHeight: 100,
  quality: 0.8,
  embeddings,
  ...over,
});

describe('clip spans', () => {
  it('a clip is the sighting plus half a second either side, within the file', () => {
    expect(CLIP_PAD_S).toBe(0.5);
    const [clip] = proposeAppearances([track('a', 10, 14, [at(athlete, 0.3)])], [file('a')], [athlete], []);
    expect(clip).toMatchObject({ startS: 9.5, endS: 14.5, seenStartS: 10, seenEndS: 14, samples: 9, unsure: false });
    const [atStart] = proposeAppearances([track('a', 0.2, 3, [at(athlete, 0.3)])], [file('a', { duration: 3.2 })], [athlete], []);
    expect(atStart).toMatchObject({ startS: 0, endS: 3.2 });
  });

  it('a face seen once makes a one-second clip that says it was seen once, and is never sure (issue 32)', () => {
    const [clip] = proposeAppearances([track('a', 20, 20, [at(athlete, 0.3)], { samples: 1 })], [file('a')], [athlete], []);
    expect(clip).toMatchObject({ startS: 19.5, endS: 20.5, seenStartS: 20, seenEndS: 20, samples: 1, unsure: true });
    // Not even beside a sure sighting of the athlete in the same game, which vouches for others.
    const both = proposeAppearances([track('a', 5, 9, [at(athlete, 0.3)]), track('a', 40, 40, [at(athlete, 0.3)], { samples: 1 })], [file('a')], [athlete], []);
    expect(both.map((c) => [c.seenStartS, c.unsure]).sort()).toEqual([
      [40, true],
      [5, false],
    ]);
  });

  it('never crosses a shot cut: the padding stops at the cut on either side', () => {
    const cuts = file('a', { shotCuts: [10, 20.2] });
    const [clip] = proposeAppearances([track('a', 10, 20, [at(athlete, 0.3)])], [cuts], [athlete], []);
    expect(clip).toMatchObject({ startS: 10, endS: 20.2, seenStartS: 10, seenEndS: 20 });
  });

  it('merges sightings on one camera less than 2 s apart with no cut between, and nothing else', () => {
    const face = () => [at(athlete, 0.3)];
    const files = [file('a', { shotCuts: [31] }), file('b')];
    const clips = proposeAppearances(
      [
        track('a', 10, 12, face()),
        track('a', 13.5, 15, face()), // 1.5 s later: the same clip
        track('a', 18, 20, face()), // 3 s later: a clip of its own
        track('a', 30, 30.5, face()),
        track('a', 31, 33, face()), // 0.5 s later but after a cut: its own clip
        track('b', 12, 14, face()), // another camera: its own clip
      ],
      files,
      [athlete],
      [],
    );
    const spans = clips.map((c) => [c.footageId, c.seenStartS, c.seenEndS, c.trackIds.length]).sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[1]) - Number(y[1]));
    expect(spans).toEqual([
      ['a', 10, 15, 2],
      ['a', 18, 20, 1],
      ['a', 30, 30.5, 1],
      ['a', 31, 33, 1],
      ['b', 12, 14, 1],
    ]);
    const beforeCut = clips.find((c) => c.seenStartS === 30)!;
    expect(beforeCut.endS).toBeLessThanOrEqual(31);
  });
});

describe('one athlete, one place', () => {
  it('of two faces seen together on one camera, only the closer is the athlete; an unsure sighting is not hidden in a sure clip', () => {
    const athleteTrack = track('a', 0, 4, [at(athlete, 0.3)]);
    const together = track('a', 3, 8, [at(athlete, 0.55)]); // someone else, 1 s on camera with her
    const after = track('a', 5, 8, [at(athlete, 0.55)]); // an unsure sighting right after her
    expect(proposeAppearances([athleteTrack, together], [file('a')], [athlete], []).map((c) => [c.seenStartS, c.seenEndS, c.unsure])).toEqual([[0, 4, false]]);
    const clips = proposeAppearances([athleteTrack, after], [file('a')], [athlete], []);
    expect(clips.map((c) => [c.seenStartS, c.seenEndS, c.unsure]).sort()).toEqual([
      [0, 4, false],
      [5, 8, true],
    ]);
  });
});

describe('the decision', () => {
  it('sure under MATCH_DISTANCE, unsure up to UNSURE_DISTANCE, nothing beyond', () => {
    const files = [file('a')];
    const sure = track('a', 1, 2, [at(athlete, MATCH_DISTANCE - 0.02)]);
    const unsure = track('a', 10, 11, [at(athlete, (MATCH_DISTANCE + UNSURE_DISTANCE) / 2)]);
    const stranger = track('a', 20, 21, [at(athlete, UNSURE_DISTANCE + 0.01)]);
    const clips = proposeAppearances([sure, unsure, stranger], files, [athlete], []);
    expect(clips.map((c) => [c.trackId, c.unsure]).sort()).toEqual([
      [sure.id, false],
      [unsure.id, true],
    ]);
  });

  it('the closest of every reference and every descriptor of the track counts', () => {
    const second = at(athlete, 0.45); // another reference photo of the athlete
    const t = track('a', 1, 2, [at(athlete, 0.7), at(second, 0.2)]);
    const [clip] = proposeAppearances([t], [file('a')], [athlete, second], []);
    expect(clip!.distance).toBeCloseTo(0.2, 3);
    expect(clip!.unsure).toBe(false);
  });

  it("a face closer to another athlete of the event is that athlete's: not proposed; about as close: a look-alike", () => {
    const face = at(athlete, 0.55);
    expect(proposeAppearances([track('a', 1, 2, [face])], [file('a')], [athlete], [])).toHaveLength(1);
    expect(proposeAppearances([track('a', 1, 2, [face])], [file('a')], [athlete], [at(face, 0.3)])).toEqual([]);
    const close = at(athlete, 0.4);
    const [lookalike] = proposeAppearances([track('a', 1, 2, [close])], [file('a')], [athlete], [at(close, 0.42)]);
    expect(lookalike).toMatchObject({ lookalike: true });
    const [clear] = proposeAppearances([track('a', 1, 2, [close])], [file('a')], [athlete], [at(close, 0.7)]);
    expect(clear).toMatchObject({ lookalike: false, unsure: false });
  });

  it("an unsure face close to a sure sighting in the same game is sure; in another game it stays unsure", () => {
    const seen = at(athlete, 0.35);
    const sure = track('a', 1, 3, [seen]);
    // Unsure against the reference, but 0.4 from the athlete's sure sighting of the same game.
    const later = at(seen, 0.4);
    const distance = faceDistance(later, athlete);
    expect(distance).toBeGreaterThanOrEqual(MATCH_DISTANCE);
    expect(distance).toBeLessThan(UNSURE_DISTANCE);
    const sameGame = track('b', 10, 12, [later]);
    const otherGame = track('c', 10, 12, [later]);
    const clips = proposeAppearances([sure, sameGame, otherGame], [file('a'), file('b'), file('c', { gameId: 'game-2' })], [athlete], []);
    expect(clips.find((c) => c.trackId === sameGame.id)!.unsure).toBe(false);
    expect(clips.find((c) => c.trackId === otherGame.id)!.unsure).toBe(true);
  });
});

describe('people weighed with the faces (issue 35)', () => {
  const teams = [
    { teamId: 'tigers', colours: ['#f28c28'] },
    { teamId: 'sharks', colours: ['#1f2a5a'] },
  ];
  const shirt = { teamId: 'tigers', number: 7 };
  let personNo = 0;
  const person = (footageId: string, startS: number, endS: number, over: Partial<IndexedPerson> = {}): IndexedPerson => ({
    id: `p${++personNo}`,
    footageId,
    startS,
    endS,
    samples: Math.round((endS - startS) * 2) + 1,
    faceTrackIds: [],
    kit: null,
    jerseyNumber: null,
    ...over,
  });

  it('finds a player who never shows their face by the number on their team’s kit, for as long as they are tracked', () => {
    const seven = person('a', 12, 30, { jerseyNumber: 7, kit: '#ee8a2c' });
    const otherSeven = person('a', 40, 50, { jerseyNumber: 7, kit: '#222d5e' });
    const teammate = person('a', 12, 30, { jerseyNumber: 9, kit: '#ee8a2c' });
    const clips = proposeAppearances([], [file('a')], [], [], 7, { people: [seven, otherSeven, teammate], athlete: shirt, teams });
    expect(clips).toHaveLength(1);
    expect(clips[0]).toMatchObject({ startS: 11.5, endS: 30.5, unsure: false, reason: 'number_and_kit', trackId: null, trackIds: [], personTrackIds: [seven.id], jerseySeen: 7 });
  });

  it('stretches a face seen for a second to the whole track of the person it lies in', () => {
    const face = track('a', 20, 21, [at(athlete, 0.3)]);
    const body = person('a', 14, 29, { faceTrackIds: [face.id], kit: '#ee8a2c' });
    const [clip] = proposeAppearances([face], [file('a')], [athlete], [], 7, { people: [body], athlete: shirt, teams });
    expect(clip).toMatchObject({ startS: 13.5, endS: 29.5, seenStartS: 14, seenEndS: 29, unsure: false, reason: 'face', trackId: face.id, trackIds: [face.id], personTrackIds: [body.id] });
  });

  it('puts a sure face to the admin where the shirt says nothing or shows another number, with the reason', () => {
    const face = track('a', 20, 22, [at(athlete, 0.3)]);
    const [silent] = proposeAppearances([face], [file('a')], [athlete], [], 7, { people: [person('a', 18, 25, { faceTrackIds: [face.id] })], athlete: shirt, teams });
    expect(silent).toMatchObject({ unsure: true, reason: 'face_without_number' });
    const [other] = proposeAppearances([face], [file('a')], [athlete], [], 7, { people: [person('a', 18, 25, { faceTrackIds: [face.id], jerseyNumber: 12 })], athlete: shirt, teams });
    expect(other).toMatchObject({ unsure: true, reason: 'face_other_shirt', jerseySeen: 12 });
    // Faces not on any tracked person are judged by the face alone, as before.
    const [alone] = proposeAppearances([face], [file('a')], [athlete], [], 7, { people: [], athlete: shirt, teams });
    expect(alone).toMatchObject({ unsure: false, reason: null, personTrackIds: [] });
  });

  it('names the team by its kit as each camera shows it: a dim camera’s tigers are tigers there, and only there', () => {
    // A dim camera records the orange kit as a brown no colour given matches; its teammates show it.
    const dim = (startS: number, over: Partial<IndexedPerson> = {}) => person('dim', startS, startS + 5, { kit: '#8a5a32', ...over });
    const seven = dim(10, { jerseyNumber: 7 });
    const teammates = [dim(20), dim(30), dim(40)];
    const sharks = [person('dim', 10, 20, { kit: '#1f2a5a' })];
    const clips = proposeAppearances([], [file('dim')], [], [], 7, { people: [seven, ...teammates, ...sharks], athlete: shirt, teams });
    expect(clips.map((c) => [c.personTrackIds, c.reason, c.unsure])).toEqual([[[seven.id], 'number_and_kit', false]]);
    // On a camera with no other brown shirt, the same brown says nothing of the team.
    const alone = person('other', 10, 15, { jerseyNumber: 7, kit: '#8a5a32' });
    const [unsure] = proposeAppearances([], [file('other')], [], [], 7, { people: [alone, ...teammates], athlete: shirt, teams });
    expect(unsure).toMatchObject({ personTrackIds: [alone.id], reason: 'number_without_kit', unsure: true });
  });

  it('keeps both tracks where the tracker took the player up again while the old track still held them, and only the nearer of two seen together', () => {
    // Tracked 10–14 s, taken up again at 13 s while the old track held a box to 14 s: one player, one clip to 18.5 s.
    const first = person('a', 10, 14, { jerseyNumber: 7, kit: '#ee8a2c' });
    const again = person('a', 13, 18, { jerseyNumber: 7, kit: '#ee8a2c' });
    const [clip, ...rest] = proposeAppearances([], [file('a')], [], [], 7, { people: [first, again], athlete: shirt, teams });
    expect(rest).toEqual([]);
    expect(clip).toMatchObject({ startS: 9.5, endS: 18.5, personTrackIds: [first.id, again.id], unsure: false });
    // Sharing more than a second, or one lying within the other: two people seen together, one of them is not the athlete.
    for (const other of [person('a', 12, 18, { jerseyNumber: 7, kit: '#ee8a2c' }), person('a', 11, 13.5, { jerseyNumber: 7, kit: '#ee8a2c' })]) {
      const clips = proposeAppearances([], [file('a')], [], [], 7, { people: [first, other], athlete: shirt, teams });
      expect(clips.flatMap((c) => c.personTrackIds)).toHaveLength(1);
    }
  });

  it('prefers the number on the team’s kit to an unsure face seen at the same moment on the same camera', () => {
    const stranger = track('a', 10, 14, [at(athlete, 0.55)]);
    const seven = person('a', 10, 14, { jerseyNumber: 7, kit: '#ee8a2c' });
    const clips = proposeAppearances([stranger], [file('a')], [athlete], [], 7, { people: [seven], athlete: shirt, teams });
    expect(clips.map((c) => [c.reason, c.unsure])).toEqual([['number_and_kit', false]]);
  });
});
