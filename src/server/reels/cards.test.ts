// Issue 22, item 10: the intro and outro cards fit long names in any script, in both formats, and
// the spotlight ring stays inside the frame and on the face. Measured on the rendered pixels.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REEL_FORMAT } from '../../common/reel-format';
import { cardSafeArea, WORD_BREAK, introBlocks, introCard, layoutCard, outroCard, ringPlacement, spotlightRing } from './cards';

const NAMES = ['Ava Stone', 'Maximilian Alexander Fitzgerald-Rodriguez', 'Øyvind Åsmund Ødegård', '李小龍', 'Александра Константинопольская', 'Hubert Blaine Wolfeschlegelsteinhausenbergerdorff'];
const FORMATS = [REEL_FORMAT.reel, REEL_FORMAT.social];
/** Where the card PNGs are written, to look at. */
const OUT = process.env.CARDS_OUT_DIR ?? path.join(os.tmpdir(), 'giot-cards');

/** The box of the text's pixels: grey to white (the background is at most #111, the bar is red). */
async function textBox(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let left = Infinity;
  let right = -1;
  let top = Infinity;
  let bottom = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 40) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
  }
  return { left, right, top, bottom, width: info.width, height: info.height };
}

function expectInsideSafeMargins(box: Awaited<ReturnType<typeof textBox>>) {
  const safe = cardSafeArea(box.width, box.height);
  expect(box.right).toBeGreaterThan(0); // something was drawn
  expect(box.left).toBeGreaterThanOrEqual(box.width * safe.side);
  expect(box.right).toBeLessThan(box.width * (1 - safe.side));
  expect(box.top).toBeGreaterThanOrEqual(box.height * safe.top);
  expect(box.bottom).toBeLessThan(box.height * (1 - safe.bottom));
}

/**
 * Where the platforms that show vertical video draw over it, in a 1080x1920 frame (their published
 * safe-zone guidance, rounded outwards): the account line and tabs along the top, the caption and
 * comment field along the bottom, and the column of like / comment / share buttons on the right.
 */
const SOCIAL_OVERLAYS = [
  { name: 'the top bar', left: 0, top: 0, right: 1080, bottom: 250 },
  { name: 'the caption', left: 0, top: 1340, right: 1080, bottom: 1920 },
  { name: 'the button column', left: 920, top: 700, right: 1080, bottom: 1920 },
];

describe('intro and outro cards (issue 22, item 10)', () => {
  fs.mkdirSync(OUT, { recursive: true });
  for (const { width, height } of FORMATS) {
    for (const name of NAMES) {
      it(`"${name}" stays inside the safe margins at ${width}x${height}, large enough to read`, async () => {
        const text = { name, teamName: 'Austin Thunder 15U Girls Elite', jerseyNumber: 12, event: 'Austin Fall League 2024 · Championship Weekend at the Convention Center' };
        const png = await introCard(text, width, height);
        fs.writeFileSync(path.join(OUT, `intro-${width}x${height}-${name.replace(/[^\p{L}]+/gu, '-')}.png`), png);
        expect(await sharp(png).metadata()).toMatchObject({ width, height });
        expectInsideSafeMargins(await textBox(png));
        // The name shrinks or wraps, but stays the largest text and readable on a phone.
        const lines = await layoutCard(width, height, introBlocks(text, width, height));
        const nameLines = lines.filter((l) => l.weight === 700);
        expect(nameLines.length).toBeLessThanOrEqual(2);
        expect(nameLines.map((l) => l.text).join(' ').replace(/- /, '-').replace(`${WORD_BREAK} `, '')).toBe(name.toUpperCase());
        // (A word of 35 letters shrinks further, or is broken with a hyphen: see below.)
        const longWord = name.split(/[\s-]/).some((word) => word.length > 20);
        expect(Math.min(...nameLines.map((l) => l.size))).toBeGreaterThanOrEqual(longWord ? 40 : width > height ? 60 : 40);
      });
    }
    it(`a long name goes onto two lines at ${width}x${height} rather than shrinking to a whisper`, async () => {
      const text = { name: 'Maximilian Alexander Fitzgerald-Rodriguez', teamName: null, jerseyNumber: null, event: 'Cup' };
      const lines = (await layoutCard(width, height, introBlocks(text, width, height))).filter((l) => l.weight === 700);
      expect(lines).toHaveLength(2);
      expect(lines[1]!.y).toBeGreaterThan(lines[0]!.y);
    });
    if (height > width) {
      it('on the vertical cut no text lies under the platforms\' buttons and captions', async () => {
        const text = { name: 'Maximilian Alexander Fitzgerald-Rodriguez', teamName: 'Austin Thunder 15U Girls Elite', jerseyNumber: 12, event: 'Austin Fall League 2024 · Championship Weekend at the Convention Center' };
        for (const png of [await introCard(text, width, height), await outroCard(width, height)]) {
          const box = await textBox(png);
          for (const o of SOCIAL_OVERLAYS) {
            const overlaps = box.left < o.right && box.right > o.left && box.top < o.bottom && box.bottom > o.top;
            expect({ overlay: o.name, overlaps }).toEqual({ overlay: o.name, overlaps: false });
          }
        }
      });
    }
    it(`a word of 35 letters is broken with a hyphen at ${width}x${height} only when it would otherwise be tiny`, async () => {
      const layout = async (name: string) =>
        (await layoutCard(width, height, introBlocks({ name, teamName: null, jerseyNumber: null, event: 'Cup' }, width, height))).filter((l) => l.weight === 700);
      const broken = await layout('Hubert Blaine Wolfeschlegelsteinhausenbergerdorff');
      const breaks = broken.filter((l) => l.text.endsWith(WORD_BREAK));
      expect(breaks.length).toBe(width > height ? 0 : 1);
      // An ordinary long name is split at a space, never inside a word.
      expect((await layout('Maximilian Alexander Fitzgerald-Rodriguez')).some((l) => l.text.includes(WORD_BREAK))).toBe(false);
    });
    it(`the outro card stays inside the safe margins at ${width}x${height}`, async () => {
      const png = await outroCard(width, height);
      fs.writeFileSync(path.join(OUT, `outro-${width}x${height}.png`), png);
      expectInsideSafeMargins(await textBox(png));
    });
  }
});

describe('the spotlight ring (issue 22, item 10)', () => {
  const W = 1280;
  const H = 720;
  const face = 120;
  // A face at each edge and corner, one partly outside the picture, one in the middle.
  const spots: Array<[string, number, number]> = [
    ['top-left corner', 0, 0],
    ['top edge', W / 2 - face / 2, 0],
    ['top-right corner', W - face, 0],
    ['right edge', W - face, H / 2 - face / 2],
    ['bottom-right corner', W - face, H - face],
    ['bottom edge', W / 2 - face / 2, H - face],
    ['bottom-left corner', 0, H - face],
    ['left edge', 0, H / 2 - face / 2],
    ['half outside on the left', -face / 2, 200],
    ['near the top', 300, 40],
    ['middle', W / 2 - face / 2, H / 2 - face / 2],
  ];

  for (const [where, x, y] of spots) {
    it(`a face at the ${where}: the ring's drawn pixels lie inside the frame and ring the face`, async () => {
      const ring = ringPlacement({ x, y, w: face, h: face }, W, H);
      expect(ring.x).toBeGreaterThanOrEqual(0);
      expect(ring.y).toBeGreaterThanOrEqual(0);
      expect(ring.x + ring.size).toBeLessThanOrEqual(W);
      expect(ring.y + ring.size).toBeLessThanOrEqual(H);
      // The ring as ffmpeg overlays it: its PNG composited on a frame of the footage's size.
      const png = await spotlightRing(ring.size);
      expect((await sharp(png).metadata()).width).toBe(ring.size);
      const frame = await sharp({ create: { width: W, height: H, channels: 3, background: '#000000' } })
        .composite([{ input: png, left: ring.x, top: ring.y }])
        .removeAlpha()
        .raw()
        .toBuffer();
      const yellow: Array<[number, number]> = [];
      for (let py = 0; py < H; py++) for (let px = 0; px < W; px++) if (frame[(py * W + px) * 3]! > 150 && frame[(py * W + px) * 3 + 1]! > 120) yellow.push([px, py]);
      expect(yellow.length).toBeGreaterThan(100);
      // Still on the face: centred on it wherever a ring that surrounds it (1.3 times its size)
      // fits centred; otherwise moved inward just enough, its circle still around the face's
      // visible part.
      const xs = yellow.map((p) => p[0]);
      const ys = yellow.map((p) => p[1]);
      const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const fx = x + face / 2;
      const fy = y + face / 2;
      if (2 * Math.min(fx, W - fx, fy, H - fy) >= face * 1.3) {
        expect(Math.abs((left + right) / 2 - fx)).toBeLessThanOrEqual(2);
        expect(Math.abs((top + bottom) / 2 - fy)).toBeLessThanOrEqual(2);
      } else {
        // The visible part of the face has its centre inside the ring.
        const vx = (Math.max(0, x) + Math.min(W, x + face)) / 2;
        const vy = (Math.max(0, y) + Math.min(H, y + face)) / 2;
        expect(vx).toBeGreaterThan(left);
        expect(vx).toBeLessThan(right);
        expect(vy).toBeGreaterThan(top);
        expect(vy).toBeLessThan(bottom);
      }
      expect(ring.size).toBeGreaterThanOrEqual(face * 1.3 - 1);
    });
  }

  it('a face in the middle gets the full ring, 2.2 times its size', () => {
    expect(ringPlacement({ x: 580, y: 300, w: 120, h: 120 }, W, H).size).toBe(264);
  });
});
