// Stage "detect people": the people in one sampled frame, as boxes in frame pixels with the
// network's score. Low scores are kept down to `lowScore`: the tracker uses them only to carry on
// a track it already has (a player half hidden), never to start one (people/tracker.ts).
import type { RgbFrame } from '../vision/frames';
import { insideShare, iou, type ScoredBox } from '../vision/boxes';
import { loadNanoDet, NANODET_INPUT } from './nanodet';
import { coverRegions, touchesInnerEdge } from './regions';

export interface PersonDetectSettings {
  /** Rows of regions the frame is looked at in (people/regions.ts): more finds smaller people, slower. */
  rows: number;
  /** The lowest score kept. */
  lowScore: number;
  /** People shorter than this, in frame pixels, are left out. */
  minHeightPx: number;
}

/** Boxes overlapping more than this are one person (non-maximum suppression). */
const SAME_PERSON_IOU = 0.45;
/** A box cut by a region's edge is the part of a person when this share of it lies in a better box. */
const PART_OF_WHOLE = 0.6;

export async function detectPeople(frame: RgbFrame, settings: PersonDetectSettings): Promise<ScoredBox[]> {
  const net = await loadNanoDet();
  const found: Array<ScoredBox & { cut: boolean }> = [];
  for (const region of coverRegions(frame.width, frame.height, settings.rows, NANODET_INPUT)) {
    for (const box of await net.detect(frame, [region], settings.lowScore)) {
      const clipped = clip(box, frame);
      if (clipped.h < settings.minHeightPx || clipped.w <= 0) continue;
      found.push({ ...clipped, cut: touchesInnerEdge(clipped, region, frame) });
    }
  }
  return mergeRegions(found);
}

/**
 * One box per person across overlapping regions: the best-scored of overlapping boxes, and no box
 * that a region's edge cut when most of it lies inside another kept box (the same person, whole).
 */
export function mergeRegions(found: Array<ScoredBox & { cut: boolean }>): ScoredBox[] {
  const ordered = [...found].sort((a, b) => Number(a.cut) - Number(b.cut) || b.score - a.score);
  const kept: Array<ScoredBox & { cut: boolean }> = [];
  for (const box of ordered) {
    if (kept.some((k) => iou(k, box) > SAME_PERSON_IOU)) continue;
    if (box.cut && kept.some((k) => insideShare(box, k) > PART_OF_WHOLE)) continue;
    kept.push(box);
  }
  return kept.map(({ cut: _cut, ...box }) => box).sort((a, b) => b.score - a.score);
}

function clip(box: ScoredBox, frame: { width: number; height: number }): ScoredBox {
  const x = Math.max(0, box.x);
  const y = Math.max(0, box.y);
  return { x, y, w: Math.min(frame.width, box.x + box.w) - x, h: Math.min(frame.height, box.y + box.h) - y, score: box.score };
}
