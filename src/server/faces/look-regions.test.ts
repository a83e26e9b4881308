// Full looks search only what changed (issue 32): on a real photo under fresh grain each sample,
// a face pasted in one place is searched there alone; grain, a frame that did not change, and a
// camera that moved are handled as the whole frame or nothing, never as a false small region.
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Box } from '../vision/boxes';
import type { RgbFrame } from '../vision/frames';
import { LookRegions } from './look-regions';
import { shotSignature } from './shot-cuts';

const CALIBRATION = path.resolve(import.meta.dirname, '../../../../shared/faces-calibration');

async function rgb(file: string, width: number, height: number): Promise<RgbFrame> {
  const { data, info } = await sharp(file).resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** The picture with fresh grain (±12 levels a pixel), as every decoded sample of a real camera has. */
function grainy(frame: RgbFrame, seed: number): RgbFrame {
  const data = new Uint8Array(frame.data.length);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, frame.data[i]! + ((s >> 8) % 25) - 12));
  }
  return { ...frame, data };
}

/** `patch` pasted into `frame` at (x, y). */
function pasted(frame: RgbFrame, patch: RgbFrame, x: number, y: number): RgbFrame {
  const data = Uint8Array.from(frame.data);
  for (let row = 0; row < patch.height; row++) data.set(patch.data.subarray(row * patch.width * 3, (row + 1) * patch.width * 3), ((y + row) * frame.width + x) * 3);
  return { ...frame, data };
}

const holds = (region: Box, box: Box) => region.x <= box.x && region.y <= box.y && region.x + region.w >= box.x + box.w && region.y + region.h >= box.y + box.h;

describe('look regions', () => {
  it('searches the whole frame first, then only where a face came in, then nothing while the picture holds still', async () => {
    const court = await rgb(path.join(CALIBRATION, 'bbt1.jpg'), 1920, 1080);
    const face = await rgb(path.join(CALIBRATION, 'penny', 'penny1.png'), 48, 56);
    const looks = new LookRegions(4);
    const first = looks.plan(shotSignature(grainy(court, 1)), court, false);
    expect(first).toEqual({ regions: null, share: 1 });
    // The same picture under other grain: nothing changed.
    expect(looks.plan(shotSignature(grainy(court, 2)), court, false)).toEqual({ regions: [], share: 0 });
    // A 48 × 56 face comes in: one region around it, room to spare on each side, a small part of the frame.
    const withFace = pasted(court, face, 1300, 640);
    const third = looks.plan(shotSignature(grainy(withFace, 3)), court, false);
    expect(third.regions).toHaveLength(1);
    const region = third.regions![0]!;
    expect(holds(region, { x: 1300 - 60, y: 640 - 60, w: 48 + 120, h: 56 + 120 })).toBe(true);
    expect(third.share).toBeLessThan(0.1);
    // The face stays where it is: that part was searched, nothing is left to search.
    expect(looks.plan(shotSignature(grainy(withFace, 4)), court, false)).toEqual({ regions: [], share: 0 });
    // Every few full looks (here every 4th) the whole frame all the same.
    expect(looks.plan(shotSignature(grainy(withFace, 5)), court, false).regions).toBeNull();
  });

  it('searches the whole frame when most of it changed (a camera that moved) and when told to (a possible cut)', async () => {
    const court = await rgb(path.join(CALIBRATION, 'bbt1.jpg'), 1920, 1080);
    const other = await rgb(path.join(CALIBRATION, 'bbt2.jpg'), 1920, 1080);
    const looks = new LookRegions(100);
    looks.plan(shotSignature(court), court, false);
    expect(looks.plan(shotSignature(other), other, false)).toEqual({ regions: null, share: 1 });
    // The new picture is now the reference: the same picture again needs no search, unless told.
    expect(looks.plan(shotSignature(other), other, false).regions).toEqual([]);
    expect(looks.plan(shotSignature(other), other, true).regions).toBeNull();
  });

  it('keeps a part that changed but was not searched as it was: a change in two steps is still seen', async () => {
    const court = await rgb(path.join(CALIBRATION, 'bbt3.jpg'), 1920, 1080);
    const looks = new LookRegions(100);
    looks.plan(shotSignature(court), court, false);
    // Five levels brighter in a corner each time: below the bar once, above it from the reference.
    const brighter = (frame: RgbFrame, by: number) => {
      const data = Uint8Array.from(frame.data);
      for (let y = 0; y < 200; y++) for (let x = 0; x < 300; x++) for (let c = 0; c < 3; c++) data[(y * frame.width + x) * 3 + c] = Math.min(255, data[(y * frame.width + x) * 3 + c]! + by);
      return { ...frame, data };
    };
    expect(looks.plan(shotSignature(brighter(court, 5)), court, false).regions).toEqual([]);
    const second = looks.plan(shotSignature(brighter(court, 10)), court, false);
    expect(second.regions).toHaveLength(1);
    expect(holds(second.regions![0]!, { x: 0, y: 0, w: 280, h: 180 })).toBe(true);
  });
});
