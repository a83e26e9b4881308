// The face models: face-api's detectors, 68-point landmarks and 128-value descriptor, run by
// TensorFlow.js on its WebAssembly backend, except the video frames' detector and the descriptor
// net, which run the same weights on ONNX Runtime (tiny-detector.ts, recognition-net.ts).
// Everything ships inside the npm packages: the weights are read from face-api's model folder and
// the .wasm files from the backend's dist folder, so nothing is fetched at install or run time.
// Loaded once per thread (see worker.ts).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createRecognitionSession, RECOGNITION_SIZE, type RecognitionSession } from './recognition-net';
import { createTinyDetectorSession, type TinyDetectorSession } from './tiny-detector';
import { loadTensorflow, type Tf } from '../vision/tensorflow';
import { suppressOverlaps as suppressBoxes, type Box } from '../vision/boxes';
import { cropRgb, expand, type RgbFrame } from '../vision/frames';

const require = createRequire(import.meta.url);

export type { Box };
export interface DetectedFace extends Box {
  score: number;
}
export interface DescribedFace {
  descriptor: Float32Array;
  /** 0 (profile) to 1 (looking at the camera), from the landmarks. */
  frontalness: number;
  /** 0 (blurred) to 1 (sharp), from the variance of the Laplacian of the face. */
  sharpness: number;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- face-api and tfjs are loaded untyped, at run time */
type FaceApi = any;

export interface FaceEngine {
  /**
   * Fast detection for video frames (TinyFaceDetector, on ONNX Runtime: see tiny-detector.ts),
   * the frame looked at each of `scales` times its size (fitted to the net's 32-pixel grid), the
   * better of overlapping boxes kept. Run on the frame's own shape, not padded square.
   */
  detectFast(frame: RgbFrame, scales: number[], minScore: number): Promise<DetectedFace[]>;
  /** Careful detection for photos (SSD MobileNet). */
  detectCareful(frame: RgbFrame, minScore: number): Promise<DetectedFace[]>;
  /** Landmarks, alignment and descriptor of one face, cropped from the full frame. */
  describe(frame: RgbFrame, box: Box): Promise<DescribedFace>;
}

function loadNet(tf: Tf, net: any, modelDir: string, name: string) {
  const manifest = JSON.parse(fs.readFileSync(path.join(modelDir, `${name}_model-weights_manifest.json`), 'utf8')) as Array<{
    paths: string[];
    weights: unknown[];
  }>;
  const bytes = Buffer.concat(manifest.flatMap((group) => group.paths.map((p) => fs.readFileSync(path.join(modelDir, p)))));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  net.loadFromWeightMap(tf.io.decodeWeights(buffer, manifest.flatMap((group) => group.weights)));
}

let loading: Promise<FaceEngine> | null = null;

export function loadFaceEngine(): Promise<FaceEngine> {
  loading ??= (async () => {
    const faceapi: FaceApi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const tf: Tf = await loadTensorflow();
    const modelDir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    loadNet(tf, faceapi.nets.tinyFaceDetector, modelDir, 'tiny_face_detector');
    loadNet(tf, faceapi.nets.ssdMobilenetv1, modelDir, 'ssd_mobilenetv1');
    loadNet(tf, faceapi.nets.faceLandmark68Net, modelDir, 'face_landmark_68');
    loadNet(tf, faceapi.nets.faceRecognitionNet, modelDir, 'face_recognition');
    const [detector, recognition] = await Promise.all([
      createTinyDetectorSession(faceapi.nets.tinyFaceDetector.params),
      createRecognitionSession(faceapi.nets.faceRecognitionNet.params),
    ]);
    return createEngine(tf, faceapi, detector, recognition);
  })();
  return loading;
}

/** The TinyFaceDetector's grid cell in input pixels and its overlap limit (face-api's values). */
const TINY_CELL = 32;
const TINY_IOU = 0.4;

const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

/**
 * Boxes from the TinyFaceDetector's output grid (rows × cols cells, 5 anchors, x/y/w/h/score
 * each), in frame pixels, then non-maximum suppression. face-api's own decoder assumes a square
 * input, which wastes nearly half the work on a 16:9 frame's padding.
 */
export function decodeTinyGrid(
  raw: Float32Array,
  rows: number,
  cols: number,
  anchors: Array<{ x: number; y: number }>,
  minScore: number,
  scaleX: number,
  scaleY: number,
): DetectedFace[] {
  const found: DetectedFace[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      for (let a = 0; a < anchors.length; a++) {
        const o = ((row * cols + col) * anchors.length + a) * 5;
        const score = sigmoid(raw[o + 4]!);
        if (score < minScore) continue;
        const w = Math.exp(raw[o + 2]!) * anchors[a]!.x * TINY_CELL;
        const h = Math.exp(raw[o + 3]!) * anchors[a]!.y * TINY_CELL;
        const cx = (col + sigmoid(raw[o]!)) * TINY_CELL;
        const cy = (row + sigmoid(raw[o + 1]!)) * TINY_CELL;
        found.push({ x: (cx - w / 2) * scaleX, y: (cy - h / 2) * scaleY, w: w * scaleX, h: h * scaleY, score });
      }
    }
  }
  return suppressOverlaps(found);
}

/** The best-scored of boxes that overlap (non-maximum suppression at face-api's 0.4). */
export function suppressOverlaps(faces: DetectedFace[]): DetectedFace[] {
  return suppressBoxes(faces, TINY_IOU);
}

function toBoxes(results: Array<{ box: Box & { width: number; height: number }; score: number }>): DetectedFace[] {
  return results.map((d) => ({ x: d.box.x, y: d.box.y, w: d.box.width, h: d.box.height, score: d.score }));
}

function createEngine(tf: Tf, faceapi: FaceApi, tinyDetector: TinyDetectorSession, recognition: RecognitionSession): FaceEngine {
  const tensorOf = (frame: RgbFrame) => tf.tensor3d(frame.data, [frame.height, frame.width, 3], 'int32');
  return {
    async detectFast(frame, scales, minScore) {
      const { anchors } = faceapi.nets.tinyFaceDetector;
      const found: DetectedFace[] = [];
      for (const scale of scales) {
        const width = Math.max(TINY_CELL, Math.round((frame.width * scale) / TINY_CELL) * TINY_CELL);
        const height = Math.max(TINY_CELL, Math.round((frame.height * scale) / TINY_CELL) * TINY_CELL);
        const { grid, rows, cols } = await tinyDetector.run(frame, width, height);
        found.push(...decodeTinyGrid(grid, rows, cols, anchors, minScore, frame.width / width, frame.height / height));
      }
      return scales.length > 1 ? suppressOverlaps(found) : found;
    },
    async detectCareful(frame, minScore) {
      const tensor = tensorOf(frame);
      try {
        return toBoxes(await faceapi.detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: minScore, maxResults: 20 })));
      } finally {
        tensor.dispose();
      }
    },
    async describe(frame, box) {
      // face-api's own order: landmarks on the tight face box, alignment from them, and the
      // descriptor of the aligned face. Work happens on a crop with some margin, not the frame.
      const region = expand(box, 0.35, frame);
      const crop = cropRgb(frame, region);
      const regionTensor = tf.tensor3d(crop.data, [crop.height, crop.width, 3], 'int32');
      // The face's part inside the crop: a detector's box may run past the frame's edge (a head
      // cut by the top of the picture), and what lies outside is not there to read.
      const innerOf = (from: number, size: number, limit: number) => {
        const start = Math.min(limit - 1, Math.max(0, Math.round(from)));
        return [start, Math.max(1, Math.min(limit, Math.round(from + size)) - start)] as const;
      };
      const [ix, iw] = innerOf(box.x - region.x, box.w, crop.width);
      const [iy, ih] = innerOf(box.y - region.y, box.h, crop.height);
      const inner = { x: ix, y: iy, w: iw, h: ih };
      const tensors: Array<{ dispose(): void }> = [regionTensor];
      try {
        const faceTensor = tf.slice(regionTensor, [inner.y, inner.x, 0], [inner.h, inner.w, 3]);
        tensors.push(faceTensor);
        const landmarks = await faceapi.detectFaceLandmarks(faceTensor);
        const aligned = landmarks.align();
        const rect = new faceapi.Rect(aligned.x + inner.x, aligned.y + inner.y, aligned.width, aligned.height).clipAtImageBorders(crop.width, crop.height);
        // Landmarks that place the face off the crop give no aligned face: the box itself serves.
        const [extracted] = rect.width >= 1 && rect.height >= 1 ? await faceapi.extractFaceTensors(regionTensor, [rect]) : [];
        const alignedTensor = extracted ?? faceTensor;
        if (extracted) tensors.push(extracted);
        // The mean of the face and its mirror image: a descriptor that does not depend on
        // which way the face is turned as much (measured in docs/decisions/0011).
        const mirrored = tf.reverse(alignedTensor, 1);
        tensors.push(mirrored);
        // face-api's own batch of the two (padded square, resized), through the net on ONNX Runtime.
        const batch = (await faceapi.toNetInput([alignedTensor, mirrored])).toBatchTensor(RECOGNITION_SIZE, true);
        tensors.push(batch);
        const [a, b] = (await recognition.run((await batch.data()) as Float32Array, 2)) as [Float32Array, Float32Array];
        const descriptor = new Float32Array(a.length);
        for (let i = 0; i < a.length; i++) descriptor[i] = (a[i]! + b[i]!) / 2;
        return { descriptor, frontalness: frontalnessOf(landmarks.positions), sharpness: sharpnessOf(cropRgb(crop, inner)) };
      } finally {
        for (const t of tensors) t.dispose();
      }
    },
  };
}

/** How far the nose sits from the middle of the eyes, turned into 1 (frontal) to 0 (profile). */
function frontalnessOf(points: Array<{ x: number; y: number }>): number {
  const mean = (from: number, to: number) => {
    const slice = points.slice(from, to + 1);
    return slice.reduce((sum, p) => sum + p.x, 0) / slice.length;
  };
  const leftEye = mean(36, 41);
  const rightEye = mean(42, 47);
  const eyeDistance = Math.abs(rightEye - leftEye) || 1;
  const offset = Math.abs(points[30]!.x - (leftEye + rightEye) / 2) / eyeDistance;
  return Math.max(0, Math.min(1, 1 - offset * 2));
}

/** The face is judged at this height, so a big soft face does not pass for a sharp one. */
const SHARPNESS_HEIGHT = 96;

/** Variance of the Laplacian of the grey face at a fixed size, scaled to 0-1. */
function sharpnessOf(frame: RgbFrame): number {
  const step = Math.max(1, Math.floor(frame.height / SHARPNESS_HEIGHT));
  const width = Math.floor(frame.width / step);
  const height = Math.floor(frame.height / step);
  if (width < 3 || height < 3) return 0;
  // Box-averaged grey at the judging size.
  const grey = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < step; dy++) {
        for (let dx = 0; dx < step; dx++) {
          const i = ((y * step + dy) * frame.width + x * step + dx) * 3;
          sum += 0.299 * frame.data[i]! + 0.587 * frame.data[i + 1]! + 0.114 * frame.data[i + 2]!;
        }
      }
      grey[y * width + x] = sum / (step * step);
    }
  }
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  }
  const variance = sumSq / n - (sum / n) ** 2;
  return Math.min(1, variance / 200);
}

export function faceDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}
