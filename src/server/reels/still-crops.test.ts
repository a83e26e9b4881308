import { describe, expect, it } from 'vitest';
import { STILL_SHAPES, stillCrop, type Box, type Crop } from './still-crops';

const holds = (crop: Crop, f: Box) => f.x >= crop.left && f.y >= crop.top && f.x + f.w <= crop.left + crop.width && f.y + f.h <= crop.top + crop.height;
const inside = (crop: Crop, w: number, h: number) => crop.left >= 0 && crop.top >= 0 && crop.left + crop.width <= w && crop.top + crop.height <= h;

describe('stills cropped on the athlete (issue 34, item 6)', () => {
  const frames: Array<[number, number]> = [
    [1920, 1080],
    [1280, 720],
    [3840, 2160],
    [1080, 1920],
    [640, 360],
  ];
  const faces = (w: number, h: number): Box[] => [
    { x: w / 2 - 20, y: h / 3, w: 40, h: 48 }, // far, small, in the middle
    { x: 4, y: 6, w: 60, h: 70 }, // top-left corner
    { x: w - 90, y: h - 110, w: 80, h: 100 }, // bottom-right corner
    { x: w * 0.6, y: h * 0.2, w: h * 0.12, h: h * 0.15 }, // close
    { x: w * 0.2, y: h * 0.1, w: Math.min(w * 0.6, h * 0.45), h: h * 0.5 }, // very close: bigger than the crop would wish
  ];
  for (const [w, h] of frames) {
    for (const shape of STILL_SHAPES) {
      it(`${shape.name} ${shape.ratio.join(':')} from ${w}×${h}: exact ratio, inside the frame, the face inside it`, () => {
        for (const face of faces(w, h)) {
          const crop = stillCrop(face, w, h, shape);
          expect(crop.width * shape.ratio[1]).toBe(crop.height * shape.ratio[0]);
          expect(Number.isInteger(crop.left) && Number.isInteger(crop.top)).toBe(true);
          expect(inside(crop, w, h)).toBe(true);
          if (face.h * 1.2 < crop.height && face.w * 1.2 < crop.width) expect(holds(crop, face), JSON.stringify({ face, crop })).toBe(true);
        }
      });
    }
  }

  it('centres the face across and puts it in the upper part, with the body below', () => {
    const face = { x: 940, y: 300, w: 40, h: 48 };
    const portrait = stillCrop(face, 1920, 1080, STILL_SHAPES[0]!);
    expect(Math.abs(portrait.left + portrait.width / 2 - 960)).toBeLessThanOrEqual(1);
    const faceCentre = (face.y + face.h / 2 - portrait.top) / portrait.height;
    expect(faceCentre).toBeGreaterThan(0.15);
    expect(faceCentre).toBeLessThan(0.35);
    // A far face: not a postage stamp, and far less than the whole frame.
    expect(portrait.height).toBeGreaterThanOrEqual(1080 * 0.45 - 5);
    expect(portrait.width * portrait.height).toBeLessThan(1920 * 1080 * 0.25);
  });

  it('a close face gets more of the body: the crop grows with the face', () => {
    const small = stillCrop({ x: 900, y: 200, w: 60, h: 70 }, 3840, 2160, STILL_SHAPES[1]!);
    const large = stillCrop({ x: 900, y: 200, w: 180, h: 210 }, 3840, 2160, STILL_SHAPES[1]!);
    expect(large.height).toBeGreaterThan(small.height);
  });
});
