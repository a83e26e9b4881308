// The person tracker on generated motion: players crossing, a player hidden and found again, a
// shot cut, boxes the detector was unsure of, a player who stops dead, an upper body found apart
// from its whole box, a far player running faster than their width, and camera pans.
import { describe, expect, it } from 'vitest';
import type { ScoredBox } from '../vision/boxes';
import { PersonTracker, upperBodyOf, type PersonTrack } from './tracker';

const FPS = 2;
const settings = { highScore: 0.4, maxGapS: 1.5 };

/** A player's box at time t: starting at x0, moving vx pixels a second along y. */
const player = (x0: number, vx: number, y: number, t: number, score = 0.7, w = 40, h = 100): ScoredBox => ({ x: x0 + vx * t, y, w, h, score });

/** Runs samples 0..n-1 through a tracker; `boxesAt(t)` lists the boxes of each sample. */
function run(n: number, boxesAt: (t: number, k: number) => ScoredBox[], tracker = new PersonTracker(settings)) {
  const assigned: Array<Array<PersonTrack | undefined>> = [];
  for (let k = 0; k < n; k++) assigned.push(tracker.step(k / FPS, boxesAt(k / FPS, k)));
  return { tracker, assigned };
}

describe('person tracker', () => {
  it('keeps two players crossing each on their own track, the one behind seen only faintly', () => {
    // A runs right, B runs left along the same line; they pass at t = 2 s, where B is half hidden.
    const { tracker, assigned } = run(9, (t) => [player(100, 150, 300, t), player(700, -150, 310, t, Math.abs(t - 2) < 0.6 ? 0.3 : 0.7)]);
    const a = assigned[0]![0]!;
    const b = assigned[0]![1]!;
    expect(a).not.toBe(b);
    for (const [k, pair] of assigned.entries()) {
      expect(pair[0], `A at sample ${k}`).toBe(a);
      expect(pair[1], `B at sample ${k}`).toBe(b);
    }
    expect(tracker.tracks).toHaveLength(2);
    expect(a.boxes.map((box) => box.x)).toEqual([...a.boxes.map((box) => box.x)].sort((p, q) => p - q));
  });

  it('takes up a player hidden for a second where their motion said, and starts anew after a longer gap', () => {
    // Hidden at samples 3 and 4 (1 s): the same track; hidden at 3..6 (2 s > maxGapS): a new one.
    const short = run(8, (t, k) => (k === 3 || k === 4 ? [] : [player(100, 80, 300, t)]));
    expect(short.tracker.tracks).toHaveLength(1);
    expect(short.tracker.tracks[0]!.boxes).toHaveLength(6);
    const long = run(9, (t, k) => (k >= 3 && k <= 6 ? [] : [player(100, 80, 300, t)]));
    expect(long.tracker.tracks).toHaveLength(2);
    expect(long.tracker.tracks[0]!.ended).toBe(true);
  });

  it('ends every track at a shot cut: the same place on screen after a cut is a new track', () => {
    const tracker = new PersonTracker(settings);
    const before = tracker.step(0, [player(500, 0, 300, 0)])[0]!;
    tracker.step(0.5, [player(500, 0, 300, 0.5)]);
    tracker.endAll();
    const after = tracker.step(1, [player(500, 0, 300, 1)])[0]!;
    expect(after).not.toBe(before);
    expect(before.ended).toBe(true);
    expect(before.boxes).toHaveLength(2);
    expect(after.boxes).toHaveLength(1);
  });

  it('lets an unsure box carry on a track but never start one', () => {
    const { tracker, assigned } = run(4, (t, k) => [player(100, 20, 300, t, k === 2 ? 0.25 : 0.8), player(900, 0, 300, t, 0.25)]);
    expect(tracker.tracks).toHaveLength(1);
    expect(assigned.map((pair) => pair[1])).toEqual([undefined, undefined, undefined, undefined]);
    expect(assigned[2]![0]).toBe(assigned[0]![0]);
  });

  it('keeps a player who stops dead on their track, where their motion said they would be further on', () => {
    // 150 px a second for 2 s, then standing: the prediction runs 75 px (no overlap, over 0.6 of
    // the height) ahead of the player at the first sample standing; their last place holds them.
    const { tracker, assigned } = run(8, (t) => [player(100, 150, 300, Math.min(t, 2))]);
    expect(tracker.tracks).toHaveLength(1);
    expect(assigned.map((sample) => sample[0])).toEqual(Array(8).fill(tracker.tracks[0]));
  });

  it("takes a player's upper body, found apart from their whole box, as no track of its own", () => {
    // The detector finds the player twice, the whole and the upper body, both with confidence;
    // at sample 3 the whole is missed and the upper body carries the track.
    const whole = (t: number) => player(200, 60, 300, t);
    const upper = (t: number): ScoredBox => ({ ...whole(t), y: 305, h: 55, w: 46, x: whole(t).x - 3, score: 0.6 });
    const { tracker, assigned } = run(6, (t, k) => (k === 3 ? [upper(t)] : [whole(t), upper(t)]));
    expect(tracker.tracks).toHaveLength(1);
    const track = tracker.tracks[0];
    expect(assigned.map((sample) => sample[0])).toEqual(Array(6).fill(track));
    expect(assigned.filter((sample, k) => k !== 3).map((sample) => sample[1])).toEqual(Array(5).fill(undefined));
  });

  it('tells an upper body from a second person: much shorter, its top at the whole\'s top', () => {
    const whole = { x: 100, y: 200, w: 40, h: 100 };
    const upper = (y: number, h: number) => ({ x: 95, y, w: 50, h });
    expect(upperBodyOf(upper(200, 70), whole)).toBe(true);
    expect(upperBodyOf(upper(200, 71), whole)).toBe(false);
    expect(upperBodyOf(upper(190, 50), whole)).toBe(true);
    expect(upperBodyOf(upper(189, 50), whole)).toBe(false);
    expect(upperBodyOf(upper(225, 50), whole)).toBe(true);
    expect(upperBodyOf(upper(226, 50), whole)).toBe(false);
    expect(upperBodyOf({ ...upper(200, 50), x: 150 }, whole)).toBe(false);
    // Two people side by side, one a little shorter, both confident: two tracks.
    const { tracker } = run(4, (t) => [player(300, 0, 300, t, 0.7, 80, 100), player(340, 0, 302, t, 0.7, 80, 96)]);
    expect(tracker.tracks.map((track) => track.boxes.length)).toEqual([4, 4]);
  });

  it('follows a far player who runs further than their own width between samples', () => {
    // 20 × 50 pixels, 60 pixels a sample: no overlap with the last box, only with the prediction.
    const { tracker } = run(8, (t) => [player(100, 120, 400, t, 0.6, 20, 50), player(1200, -120, 420, t, 0.6, 20, 50)]);
    expect(tracker.tracks).toHaveLength(2);
    expect(tracker.tracks.map((track) => track.boxes.length)).toEqual([8, 8]);
  });

  it('does not swap two players standing side by side when one is missed for a sample', () => {
    const { tracker } = run(6, (t, k) => [player(400, 0, 300, t), ...(k === 2 ? [] : [player(445, 0, 300, t)])]);
    expect(tracker.tracks).toHaveLength(2);
    const [left, right] = tracker.tracks;
    expect(left!.boxes.every((box) => box.x === 400)).toBe(true);
    expect(right!.boxes.every((box) => box.x === 445)).toBe(true);
    expect(right!.boxes).toHaveLength(5);
  });

  it('follows every player through a camera pan that moves the picture further than the gap between them', () => {
    // Six players 60 px apart, each jogging its own way; the camera pans 150 px a sample, then
    // stops, then pans back, and one player is missed at the sample the pan stops.
    const pan = [0, -150, -300, -450, -450, -450, -300, -150];
    const { tracker, assigned } = run(8, (t, k) =>
      [0, 1, 2, 3, 4, 5].flatMap((i) => (k === 4 && i === 2 ? [] : [player(300 + i * 60 + pan[k]! + 4 * t * (i % 2 ? 1 : -1), 0, 400, 0, 0.7, 30, 80)])),
    );
    expect(tracker.tracks).toHaveLength(6);
    for (const [k, sample] of assigned.entries()) {
      const want = [0, 1, 2, 3, 4, 5].filter((i) => !(k === 4 && i === 2)).map((i) => tracker.tracks[i]);
      expect(sample, `sample ${k}`).toEqual(want);
    }
    expect(Math.abs(tracker.camera.x - (-450 + 300))).toBeLessThan(10);
  });

  it('takes a pan up to 12 player heights a second, and none beyond', () => {
    // Six players 80 px tall, standing apart (no other shift lines up two of them); the picture
    // moves between two samples half a second apart: 470 px is under the cap (480), 490 over it.
    const xs = [170, 510, 810, 930, 1480, 1650];
    const panned = (dx: number) => run(2, (t, k) => xs.map((x) => player(x + (k ? dx : 0), 0, 400, 0, 0.7, 30, 80)));
    const under = panned(470);
    expect(under.tracker.camera).toEqual({ x: 470, y: 0 });
    expect(under.tracker.tracks).toHaveLength(6);
    const over = panned(490);
    expect(over.tracker.camera).toEqual({ x: 0, y: 0 });
  });

  it('takes no shift farther than a camera pans, however many players happen to line up with it', () => {
    // The camera holds still; each player runs their own way. Where A, B and C stood at the first
    // sample, shifted 1000 px (20 heights in half a second), D, E and F stand at the second.
    const xs = [
      [100, 300, 500, 1150, 1220, 1510],
      [140, 260, 550, 1100, 1300, 1500],
    ];
    const { tracker, assigned } = run(2, (t, k) => xs[k]!.map((x) => player(x, 0, 400, 0, 0.7, 30, 80)));
    expect(tracker.camera).toEqual({ x: 0, y: 0 });
    for (let i = 0; i < 6; i++) expect(assigned[1]![i], `player ${i}`).toBe(assigned[0]![i]);
  });
});
