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
  /** Tesseract's confidence, 0 to 100. */
  confidence: number;
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
 * The region is read as one line of grey; when that reads nothing, as sparse text (each word
 * found where it lies, beside a print, an arm or a fold) with only its lightest pixels as ink,
 * then only its darkest: a number is printed to stand out from the shirt, and a white number
 * over a shirt's print, unreadable in grey, reads cleanly that way.
 */
export async function readNumberIn(frame: RgbFrame, region: Box): Promise<JerseyRead | null> {
  const crop = cropRgb(frame, region);
  // At least 240 px high: Tesseract reads digits best at about 40 px and more.
  const { data: grey, info } = await sharp(Buffer.from(crop.data.buffer, crop.data.byteOffset, crop.data.byteLength), { raw: { width: crop.width, height: crop.height, channels: 3 } })
    .resize({ height: Math.max(240, crop.height) })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
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
  const lightMarks = hasDigitShapedMark(grey, info.width, info.height, (v) => lightInk(v) && v - median > CONTRAST_INK);
  const darkMarks = hasDigitShapedMark(grey, info.width, info.height, (v) => darkInk(v) && median - v > CONTRAST_INK);
  if (!lightMarks && !darkMarks && !hasDigitShapedMark(grey, info.width, info.height, (v) => Math.abs(v - median) > CONTRAST_INK)) return null;
  const looks = [
    { pixels: grey, mode: 'SINGLE_LINE', margin: median },
    ...(lightMarks ? [{ pixels: grey.map((v) => (lightInk(v) ? 0 : 255)), mode: 'SPARSE_TEXT', margin: 255 } as const] : []),
    ...(darkMarks ? [{ pixels: grey.map((v) => (darkInk(v) ? 0 : 255)), mode: 'SPARSE_TEXT', margin: 255 } as const] : []),
  ] as const;
  // A margin of the shirt's own grey (or of paper): digits that touch the region's edge are not read.
  const pad = Math.round(info.height * 0.15);
  for (const look of looks) {
    const png = await sharp(look.pixels, { raw: { width: info.width, height: info.height, channels: 1 } })
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: look.margin, g: look.margin, b: look.margin } })
      .png()
      .toBuffer();
    let words: Array<{ text: string; confidence: number }>;
    try {
      const { worker, PSM } = await loadReader();
      await worker.setParameters({ tessedit_pageseg_mode: PSM[look.mode] });
      const { data } = await worker.recognize(png, {}, { blocks: true });
      words = (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)));
    } catch (error) {
      // A reader that cannot start or read costs the number, not the face index.
      if (!warned) console.warn(`[faces] jersey numbers cannot be read: ${(error as Error).message}`);
      warned = true;
      return null;
    }
    const read = numberOfWords(words);
    if (read) return read;
  }
  return null;
}

/** The lightest and darkest shares of a region taken as a number's ink (a number covers less than a tenth of the chest). */
const INK_SHARE_LIGHT = 0.9;
const INK_SHARE_DARK = 0.1;
/** How far from the shirt's grey (the region's median) ink lies: a number is printed to stand out. */
const CONTRAST_INK = 20;

/**
 * Whether the ink (pixels for which `ink` holds) forms a mark shaped like a printed digit or two
 * touching ones: 10 to 95 % of the region's height, no wider than two and a half times its
 * height, and not a solid block. Deliberately loose: it only spares Tesseract regions that
 * cannot hold a number.
 */
export function hasDigitShapedMark(grey: Uint8Array, width: number, height: number, ink: (v: number) => boolean): boolean {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  for (let start = 0; start < grey.length; start++) {
    if (seen[start] || !ink(grey[start]!)) continue;
    // One mark: its 4-connected ink, with its box and size.
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let count = 0;
    let minX = width, maxX = -1, minY = height, maxY = -1;
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x > 0 && !seen[i - 1] && ink(grey[i - 1]!)) (seen[i - 1] = 1), (stack[top++] = i - 1);
      if (x < width - 1 && !seen[i + 1] && ink(grey[i + 1]!)) (seen[i + 1] = 1), (stack[top++] = i + 1);
      if (y > 0 && !seen[i - width] && ink(grey[i - width]!)) (seen[i - width] = 1), (stack[top++] = i - width);
      if (y < height - 1 && !seen[i + width] && ink(grey[i + width]!)) (seen[i + width] = 1), (stack[top++] = i + width);
    }
    const h = maxY - minY + 1;
    const w = maxX - minX + 1;
    const fill = count / (w * h);
    if (h < height * 0.1 || h > height * 0.95 || w > h * 2.5 || w < h * 0.05) continue;
    if (fill < 0.08 || (fill > 0.97 && w > h * 0.5)) continue;
    return true;
  }
  return false;
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
 * A track's number: the one read most often, when read at least twice and never outnumbered, or
 * read once with high confidence and nothing else read.
 */
export function jerseyOf(reads: JerseyRead[]): number | null {
  if (!reads.length) return null;
  const ranked = rankNumbers(reads.map((r) => r.number));
  const [number, count] = ranked[0]!;
  if (ranked[1] && ranked[1][1] === count) return null;
  if (count >= 2) return number;
  return reads.length === 1 && reads[0]!.confidence >= 85 ? number : null;
}
