// face-api's FaceRecognitionNet (the 128-value descriptor: a ResNet at 150 × 150) on ONNX
// Runtime's native CPU kernels, as tiny-detector.ts does for the detector. The weights are
// face-api's own, turned into an ONNX graph in memory; the input is face-api's own batch tensor
// (the aligned face padded square and resized), so the descriptor is face-api's within rounding.
// Each layer's scale (a per-channel multiply and add) is folded into its convolution, and the
// colour means into the first one (exact: it has no padding).
import { createRequire } from 'node:module';
import { writeOnnxModel, type GraphNode, type Initializer } from '../vision/onnx-model';

const require = createRequire(import.meta.url);

/** face-api's colour means for this net. */
const MEAN_RGB = [122.782, 117.001, 104.298];
/** The net's input side, pixels. */
export const RECOGNITION_SIZE = 150;

/* eslint-disable @typescript-eslint/no-explicit-any -- face-api's weights are tfjs tensors, loaded untyped */
type TfTensor = any;
interface ConvLayer {
  conv: { filters: TfTensor; bias: TfTensor };
  scale: { weights: TfTensor; biases: TfTensor };
}
interface ResidualLayer {
  conv1: ConvLayer;
  conv2: ConvLayer;
}
export interface RecognitionWeights {
  conv32_down: ConvLayer;
  fc: TfTensor;
  [block: string]: ResidualLayer | ConvLayer | TfTensor;
}

/** The blocks after the first layer, in order; `down` halves the size and may double the channels. */
const BLOCKS: Array<[name: string, down: boolean]> = [
  ['conv32_1', false],
  ['conv32_2', false],
  ['conv32_3', false],
  ['conv64_down', true],
  ['conv64_1', false],
  ['conv64_2', false],
  ['conv64_3', false],
  ['conv128_down', true],
  ['conv128_1', false],
  ['conv128_2', false],
  ['conv256_down', true],
  ['conv256_1', false],
  ['conv256_2', false],
  ['conv256_down_out', true],
];

/**
 * A convolution and the scale after it as one convolution, filters as ONNX's [out, in, h, w]:
 * (x ∗ f + b) · s + t = x ∗ (f · s) + (b · s + t).
 */
function foldedConv(layer: ConvLayer) {
  const [kh, kw, cin, cout] = layer.conv.filters.shape as [number, number, number, number];
  const from = layer.conv.filters.dataSync() as Float32Array;
  const bias = layer.conv.bias.dataSync() as Float32Array;
  const scale = layer.scale.weights.dataSync() as Float32Array;
  const shift = layer.scale.biases.dataSync() as Float32Array;
  const filters = new Float32Array(from.length);
  for (let o = 0; o < cout; o++)
    for (let i = 0; i < cin; i++)
      for (let y = 0; y < kh; y++) for (let x = 0; x < kw; x++) filters[((o * cin + i) * kh + y) * kw + x] = from[((y * kw + x) * cin + i) * cout + o]! * scale[o]!;
  const folded = Float32Array.from(bias, (b, o) => b * scale[o]! + shift[o]!);
  return { filters: { dims: [cout, cin, kh, kw], data: filters }, bias: { dims: [cout], data: folded }, kernel: kh, inChannels: cin, outChannels: cout };
}

/**
 * The graph: face-api's batch tensor [n, 150, 150, 3] (colour values 0 to 255) in, the
 * descriptors [n, 128] out. The shapes are fixed, so where a block's shortcut is larger than its
 * output (4 × 4 against 3 × 3 near the end) the padding is known when the graph is written.
 */
export function recognitionModel(weights: RecognitionWeights): Uint8Array {
  const nodes: GraphNode[] = [];
  const initializers: Initializer[] = [];
  let count = 0;
  const node = (op: string, inputs: string[], attributes?: GraphNode['attributes']) => {
    const output = `${op.toLowerCase()}_${count++}`;
    nodes.push({ op, inputs, outputs: [output], attributes });
    return output;
  };
  const constant = (name: string, value: { dims: number[]; data: Float32Array | BigInt64Array }) => {
    initializers.push({ name, ...value });
    return name;
  };
  /** A folded convolution: 'same' padding at stride 1, none at stride 2, as face-api's layers. */
  const conv = (x: string, name: string, layer: ConvLayer, stride: number, relu: boolean) => {
    const folded = foldedConv(layer);
    const pad = stride === 1 ? (folded.kernel - 1) / 2 : 0;
    const out = node('Conv', [x, constant(`${name}_filters`, folded.filters), constant(`${name}_bias`, folded.bias)], {
      kernel_shape: [folded.kernel, folded.kernel],
      strides: [stride, stride],
      pads: [pad, pad, pad, pad],
    });
    return { out: relu ? node('Relu', [out]) : out, outChannels: folded.outChannels, inChannels: folded.inChannels };
  };

  // The first layer, the means and the /255 folded in.
  const first = foldedConv(weights.conv32_down);
  const perChannel = first.kernel * first.kernel;
  for (let o = 0; o < first.outChannels; o++) {
    for (let i = 0; i < first.inChannels; i++) {
      for (let k = 0; k < perChannel; k++) {
        const at = (o * first.inChannels + i) * perChannel + k;
        first.bias.data[o] = first.bias.data[o]! - (first.filters.data[at]! * MEAN_RGB[i]!) / 255;
        first.filters.data[at] = first.filters.data[at]! / 255;
      }
    }
  }
  let x = node('Transpose', ['faces'], { perm: [0, 3, 1, 2] });
  x = node('Conv', [x, constant('conv32_down_filters', first.filters), constant('conv32_down_bias', first.bias)], {
    kernel_shape: [first.kernel, first.kernel],
    strides: [2, 2],
  });
  x = node('Relu', [x]);
  x = node('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2] });
  let size = Math.floor((Math.floor((RECOGNITION_SIZE - first.kernel) / 2) + 1 - 3) / 2) + 1;

  for (const [name, down] of BLOCKS) {
    const block = weights[name] as ResidualLayer;
    const a = conv(x, `${name}_1`, block.conv1, down ? 2 : 1, true);
    let out = conv(a.out, `${name}_2`, block.conv2, 1, false).out;
    let shortcut = x;
    if (down) {
      // The shortcut: a 2 × 2 average, its channels padded with zeros up to the output's; both
      // in one convolution whose weights are a quarter on the diagonal (exact: powers of two).
      const [cin, cout] = [a.inChannels, a.outChannels];
      const pool = new Float32Array(cout * cin * 4);
      for (let c = 0; c < cin; c++) pool.fill(0.25, (c * cin + c) * 4, (c * cin + c) * 4 + 4);
      shortcut = node('Conv', [x, constant(`${name}_shortcut`, { dims: [cout, cin, 2, 2], data: pool })], { kernel_shape: [2, 2], strides: [2, 2] });
      const convSize = Math.floor((size - 3) / 2) + 1;
      const poolSize = Math.floor(size / 2);
      // face-api pads the output with zeros below and to the right when the shortcut is larger.
      if (poolSize > convSize) {
        const extra = BigInt(poolSize - convSize);
        out = node('Pad', [out, constant(`${name}_pads`, { dims: [8], data: BigInt64Array.from([0n, 0n, 0n, 0n, 0n, 0n, extra, extra]) })]);
      }
      size = poolSize;
    }
    x = node('Relu', [node('Add', [out, shortcut])]);
  }
  x = node('ReduceMean', [x], { axes: [2, 3], keepdims: 0 });
  x = node('MatMul', [x, constant('fc', { dims: weights.fc.shape as number[], data: Float32Array.from(weights.fc.dataSync() as Float32Array) })]);
  nodes.at(-1)!.outputs = ['descriptors'];
  return writeOnnxModel({
    nodes,
    initializers,
    inputs: [{ name: 'faces', dims: ['n', RECOGNITION_SIZE, RECOGNITION_SIZE, 3] }],
    outputs: [{ name: 'descriptors', dims: ['n', 128] }],
  });
}

/** Runs the net on a batch of faces; one per thread, one batch at a time. */
export interface RecognitionSession {
  /** `faces`: n faces of 150 × 150 × 3 colour values, as face-api's batch tensor holds them. */
  run(faces: Float32Array, n: number): Promise<Float32Array[]>;
}

export async function createRecognitionSession(weights: RecognitionWeights): Promise<RecognitionSession> {
  const ort = require('onnxruntime-node');
  // One thread: each face worker thread runs its own session, and they fill the cores between them.
  const session = await ort.InferenceSession.create(recognitionModel(weights), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return {
    async run(faces, n) {
      const output = await session.run({ faces: new ort.Tensor('float32', faces, [n, RECOGNITION_SIZE, RECOGNITION_SIZE, 3]) });
      const data = output.descriptors.data as Float32Array;
      return Array.from({ length: n }, (_, i) => data.slice(i * 128, (i + 1) * 128));
    },
  };
}
