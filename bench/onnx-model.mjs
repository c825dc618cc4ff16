// Builds the two ONNX models the benchmark runs on onnxruntime-web, as the bytes of a ModelProto.
//
// There is no ONNX tooling among the project's dependencies, and two tiny graphs do not need
// any: this file writes the protobuf wire format by hand (varints, length-delimited fields,
// packed little-endian floats). Field numbers follow onnx.proto; only the fields used here are
// encoded.
//
//   fusedAttentionModel({ t, d, causal })      one `Attention` node (ai.onnx opset 23),
//                                               inputs q, k, v of shape [1, 1, t, d]
//   decomposedAttentionModel({ t, d, causal }) Transpose, MatMul, Mul (1/√d), Add (mask),
//                                               Softmax, MatMul; inputs q, k, v of shape [t, d];
//                                               the causal mask is an additive [t, t] initializer
//                                               holding 0 where a token may look and −∞ where not

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

const TENSOR_FLOAT = 1;  // TensorProto.DataType.FLOAT
const ATTRIBUTE_FLOAT = 1;  // AttributeProto.AttributeType
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

const IR_VERSION = 11;  // the IR version that came with opset 23 (ONNX 1.18)
const OPSET = 23;  // the first opset with the `Attention` operator

const textEncoder = new TextEncoder();

// A message is built as a list of byte chunks so that large payloads (a T×T mask) are copied
// once, when the model is assembled, not once per level of nesting.
class Message {
  constructor() {
    this.chunks = [];
    this.length = 0;
  }

  #push(bytes) {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  #tag(field, wireType) {
    this.#push(varint(BigInt(field * 8 + wireType)));
  }

  /** int32/int64/enum/bool field; negative values take the ten-byte two's-complement form. */
  int(field, value) {
    this.#tag(field, WIRE_VARINT);
    this.#push(varint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  float(field, value) {
    this.#tag(field, WIRE_FIXED32);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.#push(bytes);
    return this;
  }

  bytes(field, bytes) {
    this.#tag(field, WIRE_LENGTH_DELIMITED);
    this.#push(varint(BigInt(bytes.length)));
    this.#push(bytes);
    return this;
  }

  string(field, text) {
    return this.bytes(field, textEncoder.encode(text));
  }

  message(field, message) {
    this.#tag(field, WIRE_LENGTH_DELIMITED);
    this.#push(varint(BigInt(message.length)));
    for (const chunk of message.chunks) this.#push(chunk);
    return this;
  }

  /** Packed repeated int64 (proto3 default for repeated scalars). */
  packedInts(field, values) {
    if (values.length === 0) return this;
    const inner = new Message();
    for (const value of values) inner.#push(varint(BigInt.asUintN(64, BigInt(value))));
    this.#tag(field, WIRE_LENGTH_DELIMITED);
    this.#push(varint(BigInt(inner.length)));
    for (const chunk of inner.chunks) this.#push(chunk);
    return this;
  }

  toBytes() {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

function varint(value) {
  const bytes = [];
  let rest = value;
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0n);
  return Uint8Array.from(bytes);
}

// --- onnx.proto messages -------------------------------------------------------------------

/** ValueInfoProto of a float tensor with a fixed shape. */
function floatTensorInfo(name, shape) {
  const shapeProto = new Message();
  for (const size of shape) shapeProto.message(1, new Message().int(1, size));  // dim.dim_value
  const tensorType = new Message().int(1, TENSOR_FLOAT).message(2, shapeProto);
  const typeProto = new Message().message(1, tensorType);  // TypeProto.tensor_type
  return new Message().string(1, name).message(2, typeProto);
}

/** TensorProto holding float32 data as raw little-endian bytes. */
function floatInitializer(name, shape, values) {
  const raw = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (new Uint8Array(new Float32Array([1]).buffer)[3] !== 0x3f) {
    throw new Error('onnx-model: raw_data must be little-endian; this platform is not');
  }
  return new Message().packedInts(1, shape).int(2, TENSOR_FLOAT).string(8, name).bytes(9, raw);
}

function attribute(name, value) {
  const message = new Message().string(1, name);
  if (Array.isArray(value)) {
    for (const item of value) message.int(8, item);  // ints
    return message.int(20, ATTRIBUTE_INTS);
  }
  if (Number.isInteger(value.int)) return message.int(3, value.int).int(20, ATTRIBUTE_INT);
  if (typeof value.float === 'number') return message.float(2, value.float).int(20, ATTRIBUTE_FLOAT);
  throw new Error(`onnx-model: unsupported attribute value for ${name}`);
}

function node(opType, inputs, outputs, attributes = {}) {
  const message = new Message();
  for (const input of inputs) message.string(1, input);
  for (const output of outputs) message.string(2, output);
  message.string(3, `${opType}_${outputs[0]}`);
  message.string(4, opType);
  for (const [name, value] of Object.entries(attributes)) message.message(5, attribute(name, value));
  return message;
}

function model({ name, nodes, initializers = [], inputs, outputs }) {
  const graph = new Message();
  for (const n of nodes) graph.message(1, n);
  graph.string(2, name);
  for (const initializer of initializers) graph.message(5, initializer);
  for (const input of inputs) graph.message(11, input);
  for (const output of outputs) graph.message(12, output);
  return new Message()
    .int(1, IR_VERSION)
    .string(2, 'attention-by-hand benchmark')
    .message(7, graph)
    .message(8, new Message().string(1, '').int(2, OPSET))  // opset_import, default domain
    .toBytes();
}

function checkShape(t, d) {
  if (!Number.isInteger(t) || t < 1 || !Number.isInteger(d) || d < 1) {
    throw new Error(`onnx-model: t and d must be positive integers, got t=${t}, d=${d}`);
  }
}

// --- the two graphs ------------------------------------------------------------------------

/** One fused `Attention` node; q, k, v, y are [batch 1, heads 1, t, d]. */
export function fusedAttentionModel({ t, d, causal = true }) {
  checkShape(t, d);
  const shape = [1, 1, t, d];
  return model({
    name: 'fused_attention',
    nodes: [node('Attention', ['q', 'k', 'v'], ['y'], {
      is_causal: { int: causal ? 1 : 0 },
      scale: { float: 1 / Math.sqrt(d) },
    })],
    inputs: ['q', 'k', 'v'].map((name) => floatTensorInfo(name, shape)),
    outputs: [floatTensorInfo('y', shape)],
  });
}

/** The additive causal mask: 0 on and below the diagonal, −∞ above it (row i sees j ≤ i). */
export function additiveCausalMask(t) {
  const mask = new Float32Array(t * t);
  for (let i = 0; i < t; i += 1) mask.fill(-Infinity, i * t + i + 1, (i + 1) * t);
  return mask;
}

/** MatMul(q, Transpose(k)) · 1/√d + mask → Softmax → MatMul(·, v); q, k, v, y are [t, d]. */
export function decomposedAttentionModel({ t, d, causal = true }) {
  checkShape(t, d);
  const nodes = [
    node('Transpose', ['k'], ['k_transposed'], { perm: [1, 0] }),
    node('MatMul', ['q', 'k_transposed'], ['scores']),
    node('Mul', ['scores', 'inverse_sqrt_d'], ['scaled']),
  ];
  const initializers = [floatInitializer('inverse_sqrt_d', [], new Float32Array([1 / Math.sqrt(d)]))];
  let softmaxInput = 'scaled';
  if (causal) {
    nodes.push(node('Add', ['scaled', 'causal_mask'], ['masked']));
    initializers.push(floatInitializer('causal_mask', [t, t], additiveCausalMask(t)));
    softmaxInput = 'masked';
  }
  nodes.push(node('Softmax', [softmaxInput], ['weights'], { axis: { int: -1 } }));
  nodes.push(node('MatMul', ['weights', 'v'], ['y']));
  return model({
    name: 'decomposed_attention',
    nodes,
    initializers,
    inputs: ['q', 'k', 'v'].map((name) => floatTensorInfo(name, [t, d])),
    outputs: [floatTensorInfo('y', [t, d])],
  });
}
