// attention-api.js: loads the attention core (C++ compiled to WebAssembly) and exposes it as
// plain functions. The core parses, validates and computes everything; this file only moves
// JSON across the boundary and turns the core's error values into exceptions.

import { CORE_BUILDS, loadCore, loadFullBuildModules } from './core-loader.js';
import { parseCoreJson, toJson, unwrap } from './core-json.js';
import { DEFAULT_VARIANT } from '../state/variant-names.js';
import { quoteText } from '../state/quote-text.js';

const embedMethods = ['run', 'article', 'scoreNextWord', 'vocabulary'];

const corePromises = new Map();  // build name -> promise of the loaded module, one per page

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return quoteText(value, 32);
  if (typeof value === 'number') return String(value);
  return value.constructor?.name ?? typeof value;
}

// attend(): checks what only JS can see (types, lengths, names), lets the core check sizes and
// values, copies the inputs into the module's heap, runs the kernel there and copies the output
// out. The heap workspace is reused from call to call, so repeated calls do not grow it.
function attendOnCore(core, { kernelList, kernelMasks }, input) {
  if (input === null || typeof input !== 'object') {
    throw new Error(`attend: expects an object { q, k, v, t, d, mask, kernel, out }, got ${describe(input)}`);
  }
  const { q, k, v, t, d, mask = DEFAULT_VARIANT.mask, kernel, out } = input;
  for (const [name, value] of [['t', t], ['d', d]]) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`${name}: must be a positive integer, got ${describe(value)}`);
    }
    if (value > 0x7fffffff) throw new Error(`${name}: is ${value}, beyond any supported size`);
  }
  const arrays = [['q', q], ['k', k], ['v', v]];
  if (out !== undefined && out !== null) arrays.push(['out', out]);
  for (const [name, array] of arrays) {
    if (!(array instanceof Float32Array)) {
      throw new Error(`${name}: must be a Float32Array of length t·d, got ${describe(array)}`);
    }
    if (array.length !== t * d) {
      throw new Error(`${name}: has length ${array.length}; expected t·d = ${t} × ${d} = ${t * d}`);
    }
  }
  const maskIndex = kernelMasks.indexOf(mask);
  if (maskIndex < 0) {
    throw new Error(`mask: must be ${kernelMasks.map((name) => `"${name}"`).join(' or ')}, got ${describe(mask)}`);
  }
  let kernelIndex = -1;
  if (kernel !== undefined && kernel !== null) {
    kernelIndex = kernelList.findIndex((entry) => entry.name === kernel);
    if (kernelIndex < 0) {
      throw new Error(`kernel: unknown kernel ${describe(kernel)}; this build has ` +
        kernelList.map((entry) => entry.name).join(', '));
    }
  }
  const offset = core.attendPrepare(t, d, kernelIndex);
  if (offset < 0) throw new Error(core.attendError());
  const heap = core.HEAPF32;  // read after prepare: growing the heap replaces the view
  const base = offset / Float32Array.BYTES_PER_ELEMENT;
  const n = t * d;
  heap.set(q, base);
  heap.set(k, base + n);
  heap.set(v, base + 2 * n);
  if (!core.attendRun(t, d, maskIndex, kernelIndex)) throw new Error(core.attendError());
  // The output is written over q. Into the caller's array when given: no allocation per call.
  if (out !== undefined && out !== null) {
    out.set(heap.subarray(base, base + n));
    return out;
  }
  return heap.slice(base, base + n);
}

/**
 * Loads the WebAssembly core (once per page and build) and resolves to the attention API.
 * `build` is "simd" (the default), "scalar" or "embed" (only what the elements call: run,
 * article, scoreNextWord and vocabulary). Rejects with an Error when WebAssembly cannot run.
 */
export async function createAttention({ build = 'simd' } = {}) {
  if (!Object.hasOwn(CORE_BUILDS, build)) {
    throw new Error(`build: must be "simd", "scalar" or "embed", got ${describe(build)}`);
  }
  if (!corePromises.has(build)) {
    corePromises.set(build, loadCore(build).catch((error) => {
      corePromises.delete(build);  // a later call may try again
      throw error instanceof Error ? error : new Error(`The attention core failed to load: ${error}`);
    }));
  }
  const [core, fullBuild] = await Promise.all([
    corePromises.get(build), build === 'embed' ? null : loadFullBuildModules(),
  ]);
  const api = apiFor(core, fullBuild ?? {});
  return build === 'embed'
    ? Object.fromEntries(embedMethods.map((name) => [name, api[name]]))
    : api;
}

// The API over one loaded module. Methods only touch the bindings they call, so the embed
// build (which lacks most of them) shares this code and keeps a subset of the methods.
function apiFor(core, { createTracer, createTrainer }) {
  const kernelList = core.kernelsJson ? parseCoreJson(core.kernelsJson()) : [];
  // The masks the kernels compute, in the order of the indices attendRun takes (the
  // vocabulary's order, without the reference trace's own variants).
  const kernelMasks = parseCoreJson(core.vocabularyJson()).masks.filter((mask) => mask.kernels).map((mask) => mask.name);
  return {
    /** The full trace of one attention head; throws an Error naming the field at fault. */
    run(input) {
      return unwrap(core.traceJson(toJson(input, 'input')));
    },
    /** The article's inputs: two_words, four_words, four_words_worked_rows, vocabulary. */
    article() {
      return parseCoreJson(core.articleJson());
    },
    /** Step 6, a demonstration: one output row scored against the article's vocabulary. */
    scoreNextWord(row) {
      const scores = unwrap(core.nextWordJson(toJson(row, 'row')));
      return { words: parseCoreJson(core.articleJson()).vocabulary.words, ...scores };
    },
    /** Every number the article prints, compared with what the core computes. */
    checkArticle() {
      return parseCoreJson(core.claimChecksJson());
    },
    /** The core's names and defaults: mask and scale variants, each request's defaults, limits. */
    vocabulary() {
      return parseCoreJson(core.vocabularyJson());
    },
    /** The attention kernels compiled into this build: [{ name, isa, vector_width }]. */
    kernels() {
      return kernelList.map((entry) => ({ ...entry }));
    },
    /** The kernel attend() uses for a shape when none is named. */
    defaultKernel(t, d) {
      return core.defaultKernelName(t, d);
    },
    /**
     * softmax(mask(q kᵀ / √d)) v on row-major Float32Arrays of length t·d, by the fastest kernel
     * for the shape or the one named. Returns a new Float32Array, or fills and returns `out` (a
     * Float32Array of length t·d, which may be q, k or v) when given; throws an Error naming the
     * argument at fault, before writing anything.
     */
    attend(input) {
      return attendOnCore(core, { kernelList, kernelMasks }, input);
    },
    /**
     * The complete trace on typed arrays, for callers that recompute it often: tracer({ t, d,
     * mask = "causal", scale = "sqrt_d" }) sets up a workspace for that shape (t ≤ 64, d ≤ 256,
     * the trace's limits), and its run({ q, k, v }) (row-major Float32Arrays of length t·d,
     * copied in) computes every intermediate run() returns, bit for bit the same numbers, under
     * the same keys (snake_case) but flat and row-major: q, k, v, out [t·d]; scores, scaled,
     * masked (-Infinity where hidden), exponentials, weights [t·t]; score_terms,
     * weighted_values [t·t·d]; row_max, row_totals, weight_sums [t]; row_shifted (Uint8Array of
     * 0 and 1) [t]; scale_divisor, token_count, head_dim (numbers); mask, scale (strings).
     * run() returns the same object each call, and its arrays are views of the module's memory:
     * they hold that run's numbers until the next run() of this tracer; growth of the memory (a
     * larger attend(), run() or tracer) detaches them (length 0; the next run() makes new ones);
     * dispose() empties the object's arrays, and a view taken from it before must not be read
     * after dispose(). slice() what must outlive any of that. Call dispose() when done; a
     * forgotten tracer is freed once it, its object and every view it made are collected.
     * Errors name the argument at fault ("t: ...", "q: has length 7 ...", "q[1][3]: must be a
     * finite number", "mask: ...").
     */
    tracer(options) {
      return createTracer(core, options, describe);
    },
    /** A one-layer attention-only language model trained in the module: api/trainer.js. */
    trainer(options) { return createTrainer(core, options, { toJson, unwrap }); },
    /** The size of the module's WebAssembly memory, in bytes. */
    heapBytes() {
      return core.HEAPU8.length;
    },

    // --- explore: the FAQ computed (run() also takes mask "causal_zero" and scale "sqrt_d" |
    // "d" | "none"), the softmax backward pass, the head_dim demonstration, several heads and
    // seeded tables. Each throws an Error whose message starts with the field at fault.
    /**
     * dL/dx = p ⊙ (g − g·p) for softmax weights p (one row, or rows) and the upstream gradient
     * g = dL/dp of the same shape -> { gradient, upstream_dot_weights }.
     */
    softmaxBackward(weights, upstream) {
      return unwrap(core.softmaxBackwardJson(toJson({ weights, upstream }, 'input')));
    },
    /**
     * Why scores are divided by √d_k: seeded normal q and k for each head_dim, with and without
     * the scaling. Options (all optional): { head_dims, tokens, samples, seed, scale, mask, compare }.
     */
    headDimStudy(options = {}) {
      return unwrap(core.headDimStudyJson(toJson(options, 'input')));
    },
    /**
     * A multi-head layer: { tokens, d_model, n_heads, seed, x, mask, scale } -> token vectors,
     * seeded W_Q/W_K/W_V per head with each head's full trace, the concatenation, W_O and out.
     */
    multiHead(input) {
      return unwrap(core.multiHeadJson(toJson(input, 'input')));
    },
    /**
     * Seeded values on a decimal grid: { rows, cols, seed, min, max, decimals } -> number[][]
     * (the same numbers for the same seed, in any browser and in Node).
     */
    randomMatrix(options) {
      return unwrap(core.randomMatrixJson(toJson(options, 'input')));
    },
    // --- end explore

    // --- sequel: the next article's variants on the same four tokens (d_model 16, seed 1 by
    // default): grouped-query attention (MHA, GQA, MQA), multi-head latent attention,
    // FlashAttention's tiles, a quantised KV cache, and the KV-cache bill with published model
    // presets. Every member of every request is optional; each method throws an Error whose
    // message starts with the field at fault ("n_kv_heads: must divide n_heads (4) ...").
    /**
     * MHA, GQA or MQA: { tokens, d_model, n_heads, n_kv_heads, seed, x, mask, scale } ->
     * { variant, ..., kv_heads: [{ w_k, w_v, k, v, query_heads }], heads: [{ kv_head, w_q, trace }],
     *   concat, w_o, out, bill }.
     */
    groupedAttention(input = {}) {
      return unwrap(core.groupedAttentionJson(toJson(input, 'input')));
    },
    /**
     * Multi-head latent attention: { tokens, d_model, n_heads, d_latent, seed, x, mask, scale } ->
     * { variant: "MLA", ..., w_dkv, latent (the cache), heads: [{ w_q, w_uk, w_uv, trace }],
     *   concat, w_o, out, bill }.
     */
    latentAttention(input = {}) {
      return unwrap(core.latentAttentionJson(toJson(input, 'input')));
    },
    /**
     * FlashAttention on tiles of block_rows × block_cols: { tokens, d_model, n_heads, seed, x, head
     * | q, k, v, mask, block_rows, block_cols, decimals } -> { steps: [{ ..., scores, tile_max,
     * max_before, max_after, rescale, exponentials, sum_before, sum_after, partial_out }], out,
     * untiled_out, max_abs_difference, agrees_to_decimals, ... }. Hidden scores and a running max
     * before the first tile are -Infinity; a skipped tile's tables are null.
     */
    flashTiles(input = {}) {
      return unwrap(core.flashTilesJson(toJson(input, 'input')));
    },
    /**
     * FlashAttention's bill in bytes moved, naive against tiled: { token_count, head_dim,
     * dtype_bytes, mask, block_rows, block_cols, sram_kib } -> { block_rows, block_cols,
     * tiles_chosen, footprint_bytes, naive: { moves, total_bytes, formula, working }, tiled, ratio }.
     */
    flashTraffic(input = {}) {
      return unwrap(core.flashTrafficJson(toJson(input, 'input')));
    },
    /**
     * A KV cache rotated and quantised to a few bits: { tokens, d_model, n_heads, seed, x, head |
     * q, k, v, mask, scale, bits: [8, 4, 3, 2], rotation: "random" | "none" } -> { rotation_matrix,
     * reference, levels: [{ bits, k, v, trace, weights_error, out_error, bytes_per_token, ... }] }.
     */
    quantisedCache(input = {}) {
      return unwrap(core.quantisedCacheJson(toJson(input, 'input')));
    },
    /**
     * The KV-cache bill: { preset, layers, d_model, n_heads, n_kv_heads, head_dim, d_latent,
     * rope_dim, dtype_bytes, kv_bits, scale_bytes, weight_dtype_bytes, parameters, context_length,
     * batch, gpu_memory_gib, sliding_window, local_layers, curve_from_tokens, curve_to_tokens }
     * -> { attention, bytes_per_token_per_layer, formula, working, bytes_per_token,
     * bytes_per_sequence, sequence_working, cache_bytes, weight_bytes, gpu_bytes, fits,
     * concurrent_sequences, max_context_tokens, curve: { context_tokens, bytes_per_sequence,
     * memory_left_bytes, crossing_tokens }, ... }. With no preset, the toy GQA layer's shape.
     */
    kvBill(input = {}) {
      return unwrap(core.kvBillJson(toJson(input, 'input')));
    },
    /** The published model shapes kvBill({ preset }) knows, each with its source. */
    modelPresets() {
      return parseCoreJson(core.modelPresetsJson());
    },
    // --- end sequel
  };
}
