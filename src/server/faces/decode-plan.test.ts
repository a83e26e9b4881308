// The decode plan on packet listings as cameras write them (issue 32): every piece ends at or after
// its start, whatever the B-frames, GOPs and stretch boundaries, and every sample's frame is decoded
// with all it is predicted from.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatScript, piecesAreValid, planPieces, type Packet, type StretchPackets } from './decode-plan';

/**
 * The packets of `seconds` of video at `fps` (time base 1/fps/10), a keyframe every `gop` frames,
 * `bframes` B-frames between reference frames, in decode order as an encoder writes them: each
 * reference frame before the B-frames shown ahead of it, decode times shifted back by the
 * reordering delay. In an open GOP a keyframe's leading B-frames are shown before it.
 */
function listing(opts: { fps: number; seconds: number; gop: number; bframes: number; openGop?: boolean }): StretchPackets {
  const { fps, seconds, gop, bframes } = opts;
  const frames = Math.round(fps * seconds);
  const order: Array<{ frame: number; key: boolean }> = [];
  for (let start = 0; start < frames; start += gop) {
    const end = Math.min(frames, start + gop);
    // Open GOP: the keyframe is the gop's last frame shown among the first bframes + 1, the frames
    // before it in display are decoded after it.
    const keyFrame = opts.openGop && start > 0 ? Math.min(end - 1, start + bframes) : start;
    order.push({ frame: keyFrame, key: true });
    if (keyFrame > start) for (let f = start; f < keyFrame; f++) order.push({ frame: f, key: false });
    for (let previous = keyFrame; previous < end - 1; ) {
      const r = Math.min(previous + bframes + 1, end - 1);
      order.push({ frame: r, key: false });
      for (let b = previous + 1; b < r; b++) order.push({ frame: b, key: false });
      previous = r;
    }
  }
  const perFrame = 10;
  const delay = bframes > 0 ? 2 * perFrame : 0;
  const packets: Packet[] = order.map((p, i) => ({ pts: p.frame * perFrame, dts: i * perFrame - delay, key: p.key }));
  return { tick: 1 / fps / perFrame, startUs: 0, packets, toEnd: true };
}

/** True when every sample's frame, and every packet from its run's keyframe to it, lies inside a piece (by decode time). */
function coversEverySample(list: StretchPackets, startS: number, endS: number, sampleFps: number): boolean {
  const pieces = planPieces(list, startS, endS, sampleFps)!;
  // ffmpeg starts a piece at the last keyframe shown at or before its in point, and reads on
  // until a packet's decode time reaches the out point.
  const first = pieces.map((piece) => list.packets.reduce((at, p, i) => (p.key && p.pts * list.tick * 1e6 <= piece.inUs + 1 ? i : at), 0));
  const inside = (p: Packet) => {
    const i = list.packets.indexOf(p);
    return pieces.some((piece, n) => i >= first[n]! && (piece.outUs === null || p.dts * list.tick * 1e6 < piece.outUs));
  };
  for (let k = 0; startS + k / sampleFps < endS - 1e-9; k++) {
    const s = startS + k / sampleFps;
    // The frame a decode from the start gives for this sample: the last one shown at or before it.
    const shown = list.packets.filter((p) => p.pts * list.tick <= s + 1e-9);
    if (!shown.length) continue;
    const frame = shown.reduce((a, b) => (b.pts > a.pts ? b : a));
    const at = list.packets.indexOf(frame);
    let key = at;
    while (key > 0 && !list.packets[key]!.key) key--;
    for (let i = key; i <= at; i++) if (!inside(list.packets[i]!)) return false;
  }
  return true;
}

describe('decode plan', () => {
  it('a stretch that ends just after a keyframe with B-frames ends its last piece at or after the keyframe (the files that never indexed)', () => {
    // 30 fps, a keyframe every 2 s, 3 B-frames: the keyframe at 4 s is decoded 2 frames before it is shown.
    const list = listing({ fps: 30, seconds: 8, gop: 60, bframes: 3 });
    const pieces = planPieces(list, 0, 4.5, 2)!;
    const last = pieces.at(-1)!;
    expect(last.inUs).toBe(4_000_000);
    expect(last.outUs).toBeGreaterThanOrEqual(last.inUs);
    expect(piecesAreValid(pieces)).toBe(true);
    expect(concatScript(['-i', 'file:/footage.mp4'], pieces)).toContain('inpoint 4.000000\noutpoint 4.000000');
  });

  it('does not cut at a keyframe whose leading B-frames are decoded after it (open GOP)', () => {
    const list = listing({ fps: 30, seconds: 8, gop: 60, bframes: 2, openGop: true });
    const pieces = planPieces(list, 0, 8, 2)!;
    // One piece from the start: no keyframe after the first can be started from.
    expect(pieces).toHaveLength(1);
    expect(coversEverySample(list, 0, 8, 2)).toBe(true);
  });

  it('holds for any frame rate, GOP, B-frames and stretch boundary (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(25, 30, 50, 60),
        fc.constantFrom(0.5, 1, 2, 4, 10),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        (fps, keyframeS, bframes, openGop, startHalf, lengthHalf) => {
          const list = listing({ fps, seconds: 20, gop: Math.round(fps * keyframeS), bframes, openGop: openGop && bframes > 0 });
          const startS = startHalf / 2;
          const endS = Math.min(20, startS + lengthHalf / 2);
          if (endS <= startS) return;
          const pieces = planPieces(list, startS, endS, 2);
          expect(pieces).not.toBeNull();
          expect(piecesAreValid(pieces!)).toBe(true);
          expect(coversEverySample(list, startS, endS, 2)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
