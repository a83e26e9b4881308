// Reads the jersey number on the shirt under a face, so that two athletes who look alike can be
// told apart by the number on their profile. Tesseract (tesseract.js, its WebAssembly build) with
// the English model from @tesseract.js-data/eng, read from disk: nothing is downloaded. Digits
// only, one line; a reading counts only when Tesseract is fairly sure of it, and a track's number
// only when its readings agree (see jerseyOf).
import { createRequire } from 'node:module';
import sharp from 'sharp';
import type { PSM as PsmValues, Worker } from 'tesseract.js';
import type { Box } from '../vision/boxes';
import { cropRgb, type RgbFrame } from '../vision/frames';

const require = createRequire(import.meta.url);

export interface JerseyRead {
  number: number;
  /** Tesseract's confidence, 0 to 100 (the number net's probability, as a percentage). */
  confidence: number;
  /** Read by the number net (people/number-net.ts): one such read alone never names a track. */
  byNet?: boolean;
  /**
   * Tesseract's read of a shorter player's shirt (people/stretch.ts): it counts only where the
   * number net read the same number on the track, since at that size Tesseract often reads one
   * digit of two.
   */
  confirmsOnly?: boolean;
}

/** Readings below this confidence are dropped: a shirt's folds and arms read as stray digits. */
const MIN_CONFIDENCE = 70;
/** Faces smaller than this carry digits too small to read. */
export const MIN_JERSEY_FACE_PX = 48;

/** Loaded when a number is first read (tesseract.js is large and the web server never needs it). */
let reader: Promise<{ worker: Worker; PSM: typeof PsmValues }> | null = null;
let warned = false;

function loadReader(): Promise<{ worker: Worker; PSM: typeof PsmValues }> {
  reader ??= (async () => {
    const { createWorker, PSM } = await import('tesseract.js');
    const model = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
    const worker = await createWorker('eng', 1, { langPath: model.langPath, gzip: model.gzip, cacheMethod: 'none' });
    // The crops carry no resolution; saying 300 dpi keeps Tesseract from guessing (and warning).
    // debug_file: Tesseract's notes on blobs too small to read (the ink looks make many) stay out of the logs.
    await worker.setParameters({ tessedit_char_whitelist: '0123456789', tessedit_pageseg_mode: PSM.SINGLE_LINE, user_defined_dpi: '300', debug_file: '/dev/null' } as Parameters<Worker['setParameters']>[0]);
    return { worker, PSM };
  })();
  return reader;
}

/** The chest under a face: a face-width either side of it, from below the chin down about two faces. */
export function chestRegion(face: Box, frame: { width: number; height: number }): Box | null {
  const x = Math.max(0, Math.round(face.x - face.w * 0.8));
  const y = Math.round(face.y + face.h * 1.35);
  const right = Math.min(frame.width, Math.round(face.x + face.w * 1.8));
  const bottom = Math.min(frame.height, Math.round(face.y + face.h * 3.6));
  if (y >= frame.height || bottom - y < face.h * 0.8 || right - x < face.w) return null;
  return { x, y, w: right - x, h: bottom - y };
}

/** What a face track has learnt of its shirt so far: its legible reads, and the looks that read nothing. */
export interface ShirtLooks {
  jerseyReads: JerseyRead[];
  shirtMisses: number;
  /** The tallest face under which the shirt was looked at, in pixels. */
  shirtLookedPx: number;
}

/**
 * Whether the shirt under a track's newly described face is worth another read (each costs up to
 * three Tesseract looks, the index's dearest step after the detector). Not once the track's number
 * is settled (read twice alike), and not after two looks that read nothing, unless the face is now
 * at least a quarter taller: the same shirt at the same size reads the same.
 */
export function shirtWorthReading(track: ShirtLooks, faceHeight: number): boolean {
  const ranked = rankNumbers(track.jerseyReads.map((r) => r.number));
  if (ranked[0] && ranked[0][1] >= 2 && (!ranked[1] || ranked[1][1] < ranked[0][1])) return false;
  return track.shirtMisses < 2 || faceHeight >= track.shirtLookedPx * 1.25;
}

/**
 * Reads the shirt under a track's newly described face into the track, when the face is big
 * enough, its chest is in the picture and another read is worth it (shirtWorthReading). Returns
 * whether the shirt was looked at: a chest out of the picture is no look that read nothing.
 */
export async function readShirtUnder(track: ShirtLooks, frame: RgbFrame, face: Box): Promise<boolean> {
  if (face.h < MIN_JERSEY_FACE_PX || !shirtWorthReading(track, face.h)) return false;
  const region = chestRegion(face, frame);
  if (!region) return false;
  const read = await readNumberIn(frame, region);
  if (read) track.jerseyReads.push(read);
  else track.shirtMisses++;
  track.shirtLookedPx = Math.max(track.shirtLookedPx, face.h);
  return true;
}

/**
 * The one- or two-digit number Tesseract reads with confidence in a region of the frame, or null.
 * The region is read as one line of grey. When that reads nothing, light ink then dark (a number
 * is printed to stand out from the shirt): the likeliest candidate number among the marks that
 * stand out from their own surroundings (numberGlyphs) is read alone on clean paper, then the
 * region's lightest (or darkest) pixels as sparse text (each word found where it lies). A white
 * number over a shirt's print, unreadable in grey, reads cleanly that way, and a stroke of an arm
 * beside a number is left out.
 */
export async function readNumberIn(frame: RgbFrame, region: Box): Promise<JerseyRead | null> {
  const crop = cropRgb(frame, region);
  // At least 240 px high: Tesseract reads digits best at about 40 px and more.
  const { data: grey, info } = await sharp(Buffer.from(crop.data.buffer, crop.data.byteOffset, crop.data.byteLength), { raw: { width: crop.width, height: crop.height, channels: 3 } })
    .resize({ height: Math.max(240, crop.height) })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const sorted = Uint8Array.from(grey).sort();
  const light = Math.max(150, sorted[Math.floor(sorted.length * INK_SHARE_LIGHT)]!);
  const dark = Math.min(100, sorted[Math.floor(sorted.length * INK_SHARE_DARK)]!);
  const median = sorted[sorted.length >> 1]!;
  // Tesseract costs about 50 ms a look; a region with no mark shaped like a printed digit (a plain
  // shirt, a face, the court) is not read at all, and an ink look only where that ink has one.
  // Ink, for that question, also stands out from the shirt's grey: the darkest tenth of a plain
  // shirt's grain is no number.
  const lightInk = (v: number) => v > light;
  const darkInk = (v: number) => v < dark;
  const lightMarks = hasDigitShapedMark(grey, width, height, (v) => lightInk(v) && v - median > CONTRAST_INK);
  const darkMarks = hasDigitShapedMark(grey, width, height, (v) => darkInk(v) && median - v > CONTRAST_INK);
  if (!lightMarks && !darkMarks && !hasDigitShapedMark(grey, width, height, (v) => Math.abs(v - median) > CONTRAST_INK)) return null;
  // A margin of the shirt's own grey (or of paper): digits that touch the region's edge are not read.
  const pad = Math.round(height * 0.15);
  const padded = (pixels: Uint8Array, margin: number) =>
    sharp(pixels, { raw: { width, height, channels: 1 } }).extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: margin, g: margin, b: margin } }).png().toBuffer();
  try {
    const read = numberOfWords(await wordsIn(await padded(grey, median), 'SINGLE_LINE'));
    if (read) return read;
    // A candidate number's ink is what stands out from its own surroundings: a number's white is
    // often no lighter than the court beside the shirt, and one threshold for the whole region
    // then breaks its digits apart or leaves them out.
    const around = await sharp(grey, { raw: { width, height, channels: 1 } }).blur(Math.max(1, height * SURROUNDINGS_SIGMA)).toColourspace('b-w').raw().toBuffer();
    const polarities = [
      { glyphInk: (i: number) => grey[i]! - around[i]! > GLYPH_CONTRAST, ink: lightInk, marks: lightMarks },
      { glyphInk: (i: number) => around[i]! - grey[i]! > GLYPH_CONTRAST, ink: darkInk, marks: darkMarks },
    ];
    for (const { glyphInk, ink, marks } of polarities) {
      for (const run of numberGlyphs(inkMarks(width, height, glyphInk), width, height)) {
        const read = numberOfWords(await wordsIn(await glyphsOnPaper(run, width), 'SINGLE_WORD'));
        if (read && digitsMatchMarks(read.number, run)) return read;
      }
      if (!marks) continue;
      const sparse = numberOfWords(await wordsIn(await padded(grey.map((v) => (ink(v) ? 0 : 255)), 255), 'SPARSE_TEXT'));
      if (sparse) return sparse;
    }
  } catch (error) {
    // A reader that cannot start or read costs the number, not the face index.
    if (!warned) console.warn(`[faces] jersey numbers cannot be read: ${(error as Error).message}`);
    warned = true;
  }
  return null;
}

/** The words Tesseract reads in a picture, read as one line, one word or sparse text. */
async function wordsIn(png: Buffer, mode: 'SINGLE_LINE' | 'SINGLE_WORD' | 'SPARSE_TEXT'): Promise<Array<{ text: string; confidence: number }>> {
  const { worker, PSM } = await loadReader();
  await worker.setParameters({ tessedit_pageseg_mode: PSM[mode] });
  const { data } = await worker.recognize(png, {}, { blocks: true });
  return (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)));
}

/** The lightest and darkest shares of a region taken as a number's ink (a number covers less than a tenth of the chest). */
const INK_SHARE_LIGHT = 0.9;
const INK_SHARE_DARK = 0.1;
/** How far from the shirt's grey (the region's median) ink lies: a number is printed to stand out. */
const CONTRAST_INK = 20;

/** One 4-connected mark of ink: its box, its pixel count and the pixels (indices into the region). */
export interface InkMark {
  x: number;
  y: number;
  w: number;
  h: number;
  count: number;
  pixels: Int32Array;
}

/** Every mark of ink (the pixels, by index, for which `ink` holds) in a region. */
export function inkMarks(width: number, height: number, ink: (i: number) => boolean): InkMark[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const marks: InkMark[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !ink(start)) continue;
    let top = 0;
    let count = 0;
    stack[top++] = start;
    seen[start] = 1;
    const pixels: number[] = [];
    let minX = width, maxX = -1, minY = height, maxY = -1;
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      count++;
      pixels.push(i);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x > 0 && !seen[i - 1] && ink(i - 1)) (seen[i - 1] = 1), (stack[top++] = i - 1);
      if (x < width - 1 && !seen[i + 1] && ink(i + 1)) (seen[i + 1] = 1), (stack[top++] = i + 1);
      if (y > 0 && !seen[i - width] && ink(i - width)) (seen[i - width] = 1), (stack[top++] = i - width);
      if (y < height - 1 && !seen[i + width] && ink(i + width)) (seen[i + width] = 1), (stack[top++] = i + width);
    }
    marks.push({ x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1, count, pixels: Int32Array.from(pixels) });
  }
  return marks;
}

/**
 * Whether the ink (pixels for which `ink` holds) forms a mark shaped like a printed digit or two
 * touching ones: 10 to 95 % of the region's height, no wider than two and a half times its
 * height, and not a solid block. Deliberately loose: it only spares Tesseract regions that
 * cannot hold a number.
 */
export function hasDigitShapedMark(grey: Uint8Array, width: number, height: number, ink: (v: number) => boolean): boolean {
  return inkMarks(width, height, (i) => ink(grey[i]!)).some((mark) => digitShaped(mark, height));
}

function digitShaped({ w, h, count }: InkMark, height: number): boolean {
  const fill = count / (w * h);
  if (h < height * 0.1 || h > height * 0.95 || w > h * 2.5 || w < h * 0.05) return false;
  return fill >= 0.08 && !(fill > 0.97 && w > h * 0.5);
}

/**
 * Marks that could be one printed digit, or two touching: from 12 px and a fourteenth of the
 * region's height (a number on a back is small beside the shirt) to nine tenths of it, narrower
 * than one and a half heights, neither a hairline nor a solid block, and clear of the region's
 * edges (where an arm, a head or a neighbour's shirt is cut off).
 */
function glyphLike(mark: InkMark, width: number, height: number): boolean {
  const fill = mark.count / (mark.w * mark.h);
  return mark.h >= Math.max(GLYPH_MIN_PX, height * 0.07) && mark.h <= height * 0.9 && mark.w <= mark.h * 1.5 && mark.w >= mark.h * 0.08 && fill >= 0.12 && fill <= 0.85 && mark.x > 0 && mark.y > 0 && mark.x + mark.w < width && mark.y + mark.h < height;
}
const GLYPH_MIN_PX = 12;
/** Two digits of one number stand on one line, alike in height, closer than this share of their height. */
const DIGITS_GAP = 0.35;
const DIGITS_LIKE_HEIGHT = 0.7;
const DIGITS_SAME_LINE = 0.6;
/** A mark alone is a candidate number from this share of the region's height, this share of its own height wide, and this solid. */
const SINGLE_MIN_HEIGHT = 0.15;
const SINGLE_MIN_WIDTH = 0.25;
const SINGLE_MIN_FILL = 0.3;
/** At most this many candidate numbers (in numberGlyphs' order) are read in one region, of each polarity. */
const NUMBERS_PER_REGION = 1;

/**
 * The region's candidate numbers: two glyph-like marks side by side on one line, alike in height
 * and close together (the most alike first), or one mark alone (the nearest the region's middle:
 * a number is printed in the middle of the chest or back). A stroke of an arm or a fold beside a
 * number is another candidate, not a third digit: read with it, "30" becomes a "130" that counts
 * for nothing.
 */
export function numberGlyphs(marks: InkMark[], width: number, height: number): InkMark[][] {
  const glyphs = marks.filter((m) => glyphLike(m, width, height)).sort((a, b) => a.x - b.x);
  const pairs: InkMark[][] = [];
  for (const [k, left] of glyphs.entries()) {
    for (const right of glyphs.slice(k + 1)) {
      const gap = right.x - (left.x + left.w);
      const tallest = Math.max(left.h, right.h);
      if (gap > tallest * DIGITS_GAP) break;
      const alike = Math.min(left.h, right.h) >= tallest * DIGITS_LIKE_HEIGHT;
      const sameLine = Math.min(left.y + left.h, right.y + right.h) - Math.max(left.y, right.y) >= Math.min(left.h, right.h) * DIGITS_SAME_LINE;
      if (alike && sameLine && gap >= -tallest * 0.1) pairs.push([left, right]);
    }
  }
  const offCentre = (run: InkMark[]) => Math.abs((Math.min(...run.map((m) => m.x)) + Math.max(...run.map((m) => m.x + m.w))) / 2 - width / 2);
  const alikeness = ([a, b]: InkMark[]) => Math.min(a!.h, b!.h) / Math.max(a!.h, b!.h);
  pairs.sort((a, b) => alikeness(b) - alikeness(a) || offCentre(a) - offCentre(b));
  // A number alone is printed large and bold: not a fold's hairline or edge, nor a speck of a print.
  const singles = glyphs.filter((g) => g.h >= height * SINGLE_MIN_HEIGHT && g.w >= g.h * SINGLE_MIN_WIDTH && g.count >= g.w * g.h * SINGLE_MIN_FILL).map((g) => [g]);
  return [...pairs, ...singles.sort((a, b) => offCentre(a) - offCentre(b))].slice(0, NUMBERS_PER_REGION);
}

/** A pixel is a candidate number's ink when this much lighter (or darker) than its surroundings, blurred this much (a share of the region's height). */
const GLYPH_CONTRAST = 16;
const SURROUNDINGS_SIGMA = 0.06;
/** Height of the digits in the picture Tesseract is given, and the paper around them (a share of it). */
const GLYPH_PX = 48;
const GLYPH_MARGIN = 0.4;

/** One candidate number alone on white paper, black, at the height Tesseract reads best. */
async function glyphsOnPaper(run: InkMark[], width: number): Promise<Buffer> {
  const left = Math.min(...run.map((m) => m.x));
  const top = Math.min(...run.map((m) => m.y));
  const w = Math.max(...run.map((m) => m.x + m.w)) - left;
  const h = Math.max(...run.map((m) => m.y + m.h)) - top;
  const paper = new Uint8Array(w * h).fill(255);
  for (const mark of run) {
    for (const i of mark.pixels) {
      const x = i % width;
      const y = (i - x) / width;
      paper[(y - top) * w + (x - left)] = 0;
    }
  }
  const scale = GLYPH_PX / h;
  const margin = Math.round(GLYPH_PX * GLYPH_MARGIN);
  return sharp(paper, { raw: { width: w, height: h, channels: 1 } })
    .resize({ width: Math.max(1, Math.round(w * scale)), height: GLYPH_PX })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: { r: 255, g: 255, b: 255 } })
    .png()
    .toBuffer();
}

/**
 * Whether a number read on a run of marks has as many digits as the run has marks (one wide mark
 * may be two touching digits, a narrow one may not): a one-mark stroke read as "11", or a blot as
 * wide as tall read as "2", is the reader's guess.
 */
function digitsMatchMarks(number: number, run: InkMark[]): boolean {
  const digits = String(number).length;
  if (run.length === 2) return digits === 2;
  // One mark: one digit is taller than wide, two touching ones about as wide as tall.
  const { w, h } = run[0]!;
  return digits === 1 ? w <= h * 0.9 : w >= h * 0.8;
}

/**
 * The shirt's number among the words read: the one- or two-digit words read with confidence;
 * none, or two different ones, is no number (say unknown rather than guess).
 */
export function numberOfWords(words: Array<{ text: string; confidence: number }>): JerseyRead | null {
  const sure = words.filter((w) => /^\d{1,2}$/.test(w.text) && w.confidence >= MIN_CONFIDENCE);
  const numbers = new Set(sure.map((w) => Number(w.text)));
  if (numbers.size !== 1) return null;
  return { number: [...numbers][0]!, confidence: Math.round(Math.max(...sure.map((w) => w.confidence))) };
}

/** Each number with how often it was read, the most often first. */
export function rankNumbers(numbers: number[]): Array<[number: number, count: number]> {
  const counts = new Map<number, number>();
  for (const n of numbers) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

/**
 * A track's number, from all its reads. A digit read alone that is a digit of a two-digit number
 * read too is that number with a digit cut off (by the region's edge, an arm, a fold), and counts
 * for it. The number with the most reads for it wins, when read at least twice and nothing else is
 * read as often; or a number read once with high confidence and nothing else read, unless it is
 * one digit and `oneDigitOnce` is false: on a wide camera's small players one digit read once is
 * too often the edge of an arm or a shirt read as a 1 (on the bench's real game clips, six of the
 * eight wrong numbers were). The number net's reads always need a second alike: it reads every
 * sample of a far player, and one sure misreading among them is no number. A read that only
 * confirms (JerseyRead.confirmsOnly) is left out unless the net read the same number.
 */
export function jerseyOf(given: JerseyRead[], { oneDigitOnce = true } = {}): number | null {
  const reads = given.filter((r) => !r.confirmsOnly || given.some((o) => o.byNet && o.number === r.number));
  if (!reads.length) return null;
  const ranked = rankNumbers(reads.map((r) => r.number));
  const countOf = new Map(ranked);
  const partsOf = (n: number) => (n >= 10 ? [...new Set([Math.floor(n / 10), n % 10])] : []);
  const support = (n: number) => countOf.get(n)! + partsOf(n).reduce((sum, d) => sum + (countOf.get(d) ?? 0), 0);
  const [best, ...others] = ranked.map(([n]) => n).sort((a, b) => support(b) - support(a) || b - a);
  const rival = others.find((n) => !partsOf(best!).includes(n));
  if (rival !== undefined && support(rival) >= support(best!)) return null;
  if (support(best!) >= 2) return best!;
  return reads.length === 1 && !reads[0]!.byNet && reads[0]!.confidence >= 85 && (oneDigitOnce || best! >= 10) ? best! : null;
}
