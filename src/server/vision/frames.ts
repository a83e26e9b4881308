// Decoded frames as every stage passes them: RGB, 3 bytes a pixel, and the crops taken from them.
import type { Box } from './boxes';

/** An RGB image, 3 bytes a pixel, row after row. */
export interface RgbFrame {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The box grown by a fraction on each side, inside the frame, in whole pixels. */
export function expand(box: Box, margin: number, frame: { width: number; height: number }): Box {
  const x = Math.max(0, Math.floor(box.x - box.w * margin));
  const y = Math.max(0, Math.floor(box.y - box.h * margin));
  const right = Math.min(frame.width, Math.ceil(box.x + box.w * (1 + margin)));
  const bottom = Math.min(frame.height, Math.ceil(box.y + box.h * (1 + margin)));
  return { x, y, w: Math.max(1, right - x), h: Math.max(1, bottom - y) };
}

export function cropRgb(frame: RgbFrame, box: Box): RgbFrame {
  const data = new Uint8Array(box.w * box.h * 3);
  for (let row = 0; row < box.h; row++) {
    const from = ((box.y + row) * frame.width + box.x) * 3;
    data.set(frame.data.subarray(from, from + box.w * 3), row * box.w * 3);
  }
  return { data, width: box.w, height: box.h };
}
