// Where the vertical (9:16) social cut looks in each frame of a clip: a window that follows the
// athlete's face smoothly. The face samples come from the index (2 a second); the path is
// planned per output frame, knowing the whole clip in advance:
//   1. aim: the face centred across and in the upper third of the window;
//   2. smooth: a centred moving average (no lag, no jitter from detection noise);
//   3. limit speed: the window never moves faster than MAX_SPEED of its width per second;
//   4. keep the face inside: where smoothing left the face near an edge, the window moves just
//      enough to hold it, so the athlete is never cut out.
// Pure: the render builds an ffmpeg command list from it, and the tests check it on real tracks.

export interface FaceSample {
  /** Seconds from the clip's start. */
  t: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface CropWindow {
  w: number;
  h: number;
  /** The window's left and top edge per output frame. */
  xs: number[];
  ys: number[];
  fps: number;
}

/** Share of the source height the window takes: some room to place the face vertically, not too soft once scaled up. */
const WINDOW_HEIGHT = 0.8;
const SMOOTH_S = 0.8;
const MAX_SPEED = 0.6;
/** Room kept between the face and the window's edge, as a share of the face. */
const MARGIN = 0.15;

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

export function cropSize(sourceW: number, sourceH: number): { w: number; h: number } {
  let h = sourceH * WINDOW_HEIGHT;
  let w = (h * 9) / 16;
  if (w > sourceW) {
    w = sourceW;
    h = (w * 16) / 9;
  }
  return { w: even(w), h: even(h) };
}

/** The face at time t: linear between samples, held before the first and after the last. */
export function faceAt(samples: FaceSample[], t: number): FaceSample | null {
  if (!samples.length) return null;
  if (t <= samples[0]!.t) return samples[0]!;
  for (let i = 1; i < samples.length; i++) {
    const b = samples[i]!;
    if (t <= b.t) {
      const a = samples[i - 1]!;
      // Far apart samples are two sightings, not one movement: hold the earlier one.
      if (b.t - a.t > 2) return a;
      const k = (t - a.t) / (b.t - a.t || 1);
      return { t, x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k, w: a.w + (b.w - a.w) * k, h: a.h + (b.h - a.h) * k };
    }
  }
  return samples[samples.length - 1]!;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function smooth(values: number[], radius: number): number[] {
  if (radius < 1) return values;
  const prefix = [0];
  for (const v of values) prefix.push(prefix[prefix.length - 1]! + v);
  return values.map((_, i) => {
    const lo = Math.max(0, i - radius);
    const hi = Math.min(values.length - 1, i + radius);
    return (prefix[hi + 1]! - prefix[lo]!) / (hi - lo + 1);
  });
}

/** Forward and backward passes so the window's speed stays under the limit without lagging behind. */
function limitSpeed(values: number[], maxStep: number): number[] {
  const out = [...values];
  for (let i = 1; i < out.length; i++) out[i] = clamp(out[i]!, out[i - 1]! - maxStep, out[i - 1]! + maxStep);
  for (let i = out.length - 2; i >= 0; i--) out[i] = clamp(out[i]!, out[i + 1]! - maxStep, out[i + 1]! + maxStep);
  return out;
}

/** Moves the window only as much as needed for [lo, hi] to be inside it, then inside the frame. */
function hold(start: number, size: number, lo: number, hi: number, limit: number): number {
  let s = start;
  if (hi - lo <= size) {
    if (lo < s) s = lo;
    if (hi > s + size) s = hi - size;
  } else {
    s = (lo + hi) / 2 - size / 2;
  }
  return clamp(s, 0, limit);
}

export function planCrop(samples: FaceSample[], durationS: number, sourceW: number, sourceH: number, fps = 30): CropWindow {
  const { w, h } = cropSize(sourceW, sourceH);
  const frames = Math.max(1, Math.round(durationS * fps));
  const maxX = sourceW - w;
  const maxY = sourceH - h;
  if (!samples.length) return { w, h, xs: Array(frames).fill(Math.round(maxX / 2)), ys: Array(frames).fill(Math.round(maxY / 2)), fps };

  const faces = Array.from({ length: frames }, (_, i) => faceAt(samples, i / fps)!);
  const aimX = faces.map((f) => clamp(f.x + f.w / 2 - w / 2, 0, maxX));
  const aimY = faces.map((f) => clamp(f.y + f.h / 2 - h / 3, 0, maxY));
  const radius = Math.round((SMOOTH_S * fps) / 2);
  const maxStep = (MAX_SPEED * w) / fps;
  const sx = limitSpeed(smooth(aimX, radius), maxStep);
  const sy = limitSpeed(smooth(aimY, radius), maxStep);
  const xs = sx.map((x, i) => {
    const f = faces[i]!;
    const m = f.w * MARGIN;
    return Math.round(hold(x, w, f.x - m, f.x + f.w + m, maxX));
  });
  const ys = sy.map((y, i) => {
    const f = faces[i]!;
    const m = f.h * MARGIN;
    return Math.round(hold(y, h, f.y - m, f.y + f.h + m, maxY));
  });
  return { w, h, xs, ys, fps };
}

/** True when the face box lies inside the window at frame i. */
export function windowHolds(window: CropWindow, i: number, face: { x: number; y: number; w: number; h: number }): boolean {
  const x = window.xs[i]!;
  const y = window.ys[i]!;
  return face.x >= x - 0.5 && face.y >= y - 0.5 && face.x + face.w <= x + window.w + 0.5 && face.y + face.h <= y + window.h + 0.5;
}

/** ffmpeg sendcmd lines that move the crop filter named `target` frame by frame (only when it moves). */
export function cropCommands(window: CropWindow, target: string): string {
  const lines: string[] = [];
  let lastX = -1;
  let lastY = -1;
  window.xs.forEach((x, i) => {
    const y = window.ys[i]!;
    if (x === lastX && y === lastY) return;
    lines.push(`${(i / window.fps).toFixed(4)} ${target} x ${x}, ${target} y ${y};`);
    lastX = x;
    lastY = y;
  });
  return lines.join('\n') + '\n';
}
