// The benchmark itself, the same in Node and in a browser page: inputs, the float64 reference,
// the correctness gate, the interleaved timing and the result document. The runners
// (run-node.mjs, bench-page.mjs) only load the implementations and hand them in.
//
// An implementation ("contender") is
//   { id, label, group: 'ours' | 'peer', sync: boolean,
//     supports({ t, d, mask }) -> true | string (why not),
//     prepare({ t, d, mask }) -> Promise<{ call(q, k, v) -> Float32Array | Promise<Float32Array>,
//                                          dispose() }>,
//     heapBytes?() -> number }
// where call() computes softmax(mask(q kᵀ / √d)) v for row-major Float32Arrays of length t·d.

export const RESULTS_SCHEMA = 'attention-by-hand/benchmark@1';

export const FLOPS_DEFINITION = {
  useful_causal: '2·d·T·(T+1): QKᵀ and PV over the T·(T+1)/2 visible (i, j) pairs, ' +
    'one multiply and one add per term',
  useful_none: '4·T²·d: QKᵀ and PV over all T² pairs',
  dense: '4·T²·d: as if every pair were computed, whatever the mask',
  note: 'softmax (exp, max, sum, divide) is not counted; GFLOP/s = flops / median time',
};

export const DEFAULT_SIZES = [4, 64, 256, 1024, 2048, 8192, 65536];
export const QUICK_SIZES = [4, 64, 256, 1024];
export const DEFAULT_DIMS = [64, 128];
export const QUICK_DIMS = [64];
/** Only kernels able to run in memory that grows with T·d are asked to run beyond this. */
export const LARGEST_QUADRATIC_T = 8192;

/** Peak probes (before and after the kernels) further apart than this fraction flag a busy machine. */
export const PEAK_VARIATION_WARNING = 0.1;

/** A relative error (max |out − ref| / max |ref| over the checked rows) above this fails. */
export const ERROR_BUDGET = 1e-3;

export function usefulFlops(t, d, mask) {
  return mask === 'causal' ? 2 * d * t * (t + 1) : 4 * t * t * d;
}

export function denseFlops(t, d) {
  return 4 * t * t * d;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const now = () => performance.now();

// --- inputs and the float64 reference ------------------------------------------------------

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

// --- timing --------------------------------------------------------------------------------

let sink = 0;  // keeps every output observable

async function timeCalls(contender, prepared, inputs, calls) {
  const { q, k, v } = inputs;
  const start = now();
  if (contender.sync) {
    for (let n = 0; n < calls; n += 1) sink += prepared.call(q, k, v)[0];
  } else {
    for (let n = 0; n < calls; n += 1) sink += (await prepared.call(q, k, v))[0];
  }
  return (now() - start) / calls;
}

/** The first line of an error, with source paths (of a peer's own build) cut to file:line. */
function describeError(error) {
  return String(error?.message ?? error).split('\n')[0]
    .replace(/(?:\/[\w.+-]+)+\/([\w.+-]+:\d+)/g, '$1')
    .slice(0, 300);
}

/**
 * Runs one (T, d, mask) case: prepares every contender that supports it, checks each against
 * the float64 reference (that call is not timed), warms it up, then times it in interleaved
 * rounds (every contender once per round, starting with a different one each round). A
 * contender that fails its check or throws is reported and left out of the timing.
 */
async function runCase(contenders, shape, settings, warmed, log) {
  const { t, d, mask } = shape;
  const inputs = makeInputs(t, d);
  const rows = rowsToCheck(t);
  const reference = referenceRows(inputs, t, d, mask, rows);
  const entries = [];
  for (const contender of contenders) {
    const supported = contender.supports(shape);
    if (supported !== true) continue;
    const entry = { t, d, mask, implementation: contender.id, status: 'ok' };
    entries.push(entry);
    let prepared;
    try {
      prepared = await contender.prepare(shape);
      const checkStart = now();
      const out = await prepared.call(inputs.q, inputs.k, inputs.v);
      const checkMs = now() - checkStart;
      const check = checkOutput(out, t, d, rows, reference);
      Object.assign(entry, {
        max_abs_error: check.max_abs_error, relative_error: check.relative_error,
        checked_rows: check.checked_rows,
      });
      if (!check.ok) throw new Error(`wrong output: ${check.problem}`);
      // Warm up: engines move hot code to their optimising tier between calls, so a contender
      // gets at least one call after the checked one unless it ran at a smaller size already
      // (then the checked call ran optimised code), and more calls while they are short.
      let perCall = checkMs;
      let spent = checkMs;
      if (!warmed.has(contender.id)) {
        perCall = await timeCalls(contender, prepared, inputs, 1);
        spent += perCall;
      }
      warmed.add(contender.id);
      while (spent < settings.warmupMs) {
        const calls = Math.max(1, Math.ceil((settings.warmupMs - spent) / Math.max(perCall, 1e-3) / 4));
        perCall = await timeCalls(contender, prepared, inputs, calls);
        spent += perCall * calls;
      }
      entry.calls_per_sample = Math.max(1, Math.round(settings.sampleMs / Math.max(perCall, 1e-4)));
      entry.samples_ms = [];
      entry.contender = contender;
      entry.prepared = prepared;
    } catch (error) {
      entry.status = 'failed';
      entry.error = describeError(error);
      log(`  ${contender.id} T=${t} d=${d}: FAILED ${entry.error}`);
      await prepared?.dispose?.();
    }
  }
  const timed = entries.filter((entry) => entry.status === 'ok');
  const rounds = t >= 4096 ? Math.min(settings.reps, settings.largeReps) : settings.reps;
  for (let round = 0; round < rounds; round += 1) {
    for (let n = 0; n < timed.length; n += 1) {
      const entry = timed[(n + round) % timed.length];
      if (entry.status !== 'ok') continue;
      try {
        entry.samples_ms.push(await timeCalls(entry.contender, entry.prepared, inputs, entry.calls_per_sample));
      } catch (error) {
        entry.status = 'failed';
        entry.error = describeError(error);
      }
    }
  }
  for (const entry of timed) {
    if (entry.status === 'ok') {
      entry.time_ms = median(entry.samples_ms);
      entry.useful_gflops = usefulFlops(t, d, mask) / (entry.time_ms * 1e6);
      entry.dense_gflops = denseFlops(t, d) / (entry.time_ms * 1e6);
      const heap = entry.contender.heapBytes?.();
      if (Number.isFinite(heap)) entry.heap_bytes = heap;
    }
    try {
      await entry.prepared.dispose?.();
    } catch {
      // Disposal problems do not change the figures.
    }
    delete entry.contender;
    delete entry.prepared;
  }
  return entries;
}

/** Adds each row's speed-up over every peer measured at the same size, and its share of the peak. */
function addRatios(results, peers, peakGflops) {
  for (const entry of results) {
    if (entry.status !== 'ok') continue;
    entry.speedup = {};
    for (const peer of peers) {
      const other = results.find((r) => r.implementation === peer && r.t === entry.t &&
        r.d === entry.d && r.mask === entry.mask && r.status === 'ok');
      if (other) entry.speedup[peer] = other.time_ms / entry.time_ms;
    }
    if (peakGflops > 0) entry.peak_share = entry.useful_gflops / peakGflops;
  }
}

export const TRACE_ID = 'ours:trace';
export const RUN_JSON_ID = 'ours:run-json';

/**
 * Times a whole trace (every intermediate the page shows) for the article's inputs, next to one
 * call of each contender at the same size, two ways: `ours:trace` through a tracer (typed arrays:
 * q, k and v copied in on every call, every intermediate recomputed, views of the result handed
 * back) and `ours:run-json` through `attention.run()` (JSON both ways).
 * @param {{run: (input) => object, article: () => object, tracer?: (options) => object}} attention
 */
async function runTraceTiming(attention, contenders, settings, log) {
  const article = attention.article();
  const cases = [
    { what: 'article, "the cat"', input: article.two_words },
    { what: '"the cat sat on"', input: article.four_words },
  ];
  const results = [];
  for (const { what, input } of cases) {
    const mask = input.mask ?? 'causal';
    const t = input.q.length;
    const d = input.q[0].length;
    const inputs = {
      q: Float32Array.from(input.q.flat()), k: Float32Array.from(input.k.flat()),
      v: Float32Array.from(input.v.flat()),
    };
    const traceContender = {
      id: TRACE_ID, sync: true,
      // Timed: the whole trace as a page recomputing it would get it, inputs copied in on every
      // call. Checked: its output rows.
      prepare: async () => {
        if (typeof attention.tracer !== 'function') throw new Error('this build of the JS API has no tracer()');
        const tracer = attention.tracer({ t, d, mask });
        return {
          call: (q, k, v) => tracer.run({ q, k, v }).out,
          dispose: () => tracer.dispose(),
        };
      },
    };
    const runJsonContender = {
      id: RUN_JSON_ID, sync: true,
      // Timed: the whole trace through JSON, nothing else. Checked: its output rows.
      prepare: async () => ({
        call: () => { sink += attention.run(input).token_count; return inputs.q; },
        output: () => Float32Array.from(attention.run(input).out.flat()),
      }),
    };
    const rows = rowsToCheck(t);
    const reference = referenceRows(inputs, t, d, mask, rows);
    const candidates = [traceContender, runJsonContender,
      ...contenders.filter((c) => c.supports({ t, d, mask, trace: true }) === true)];
    const timings = [];
    for (const contender of candidates) {
      const row = { what, t, d, mask, implementation: contender.id, status: 'ok' };
      results.push(row);
      try {
        const prepared = await contender.prepare({ t, d, mask });
        const out = prepared.output ? prepared.output() : await prepared.call(inputs.q, inputs.k, inputs.v);
        const check = checkOutput(out, t, d, rows, reference);
        if (!check.ok) throw new Error(`wrong output: ${check.problem}`);
        let perCall = await timeCalls(contender, prepared, inputs, 10);
        const warmupEnd = now() + settings.warmupMs;
        while (now() < warmupEnd) perCall = await timeCalls(contender, prepared, inputs, 100);
        const calls = Math.max(1, Math.round(settings.sampleMs / Math.max(perCall, 1e-4)));
        timings.push({ row, contender, prepared, calls, samples: [] });
      } catch (error) {
        row.status = 'failed';
        row.error = describeError(error);
        log(`  trace timing ${contender.id} ${what}: FAILED ${row.error}`);
      }
    }
    for (let round = 0; round < settings.reps; round += 1) {
      for (let n = 0; n < timings.length; n += 1) {
        const timing = timings[(n + round) % timings.length];
        timing.samples.push(await timeCalls(timing.contender, timing.prepared, inputs, timing.calls));
      }
    }
    for (const timing of timings) {
      timing.row.us_per_call = median(timing.samples) * 1000;
      await timing.prepared.dispose?.();
    }
    // Each row against each way of tracing: that row's time over the trace's (above 1 the trace
    // is faster).
    for (const [contender, key] of [[traceContender, 'trace_speedup'], [runJsonContender, 'run_json_speedup']]) {
      const traceMs = timings.find((timing) => timing.contender === contender)?.samples;
      if (!traceMs) continue;
      const traceUs = median(traceMs) * 1000;
      for (const timing of timings) timing.row[key] = timing.row.us_per_call / traceUs;
    }
  }
  return results;
}

/**
 * Runs the whole benchmark and returns the result document (plain JSON data).
 * @param {object} options
 * @param {object[]} options.contenders   ours and the peers, in table order
 * @param {string[]} options.peerIds      the contenders every row is compared with
 * @param {object} [options.attention]    the object createAttention() resolved to (trace timing)
 * @param {(options?) => Promise<object>} options.measurePeak
 * @param {object} options.environment    what ran it (name, runtime, cpu, ...)
 * @param {object} [options.implementations] extra facts per contender id (versions, threads)
 * @param {number[]} [options.sizes] @param {number[]} [options.dims] @param {boolean} [options.quick]
 * @param {string} [options.mask] 'causal' (default) or 'none'
 * @param {number} [options.reps] timed rounds (median taken)
 * @param {(t: number, d: number) => string} [options.defaultKernel] the kernel attend() picks
 * @param {(line: string) => void} [options.log]
 */
export async function runBenchmark(options) {
  const {
    contenders, peerIds = [], attention, measurePeak, environment, quick = false,
    mask = 'causal', log = () => {}, traceTiming = true,
  } = options;
  const { notes = [] } = options;
  const sizes = options.sizes ?? (quick ? QUICK_SIZES : DEFAULT_SIZES);
  const dims = options.dims ?? (quick ? QUICK_DIMS : DEFAULT_DIMS);
  const settings = {
    reps: options.reps ?? (quick ? 3 : 7),
    largeReps: options.largeReps ?? 3,
    warmupMs: options.warmupMs ?? (quick ? 100 : 300),
    sampleMs: options.sampleMs ?? (quick ? 20 : 50),
    peakSampleMs: options.peakSampleMs ?? (quick ? 30 : 60),
  };
  const started = new Date();
  const peakBefore = await measurePeak({ sampleMs: settings.peakSampleMs });
  log(`SIMD128 peak: ${peakBefore.gflops.toFixed(1)} GFLOP/s`);

  const results = [];
  const cases = [];
  const warmed = new Set();  // contenders that have run (and so been optimised) at a smaller size
  for (const d of dims) {
    for (const t of sizes) {
      const shape = { t, d, mask };
      if (!contenders.some((c) => c.supports(shape) === true)) continue;
      const defaultKernel = options.defaultKernel?.(t, d);
      cases.push({ t, d, mask, ...(defaultKernel ? { default_kernel: defaultKernel } : {}) });
      log(`T=${t} d=${d} ${mask}${defaultKernel ? ` (attend() picks ${defaultKernel})` : ''}`);
      const entries = await runCase(contenders, shape, settings, warmed, log);
      for (const entry of entries) {
        if (entry.status === 'ok') {
          log(`  ${entry.implementation.padEnd(34)} ${entry.time_ms.toPrecision(4).padStart(10)} ms ` +
            `${entry.useful_gflops.toFixed(2).padStart(7)} GFLOP/s`);
        }
      }
      results.push(...entries);
    }
  }

  const peakAfter = await measurePeak({ sampleMs: settings.peakSampleMs });
  log(`SIMD128 peak (again, after the kernels): ${peakAfter.gflops.toFixed(1)} GFLOP/s`);
  const peak = peakAfter.gflops > peakBefore.gflops ? peakAfter : peakBefore;
  peak.before_gflops = peakBefore.gflops;
  peak.after_gflops = peakAfter.gflops;
  // The same probe before and after: a large difference means something else was using the
  // machine during the run, and every figure in between is suspect.
  peak.variation = Math.abs(peakAfter.gflops - peakBefore.gflops) / peak.gflops;
  const warnings = [];
  if (peak.variation > PEAK_VARIATION_WARNING) {
    warnings.push(`the peak probe gave ${peakBefore.gflops.toFixed(1)} GFLOP/s before the kernels and ` +
      `${peakAfter.gflops.toFixed(1)} after: the machine was busy with something else during the run, ` +
      'so these figures understate what it can do');
  }
  addRatios(results, peerIds, peak.gflops);

  let trace = [];
  if (traceTiming && attention) {
    log('complete trace timing');
    trace = await runTraceTiming(attention, contenders, settings, log);
  }

  const implementations = contenders.map((c) => ({
    id: c.id, label: c.label, group: c.group, ...(options.implementations?.[c.id] ?? {}), ...(c.facts ?? {}),
  }));
  return {
    schema: RESULTS_SCHEMA,
    environment: { ...environment, started: started.toISOString(), finished: new Date().toISOString() },
    options: { quick, mask, sizes, dims, ...settings, error_budget: ERROR_BUDGET },
    flops: FLOPS_DEFINITION,
    peak,
    peers: peerIds,
    implementations,
    cases,
    results,
    trace,
    notes,
    warnings,
    sink_is_finite: Number.isFinite(sink),
  };
}
