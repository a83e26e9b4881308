// NanoDet's TensorFlow.js graph rewritten as an ONNX graph in memory, so the person detector runs
// on ONNX Runtime's native CPU kernels as the face detector does (decisions 0013, 0038). The
// weights are the package's own, read through TensorFlow.js; nothing new ships.
//
// The graph came to TensorFlow.js from ONNX (its nodes are named `onnx_tf_prefix_…`), so it is
// already NCHW between transposes; only the convolution and pooling nodes are NHWC, and each is
// written as a transpose, the ONNX node and a transpose back, which ONNX Runtime's optimiser
// cancels against the graph's own. Shape arithmetic on constants (`SparseToDense`, `AddV2`) is
// done here once. In front of the net the graph takes the region's bytes as they are and does
// the resize to 416 × 416 and NanoDet's normalisation (BGR, mean, spread) itself.
import { writeOnnxModel, type GraphNode, type Initializer } from '../vision/onnx-model';

/** One node of a TensorFlow graph model's topology, as model.json writes it. */
export interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, { b?: boolean; f?: number; i?: string; s?: string; list?: { i?: string[] } }>;
}

/** A constant's values and shape, as TensorFlow.js decoded it (float16 weights come out float32). */
export interface TfConstant {
  shape: number[];
  values: Float32Array | Int32Array;
}

export interface NanoDetGraphInput {
  nodes: TfNode[];
  constant(name: string): TfConstant;
  /** The [N, H, W, C] shape each `ResizeBilinear` node's input has (read once from a run of the graph). */
  resizeInputShape(node: string): number[];
  outputs: Array<{ name: string; dims: number[] }>;
  inputSize: number;
  /** NanoDet's normalisation, per input channel in the net's (BGR) order. */
  mean: number[];
  std: number[];
}

const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];

export function nanodetOnnxModel(graph: NanoDetGraphInput): Uint8Array {
  const nodes: GraphNode[] = [];
  const initializers: Initializer[] = [];
  const folded = new Map<string, TfConstant>();
  const constants = new Set(graph.nodes.filter((n) => n.op === 'Const').map((n) => n.name));
  let count = 0;
  const fresh = (hint: string) => `${hint}__${count++}`;
  const valueOf = (input: string): TfConstant | undefined => folded.get(input) ?? (constants.has(input) ? graph.constant(input) : undefined);
  /** An input as an ONNX value name: a tensor's name, or a constant written as an initializer. */
  const tensor = (input: string, as: 'float' | 'int64' = 'float'): string => {
    const value = valueOf(input);
    if (!value) return input.endsWith(':0') ? input.slice(0, -2) : input;
    const name = fresh(`${input}_${as}`);
    initializers.push({ name, dims: value.shape, data: as === 'int64' ? BigInt64Array.from(value.values, (v) => BigInt(v)) : Float32Array.from(value.values) });
    return name;
  };
  const int64 = (dims: number[], values: number[]) => {
    const name = fresh('int64');
    initializers.push({ name, dims, data: BigInt64Array.from(values, (v) => BigInt(v)) });
    return name;
  };
  const float = (dims: number[], values: number[]) => {
    const name = fresh('float');
    initializers.push({ name, dims, data: Float32Array.from(values) });
    return name;
  };
  const emit = (op: string, inputs: string[], output: string, attributes?: GraphNode['attributes'], floatAttributes?: GraphNode['floatAttributes']) => {
    nodes.push({ op, inputs, outputs: [output], attributes, floatAttributes });
    return output;
  };
  const ints = (list?: { i?: string[] }) => (list?.i ?? []).map(Number);
  const text = (s?: string) => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

  // The region's bytes [1, h, w, 3] → float, NCHW, 416 × 416 (TensorFlow.js's bilinear resize:
  // no half-pixel centres), BGR, normalised: NanoDet's input.
  const size = graph.inputSize;
  let x = emit('Cast', ['region'], fresh('cast'), { to: 1 });
  x = emit('Transpose', [x], fresh('nchw'), { perm: NHWC_TO_NCHW });
  x = emit('Resize', [x, '', '', int64([4], [1, 3, size, size])], fresh('resize'), { mode: 'linear', coordinate_transformation_mode: 'asymmetric' });
  x = emit('Gather', [x, int64([3], [2, 1, 0])], fresh('bgr'), { axis: 1 });
  x = emit('Sub', [x, float([1, 3, 1, 1], graph.mean)], fresh('centred'));
  const input = emit('Div', [x, float([1, 3, 1, 1], graph.std)], fresh('normalised'));

  for (const node of graph.nodes) {
    const inputs = (node.input ?? []).filter((i) => !i.startsWith('^'));
    const attr = node.attr ?? {};
    switch (node.op) {
      case 'Const':
        break;
      case 'Placeholder':
        nodes.push({ op: 'Identity', inputs: [input], outputs: [node.name] });
        break;
      case 'SparseToDense': {
        // Shape arithmetic: constants in, a constant out.
        const [indices, shape, values, fallback] = inputs.map((i) => valueOf(i)!);
        const dense = new Int32Array(Array.from(shape!.values).reduce((a, b) => a * b, 1)).fill(fallback!.values[0] ?? 0);
        indices!.values.forEach((at, k) => (dense[at] = values!.values[values!.values.length === 1 ? 0 : k]!));
        folded.set(node.name, { shape: Array.from(shape!.values), values: dense });
        break;
      }
      case 'Add':
      case 'AddV2': {
        const [a, b] = inputs.map((i) => valueOf(i));
        if (a && b) folded.set(node.name, { shape: a.shape, values: Int32Array.from(a.values, (v, k) => v + b.values[k]!) });
        else emit('Add', [tensor(inputs[0]!), tensor(inputs[1]!)], node.name);
        break;
      }
      case 'Pad':
      case 'PadV2': {
        const pads = valueOf(inputs[1]!)!.values;
        const rank = pads.length / 2;
        const begins = Array.from({ length: rank }, (_, d) => pads[2 * d]!);
        const ends = Array.from({ length: rank }, (_, d) => pads[2 * d + 1]!);
        const padInputs = [tensor(inputs[0]!), int64([2 * rank], [...begins, ...ends])];
        if (node.op === 'PadV2') padInputs.push(float([], [valueOf(inputs[2]!)!.values[0]!]));
        emit('Pad', padInputs, node.name, { mode: 'constant' });
        break;
      }
      case 'Transpose':
        emit('Transpose', [tensor(inputs[0]!)], node.name, { perm: Array.from(valueOf(inputs[1]!)!.values) });
        break;
      case 'Conv2D':
      case 'MaxPool': {
        if (text(attr.data_format?.s) !== 'NHWC' || text(attr.padding?.s) !== 'VALID') throw new Error(`nanodet: ${node.name} is not NHWC with VALID padding`);
        const strides = ints(attr.strides?.list).slice(1, 3);
        const nchw = emit('Transpose', [tensor(inputs[0]!)], fresh('to_nchw'), { perm: NHWC_TO_NCHW });
        let out: string;
        if (node.op === 'Conv2D') {
          const filter = valueOf(inputs[1]!)!;
          const [kh, kw, cin, cout] = filter.shape as [number, number, number, number];
          const data = new Float32Array(filter.values.length);
          for (let o = 0; o < cout; o++)
            for (let i = 0; i < cin; i++)
              for (let y = 0; y < kh; y++) for (let xx = 0; xx < kw; xx++) data[((o * cin + i) * kh + y) * kw + xx] = filter.values[((y * kw + xx) * cin + i) * cout + o]!;
          const weights = fresh('filter');
          initializers.push({ name: weights, dims: [cout, cin, kh, kw], data });
          out = emit('Conv', [nchw, weights], fresh('conv'), { kernel_shape: [kh, kw], strides, dilations: ints(attr.dilations?.list).slice(1, 3) });
        } else {
          out = emit('MaxPool', [nchw], fresh('pool'), { kernel_shape: ints(attr.ksize?.list).slice(1, 3), strides });
        }
        emit('Transpose', [out], node.name, { perm: NCHW_TO_NHWC });
        break;
      }
      case 'LeakyRelu':
        emit('LeakyRelu', [tensor(inputs[0]!)], node.name, undefined, { alpha: attr.alpha?.f ?? 0.2 });
        break;
      case 'Sigmoid':
        emit('Sigmoid', [tensor(inputs[0]!)], node.name);
        break;
      case 'ConcatV2': {
        const axis = valueOf(inputs.at(-1)!)!.values[0]!;
        emit('Concat', inputs.slice(0, -1).map((i) => tensor(i)), node.name, { axis });
        break;
      }
      case 'ResizeBilinear': {
        // TensorFlow resizes NHWC; ONNX Runtime's linear resize wants the outer two scales 1.
        if (attr.align_corners?.b) throw new Error(`nanodet: ${node.name} aligns corners`);
        const [, h, w] = graph.resizeInputShape(node.name);
        const [th, tw] = Array.from(valueOf(inputs[1]!)!.values);
        const nchw = emit('Transpose', [tensor(inputs[0]!)], fresh('to_nchw'), { perm: NHWC_TO_NCHW });
        const mode = attr.half_pixel_centers?.b ? 'half_pixel' : 'asymmetric';
        const resized = emit('Resize', [nchw, '', float([4], [1, 1, th! / h!, tw! / w!])], fresh('resized'), { mode: 'linear', coordinate_transformation_mode: mode });
        emit('Transpose', [resized], node.name, { perm: NCHW_TO_NHWC });
        break;
      }
      case 'SplitV': {
        const sizes = Array.from(valueOf(inputs[1]!)!.values);
        const axis = valueOf(inputs[2]!)!.values[0]!;
        nodes.push({ op: 'Split', inputs: [tensor(inputs[0]!), int64([sizes.length], sizes)], outputs: sizes.map((_, k) => (k === 0 ? node.name : `${node.name}:${k}`)), attributes: { axis } });
        break;
      }
      case 'Reshape':
        emit('Reshape', [tensor(inputs[0]!), tensor(inputs[1]!, 'int64')], node.name);
        break;
      case 'Identity':
        emit('Identity', [tensor(inputs[0]!)], node.name);
        break;
      default:
        throw new Error(`nanodet: no ONNX form for ${node.op} (${node.name})`);
    }
  }
  return writeOnnxModel({
    nodes,
    initializers,
    inputs: [{ name: 'region', type: 'uint8', dims: [1, 'height', 'width', 3] }],
    outputs: graph.outputs,
  });
}
