// The photo stills of a reel are pictures of the athlete, not of the game (issue 34, item 6):
// for each chosen moment, a portrait 4:5 and a landscape 3:2 cut from the full-resolution frame
// around the athlete's face. The face sits centred across and in the upper part, with room for
// the body below it; the frame's own pixels are kept (no scaling), and a crop that would leave
// the frame is moved inside it, or made smaller when the frame is too small for it. Pure.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface StillShape {
  name: 'portrait' | 'landscape';
  /** Width : height as whole numbers, kept exactly. */
  ratio: readonly [number, number];
  /** The crop's height in face heights: how much of the body shows. */
  faceHeights: number;
  /** Where the face's centre sits, as a share of the crop's height from its top. */
  faceAt: number;
}

export const STILL_SHAPES: readonly StillShape[] = [
  { name: 'portrait', ratio: [4, 5], faceHeights: 8, faceAt: 0.24 },
  { name: 'landscape', ratio: [3, 2], faceHeights: 6, faceAt: 0.32 },
];

/**
 * A crop is never smaller than this share of the frame's height: a far, small face still gets a
 * picture worth keeping (the athlete and what is around them) rather than a postage stamp.
 */
const MIN_FRAME_SHARE = 0.45;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export function stillCrop(face: Box, frameW: number, frameH: number, shape: StillShape): Crop {
  const [rw, rh] = shape.ratio;
  const wanted = Math.max(face.h * shape.faceHeights, frameH * MIN_FRAME_SHARE);
  // The largest whole multiple of the ratio that fits the wish and the frame.
  const unit = Math.max(1, Math.floor(Math.min(wanted / rh, frameH / rh, frameW / rw)));
  const width = unit * rw;
  const height = unit * rh;
  const cx = face.x + face.w / 2;
  const cy = face.y + face.h / 2;
  const left = Math.round(clamp(cx - width / 2, 0, frameW - width));
  // The face where the shape wants it, unless that would cut the face itself (a very close one).
  let top = cy - height * shape.faceAt;
  const margin = face.h * 0.1;
  if (face.h + 2 * margin <= height) top = clamp(top, face.y + face.h + margin - height, face.y - margin);
  return { left, top: Math.round(clamp(top, 0, frameH - height)), width, height };
}
