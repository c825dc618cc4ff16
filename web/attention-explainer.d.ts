// Type declarations for attention-explainer.js, written by hand (Emscripten 3.1.6 cannot emit
// them). This file describes the JavaScript API; the custom elements the module registers are
// declared in attention-explainer-elements.d.ts, re-exported below, so that one import of the
// package sees both.

// ---------------------------------------------------------------------------------------------
// The JavaScript API

/**
 * Which positions a token may look at: `causal` (itself and earlier ones), `none` (all), or
 * `causal_zero` (the FAQ's counter-example: masked scores set to 0 instead of −∞).
 */
export type MaskKind = 'causal' | 'none' | 'causal_zero';

/** What the scores are divided by: √d_k (the default), d_k, or nothing. */
export type ScaleKind = 'sqrt_d' | 'd' | 'none';

/** One attention head's input: T tokens, and T rows of head_dim numbers each for Q, K and V. */
export interface AttentionInput {
  tokens: string[];
  q: number[][];
  k: number[][];
  v: number[][];
  /** Defaults to `causal`. */
  mask?: MaskKind;
  /** Defaults to `sqrt_d`. */
  scale?: ScaleKind;
}

/** Every intermediate of one attention head, as computed by the core (float32 values). */
export interface AttentionTrace {
  tokens: string[];
  mask: MaskKind;
  scale: ScaleKind;
  /** T */
  token_count: number;
  /** d */
  head_dim: number;
  /** T×d each */
  q: number[][];
  k: number[][];
  v: number[][];
  /** T×T×d: q[i][c]·k[j][c]; summed left to right they give scores[i][j]. */
  score_terms: number[][][];
  /** T×T */
  scores: number[][];
  /** √d (or d, or 1, after `scale`) */
  scale_divisor: number;
  /** T×T: scores ÷ scale_divisor */
  scaled: number[][];
  /** T×T: -Infinity where token i may not see token j. */
  masked: number[][];
  /** T×T: true where the mask hid the cell (j > i under causal and causal_zero), else false. */
  hidden: boolean[][];
  /** T×T: 0 where masked; e^masked, or e^(masked − row_max) when row_shifted[i]. */
  exponentials: number[][];
  row_max: number[];
  row_shifted: boolean[];
  row_totals: number[];
  /** T×T: exactly 0 where masked. */
  weights: number[][];
  /** Each row of weights added up by the core. */
  weight_sums: number[];
  /** T×T×d: weights[i][j]·v[j][c] */
  weighted_values: number[][][];
  /** T×d */
  out: number[][];
}

export interface ArticleData {
  two_words: AttentionInput;
  four_words: AttentionInput;
  four_words_worked_rows: number[];
  vocabulary: { words: string[]; vectors: number[][] };
}

/** What the core answered when an output was scored against the toy vocabulary. */
export interface NextWordScores {
  words: string[];
  logits: number[];
  exponentials: number[];
  total: number;
  /** Whether the exponentials were taken after subtracting the largest score. */
  shifted: boolean;
  probabilities: number[];
  probability_sum: number;
  /** The index of the word with the largest probability. */
  most_likely: number;
}

export interface ClaimCheck {
  what: string;
  printed: string;
  computed: string;
  matches: boolean;
}

export interface KernelInfo {
  name: string;
  isa: string;
  vector_width: number;
  /** Query rows computed together (1, or 4 when register-blocked). */
  query_rows: number;
  /** Keys per score block and output columns per sum block. */
  output_columns: number;
  /** Keys per softmax tile; 0 when a whole row is one tile. */
  tile_keys: number;
}

/** vocabulary(): the core's names and defaults, so that nothing above it retypes them. */
export interface Vocabulary {
  masks: Array<{ name: MaskKind; description: string; hides_later_words: boolean;
    hidden_score: '-Infinity' | '0'; kernels: boolean }>;
  scales: Array<{ name: ScaleKind; divisor: string; description: string }>;
  /** What each call takes when a member is left out, by method (run, tracer, attend, multi_head, layer, …). */
  defaults: Record<string, Record<string, unknown>>;
  limits: { max_tokens: number; max_head_dim: number; max_abs_value: number;
    max_token_bytes: number; max_d_model: number };
}

/** Row-major inputs of attend(): t rows of d floats each. */
export interface AttendInput {
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  t: number;
  d: number;
  mask?: MaskKind;
  /** A kernel name from kernels(); the fastest for the shape when left out. */
  kernel?: string | null;
  /** Where to write the output (length t·d; may be q, k or v): no new array per call. */
  out?: Float32Array | null;
}

/** What tracer() is set up with: the shape (the trace's limits: t ≤ 64, d ≤ 256), mask and scale. */
export interface TracerOptions {
  t: number;
  d: number;
  /** Defaults to `causal`. */
  mask?: MaskKind;
  /** Defaults to `sqrt_d`. */
  scale?: ScaleKind;
}

/**
 * The trace a tracer's run() returns: run()'s keys, each array flat and row-major. The arrays are
 * views of the module's memory: they hold the last run's numbers until the next run() of the same
 * tracer, and are detached when the module's memory grows (the next run() makes new ones);
 * dispose() empties them here, and a view taken before must not be read after it. slice() to keep.
 */
export interface TypedAttentionTrace {
  mask: MaskKind;
  scale: ScaleKind;
  /** T */
  token_count: number;
  /** d */
  head_dim: number;
  /** T·d each: the inputs as the core read them. */
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  /** T·T·d: [(i·T + j)·d + c] = q[i][c]·k[j][c] */
  score_terms: Float32Array;
  /** T·T */
  scores: Float32Array;
  scale_divisor: number;
  /** T·T */
  scaled: Float32Array;
  /** T·T: -Infinity where token i may not see token j (0 under `causal_zero`). */
  masked: Float32Array;
  /** T·T: 1 where the mask hid the cell (j > i under causal and causal_zero), else 0. */
  hidden: Uint8Array;
  /** T·T */
  exponentials: Float32Array;
  /** T */
  row_max: Float32Array;
  /** T: 1 where the row's exponentials are e^(x − row_max), else 0. */
  row_shifted: Uint8Array;
  /** T */
  row_totals: Float32Array;
  /** T·T: exactly 0 where masked. */
  weights: Float32Array;
  /** T */
  weight_sums: Float32Array;
  /** T·T·d: [(i·T + j)·d + c] = weights[i][j]·v[j][c] */
  weighted_values: Float32Array;
  /** T·d */
  out: Float32Array;
}

/** A workspace for one shape, mask and scale: run() recomputes the complete trace, allocating nothing. */
export interface Tracer {
  readonly t: number;
  readonly d: number;
  readonly mask: MaskKind;
  readonly scale: ScaleKind;
  /**
   * Copies q, k and v (row-major Float32Arrays of length t·d) in and computes every intermediate,
   * the same numbers as run(). Returns the same object each call. Throws an Error naming the
   * argument or cell at fault ("q: has length 7 …", "q[1][3]: must be a finite number").
   */
  run(input: { q: Float32Array; k: Float32Array; v: Float32Array }): TypedAttentionTrace;
  /** Frees the workspace; the tracer cannot run again. (A tracer never disposed is freed once it, its result and its views are collected.) */
  dispose(): void;
}

/**
 * What trainer() is set up with; every member optional. Limits: d_model 1 to 64, n_heads 1 to 4
 * dividing d_model, learning_rate in (0, 1e6], beta1 and beta2 in [0, 1), epsilon in (0, 1], seed a
 * whole number from 0 to 2^53 − 1; a corpus sentence is 2 to 16 words separated by single spaces,
 * at most 4096 sentences of each kind and 512 distinct words, held-out words all in the training set.
 */
export interface TrainerOptions {
  seed?: number;
  d_model?: number;
  n_heads?: number;
  learning_rate?: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  corpus?: { train: string[]; held_out?: string[] };
}

export interface OptimiserSettings {
  learning_rate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

/** What step() returns: the steps taken since the start and the training loss now. */
export interface TrainerStep {
  step: number;
  loss: number;
  /** True when a step's loss was not finite: it was undone, and the call stopped there. */
  diverged: boolean;
  /** Why the call stopped, when it diverged. */
  message?: string;
}

export interface TrainerParameters {
  /** E [V][d_model] */
  embedding: number[][];
  /** P [positions][d_model] */
  position: number[][];
  /** [n_heads] of [d_model][head_dim] */
  w_q: number[][][];
  w_k: number[][][];
  w_v: number[][][];
  /** [d_model][d_model] */
  w_o: number[][];
  /** U [d_model][V] */
  unembedding: number[][];
  /** b [V] */
  bias: number[];
}

export interface TrainerState {
  step: number;
  /** How many steps the default run takes. */
  default_steps: number;
  loss: number;
  /** null when there are no held-out sentences. */
  held_out_loss: number | null;
  vocabulary: string[];
  corpus: { train: string[]; held_out: string[] };
  /** Mean cross-entropy (nats) of counting models fitted on the training sentences. */
  baselines: { unigram: number; bigram: number };
  model: { d_model: number; n_heads: number; head_dim: number; positions: number; seed: number };
  optimiser: OptimiserSettings;
  /** 16 hex digits; equal digests mean bit-identical parameters. */
  parameter_digest: string;
  parameters: TrainerParameters;
}

/** The model on some words: multiHead()'s keys plus the residual and next-word probabilities. */
export interface TrainerAttention {
  tokens: string[];
  d_model: number;
  n_heads: number;
  head_dim: number;
  mask: MaskKind;
  scale: ScaleKind;
  x: number[][];
  heads: Array<{ w_q: number[][]; w_k: number[][]; w_v: number[][]; trace: AttentionTrace }>;
  concat: number[][];
  w_o: number[][];
  out: number[][];
  /** h = x + out */
  residual: number[][];
  /** [T][V]: each position's distribution over the next word */
  probabilities: number[][];
  vocabulary: string[];
}

/** A one-layer, attention-only causal language model trained in the module (full builds only). */
export interface Trainer {
  /** n full-batch Adam steps (1 to 100000; default 1). */
  step(n?: number): TrainerStep;
  state(): TrainerState;
  /** Adam's settings from the next step on; returns those in force. A refusal changes nothing. */
  setOptimiser(settings: Partial<OptimiserSettings>): OptimiserSettings;
  /** The trace of every head on words of the vocabulary (1 to 16), for the current parameters. */
  attend(tokens: string[]): TrainerAttention;
  /** An independent trainer at the same step: stepping it gives what stepping this one would, bit for bit. */
  fork(): Trainer;
  /** Frees the trainer; later calls throw. */
  dispose(): void;
}

export interface AttentionApi {
  /** The full trace of one head. Throws an Error whose message starts with the field's path ("q[1][3]: …"). */
  run(input: AttentionInput): AttentionTrace;
  /** The article's inputs (a fresh copy each call). */
  article(): ArticleData;
  /** Step 6, a demonstration: one output row scored against the article's vocabulary. */
  scoreNextWord(row: number[]): NextWordScores;
  /** Every number the article prints, compared with what the core computes. */
  checkArticle(): ClaimCheck[];
  /** The core's names and defaults: mask and scale variants, each request's defaults, limits. */
  vocabulary(): Vocabulary;
  /** The attention kernels compiled into this build. */
  kernels(): KernelInfo[];
  /** The kernel attend() uses for a shape when none is named. */
  defaultKernel(t: number, d: number): string;
  /** The output rows only (t·d floats), by the fastest kernel or the one named; `out` when given. */
  attend(input: AttendInput): Float32Array;
  /**
   * The complete trace on typed arrays, for callers that recompute it often (not in the embed
   * build). Throws an Error naming the option at fault ("t: is 65; the limit is 64 …").
   */
  tracer(options: TracerOptions): Tracer;
  /**
   * A one-layer attention-only language model and its trainer (not in the embed build). Throws
   * an Error naming the option at fault ("learning_rate: must be a positive finite number, got 0").
   */
  trainer(options?: TrainerOptions): Trainer;
  /** The size of the module's WebAssembly memory, in bytes. */
  heapBytes(): number;
  /** dL/dx = p ⊙ (g − g·p) for softmax weights p (a row, or rows) and the upstream gradient g. */
  softmaxBackward(weights: number[] | number[][], upstream: number[] | number[][]):
    { gradient: number[] | number[][]; upstream_dot_weights: number | number[] };
  /** Why scores are divided by √d_k, on seeded vectors: { head_dims, tokens, samples, seed, scale, mask, compare }. */
  headDimStudy(options?: Record<string, unknown>): Record<string, unknown>;
  /** A seeded multi-head layer: { tokens, d_model, n_heads, seed, x, mask, scale }; each head carries its trace. */
  multiHead(input: Record<string, unknown>): Record<string, unknown> & { heads: Array<{ trace: AttentionTrace }> };
  /** Seeded values on a decimal grid, the same for the same seed everywhere. */
  randomMatrix(options: { rows: number; cols: number; seed?: number; min?: number; max?: number; decimals?: number }): number[][];
  // The sequel: every member optional; the defaults are the four tokens with d_model 16, seed 1.
  /** MHA, GQA or MQA: { tokens, d_model, n_heads, n_kv_heads, seed, x, mask, scale }; K/V heads, query heads with traces, bill. */
  groupedAttention(input?: Record<string, unknown>): Record<string, unknown> & { heads: Array<{ kv_head: number; trace: AttentionTrace }> };
  /** Multi-head latent attention: { tokens, d_model, n_heads, d_latent, seed, x, mask, scale }; the cached latent, heads with traces, bill. */
  latentAttention(input?: Record<string, unknown>): Record<string, unknown> & { heads: Array<{ trace: AttentionTrace }> };
  /** FlashAttention on tiles: { tokens, d_model, n_heads, seed, x, head | q, k, v, mask, block_rows, block_cols, decimals }. */
  flashTiles(input?: Record<string, unknown>): Record<string, unknown> & { steps: Array<Record<string, unknown>> };
  /** FlashAttention's bytes moved, naive against tiled: { token_count, head_dim, dtype_bytes, mask, block_rows, block_cols, sram_kib }. */
  flashTraffic(input?: Record<string, unknown>): Record<string, unknown> & { naive: Record<string, unknown>; tiled: Record<string, unknown> };
  /** A rotated, quantised KV cache: { …the same head members, mask, scale, bits, rotation }; the error per bit width. */
  quantisedCache(input?: Record<string, unknown>): Record<string, unknown> & { reference: AttentionTrace; levels: Array<Record<string, unknown> & { trace: AttentionTrace }> };
  /** The KV-cache bill for a preset or a shape (sliding windows included): bytes per token, per sequence, the weights, sequences and the longest context that fit on a GPU, a curve to plot. */
  kvBill(input?: Record<string, unknown>): Record<string, unknown>;
  /** The published model shapes kvBill({ preset }) knows, each with its citation. */
  modelPresets(): Array<Record<string, unknown>>;
}

export interface CreateAttentionOptions {
  /**
   * `simd` (the default), `scalar` (no SIMD; for comparisons) or `embed` (the small build the
   * elements load: only run, article, scoreNextWord and vocabulary).
   */
  build?: 'simd' | 'scalar' | 'embed';
}

/** The methods of the `embed` build. */
export type EmbedAttentionApi = Pick<AttentionApi, 'run' | 'article' | 'scoreNextWord' | 'vocabulary'>;

/** Loads the WebAssembly core (once per page and build). Rejects when WebAssembly cannot run. */
export function createAttention(options: CreateAttentionOptions & { build: 'embed' }): Promise<EmbedAttentionApi>;
export function createAttention(options?: CreateAttentionOptions): Promise<AttentionApi>;

/**
 * Registers the elements of attention-explainer-elements.d.ts (importing the module already did,
 * in a browser). <attention-heads> and <attention-head-dim-study> are defined, their code loaded,
 * when the first of them is in the document, or in `root`: call it with your shadow root when
 * you put one there, where the document's watch does not reach.
 */
export function defineAttentionElements(registry?: CustomElementRegistry, root?: ShadowRoot): void;

/**
 * Resolves once every piece (<attention-step>, <attention-mask-grid>, <attention-arrows>,
 * <attention-working>, <attention-next-word>) of `doc` shows its model's latest trace: after a
 * reader's edit of a cell, a piece more than a screen's height off screen draws the new trace
 * when it comes near or when the browser is idle. Printing draws every piece first.
 */
export function whenPiecesDrawn(doc?: Document): Promise<void>;

export * from './attention-explainer-elements.js';
