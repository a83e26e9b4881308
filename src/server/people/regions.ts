// Where in a frame the person detector looks. Its network sees 416 × 416 pixels: a whole 1080p
// frame shrunk to that leaves a far player 10–30 pixels tall, below what it finds. So the frame
// is covered by square regions in `rows` rows that overlap (a player cut by one region's edge is
// whole in the next), each looked at on its own.
import type { Box } from '../vision/boxes';

/** Share of a region's side that it shares with its neighbour. */
export const REGION_OVERLAP = 0.2;

/**
 * Squares covering a width × height frame, in `rows` rows, left to right then top to bottom. A
 * region is never smaller than `leastSide` (the network's input: a smaller one would only be
 * enlarged), nor larger than the frame's short side.
 */
export function coverRegions(width: number, height: number, rows: number, leastSide = 416): Box[] {
  const wanted = Math.max(1, Math.round(rows));
  const side = Math.min(width, height, Math.max(leastSide, Math.ceil(height / (wanted - (wanted - 1) * REGION_OVERLAP))));
  const count = (length: number) => (length <= side ? 1 : Math.ceil((length - side) / (side * (1 - REGION_OVERLAP))) + 1);
  const starts = (length: number) => {
    const n = count(length);
    return Array.from({ length: n }, (_, i) => (n === 1 ? 0 : Math.round((i * (length - side)) / (n - 1))));
  };
  const regions: Box[] = [];
  for (const y of starts(height)) for (const x of starts(width)) regions.push({ x, y, w: side, h: side });
  return regions;
}

/** Whether a box found in `region` reaches one of its sides that lies inside the frame. */
export function touchesInnerEdge(box: Box, region: Box, frame: { width: number; height: number }, margin = 2): boolean {
  return (
    (region.x > 0 && box.x <= region.x + margin) ||
    (region.y > 0 && box.y <= region.y + margin) ||
    (region.x + region.w < frame.width && box.x + box.w >= region.x + region.w - margin) ||
    (region.y + region.h < frame.height && box.y + box.h >= region.y + region.h - margin)
  );
}
