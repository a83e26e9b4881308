// Where a full look needs to look. A game camera mostly holds still: between two full looks the
// stands, the floor and the players standing still look the same, and the detector would find in
// them exactly what it found before. So a full look searches only the parts of the frame that
// changed since they were last searched (cells of the shot signature's small grey picture, grown
// by a margin so a face on a changed cell's edge is seen whole), and follows the live tracks
// everywhere else as the looks between full looks do. The whole frame is still searched where
// there is nothing to compare with (the first sample, after a cut), where most of it changed (a
// camera that pans), and every few full looks all the same: a face too faint to change its cells
// (a slow turn of the head) is found there at the latest.
import { union, type Box } from '../vision/boxes';
import type { ShotSignature } from './shot-cuts';

/**
 * A cell whose mean grey moved more than this (of 255) since it was last searched changed. Grain
 * and compression move a cell's mean by 1–3 levels; a face coming into a 30 px cell, or turning
 * in it, by tens.
 */
export const CELL_CHANGE_GREY = 8;

/** Changed cells grow by this many cells on each side (about 120 px of a 1080p frame): room for a face that only touches them. */
const MARGIN_CELLS = 4;

/** Above this share of the frame changed, the whole frame is searched: one look costs less than many crops. */
const WHOLE_ABOVE_SHARE = 0.5;

/**
 * One full look in this many searches the whole frame whatever changed. Every 4th lost an
 * appearance of a 160 px face on bench/reel-accuracy.ts that every other one keeps (a detection
 * in a crop is not always the whole frame's: the net sees the face's surroundings differently).
 */
export const WHOLE_LOOK_EVERY = 2;

export interface LookPlan {
  /** null: the whole frame; else the regions to search, in frame pixels (possibly none). */
  regions: Box[] | null;
  /** Share of the frame the look searches (1 for the whole frame). */
  share: number;
}

/** Remembers, cell by cell, the grey picture as it was when that cell was last searched. */
export class LookRegions {
  private reference: Float32Array | null = null;
  private looks = 0;

  constructor(private readonly wholeEvery = WHOLE_LOOK_EVERY) {}

  /**
   * The regions a full look at this sample searches; the cells in them take this sample's grey
   * as their new reference. `whole` forces the whole frame (a possible cut).
   */
  plan(signature: ShotSignature, frame: { width: number; height: number }, whole: boolean): LookPlan {
    const { cells, width, height } = signature;
    const forced = whole || this.reference === null || this.reference.length !== cells.length || this.looks % this.wholeEvery === 0;
    this.looks++;
    if (forced) return this.wholeFrame(cells);
    const reference = this.reference!;
    const changed = new Uint8Array(cells.length);
    let any = false;
    for (let i = 0; i < cells.length; i++) {
      if (Math.abs(cells[i]! - reference[i]!) > CELL_CHANGE_GREY) changed[i] = 1;
      any ||= changed[i] === 1;
    }
    if (!any) return { regions: [], share: 0 };
    const grown = grow(changed, width, height, MARGIN_CELLS);
    const boxes = mergeOverlapping(boundingBoxes(grown, width, height));
    const area = boxes.reduce((sum, b) => sum + b.w * b.h, 0);
    if (area > WHOLE_ABOVE_SHARE * width * height) return this.wholeFrame(cells);
    for (const b of boxes) for (let y = b.y; y < b.y + b.h; y++) for (let x = b.x; x < b.x + b.w; x++) reference[y * width + x] = cells[y * width + x]!;
    const cellW = frame.width / width;
    const cellH = frame.height / height;
    const regions = boxes.map((b) => {
      const x = Math.floor(b.x * cellW);
      const y = Math.floor(b.y * cellH);
      return { x, y, w: Math.min(frame.width, Math.ceil((b.x + b.w) * cellW)) - x, h: Math.min(frame.height, Math.ceil((b.y + b.h) * cellH)) - y };
    });
    return { regions, share: area / (width * height) };
  }

  private wholeFrame(cells: Float32Array): LookPlan {
    this.reference = Float32Array.from(cells);
    return { regions: null, share: 1 };
  }
}

/** Each set cell spreads to the cells within `by` of it (a square). */
function grow(mask: Uint8Array, width: number, height: number, by: number): Uint8Array {
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let i = Math.max(0, x - by); i <= Math.min(width - 1, x + by); i++) rows[y * width + i] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!rows[y * width + x]) continue;
      for (let j = Math.max(0, y - by); j <= Math.min(height - 1, y + by); j++) out[j * width + x] = 1;
    }
  }
  return out;
}

/** The bounding box, in cells, of each group of touching set cells. */
function boundingBoxes(mask: Uint8Array, width: number, height: number): Box[] {
  const seen = new Uint8Array(mask.length);
  const boxes: Box[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    let [x0, y0, x1, y1] = [width, height, -1, -1];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
        const next = ny * width + nx;
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && mask[next] && !seen[next]) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    boxes.push({ x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 });
  }
  return boxes;
}

/** Boxes that overlap become their common bounding box, until none overlap: no part of the frame is searched twice. */
function mergeOverlapping(boxes: Box[]): Box[] {
  const out = [...boxes];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i]!;
        const b = out[j]!;
        if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) {
          out[i] = union(a, b);
          out.splice(j, 1);
          merged = true;
        }
      }
    }
  }
  return out;
}
