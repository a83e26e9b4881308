// Reads the number on a far player's shirt, where its digits are 6 to 16 pixels tall and Tesseract
// (people/numbers.ts) reads nothing: a small convolutional net of our own, trained on made-up
// shirts (tools/number-reader/train.py; no third-party weights or footage), run here in plain
// TypeScript (about 2.6 million multiply-adds a read, a few milliseconds). Its weights,
// number-net.bin, are float32 in the order train.py writes them.
//
// The net sees the number region (people/stretch.ts numberRegion) as 32 × 32 grey, each crop
// scaled by its own mean and spread, and answers three things: how many digits there are (none,
// one, two), the units digit and the tens digit. A reading is the likeliest number and how sure
// the net is of it (the product of the heads' probabilities).
import fs from 'node:fs';
import type { Box } from '../vision/boxes';
import type { RgbFrame } from '../vision/frames';

const NET_INPUT = 32;
const CHANNELS = [1, 16, 32, 64];
const HIDDEN = 128;
const OUTPUTS = 23;

interface Weights {
  convs: Array<{ w: Float32Array; b: Float32Array; cin: number; cout: number }>;
  fw: Float32Array;
  fb: Float32Array;
  hw: Float32Array;
  hb: Float32Array;
}

let weights: Weights | null = null;

function loadWeights(): Weights {
  if (weights) return weights;
  const bytes = fs.readFileSync(new URL('./number-net.bin', import.meta.url));
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  let at = 0;
  const take = (n: number) => {
    const part = all.subarray(at, at + n);
    at += n;
    return part;
  };
  const convs = [0, 1, 2].map((i) => {
    const cin = CHANNELS[i]!;
    const cout = CHANNELS[i + 1]!;
    return { w: take(cout * cin * 9), b: take(cout), cin, cout };
  });
  const flat = CHANNELS[3]! * 4 * 4;
  weights = { convs, fw: take(flat * HIDDEN), fb: take(HIDDEN), hw: take(HIDDEN * OUTPUTS), hb: take(OUTPUTS) };
  if (at !== all.length) throw new Error(`number-net.bin holds ${all.length} values, the net needs ${at}`);
  return weights;
}

/**
 * The region as the net's input: grey, resampled bilinearly to 32 × 32 (sample centres on source
 * centres, edges clamped, as train.py), less its mean, over its spread plus 8.
 */
function netInput(frame: RgbFrame, region: Box): Float32Array {
  const out = new Float32Array(NET_INPUT * NET_INPUT);
  const grey = (x: number, y: number) => {
    const i = ((region.y + y) * frame.width + region.x + x) * 3;
    return 0.299 * frame.data[i]! + 0.587 * frame.data[i + 1]! + 0.114 * frame.data[i + 2]!;
  };
  for (let row = 0; row < NET_INPUT; row++) {
    const sy = Math.min(Math.max(((row + 0.5) * region.h) / NET_INPUT - 0.5, 0), region.h - 1);
    const y0 = Math.floor(sy);
    const y1 = Math.min(y0 + 1, region.h - 1);
    const fy = sy - y0;
    for (let col = 0; col < NET_INPUT; col++) {
      const sx = Math.min(Math.max(((col + 0.5) * region.w) / NET_INPUT - 0.5, 0), region.w - 1);
      const x0 = Math.floor(sx);
      const x1 = Math.min(x0 + 1, region.w - 1);
      const fx = sx - x0;
      const top = grey(x0, y0) * (1 - fx) + grey(x1, y0) * fx;
      const bottom = grey(x0, y1) * (1 - fx) + grey(x1, y1) * fx;
      out[row * NET_INPUT + col] = top * (1 - fy) + bottom * fy;
    }
  }
  let mean = 0;
  for (const v of out) mean += v;
  mean /= out.length;
  let spread = 0;
  for (const v of out) spread += (v - mean) ** 2;
  spread = Math.sqrt(spread / out.length) + 8;
  for (let i = 0; i < out.length; i++) out[i] = (out[i]! - mean) / spread;
  return out;
}

/** A 3 × 3 convolution (padding 1), ReLU, then 2 × 2 max pooling: channels × side² → cout × (side/2)². */
function convBlock(input: Float32Array, side: number, layer: Weights['convs'][number]): Float32Array {
  const { w, b, cin, cout } = layer;
  const half = side / 2;
  const out = new Float32Array(cout * half * half);
  const plane = new Float32Array(side * side);
  for (let o = 0; o < cout; o++) {
    plane.fill(b[o]!);
    for (let c = 0; c < cin; c++) {
      const src = c * side * side;
      for (let dy = 0; dy < 3; dy++) {
        for (let dx = 0; dx < 3; dx++) {
          const k = w[o * cin * 9 + c * 9 + dy * 3 + dx]!;
          if (k === 0) continue;
          for (let y = 0; y < side; y++) {
            const sy = y + dy - 1;
            if (sy < 0 || sy >= side) continue;
            const row = src + sy * side;
            const at = y * side;
            const xFrom = dx === 0 ? 1 : 0;
            const xTo = dx === 2 ? side - 1 : side;
            for (let x = xFrom; x < xTo; x++) plane[at + x]! += k * input[row + x + dx - 1]!;
          }
        }
      }
    }
    for (let y = 0; y < half; y++) {
      for (let x = 0; x < half; x++) {
        const i = 2 * y * side + 2 * x;
        const most = Math.max(plane[i]!, plane[i + 1]!, plane[i + side]!, plane[i + side + 1]!);
        out[o * half * half + y * half + x] = Math.max(0, most);
      }
    }
  }
  return out;
}

function softmax(values: Float32Array, from: number, count: number): number[] {
  const part = Array.from(values.subarray(from, from + count));
  const top = Math.max(...part);
  const e = part.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / sum);
}

export interface NetReading {
  /** The likeliest number, or null where the likeliest answer is that no number shows. */
  number: number | null;
  /** How sure the net is of that answer, 0 to 1. */
  probability: number;
}

/** The net's three heads on one input. */
function netHeads(input: Float32Array): { count: number[]; units: number[]; tens: number[] } {
  const w = loadWeights();
  let a = input;
  let side = NET_INPUT;
  for (const layer of w.convs) {
    a = convBlock(a, side, layer);
    side /= 2;
  }
  const hidden = new Float32Array(HIDDEN);
  hidden.set(w.fb);
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === 0) continue;
    const row = i * HIDDEN;
    for (let j = 0; j < HIDDEN; j++) hidden[j]! += v * w.fw[row + j]!;
  }
  const logits = new Float32Array(OUTPUTS);
  logits.set(w.hb);
  for (let i = 0; i < HIDDEN; i++) {
    const v = Math.max(0, hidden[i]!);
    if (v === 0) continue;
    for (let j = 0; j < OUTPUTS; j++) logits[j]! += v * w.hw[i * OUTPUTS + j]!;
  }
  return { count: softmax(logits, 0, 3), units: softmax(logits, 3, 10), tens: softmax(logits, 13, 10) };
}

const argmax = (p: number[]) => p.indexOf(Math.max(...p));

/** The likeliest reading of a number region: no number, one digit or two, with its probability. */
export function readNumberByNet(frame: RgbFrame, region: Box): NetReading {
  const { count, units, tens } = netHeads(netInput(frame, region));
  const unit = argmax(units);
  const ten = argmax(tens);
  const answers: NetReading[] = [
    { number: null, probability: count[0]! },
    { number: unit, probability: count[1]! * units[unit]! },
    { number: ten * 10 + unit, probability: count[2]! * tens[ten]! * units[unit]! },
  ];
  return answers.reduce((best, answer) => (answer.probability > best.probability ? answer : best));
}
