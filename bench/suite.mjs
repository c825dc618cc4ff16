// The benchmark itself, the same in Node and in a browser page: the sizes, every case checked
// and then timed in interleaved rounds, the speed-ups and shares of the peak, and the result
// document. The inputs, the float64 reference and the correctness gate are in
// correctness-gate.mjs, the timing of a batch of calls in timing.mjs, the timing of a whole trace
// in attention-trace-timing.mjs. The runners (run-node.mjs, bench-page.mjs) only load the
// implementations and hand them in.
//
// An implementation ("contender") is
//   { id, label, group: 'ours' | 'peer', sync: boolean,
//     supports({ t, d, mask }) -> true | string (why not),
//     prepare({ t, d, mask }) -> Promise<{ call(q, k, v) -> Float32Array | Promise<Float32Array>,
//                                          dispose() }>,
//     heapBytes?() -> number }
// where call() computes softmax(mask(q kᵀ / √d)) v for row-major Float32Arrays of length t·d.

import { ERROR_BUDGET, checkOutput, makeInputs, referenceRows, rowsToCheck } from './correctness-gate.mjs';
import { runTraceTiming } from './attention-trace-timing.mjs';
import { describeError, median, now, sinkIsFinite, timeCalls } from './timing.mjs';

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

export function usefulFlops(t, d, mask) {
  return mask === 'causal' ? 2 * d * t * (t + 1) : 4 * t * t * d;
}

export function denseFlops(t, d) {
  return 4 * t * t * d;
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
    sink_is_finite: sinkIsFinite(),
  };
}
