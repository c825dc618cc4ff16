// The ceiling of the benchmark: how many f32 operations per second this machine's WebAssembly
// engine sustains with SIMD128, measured in the same run as the kernels.
//
// Wasm has no fused multiply-add, so every step of a dot product is an f32x4.mul followed by an
// f32x4.add. The probe runs `chains` independent accumulators, each doing
//     acc = acc * c + e        (one f32x4.mul and one f32x4.add: 8 flops)
// per step. With enough independent chains the loop is bound by the throughput of the
// multiply and add units rather than by their latency; with too many the engine runs out of
// vector registers and spills. The probe tries several chain counts and reports the best.
//
// The module is assembled here byte by byte (no toolchain): one exported function per chain
// count, `chains_N(iterations: i32, c: f32, e: f32) -> f32`. `c` and `e` arrive as parameters so
// the engine cannot fold the arithmetic away; c = 1 and e = 0 keep every value finite and
// normal, so no denormal slow path is hit. The result is returned so the work is observable.

const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;

const OP = {
  block: 0x02, loop: 0x03, br: 0x0c, brIf: 0x0d, end: 0x0b,
  localGet: 0x20, localSet: 0x21,
  i32Const: 0x41, i32Eqz: 0x45, i32Sub: 0x6b, f32Add: 0x92,
  simd: 0xfd,
};
const SIMD = { f32x4Splat: 0x13, f32x4ExtractLane: 0x1f, f32x4Add: 0xe4, f32x4Mul: 0xe6 };
const BLOCK_TYPE_EMPTY = 0x40;
// The loop body holds each chain's step twice, so the loop counter costs half as much.
const UNROLL = 2;

/** The chain counts tried; each export performs 8 · chains · UNROLL flops per iteration. */
export const PEAK_CHAIN_COUNTS = [4, 8, 12, 14];

function uleb(value) {
  const bytes = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}

function simd(op) {
  return [OP.simd, ...uleb(op)];
}

function name(text) {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

function section(id, contents) {
  return [id, ...uleb(contents.length), ...contents];
}

function vector(items) {
  return [...uleb(items.length), ...items.flat()];
}

// Locals: 0 = iterations (i32), 1 = c (f32), 2 = e (f32), 3 = splat(c), 4 = splat(e),
// 5.. = the accumulators.
function chainFunctionBody(chains) {
  const splatC = 3;
  const splatE = 4;
  const accumulator = (i) => 5 + i;
  const code = [
    OP.localGet, 1, ...simd(SIMD.f32x4Splat), OP.localSet, splatC,
    OP.localGet, 2, ...simd(SIMD.f32x4Splat), OP.localSet, splatE,
  ];
  // Start each chain at a different value so no two are the same computation.
  for (let i = 0; i < chains; i += 1) {
    code.push(OP.localGet, 1, ...simd(SIMD.f32x4Splat), OP.localGet, splatE,
      ...simd(SIMD.f32x4Add), OP.localSet, ...uleb(accumulator(i)));
  }
  code.push(OP.block, BLOCK_TYPE_EMPTY, OP.loop, BLOCK_TYPE_EMPTY,
    OP.localGet, 0, OP.i32Eqz, OP.brIf, 1);
  for (let u = 0; u < UNROLL; u += 1) {
    for (let i = 0; i < chains; i += 1) {
      code.push(OP.localGet, ...uleb(accumulator(i)), OP.localGet, splatC, ...simd(SIMD.f32x4Mul),
        OP.localGet, splatE, ...simd(SIMD.f32x4Add), OP.localSet, ...uleb(accumulator(i)));
    }
  }
  code.push(OP.localGet, 0, OP.i32Const, 1, OP.i32Sub, OP.localSet, 0, OP.br, 0, OP.end, OP.end);
  // Return the sum of lane 0 of every accumulator.
  code.push(OP.localGet, accumulator(0), ...simd(SIMD.f32x4ExtractLane), 0);
  for (let i = 1; i < chains; i += 1) {
    code.push(OP.localGet, ...uleb(accumulator(i)), ...simd(SIMD.f32x4ExtractLane), 0, OP.f32Add);
  }
  code.push(OP.end);
  const locals = vector([[...uleb(2 + chains), V128]]);
  const body = [...locals, ...code];
  return [...uleb(body.length), ...body];
}

/** The bytes of the probe module (exports chains_4, chains_8, ...). */
export function peakModuleBytes(chainCounts = PEAK_CHAIN_COUNTS) {
  const functionType = [0x60, ...vector([[I32], [F32], [F32]]), ...vector([[F32]])];
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([functionType])),
    ...section(3, vector(chainCounts.map(() => [0]))),
    ...section(7, vector(chainCounts.map((chains, index) => [...name(`chains_${chains}`), 0x00, ...uleb(index)]))),
    ...section(10, vector(chainCounts.map((chains) => chainFunctionBody(chains)))),
  ];
  return Uint8Array.from(bytes);
}

function now() {
  return performance.now();
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Measures the SIMD128 peak. Each chain count is warmed up (so the optimising tier compiles
 * it), then timed `samples` times for about `sampleMs` each; a chain count's figure is the
 * median of its samples, and the peak is the best chain count.
 * @param {{sampleMs?: number, samples?: number}} [options]
 * @returns {Promise<{gflops: number, best_chains: number, flops_per_step: string, unroll: number,
 *   configurations: {chains: number, gflops: number}[], method: string}>}
 */
export async function measurePeak({ sampleMs = 60, samples = 5 } = {}) {
  if (typeof WebAssembly?.validate !== 'function' || !WebAssembly.validate(peakModuleBytes([4]))) {
    throw new Error('WebAssembly SIMD128 is not available here');
  }
  const { instance } = await WebAssembly.instantiate(peakModuleBytes());
  const configurations = [];
  let sink = 0;
  for (const chains of PEAK_CHAIN_COUNTS) {
    const run = instance.exports[`chains_${chains}`];
    // Warm up until the call is fast and stable, then size a sample to last about sampleMs.
    let iterations = 1000;
    for (let elapsed = 0; elapsed < sampleMs / 4; iterations *= 2) {
      const start = now();
      sink += run(iterations, 1, 0);
      elapsed = now() - start;
    }
    const warmStart = now();
    while (now() - warmStart < sampleMs) sink += run(iterations, 1, 0);
    const probeStart = now();
    sink += run(iterations, 1, 0);
    const perIteration = Math.max(now() - probeStart, 1e-3) / iterations;
    iterations = Math.max(1000, Math.round(sampleMs / perIteration));
    const rates = [];
    for (let s = 0; s < samples; s += 1) {
      const start = now();
      sink += run(iterations, 1, 0);
      const seconds = (now() - start) / 1000;
      rates.push((8 * chains * UNROLL * iterations) / seconds / 1e9);
    }
    configurations.push({ chains, gflops: median(rates) });
  }
  if (!Number.isFinite(sink)) throw new Error('peak probe produced a non-finite value');
  const best = configurations.reduce((a, b) => (b.gflops > a.gflops ? b : a));
  return {
    gflops: best.gflops,
    best_chains: best.chains,
    flops_per_step: '8 per chain (f32x4.mul + f32x4.add)',
    unroll: UNROLL,
    configurations,
    method: 'independent chains acc = acc * c + e of f32x4.mul and f32x4.add in a hand-assembled ' +
      'wasm module; median of samples per chain count, best chain count',
  };
}
