import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { chestRegion, hasDigitShapedMark, inkMarks, jerseyOf, numberGlyphs, numberOfWords, readNumberIn, readShirtUnder, shirtWorthReading } from './numbers';

/** A shirt region of 220 × 240 as grey, with `text` printed on it (DejaVu, as the footage tests draw numbers). */
async function shirt(options: { shirt: string; ink?: string; text?: string; size?: number; grain?: number; x?: number; behind?: string; over?: string }) {
  const text = options.text ? `<text x="${options.x ?? 110}" y="170" font-family="DejaVu Sans" font-weight="bold" font-size="${options.size ?? 110}" fill="${options.ink}" text-anchor="middle">${options.text}</text>` : '';
  const svg = `<svg width="220" height="240"><rect width="220" height="240" fill="${options.shirt}"/>${options.behind ?? ''}${text}${options.over ?? ''}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // Camera grain: a little noise on every pixel.
  let seed = 3;
  const grain = options.grain ?? 6;
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + Math.round((((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5) * 2 * grain)));
  const rgb = { data: new Uint8Array(data), width: info.width, height: info.height };
  const grey = (await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).grayscale().raw().toBuffer());
  return { rgb, grey: new Uint8Array(grey), width: info.width, height: info.height };
}


describe('a track’s jersey number', () => {
  it('is the number read most often, at least twice', () => {
    expect(jerseyOf([{ number: 12, confidence: 80 }, { number: 12, confidence: 75 }, { number: 17, confidence: 90 }])).toBe(12);
  });
  it('is none when two numbers are read as often', () => {
    expect(jerseyOf([{ number: 12, confidence: 95 }, { number: 7, confidence: 95 }])).toBeNull();
  });
  it('takes a single reading only when Tesseract is very sure of it', () => {
    expect(jerseyOf([{ number: 4, confidence: 90 }])).toBe(4);
    expect(jerseyOf([{ number: 4, confidence: 75 }])).toBeNull();
    expect(jerseyOf([])).toBeNull();
  });
  it('on a person track, takes one digit only when read twice: read once, it is too often an arm’s edge read as 1', () => {
    expect(jerseyOf([{ number: 1, confidence: 93 }], { oneDigitOnce: false })).toBeNull();
    expect(jerseyOf([{ number: 24, confidence: 90 }], { oneDigitOnce: false })).toBe(24);
    expect(jerseyOf([{ number: 4, confidence: 90 }, { number: 4, confidence: 80 }], { oneDigitOnce: false })).toBe(4);
  });
  it('never takes the number net’s read alone: it reads every sample of a far player, and one sure misreading is no number', () => {
    expect(jerseyOf([{ number: 24, confidence: 95, byNet: true }], { oneDigitOnce: false })).toBeNull();
    expect(jerseyOf([{ number: 24, confidence: 85, byNet: true }, { number: 24, confidence: 81, byNet: true }], { oneDigitOnce: false })).toBe(24);
    expect(jerseyOf([{ number: 24, confidence: 90, byNet: true }, { number: 23, confidence: 90, byNet: true }], { oneDigitOnce: false })).toBeNull();
  });
  it('counts Tesseract’s read of a shorter player only where it confirms the net’s read of the same number', () => {
    const net = (number: number) => ({ number, confidence: 86, byNet: true });
    const confirming = (number: number) => ({ number, confidence: 88, confirmsOnly: true });
    // A far #10 as the tune clip shows it: the net sure of 10 once, Tesseract reading 10 at 105 px.
    expect(jerseyOf([net(10), confirming(10)], { oneDigitOnce: false })).toBe(10);
    // Alone, or beside a net read of another number, it is nothing: at that size Tesseract reads one digit of two.
    expect(jerseyOf([confirming(15), confirming(15)], { oneDigitOnce: false })).toBeNull();
    expect(jerseyOf([net(42), confirming(2)], { oneDigitOnce: false })).toBeNull();
    expect(jerseyOf([net(42), confirming(2), confirming(5)], { oneDigitOnce: false })).toBeNull();
    // As an ordinary read, the 2 would have carried the 42 (a digit cut off counts for its number).
    expect(jerseyOf([net(42), { number: 2, confidence: 88 }], { oneDigitOnce: false })).toBe(42);
  });
  it('counts a digit read alone for the two-digit number it is part of (a digit cut off), not against it', () => {
    const reads = (...numbers: number[]) => numbers.map((number) => ({ number, confidence: 80 }));
    // Read as seen on a real back, #10: the 0 cut off by the region's edge three times.
    expect(jerseyOf(reads(10, 1, 10, 1, 0, 10, 4, 1))).toBe(10);
    expect(jerseyOf(reads(23, 3))).toBe(23);
    // A digit that is no part of it still competes.
    expect(jerseyOf(reads(23, 7, 7))).toBe(7);
    expect(jerseyOf(reads(23, 7))).toBeNull();
  });
});

describe('a shirt read again under a track’s next described face', () => {
  const read = (number: number) => ({ number, confidence: 80 });
  it('is read while nothing is settled', () => {
    expect(shirtWorthReading({ jerseyReads: [], shirtMisses: 0, shirtLookedPx: 0 }, 60)).toBe(true);
    expect(shirtWorthReading({ jerseyReads: [read(12)], shirtMisses: 1, shirtLookedPx: 60 }, 60)).toBe(true);
    // Two numbers read once each: a third read decides.
    expect(shirtWorthReading({ jerseyReads: [read(12), read(17)], shirtMisses: 1, shirtLookedPx: 60 }, 60)).toBe(true);
  });
  it('is not read once its number was read twice alike', () => {
    expect(shirtWorthReading({ jerseyReads: [read(12), read(12)], shirtMisses: 0, shirtLookedPx: 60 }, 200)).toBe(false);
    expect(shirtWorthReading({ jerseyReads: [read(12), read(17), read(12)], shirtMisses: 0, shirtLookedPx: 60 }, 60)).toBe(false);
  });
  it('is not read after two looks that read nothing, unless the face is a quarter taller', () => {
    const missed = { jerseyReads: [], shirtMisses: 2, shirtLookedPx: 80 };
    expect(shirtWorthReading(missed, 80)).toBe(false);
    expect(shirtWorthReading(missed, 99)).toBe(false);
    expect(shirtWorthReading(missed, 100)).toBe(true);
  });
});

describe('the shirt under a track’s described face, read into the track', () => {
  it('counts a look that read nothing, not a chest out of the picture, a face too small or a settled number', async () => {
    const plain = await shirt({ shirt: '#2050a0' });
    const track = { jerseyReads: [], shirtMisses: 0, shirtLookedPx: 0 };
    // A face above the frame's top edge: its chest is the plain shirt.
    expect(await readShirtUnder(track, plain.rgb, { x: 60, y: -80, w: 60, h: 60 })).toBe(true);
    expect(track).toEqual({ jerseyReads: [], shirtMisses: 1, shirtLookedPx: 60 });
    // At the bottom edge the chest is out of the picture: no look, nothing counted.
    expect(await readShirtUnder(track, plain.rgb, { x: 60, y: 200, w: 60, h: 60 })).toBe(false);
    expect(await readShirtUnder(track, plain.rgb, { x: 60, y: -40, w: 30, h: 30 })).toBe(false);
    expect(track).toEqual({ jerseyReads: [], shirtMisses: 1, shirtLookedPx: 60 });
    const settled = { jerseyReads: [{ number: 7, confidence: 90 }, { number: 7, confidence: 80 }], shirtMisses: 0, shirtLookedPx: 60 };
    expect(await readShirtUnder(settled, plain.rgb, { x: 60, y: -80, w: 60, h: 60 })).toBe(false);
    expect(settled.shirtMisses).toBe(0);
  });
});

describe('the chest under a face', () => {
  it('lies below the chin, wider than the face, inside the frame', () => {
    expect(chestRegion({ x: 100, y: 50, w: 80, h: 100 }, { width: 1280, height: 720 })).toEqual({ x: 36, y: 185, w: 208, h: 225 });
    // A face at the bottom edge has no chest to read.
    expect(chestRegion({ x: 100, y: 650, w: 60, h: 60 }, { width: 1280, height: 720 })).toBeNull();
  });
});

describe('the number among the words read on a shirt', () => {
  it('is the one- or two-digit word read with confidence, whatever noise is beside it', () => {
    expect(numberOfWords([{ text: '23', confidence: 96 }, { text: '8', confidence: 0 }])).toEqual({ number: 23, confidence: 96 });
    expect(numberOfWords([{ text: '7', confidence: 88 }, { text: '7', confidence: 91 }])).toEqual({ number: 7, confidence: 91 });
  });
  it('is none when nothing is legible, the digits are too many, or two numbers are both read with confidence', () => {
    expect(numberOfWords([])).toBeNull();
    expect(numberOfWords([{ text: '23', confidence: 55 }])).toBeNull();
    expect(numberOfWords([{ text: '2023', confidence: 95 }])).toBeNull();
    expect(numberOfWords([{ text: '12', confidence: 90 }, { text: '4', confidence: 85 }])).toBeNull();
  });
});

describe('a mark shaped like a printed digit (the reader skips regions without one)', () => {
  it('is found for a number of either polarity, one digit or two', async () => {
    const white = await shirt({ shirt: '#1f3a93', ink: '#ffffff', text: '23' });
    expect(hasDigitShapedMark(white.grey, white.width, white.height, (v) => v > 200)).toBe(true);
    const dark = await shirt({ shirt: '#f0f0f0', ink: '#202020', text: '7' });
    expect(hasDigitShapedMark(dark.grey, dark.width, dark.height, (v) => v < 100)).toBe(true);
    // A small number (a tenth of the region high and more) still counts.
    const small = await shirt({ shirt: '#1f3a93', ink: '#ffffff', text: '4', size: 36 });
    expect(hasDigitShapedMark(small.grey, small.width, small.height, (v) => v > 200)).toBe(true);
  });

  it('is not found on a plain shirt with grain, nor in a solid block of ink', async () => {
    const plain = await shirt({ shirt: '#1f3a93', grain: 20 });
    const median = [...plain.grey].sort((a, b) => a - b)[plain.grey.length >> 1]!;
    expect(hasDigitShapedMark(plain.grey, plain.width, plain.height, (v) => Math.abs(v - median) > 40)).toBe(false);
    const block = new Uint8Array(100 * 100).map((_, i) => (i % 100 > 20 && i % 100 < 80 && i > 2000 && i < 8000 ? 255 : 0));
    expect(hasDigitShapedMark(block, 100, 100, (v) => v > 200)).toBe(false);
  });

  it('lets the reader read a printed number, and spares it a plain shirt', async () => {
    const numbered = await shirt({ shirt: '#1f3a93', ink: '#ffffff', text: '23' });
    expect(await readNumberIn(numbered.rgb, { x: 0, y: 0, w: 220, h: 240 })).toMatchObject({ number: 23 });
    const plain = await shirt({ shirt: '#1f3a93', grain: 20 });
    expect(await readNumberIn(plain.rgb, { x: 0, y: 0, w: 220, h: 240 })).toBeNull();
  }, 60_000);
});

// A player's back seen from a sideline camera: the number's white is no lighter than the court
// beside the shirt, and the shirt's edge against the court stands like a "1" just left of it.
const BACK_BESIDE_COURT = {
  shirt: '#1d2a6b',
  ink: '#b9b9b9',
  text: '30',
  size: 64,
  x: 140,
  behind: '<rect width="62" height="240" fill="#c4c4c4"/>',
  over: '<rect x="84" y="118" width="7" height="54" fill="#c4c4c4"/>',
};

describe('the candidate numbers in a region (each read alone)', () => {
  it('are the two digits side by side, not an arm’s edge beside them', async () => {
    const back = await shirt(BACK_BESIDE_COURT);
    const marks = inkMarks(back.width, back.height, (i) => back.grey[i]! > 150);
    const [first] = numberGlyphs(marks, back.width, back.height);
    expect(first).toHaveLength(2);
    // The "3" and the "0": right of the stroke at x 84-90, around the text's middle at x 140.
    expect(Math.min(...first!.map((m) => m.x))).toBeGreaterThan(95);
    expect(Math.max(...first!.map((m) => m.x + m.w))).toBeLessThan(185);
  });

  it('are none in a plain shirt, and three marks in a row are never read as one number', async () => {
    const plain = await shirt({ shirt: '#1f3a93', grain: 20 });
    expect(numberGlyphs(inkMarks(plain.width, plain.height, (i) => plain.grey[i]! > 200), plain.width, plain.height)).toEqual([]);
    const three = await shirt({ shirt: '#1f3a93', ink: '#ffffff', text: '123', size: 70 });
    const runs = numberGlyphs(inkMarks(three.width, three.height, (i) => three.grey[i]! > 200), three.width, three.height);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.length <= 2)).toBe(true);
  });

  it('let the reader read a number no lighter than the court beside the shirt, past an arm’s edge', async () => {
    const back = await shirt(BACK_BESIDE_COURT);
    expect(await readNumberIn(back.rgb, { x: 0, y: 0, w: 220, h: 240 })).toMatchObject({ number: 30 });
  }, 60_000);
});

