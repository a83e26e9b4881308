// Writes a small ONNX model (the protobuf that ONNX Runtime loads) from weights already in
// memory, so a network whose weights ship in an npm package in another format can run on ONNX
// Runtime's native CPU kernels. Only what the face models' graphs need: float weights and int64
// constants, nodes with int, ints, float and string attributes, inputs with named (free)
// dimensions.

/** A float (or int64: shapes, pads) tensor, row-major in the shape given. */
export interface Initializer {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}
export interface GraphNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number | number[] | string>;
  /** Attributes that are floats though they look like whole numbers. */
  floatAttributes?: Record<string, number>;
}
/** A graph input or output: its element type (float unless said), its dimensions numbers or names of free dimensions. */
export interface GraphValue {
  name: string;
  type?: 'float' | 'uint8' | 'int64';
  dims: Array<number | string>;
}
export interface OnnxGraph {
  nodes: GraphNode[];
  initializers: Initializer[];
  inputs: GraphValue[];
  outputs: GraphValue[];
}

/** ONNX's element types, and the IR version and operator set written. */
const FLOAT = 1;
const ELEMENT_TYPES = { float: FLOAT, uint8: 2, int64: 7 };
const IR_VERSION = 8;
const OPSET = 17;
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_STRING = 3;
const ATTRIBUTE_INTS = 7;

/** Protobuf fields, written in order. */
class Message {
  private parts: Uint8Array[] = [];

  private varint(value: number) {
    const bytes: number[] = [];
    // Negative int64s are ten bytes of two's complement.
    let v = BigInt.asUintN(64, BigInt(value));
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v) byte |= 0x80;
      bytes.push(byte);
    } while (v);
    this.parts.push(Uint8Array.from(bytes));
  }
  private key(field: number, wireType: number) {
    this.varint(field * 8 + wireType);
  }
  int(field: number, value: number) {
    this.key(field, 0);
    this.varint(value);
    return this;
  }
  float(field: number, value: number) {
    this.key(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.parts.push(bytes);
    return this;
  }
  bytes(field: number, value: Uint8Array) {
    this.key(field, 2);
    this.varint(value.length);
    this.parts.push(value);
    return this;
  }
  string(field: number, value: string) {
    return this.bytes(field, new TextEncoder().encode(value));
  }
  message(field: number, value: Message) {
    return this.bytes(field, value.toBytes());
  }
  toBytes(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

function tensorProto(tensor: Initializer): Message {
  const m = new Message();
  for (const d of tensor.dims) m.int(1, d);
  m.int(2, tensor.data instanceof BigInt64Array ? ELEMENT_TYPES.int64 : FLOAT).string(8, tensor.name);
  const raw = new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  return m.bytes(9, raw);
}

function valueInfo(value: GraphValue): Message {
  const shape = new Message();
  for (const d of value.dims) shape.message(1, typeof d === 'number' ? new Message().int(1, d) : new Message().string(2, d));
  const tensorType = new Message().int(1, ELEMENT_TYPES[value.type ?? 'float']).message(2, shape);
  return new Message().string(1, value.name).message(2, new Message().message(1, tensorType));
}

function nodeProto(node: GraphNode, index: number): Message {
  const m = new Message();
  for (const name of node.inputs) m.string(1, name);
  for (const name of node.outputs) m.string(2, name);
  m.string(3, `${node.op.toLowerCase()}${index}`).string(4, node.op);
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    const a = new Message().string(1, name);
    if (Array.isArray(value)) {
      for (const v of value) a.int(8, v);
      a.int(20, ATTRIBUTE_INTS);
    } else if (typeof value === 'string') a.string(4, value).int(20, ATTRIBUTE_STRING);
    else if (Number.isInteger(value)) a.int(3, value).int(20, ATTRIBUTE_INT);
    else a.float(2, value).int(20, ATTRIBUTE_FLOAT);
    m.message(5, a);
  }
  for (const [name, value] of Object.entries(node.floatAttributes ?? {})) m.message(5, new Message().string(1, name).float(2, value).int(20, ATTRIBUTE_FLOAT));
  return m;
}

/** The model's bytes, ready for `InferenceSession.create`. */
export function writeOnnxModel(graph: OnnxGraph, name = 'graph'): Uint8Array {
  const g = new Message();
  graph.nodes.forEach((node, i) => g.message(1, nodeProto(node, i)));
  g.string(2, name);
  for (const t of graph.initializers) g.message(5, tensorProto(t));
  for (const v of graph.inputs) g.message(11, valueInfo(v));
  for (const v of graph.outputs) g.message(12, valueInfo(v));
  return new Message()
    .int(1, IR_VERSION)
    .string(2, 'get-it-on-tape')
    .message(7, g)
    .message(8, new Message().string(1, '').int(2, OPSET))
    .toBytes();
}
