// The pieces the tracker lost a player between are joined again, and nothing else is.
import { describe, expect, it } from 'vitest';
import { continuationsOf, type TrackPiece } from './continuations';
import type { StoredBox } from './track-boxes';

/** A person standing at x, sampled every 0.5 s from `from` to `to`, moving `dx` a sample. */
const walk = (x: number, from: number, to: number, dx = 0): StoredBox[] => {
  const boxes: StoredBox[] = [];
  for (let t = from, i = 0; t <= to + 1e-9; t += 0.5, i++) boxes.push([t, x + i * dx, 100, 80, 200, 90]);
  return boxes;
};

describe('pieces of one player’s track', () => {
  const RED = '#a0282d';
  const piece = (id: string, boxes: StoredBox[], kitColour: string | null = RED): TrackPiece => ({ id, footageId: 'cam1', boxes, kitColour });

  it('joins the pieces the tracker lost the player between, forwards and backwards, piece after piece', () => {
    // Seen 0–2 s, lost, taken up at 3 s a little further on, lost again, taken up at 5.5 s.
    const pieces = [piece('a', walk(100, 0, 2, 20)), piece('b', walk(260, 3, 4.5, 20)), piece('c', walk(420, 5.5, 7, 20)), piece('far', walk(1200, 3, 6))];
    expect(continuationsOf(pieces[1]!, pieces, [])).toEqual(new Set(['a', 'b', 'c']));
    expect(continuationsOf(pieces[0]!, pieces, [])).toEqual(new Set(['a', 'b', 'c']));
  });

  it('joins nothing across a shot cut, after a long gap, onto another shirt, or where two players could be the one', () => {
    const a = piece('a', walk(100, 0, 2));
    expect(continuationsOf(a, [a, piece('b', walk(120, 3, 4))], [2.5])).toEqual(new Set(['a']));
    expect(continuationsOf(a, [a, piece('b', walk(120, 4.5, 6))], [])).toEqual(new Set(['a']));
    expect(continuationsOf(a, [a, piece('b', walk(120, 3, 4), '#f0f0f0')], [])).toEqual(new Set(['a']));
    // Two teammates start near where the player was lost: neither is clearly them.
    expect(continuationsOf(a, [a, piece('b', walk(130, 3, 4)), piece('c', walk(150, 3, 4))], [])).toEqual(new Set(['a']));
    // One of them clearly nearer: that one.
    expect(continuationsOf(a, [a, piece('b', walk(110, 3, 4)), piece('c', walk(300, 3, 4))], [])).toEqual(new Set(['a', 'b']));
  });

  it('looks for the player where they were running, not where they were lost: a teammate standing there is not them', () => {
    // The player runs right 120 px a sample (a height every 0.83 s) and is lost for 1.5 s; a teammate stands where they were lost.
    const a = piece('a', walk(100, 0, 2, 120));
    const ahead = piece('ahead', walk(580 + 360, 3.5, 5, 120));
    const standing = piece('standing', walk(640, 3.5, 5));
    expect(continuationsOf(a, [a, ahead, standing], [])).toEqual(new Set(['a', 'ahead']));
    // Backwards too: from the piece taken up, the one lost is where its motion comes from.
    expect(continuationsOf(ahead, [a, ahead, standing], [])).toEqual(new Set(['a', 'ahead']));
  });

  it('carries a piece held for only two samples as far as its motion goes', () => {
    // Held 0–0.5 s running left 180 px a sample (the tune clip's Sevilla #23), lost for 1.5 s, taken up six samples on.
    const a = piece('a', walk(1600, 0, 0.5, -180));
    const ahead = piece('ahead', walk(1600 - 180 * 4, 2, 3, -180));
    const stayed = piece('stayed', walk(1500, 2, 3));
    expect(continuationsOf(a, [a, ahead, stayed], [])).toEqual(new Set(['a', 'ahead']));
    expect(continuationsOf(ahead, [a, ahead, stayed], [])).toEqual(new Set(['a', 'ahead']));
  });

  // The camera holds still to 2 s, then pans 600 px left by 3.5 s. A player standing still from
  // 3.5 s on (moved); someone else who walked into the place on screen where the player was lost
  // (there); three others standing still throughout, in another shirt, who tell the camera's move.
  const picture = (t: number) => (t <= 2 ? 0 : t >= 3.5 ? -600 : -400 * (t - 2));
  const standing = (x: number, from: number, to: number): StoredBox[] => walk(0, from, to).map(([t, , ...rest]) => [t!, x + picture(t!), ...rest]);
  const moved = piece('moved', standing(900, 3.5, 5));
  const there = piece('there', walk(900, 3.5, 5));
  const others = [300, 1400, 1700].map((x, i) => piece(`other${i}`, standing(x, 0, 5), '#f0f0f0'));

  it('follows the camera where it panned while the player was lost: where everyone else went, the player went too', () => {
    // The player stood still, lost 2–3.5 s.
    const a = piece('a', standing(900, 0, 2));
    expect(continuationsOf(a, [a, moved, there, ...others], [])).toEqual(new Set(['a', 'moved']));
    // With too few others seen to tell the camera's move, the player is looked for where they stood on screen.
    expect(continuationsOf(a, [a, moved, there, ...others.slice(0, 2)], [])).toEqual(new Set(['a', 'there']));
  });

  it('follows the camera from a player seen at one sample only: no motion of their own, but the picture moved', () => {
    // The player is found once, at 2 s, standing, and taken up again at 3.5 s after the pan.
    const once = piece('once', standing(900, 2, 2));
    expect(continuationsOf(once, [once, moved, there, ...others], [])).toEqual(new Set(['once', 'moved']));
    expect(continuationsOf(moved, [once, moved, there, ...others], [])).toEqual(new Set(['once', 'moved']));
    // Too few others to tell the camera's move: where they stood on screen, as before.
    expect(continuationsOf(once, [once, moved, there, ...others.slice(0, 2)], [])).toEqual(new Set(['once', 'there']));
  });

  it('joins the whole player where the tracker took them up twice, as a whole box and as the upper body inside it, and no one half their height', () => {
    // Lost at 2 s; from 2.5 s the detector finds the player whole (b) and, at the same samples, their upper half (top) a little nearer.
    const a = piece('a', walk(100, 0, 2));
    const b = piece('b', walk(130, 2.5, 5));
    const top = piece('top', walk(110, 2.5, 4).map(([t, x, y, w, h, s]) => [t!, x!, y!, w!, h! * 0.6, s!]));
    expect(continuationsOf(a, [a, b, top], [])).toEqual(new Set(['a', 'b']));
    // A teammate of the same size beside the whole box is no part of it: neither is clearly the player.
    const beside = piece('beside', walk(125, 2.5, 4));
    expect(continuationsOf(a, [a, b, beside], [])).toEqual(new Set(['a']));
    // Someone half the player's height (farther off) nearer still is not them either.
    const far = piece('far', walk(0, 2.5, 4).map(([t, , y, w, h, s]) => [t!, 125, y! + 60, w! / 2, h! / 2, s!]));
    expect(continuationsOf(a, [a, b, far], [])).toEqual(new Set(['a', 'b']));
  });

  it('joins a piece the tracker started while the old one still held a box, near where the player was then', () => {
    // The player runs right 20 px a sample; the tracker takes them up as b at 1.5 s while a still has boxes to 2 s.
    const a = piece('a', walk(100, 0, 2, 20));
    const b = piece('b', walk(160, 1.5, 4, 20));
    expect(continuationsOf(a, [a, b], [])).toEqual(new Set(['a', 'b']));
    expect(continuationsOf(b, [a, b], [])).toEqual(new Set(['a', 'b']));
    // Taken up at the very sample the old piece ends.
    const c = piece('c', walk(180, 2, 4, 20));
    expect(continuationsOf(a, [a, c], [])).toEqual(new Set(['a', 'c']));
  });

  it('joins no piece that overlaps the player for longer, lies within their time, starts far from where they were then, or is half their height', () => {
    const a = piece('a', walk(100, 0, 4, 20));
    expect(continuationsOf(a, [a, piece('b', walk(160, 2.5, 6, 20))], [])).toEqual(new Set(['a']));
    expect(continuationsOf(a, [a, piece('b', walk(170, 1, 3.5, 20))], [])).toEqual(new Set(['a']));
    // Starting at 3.5 s beside where a was then (x 240), more than three heights off.
    expect(continuationsOf(a, [a, piece('b', walk(240 + 700, 3.5, 6, 20))], [])).toEqual(new Set(['a']));
    // Overlapping a's last second where a was, but someone farther off: over half a's height where it
    // starts, under half at the next sample both hold (a's box, 200 px tall, the same at each).
    const sizes = [110, 90, 90, 90, 90, 90];
    const farther = piece('farther', walk(0, 3.5, 6).map(([t, , y, w, , s], i) => [t!, 160 + 20 * 7, y! + 40, w! / 2, sizes[i]!, s!]));
    expect(continuationsOf(a, [a, farther], [])).toEqual(new Set(['a']));
  });
});
