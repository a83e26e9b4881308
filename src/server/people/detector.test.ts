// The person detector: how it covers a frame, how it joins what overlapping regions found, and
// the network itself on real photographs (the calibration group photos beside the project) and
// on a frame with nobody in it.
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createFacePool } from '../faces/pool';
import type { PhotoFace } from '../faces/types';
import { detectPeople, mergeRegions } from './detector';
import { coverRegions } from './regions';

const CALIBRATION = path.resolve(import.meta.dirname, '../../../../shared/faces-calibration');
const settings = { rows: 1, lowScore: 0.25, minHeightPx: 16 };
const SURE = 0.4;

async function rgbOf(file: string) {
  const { data, info } = await sharp(file).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('regions the frame is looked at in', () => {
  it('covers a 1080p frame with overlapping squares, more of them for more rows', () => {
    for (const rows of [1, 2, 3]) {
      const regions = coverRegions(1920, 1080, rows);
      const side = regions[0]!.w;
      expect(regions.every((r) => r.w === side && r.h === side && r.x >= 0 && r.y >= 0 && r.x + r.w <= 1920 && r.y + r.h <= 1080)).toBe(true);
      // Every pixel lies in some region, and neighbours share at least a fifth of a side.
      for (const [x, y] of [[0, 0], [1919, 1079], [960, 540], [1919, 0], [0, 1079], [700, 333]] as const) {
        expect(regions.some((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h), `${rows} rows, ${x},${y}`).toBe(true);
      }
      const rowsSeen = new Set(regions.map((r) => r.y)).size;
      expect(rowsSeen).toBe(rows);
    }
    expect(coverRegions(1920, 1080, 1)).toEqual([{ x: 0, y: 0, w: 1080, h: 1080 }, { x: 840, y: 0, w: 1080, h: 1080 }]);
    expect(coverRegions(1920, 1080, 2)).toHaveLength(8);
    // A portrait phone video, and a frame smaller than a region.
    expect(coverRegions(1080, 1920, 1).every((r) => r.w === 1080)).toBe(true);
    expect(coverRegions(300, 200, 2)).toEqual([{ x: 0, y: 0, w: 200, h: 200 }, { x: 100, y: 0, w: 200, h: 200 }]);
  });

  it('keeps a person whole where a region edge cut them, and two people side by side as two', () => {
    const whole = { x: 500, y: 100, w: 60, h: 160, score: 0.5, cut: false };
    const cutPart = { x: 500, y: 100, w: 35, h: 160, score: 0.7, cut: true };
    const neighbour = { x: 565, y: 110, w: 60, h: 150, score: 0.45, cut: false };
    const duplicate = { x: 503, y: 104, w: 58, h: 155, score: 0.42, cut: false };
    expect(mergeRegions([cutPart, whole, neighbour, duplicate])).toEqual([
      { x: 500, y: 100, w: 60, h: 160, score: 0.5 },
      { x: 565, y: 110, w: 60, h: 150, score: 0.45 },
    ]);
  });
});

describe('people on real photos', () => {
  const pool = createFacePool();
  afterAll(() => pool.close());

  it('finds a person around every face of the group photos, and no more sure people than a few beyond the faces', { timeout: 120_000 }, async () => {
    for (const name of ['bbt1', 'bbt4', 'bbt5']) {
      const frame = await rgbOf(path.join(CALIBRATION, `${name}.jpg`));
      const [people, faces] = await Promise.all([
        detectPeople(frame, settings),
        pool.run<PhotoFace[]>({ op: 'analyze-photo', rgb: frame.data, width: frame.width, height: frame.height }),
      ]);
      const sure = people.filter((p) => p.score >= SURE);
      expect(faces.length, name).toBeGreaterThanOrEqual(3);
      for (const face of faces) {
        const cx = face.box.x + face.box.w / 2;
        const cy = face.box.y + face.box.h / 2;
        // The face lies in the top half of a sure person's box that is taller than the face.
        const around = sure.filter((p) => cx > p.x && cx < p.x + p.w && cy > p.y && cy < p.y + p.h / 2 && p.h > face.box.h * 1.5);
        expect(around.length, `${name}: a person around the face at ${Math.round(cx)},${Math.round(cy)}`).toBeGreaterThan(0);
      }
      expect(sure.length, name).toBeLessThanOrEqual(faces.length + 2);
    }
  });

  it('finds nobody on an empty court (a plain floor with lines) nor on noise', async () => {
    const width = 640;
    const height = 360;
    const court = new Uint8Array(width * height * 3);
    const noise = new Uint8Array(width * height * 3);
    let seed = 7;
    for (let i = 0; i < width * height; i++) {
      const line = i % width === 320 || Math.floor(i / width) === 300;
      court.set(line ? [245, 245, 245] : [196, 140, 84], i * 3);
      for (let c = 0; c < 3; c++) noise[i * 3 + c] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 23;
    }
    for (const data of [court, noise]) {
      const people = await detectPeople({ data, width, height }, settings);
      expect(people.filter((p) => p.score >= SURE)).toEqual([]);
    }
  });
});
