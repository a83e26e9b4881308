// Boxes in frame pixels and the two things every detector and tracker does with them: how much
// two overlap, and keeping the best of boxes that overlap.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ScoredBox extends Box {
  score: number;
}

/** Intersection over union of two boxes, 0 (apart) to 1 (the same). */
export function iou(a: Box, b: Box): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.w, b.x + b.w);
  const y2 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

/** The share of `part` that lies inside `whole`, 0 to 1. */
export function insideShare(part: Box, whole: Box): number {
  const w = Math.max(0, Math.min(part.x + part.w, whole.x + whole.w) - Math.max(part.x, whole.x));
  const h = Math.max(0, Math.min(part.y + part.h, whole.y + whole.h) - Math.max(part.y, whole.y));
  return part.w * part.h > 0 ? (w * h) / (part.w * part.h) : 0;
}

/** The smallest box holding both. */
export function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/** Non-maximum suppression: the best-scored of boxes overlapping by more than maxIou. */
export function suppressOverlaps<T extends ScoredBox>(boxes: T[], maxIou: number): T[] {
  const kept: T[] = [];
  for (const box of [...boxes].sort((p, q) => q.score - p.score)) if (!kept.some((k) => iou(k, box) > maxIou)) kept.push(box);
  return kept;
}

/**
 * The part of a box between shares of its width (left, right) and height (top, bottom; shares
 * may pass 1, to reach below a face), clipped to the frame; null when less than `least` pixels
 * either way remain.
 */
export function partOf(box: Box, frame: { width: number; height: number }, share: { left: number; right: number; top: number; bottom: number }, least: number): Box | null {
  const x = Math.max(0, Math.round(box.x + box.w * share.left));
  const y = Math.max(0, Math.round(box.y + box.h * share.top));
  const right = Math.min(frame.width, Math.round(box.x + box.w * share.right));
  const bottom = Math.min(frame.height, Math.round(box.y + box.h * share.bottom));
  return right - x >= least && bottom - y >= least ? { x, y, w: right - x, h: bottom - y } : null;
}
