// Shot cuts between two samples of a stretch (half a second apart by default). A track ends at a
// cut: the face on the other side is a new sighting even where someone else stands in the same
// place. Two measures, because each misses what the other sees:
//  - colours: a cut to another scene (the stands, a close-up in other light) changes the picture's
//    colour histogram; a pan or zoom over the same court keeps it;
//  - structure: a cut between two shots of the same light (two cameras on one stage, one court
//    from two sides) keeps the colours but not the picture. The second sample's small grey
//    picture is compared with the first's at the best of many shifts and a few zooms: a camera
//    that pans or zooms finds a close match, a cut finds none.
// Neither is sure in between: a real camera following a player, or a focus pull, changes the
// picture as much as a cut between two similar shots. There the answer is 'maybe', and the third
// measure is the face itself: a track goes on across a 'maybe' only if the face's descriptor
// says it is the same person (index-segment.ts).
// Thresholds: chosen on real photographs of people and scenes (the calibration set, half of it),
// pans and zooms of one photo standing for a camera's motion and a change of photo for a cut,
// and on two real edited clips; checked on the other half of the photos and two other clips
// (bench/shot-cuts.ts, bench/README.md).
import type { RgbFrame } from '../vision/frames';

/** The small grey picture's size: 64 × 36 cells of a 16:9 frame (fewer rows for a taller one). */
const GRID_W = 64;

export interface ShotSignature {
  colours: Float32Array;
  /** Mean grey level of each cell, row by row, blurred over its neighbours (for comparing shots). */
  grey: Float32Array;
  /** The same cells unblurred (for finding which parts of the picture changed: faces/look-regions.ts). */
  cells: Float32Array;
  width: number;
  height: number;
}

/**
 * A colour histogram (4 levels a channel) of every 8th pixel of every 8th row, and a 64-cell-wide
 * grey picture averaged over blocks (every 4th pixel of a block: enough to average out grain).
 */
export function shotSignature(frame: RgbFrame): ShotSignature {
  const colours = new Float32Array(64);
  let n = 0;
  for (let y = 0; y < frame.height; y += 8) {
    for (let x = 0; x < frame.width; x += 8) {
      const i = (y * frame.width + x) * 3;
      colours[((frame.data[i]! >> 6) << 4) | ((frame.data[i + 1]! >> 6) << 2) | (frame.data[i + 2]! >> 6)]!++;
      n++;
    }
  }
  for (let i = 0; i < colours.length; i++) colours[i]! /= n;
  const width = Math.min(GRID_W, frame.width);
  const height = Math.max(1, Math.min(frame.height, Math.round((frame.height / frame.width) * width)));
  const grey = new Float32Array(width * height);
  const bw = frame.width / width;
  const bh = frame.height / height;
  const step = Math.max(1, Math.floor(Math.min(bw, bh) / 4));
  for (let gy = 0; gy < height; gy++) {
    for (let gx = 0; gx < width; gx++) {
      let sum = 0;
      let count = 0;
      for (let y = Math.floor(gy * bh); y < Math.floor((gy + 1) * bh); y += step) {
        for (let x = Math.floor(gx * bw); x < Math.floor((gx + 1) * bw); x += step) {
          const i = (y * frame.width + x) * 3;
          sum += 0.299 * frame.data[i]! + 0.587 * frame.data[i + 1]! + 0.114 * frame.data[i + 2]!;
          count++;
        }
      }
      grey[gy * width + gx] = count ? sum / count : 0;
    }
  }
  return { colours, grey: blurred(grey, width, height), cells: grey, width, height };
}

/** A 3 × 3 box blur: a shift of part of a cell then changes the picture little, a cut still all of it. */
function blurred(grey: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(grey.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let j = Math.max(0, y - 1); j <= Math.min(height - 1, y + 1); j++) {
        for (let i = Math.max(0, x - 1); i <= Math.min(width - 1, x + 1); i++) {
          sum += grey[j * width + i]!;
          n++;
        }
      }
      out[y * width + x] = sum / n;
    }
  }
  return out;
}

/** Share of the picture whose colours changed between two samples (0: the same, 1: all). */
export function colourChange(a: ShotSignature, b: ShotSignature): number {
  let sum = 0;
  for (let i = 0; i < a.colours.length; i++) sum += Math.abs(a.colours[i]! - b.colours[i]!);
  return sum / 2;
}

/** Normalised correlation of `b` with `a` shifted by (dx, dy) cells and zoomed by `zoom` about the centre, over the cells both cover (at least half of the picture). */
function correlation(a: ShotSignature, b: ShotSignature, dx: number, dy: number, zoom: number): number {
  const { width, height } = b;
  const cx = width / 2;
  const cy = height / 2;
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let y = 0; y < height; y++) {
    const ay = Math.round((y - cy) / zoom + cy + dy);
    if (ay < 0 || ay >= a.height) continue;
    for (let x = 0; x < width; x++) {
      const ax = Math.round((x - cx) / zoom + cx + dx);
      if (ax < 0 || ax >= a.width) continue;
      const va = a.grey[ay * a.width + ax]!;
      const vb = b.grey[y * width + x]!;
      n++;
      sa += va;
      sb += vb;
      saa += va * va;
      sbb += vb * vb;
      sab += va * vb;
    }
  }
  if (n < (width * height) / 2) return -1;
  const cov = sab - (sa * sb) / n;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  // Two flat pictures (a black frame, a white wall) match only if their levels do.
  if (va < 1e-3 * n || vb < 1e-3 * n) return Math.abs(sa / n - sb / n) < 8 ? 1 : 0;
  return cov / Math.sqrt(va * vb);
}

/** The zooms between two samples searched: in and out by up to a quarter. */
const ZOOMS = [1 / 1.25, 1 / 1.18, 1 / 1.11, 1 / 1.05, 1, 1.05, 1.11, 1.18, 1.25];

/**
 * How well the second sample's picture is explained by the first one moved: the best normalised
 * correlation over shifts of up to a quarter of the picture and zooms of up to 25 % (1: the same
 * picture, about 0 or below: nothing in common). Shifts are searched two cells apart at each zoom,
 * then the best is refined cell by cell. With `enough`, the search stops at the first match that
 * good (all a cut decision needs).
 */
export function structureMatch(a: ShotSignature, b: ShotSignature, enough = Infinity): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  // A camera that holds still: the first look settles it (most samples of a game).
  const still = correlation(a, b, 0, 0, 1);
  if (still >= enough) return still;
  const mx = Math.round(a.width / 4);
  const my = Math.round(a.height / 4);
  let best = { c: still, dx: 0, dy: 0, zoom: 1 };
  for (const zoom of ZOOMS) {
    for (let dy = -my; dy <= my; dy += 2) {
      for (let dx = -mx; dx <= mx; dx += 2) {
        const c = correlation(a, b, dx, dy, zoom);
        if (c >= enough) return c;
        if (c > best.c) best = { c, dx, dy, zoom };
      }
    }
  }
  let top = best.c;
  for (let dy = best.dy - 1; dy <= best.dy + 1; dy++) {
    for (let dx = best.dx - 1; dx <= best.dx + 1; dx++) top = Math.max(top, correlation(a, b, dx, dy, best.zoom));
  }
  return top;
}

/**
 * Above this colour change the shot may have been cut. Measured on the calibration photos: a fast
 * pan (half the picture in 4 s) or a 3× zoom changed 0.03–0.11 between samples; a cut from one
 * indoor scene to another 0.33–0.67. On real edited clips a focus pull with a hand coming into
 * the picture changed 0.28–0.37 within one shot, so this alone is not sure.
 */
export const SHOT_CUT_CHANGE = 0.25;

/** Above this colour change the shot was cut, whatever the structure says (real edits: cuts 0.5–0.67, one shot at most 0.37). */
export const SHOT_CUT_SURE_CHANGE = 0.5;

/**
 * Below this structure match the shot may have been cut, even with the same colours. Chosen on
 * the tuning half of bench/shot-cuts.ts: its lowest match of a moving shot (0.88) less a fifth.
 */
export const SHOT_CUT_MATCH = 0.7;

/**
 * Below this structure match the shot was cut. Real cameras move more than a pan over a photo: a
 * camera following a boat with the wall behind it sliding, or a focus pull, matched 0.37–0.46
 * within one shot on real edited clips; cuts matched 0.23–0.34 where their colours did not
 * already say so. Chosen on two of the four clips (bench/shot-cuts.ts).
 */
export const SHOT_CUT_SURE_MATCH = 0.35;

/**
 * A picture with less contrast than this (the standard deviation of its grey cells, of 255) has
 * too little structure to compare: a flat court under grain would match nothing, not even itself.
 */
const MIN_CONTRAST = 10;

function contrast(s: ShotSignature): number {
  let sum = 0;
  let squares = 0;
  for (const v of s.grey) {
    sum += v;
    squares += v * v;
  }
  const mean = sum / s.grey.length;
  return Math.sqrt(Math.max(0, squares / s.grey.length - mean * mean));
}

/**
 * What happened to the shot between two samples: 'cut' (sure), 'maybe' (the picture changed more
 * than a camera moving over one scene usually changes it, but a fast camera, a focus pull or a
 * cut between two shots of the same light all look like that), or 'same'. At a 'maybe' the
 * indexer lets a track go on only where the face's own descriptor says it is the same person.
 */
export function shotChange(a: ShotSignature, b: ShotSignature): 'cut' | 'maybe' | 'same' {
  const colour = colourChange(a, b);
  if (colour > SHOT_CUT_SURE_CHANGE) return 'cut';
  if (contrast(a) < MIN_CONTRAST || contrast(b) < MIN_CONTRAST) return colour > SHOT_CUT_CHANGE ? 'maybe' : 'same';
  const match = structureMatch(a, b, SHOT_CUT_MATCH);
  if (match < SHOT_CUT_SURE_MATCH) return 'cut';
  return match < SHOT_CUT_MATCH || colour > SHOT_CUT_CHANGE ? 'maybe' : 'same';
}

/** Was the shot surely cut between these two samples? */
export function isShotCut(a: ShotSignature, b: ShotSignature): boolean {
  return shotChange(a, b) === 'cut';
}
