// The core's seeded generator written again from its definition
// (core/include/attention/reference/seeded_random.h), so the suites can check that the wasm core gives the
// numbers the definition gives.

const MASK_64 = (1n << 64n) - 1n;
const GAMMA = 0x9E3779B97F4A7C15n;

function mix64(value) {
  let z = value & MASK_64;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK_64;
  return z ^ (z >> 31n);
}

export class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK_64;
    this.spare = null;
  }

  nextU64() {
    this.state = (this.state + GAMMA) & MASK_64;
    return mix64(this.state);
  }

  nextUniform() {
    return Number(this.nextU64() >> 11n) * 2 ** -53;
  }

  nextNormal() {
    if (this.spare !== null) {
      const second = this.spare;
      this.spare = null;
      return second;
    }
    const u1 = this.nextUniform();
    const u2 = this.nextUniform();
    const radius = Math.sqrt(-2 * Math.log(1 - u1));
    this.spare = radius * Math.sin(2 * Math.PI * u2);
    return radius * Math.cos(2 * Math.PI * u2);
  }
}

// `count` normals by Marsaglia's polar method, as fill_polar_normals draws them (before its
// rounding to float): x, then y, uniform in [-1, 1) until s = x² + y² lies in (0, 1), then
// x·√(-2 ln s / s) and y·√(-2 ln s / s).
export function polarNormals(seed, count) {
  const random = new SplitMix64(seed);
  const values = [];
  while (values.length < count) {
    let x;
    let y;
    let s;
    do {
      x = 2 * random.nextUniform() - 1;
      y = 2 * random.nextUniform() - 1;
      s = x * x + y * y;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt(-2 * Math.log(s) / s);
    values.push(x * factor, y * factor);
  }
  return values.slice(0, count);
}

export function deriveSeed(seed, stream, index = 0n) {
  const perStream = mix64(BigInt(seed) + GAMMA * (BigInt(stream) + 1n));
  return mix64(perStream + GAMMA * (BigInt(index) + 1n));
}

export function gridValues(seed, rows, cols, { min = -1, max = 1, decimals = 1 } = {}) {
  const random = new SplitMix64(seed);
  const p = 10 ** decimals;
  const lowest = Math.ceil(min * p - 1e-3);
  const count = Math.floor(max * p + 1e-3) - lowest + 1;
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => {
    const index = Math.min(Math.floor(random.nextUniform() * count), count - 1);
    return (lowest + index) / p;
  }));
}

// Deterministic values in [-2, 2) on the float32 grid, from a small linear congruential
// generator: inputs for the typed-array entry points (attend(), tracers), not the core's
// generator.
function seededFloat32Values(length, seed) {
  const values = new Float32Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[i] = (state / 2 ** 32) * 4 - 2;
  }
  return values;
}

// q, k and v of t rows of d values each, from seeds seed, seed + 1 and seed + 2.
export function seededQkv(t, d, seed) {
  return {
    q: seededFloat32Values(t * d, seed),
    k: seededFloat32Values(t * d, seed + 1),
    v: seededFloat32Values(t * d, seed + 2),
  };
}
