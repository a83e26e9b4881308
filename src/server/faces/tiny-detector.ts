// face-api's TinyFaceDetector network on ONNX Runtime's native CPU kernels. The weights are
// face-api's own (read from its model folder by engine.ts); this file turns them into an ONNX
// graph in memory, so nothing new ships or downloads. The same output as face-api's network within
// about 1e-4, about five times faster than TensorFlow.js's WebAssembly kernels on this machine
// (docs/decisions/0013-onnx-runtime-detector.md).
import { createRequire } from 'node:module';
import { writeOnnxModel, type GraphNode, type Initializer } from '../vision/onnx-model';

const require = createRequire(import.meta.url);

/** The net's colour means (face-api's values) and its leaky ReLU slope, the float32 nearest 0.1. */
const MEAN_RGB = [117.001, 114.697, 97.404];
const LEAKY_ALPHA = 0.10000000149011612;

/* eslint-disable @typescript-eslint/no-explicit-any -- face-api's weights are tfjs tensors, loaded untyped */
type TfTensor = any;
interface SeparableLayer {
  depthwise_filter: TfTensor;
  pointwise_filter: TfTensor;
  bias: TfTensor;
}
export interface TinyDetectorWeights {
  conv0: { filters: TfTensor; bias: TfTensor };
  conv1: SeparableLayer;
  conv2: SeparableLayer;
  conv3: SeparableLayer;
  conv4: SeparableLayer;
  conv5: SeparableLayer;
  conv6?: SeparableLayer;
  conv7?: SeparableLayer;
  conv8: { filters: TfTensor; bias: TfTensor };
}

/** A TensorFlow filter [height, width, in, out] as ONNX's [out, in, height, width]. */
function convFilter(filter: TfTensor): { dims: number[]; data: Float32Array } {
  const [kh, kw, cin, cout] = filter.shape as number[];
  const from = filter.dataSync() as Float32Array;
  const data = new Float32Array(from.length);
  for (let o = 0; o < cout!; o++)
    for (let i = 0; i < cin!; i++)
      for (let y = 0; y < kh!; y++) for (let x = 0; x < kw!; x++) data[((o * cin! + i) * kh! + y) * kw! + x] = from[((y * kw! + x) * cin! + i) * cout! + o]!;
  return { dims: [cout!, cin!, kh!, kw!], data };
}

/** A TensorFlow depthwise filter [height, width, channels, 1] as ONNX's grouped [channels, 1, height, width]. */
function depthwiseFilter(filter: TfTensor): { dims: number[]; data: Float32Array } {
  const [kh, kw, channels] = filter.shape as number[];
  const from = filter.dataSync() as Float32Array;
  const data = new Float32Array(from.length);
  for (let c = 0; c < channels!; c++) for (let y = 0; y < kh!; y++) for (let x = 0; x < kw!; x++) data[(c * kh! + y) * kw! + x] = from[(y * kw! + x) * channels! + c]!;
  return { dims: [channels!, 1, kh!, kw!], data };
}

/**
 * The graph: a frame of bytes [1, height, width, 3] and the size to look at it [1, 3, H, W] in;
 * out comes the net's grid [1, rows, cols, 5 anchors × 5], as face-api's. The resize is
 * bilinear without half-pixel centres, as TensorFlow.js's; the colour means and the /255 are
 * folded into the first layer's weights (exact: that layer has no padding).
 */
export function tinyDetectorModel(weights: TinyDetectorWeights): Uint8Array {
  const nodes: GraphNode[] = [];
  const initializers: Initializer[] = [];
  let x = 'frame';
  let count = 0;
  const step = (op: string, inputs: string[], attributes?: GraphNode['attributes'], floatAttributes?: GraphNode['floatAttributes']) => {
    const output = `${op.toLowerCase()}_${count++}`;
    nodes.push({ op, inputs: [x, ...inputs], outputs: [output], attributes, floatAttributes });
    x = output;
  };
  const constant = (name: string, value: { dims: number[]; data: Float32Array }) => {
    initializers.push({ name, ...value });
    return name;
  };
  const leaky = () => step('LeakyRelu', [], undefined, { alpha: LEAKY_ALPHA });
  const maxPool = (stride: number) => step('MaxPool', [], { kernel_shape: [2, 2], strides: [stride, stride], auto_pad: 'SAME_UPPER' });
  const separable = (name: string, layer: SeparableLayer) => {
    const depthwise = depthwiseFilter(layer.depthwise_filter);
    step('Conv', [constant(`${name}_depthwise`, depthwise)], { kernel_shape: [3, 3], group: depthwise.dims[0]!, pads: [1, 1, 1, 1] });
    step('Conv', [constant(`${name}_pointwise`, convFilter(layer.pointwise_filter)), constant(`${name}_bias`, biasOf(layer.bias))], { kernel_shape: [1, 1] });
    leaky();
  };

  step('Cast', [], { to: 1 });
  step('Transpose', [], { perm: [0, 3, 1, 2] });
  step('Resize', ['', '', 'size'], { mode: 'linear', coordinate_transformation_mode: 'asymmetric' });
  const first = convFilter(weights.conv0.filters);
  const firstBias = biasOf(weights.conv0.bias);
  const [outChannels, inChannels] = first.dims as [number, number];
  const perChannel = first.data.length / outChannels / inChannels;
  for (let o = 0; o < outChannels; o++) {
    for (let i = 0; i < inChannels; i++) {
      for (let k = 0; k < perChannel; k++) {
        const at = (o * inChannels + i) * perChannel + k;
        firstBias.data[o] = firstBias.data[o]! - (first.data[at]! * MEAN_RGB[i]!) / 255;
        first.data[at] = first.data[at]! / 255;
      }
    }
  }
  step('Conv', [constant('conv0_filters', first), constant('conv0_bias', firstBias)], { kernel_shape: [3, 3] });
  leaky();
  maxPool(2);
  for (const name of ['conv1', 'conv2', 'conv3', 'conv4'] as const) {
    separable(name, weights[name]);
    maxPool(2);
  }
  separable('conv5', weights.conv5);
  maxPool(1);
  if (weights.conv6) separable('conv6', weights.conv6);
  if (weights.conv7) separable('conv7', weights.conv7);
  step('Conv', [constant('conv8_filters', convFilter(weights.conv8.filters)), constant('conv8_bias', biasOf(weights.conv8.bias))], { kernel_shape: [1, 1] });
  step('Transpose', [], { perm: [0, 2, 3, 1] });
  nodes.at(-1)!.outputs = ['grid'];
  return writeOnnxModel({
    nodes,
    initializers,
    inputs: [
      { name: 'frame', type: 'uint8', dims: [1, 'height', 'width', 3] },
      { name: 'size', type: 'int64', dims: [4] },
    ],
    outputs: [{ name: 'grid', dims: [1, 'rows', 'cols', 25] }],
  });
}

function biasOf(bias: TfTensor) {
  return { dims: bias.shape as number[], data: Float32Array.from(bias.dataSync() as Float32Array) };
}

/** Runs the net on a frame at a given size; one per thread, one look at a time. */
export interface TinyDetectorSession {
  run(frame: { data: Uint8Array; width: number; height: number }, width: number, height: number): Promise<{ grid: Float32Array; rows: number; cols: number }>;
}

export async function createTinyDetectorSession(weights: TinyDetectorWeights): Promise<TinyDetectorSession> {
  const ort = require('onnxruntime-node');
  // One thread: each face worker thread runs its own session, and they fill the cores between them.
  const session = await ort.InferenceSession.create(tinyDetectorModel(weights), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return {
    async run(frame, width, height) {
      const output = await session.run({
        frame: new ort.Tensor('uint8', frame.data, [1, frame.height, frame.width, 3]),
        size: new ort.Tensor('int64', BigInt64Array.from([1n, 3n, BigInt(height), BigInt(width)]), [4]),
      });
      const [, rows, cols] = output.grid.dims as number[];
      return { grid: output.grid.data as Float32Array, rows: rows!, cols: cols! };
    },
  };
}
