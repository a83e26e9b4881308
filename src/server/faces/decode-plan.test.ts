// The decode plan on packet listings as cameras write them (issue 32): every piece ends at or after
// its start, whatever the B-frames, GOPs, stretch boundaries and sound stored ahead of the picture,
// and every sample's frame is decoded, once, with all it is predicted from.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatScript, piecesAreValid, planPieces, type DecodePiece, type Packet, type StretchPackets } from './decode-plan';

/** A listing, and every packet of every stream in the order the demuxer reads them. */
interface FileListing {
  list: StretchPackets;
  /** In file order: a video packet's index in `list.packets`, or -1 for a sound packet; decode time in µs. */
  file: Array<{ video: number; dtsUs: number }>;
}

/**
 * The packets of `seconds` of video at `fps` (time base 1/fps/10), a keyframe every `gop` frames,
 * `bframes` B-frames between reference frames, in decode order as an encoder writes them: each
 * reference frame before the B-frames shown ahead of it, decode times shifted back by the
 * reordering delay. In an open GOP a keyframe's leading B-frames are shown before it. With
 * `soundAheadS`, a sound packet every 1/43 s stored that far ahead of the picture (as Apple's
 * recorders and some broadcast files lay them out).
 */
function listing(opts: { fps: number; seconds: number; gop: number; bframes: number; openGop?: boolean; soundAheadS?: number }): FileListing {
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
  const tick = 1 / fps / perFrame;
  const packets: Packet[] = order.map((p, i) => ({ pts: p.frame * perFrame, dts: i * perFrame - delay, key: p.key }));
  const file: FileListing['file'] = [];
  const othersUs: number[] = [];
  let sound = 0;
  let otherUs = -Infinity;
  packets.forEach((p, i) => {
    const videoUs = p.dts * tick * 1e6;
    // The sound stored before this frame: every packet due up to this frame's time plus the lead.
    while (opts.soundAheadS !== undefined && (sound * 1e6) / 43 <= videoUs + opts.soundAheadS * 1e6) {
      otherUs = (sound * 1e6) / 43;
      file.push({ video: -1, dtsUs: otherUs });
      sound++;
    }
    file.push({ video: i, dtsUs: videoUs });
    othersUs.push(otherUs);
  });
  return { list: { tick, startUs: 0, packets, othersUs: opts.soundAheadS === undefined ? [] : othersUs, toEnd: true }, file };
}

/**
 * The video packets each piece gives, as ffmpeg's concat demuxer reads them: from the last keyframe
 * shown at or before its in point, on through the file until a packet of any stream has a decode
 * time at or past its out point.
 */
function demux({ list, file }: FileListing, pieces: DecodePiece[]): number[][] {
  return pieces.map((piece) => {
    const key = list.packets.reduce((at, p, i) => (p.key && p.pts * list.tick * 1e6 <= piece.inUs + 1 ? i : at), 0);
    const read: number[] = [];
    for (let at = file.findIndex((p) => p.video === key); at < file.length; at++) {
      if (piece.outUs !== null && file[at]!.dtsUs >= piece.outUs) break;
      if (file[at]!.video >= 0) read.push(file[at]!.video);
    }
    return read;
  });
}

/** True when every sample's frame, and every packet from its run's keyframe to it, is read, and no packet is read twice. */
function coversEverySample(listed: FileListing, startS: number, endS: number, sampleFps: number): boolean {
  const { list } = listed;
  const read = demux(listed, planPieces(list, startS, endS, sampleFps)!).flat();
  if (new Set(read).size !== read.length) return false;
  for (let k = 0; startS + k / sampleFps < endS - 1e-9; k++) {
    const s = startS + k / sampleFps;
    // The frame a decode from the start gives for this sample: the last one shown at or before it.
    const shown = list.packets.filter((p) => p.pts * list.tick <= s + 1e-9);
    if (!shown.length) continue;
    const frame = shown.reduce((a, b) => (b.pts > a.pts ? b : a));
    const at = list.packets.indexOf(frame);
    let key = at;
    while (key > 0 && !list.packets[key]!.key) key--;
    for (let i = key; i <= at; i++) if (!read.includes(i)) return false;
  }
  return true;
}

describe('decode plan', () => {
  it('a stretch that ends just after a keyframe with B-frames ends its last piece at or after the keyframe (the files that never indexed)', () => {
    // 30 fps, a keyframe every 2 s, 3 B-frames: the keyframe at 4 s is decoded 2 frames before it is shown.
    const { list } = listing({ fps: 30, seconds: 8, gop: 60, bframes: 3 });
    const pieces = planPieces(list, 0, 4.5, 2)!;
    const last = pieces.at(-1)!;
    expect(last.inUs).toBe(4_000_000);
    expect(last.outUs).toBeGreaterThanOrEqual(last.inUs);
    expect(piecesAreValid(pieces)).toBe(true);
    expect(concatScript(['-i', 'file:/footage.mp4'], pieces)).toContain('inpoint 4.000000\noutpoint 4.000000');
  });

  it('does not cut at a keyframe whose leading B-frames are decoded after it (open GOP)', () => {
    const listed = listing({ fps: 30, seconds: 8, gop: 60, bframes: 2, openGop: true });
    const pieces = planPieces(listed.list, 0, 8, 2)!;
    // One piece from the start: no keyframe after the first can be started from.
    expect(pieces).toHaveLength(1);
    expect(coversEverySample(listed, 0, 8, 2)).toBe(true);
  });

  it('reads on past the sound stored ahead of the picture, and joins the pieces that then meet', () => {
    // A keyframe every 2 s, the sound 0.8 s ahead: a piece cut just after its last sample's frame
    // would end at the first sound packet read (0.8 s past it), before that frame.
    const listed = listing({ fps: 30, seconds: 12, gop: 60, bframes: 2, soundAheadS: 0.8 });
    const naive = planPieces({ ...listed.list, othersUs: [] }, 0, 12, 2)!;
    const frameAt1_5s = listed.list.packets.findIndex((p) => p.pts === 45 * 10);
    expect(demux(listed, naive)[0]).not.toContain(frameAt1_5s);
    const pieces = planPieces(listed.list, 0, 12, 2)!;
    expect(piecesAreValid(pieces)).toBe(true);
    expect(coversEverySample(listed, 0, 12, 2)).toBe(true);
    // The last sample a keyframe serves is at 1.5 s: its piece reads to 2.3 s and meets the next keyframe.
    expect(pieces).toHaveLength(1);
    // Sound a frame ahead (a broadcast file): still cut at every keyframe.
    const close = listing({ fps: 30, seconds: 12, gop: 60, bframes: 2, soundAheadS: 0.04 });
    expect(planPieces(close.list, 0, 12, 2)).toHaveLength(6);
    expect(coversEverySample(close, 0, 12, 2)).toBe(true);
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
        fc.constantFrom(undefined, 0, 0.02, 0.3, 1),
        (fps, keyframeS, bframes, openGop, startHalf, lengthHalf, soundAheadS) => {
          const listed = listing({ fps, seconds: 20, gop: Math.round(fps * keyframeS), bframes, openGop: openGop && bframes > 0, soundAheadS });
          const { list } = listed;
          const startS = startHalf / 2;
          const endS = Math.min(20, startS + lengthHalf / 2);
          if (endS <= startS) return;
          const pieces = planPieces(list, startS, endS, 2);
          expect(pieces).not.toBeNull();
          expect(piecesAreValid(pieces!)).toBe(true);
          expect(coversEverySample(listed, startS, endS, 2)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
