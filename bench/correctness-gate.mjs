// The benchmark's correctness gate, the same in Node and in a browser page: seeded inputs, output
// rows worked in float64 straight from the definition, and the comparison every implementation
// must pass before it is timed (a wrong, short or non-finite output is left out of the tables).

/** A relative error (max |out − ref| / max |ref| over the checked rows) above this fails. */
export const ERROR_BUDGET = 1e-3;

/** mulberry32: a small seeded generator, so every run and every environment gets the same inputs. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** q, k, v with entries uniform in [−1, 1); q is scaled by 2 so the softmax is not flat. */
export function makeInputs(t, d, seed = 1) {
  const random = seededRandom(seed * 7919 + t * 31 + d);
  const fill = (scale) => {
    const values = new Float32Array(t * d);
    for (let i = 0; i < values.length; i += 1) values[i] = scale * (2 * random() - 1);
    return values;
  };
  return { q: fill(2), k: fill(1), v: fill(1) };
}

/** Every row up to T = 256; beyond, the first and last rows and an even spread between. */
export function rowsToCheck(t, budget = 48) {
  if (t <= 256) return Array.from({ length: t }, (_, i) => i);
  const rows = new Set([0, 1, 2, 3, t - 4, t - 3, t - 2, t - 1]);
  const spread = budget - rows.size;
  for (let s = 0; s < spread; s += 1) rows.add(Math.floor(((s + 0.5) * t) / spread));
  return [...rows].sort((a, b) => a - b);
}

/** Output rows in float64, straight from the definition (the inputs are read as float32). */
export function referenceRows({ q, k, v }, t, d, mask, rows) {
  const scale = 1 / Math.sqrt(d);
  const weights = new Float64Array(t);
  return rows.map((i) => {
    const visible = mask === 'causal' ? i + 1 : t;
    let max = -Infinity;
    for (let j = 0; j < visible; j += 1) {
      let dot = 0;
      for (let c = 0; c < d; c += 1) dot += q[i * d + c] * k[j * d + c];
      weights[j] = dot * scale;
      if (weights[j] > max) max = weights[j];
    }
    let total = 0;
    for (let j = 0; j < visible; j += 1) {
      weights[j] = Math.exp(weights[j] - max);
      total += weights[j];
    }
    const out = new Float64Array(d);
    for (let j = 0; j < visible; j += 1) {
      const w = weights[j] / total;
      for (let c = 0; c < d; c += 1) out[c] += w * v[j * d + c];
    }
    return out;
  });
}

/** Compares an output with the reference rows; every value of the output must be finite. */
export function checkOutput(out, t, d, rows, reference) {
  if (!(out instanceof Float32Array) && !(out instanceof Float64Array)) {
    return { ok: false, problem: `returned ${Object.prototype.toString.call(out)}, not a Float32Array` };
  }
  if (out.length !== t * d) return { ok: false, problem: `returned ${out.length} values, expected ${t * d}` };
  for (let i = 0; i < out.length; i += 1) {
    if (!Number.isFinite(out[i])) {
      return { ok: false, problem: `non-finite value ${out[i]} at row ${Math.floor(i / d)}, column ${i % d}` };
    }
  }
  let maxError = 0;
  let maxReference = 0;
  rows.forEach((i, r) => {
    for (let c = 0; c < d; c += 1) {
      maxError = Math.max(maxError, Math.abs(out[i * d + c] - reference[r][c]));
      maxReference = Math.max(maxReference, Math.abs(reference[r][c]));
    }
  });
  const relativeError = maxError / Math.max(maxReference, Number.MIN_VALUE);
  const ok = relativeError <= ERROR_BUDGET;
  return {
    ok,
    max_abs_error: maxError,
    relative_error: relativeError,
    checked_rows: rows.length,
    problem: ok ? undefined : `relative error ${relativeError.toExponential(2)} exceeds ${ERROR_BUDGET}`,
  };
}
