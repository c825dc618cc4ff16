// api/trainer.js: attention.trainer(), a one-layer attention-only language model trained in the
// module (the full builds only; bindings/trainer_bindings.cpp, core/include/attention/training/).
//
// The model, pinned so anyone can re-derive every number: for a sentence w_0 … w_{T−1},
// x_t = E[w_t] + P[t] (d_model wide, 16 by default); n_heads heads (1 by default, up to 4) of
// head_dim = d_model / n_heads, each with its own W_Q, W_K, W_V, computing part one's attention
// (÷ √head_dim, causal mask with −∞, softmax, weighted sum of V); h_t = x_t + concat(heads)_t · W_O;
// logits_t = h_t · U + b; the loss is the mean cross-entropy of w_{t+1} over every position of
// every sentence. No LayerNorm and no MLP. Every step is full-batch Adam on the whole training
// set, so the same options and steps give the same parameters bit for bit in every browser and
// in Node (and natively within float rounding of the C library's exp and log).
//
// The core reads, checks and computes everything; this file owns the trainer's slot in the
// module and turns JSON and error values into objects and exceptions.

// A trainer its caller forgot to dispose() gives its slot back once it is collected.
const forgotten = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ core, id }) => core.trainerDispose(id))
  : null;

/**
 * attention.trainer(options) over one loaded core. `json` holds attention-api.js's helpers:
 * toJson(value, what) (NaN and ±Infinity passed as strings, so the core can name them), unwrap
 * (a JsonResult to its parsed answer, non-finite numbers revived, or a thrown Error); see
 * core-json.js.
 *
 * options (each optional): { seed: 1, d_model: 16, n_heads: 1, learning_rate: 0.03, beta1: 0.9,
 * beta2: 0.999, epsilon: 1e-8, corpus: { train: [sentences], held_out: [sentences] } }, where a
 * sentence is a string of 2 to 16 words separated by single spaces. Limits: d_model 1 to 64,
 * n_heads 1 to 4 dividing d_model, learning_rate above 0 and at most 1e6, beta1 and beta2 in
 * [0, 1), epsilon in (0, 1], seed a whole number from 0 to 2^53 − 1, at most 4096 sentences
 * of each kind and 512 distinct words. Bad options throw an Error whose message starts with the
 * path at fault ("corpus.train[3]: has 1 word ...", "learning_rate: must be a positive finite
 * number, got 0").
 */
export function createTrainer(core, options = {}, json) {
  return trainerInSlot(core, json.unwrap(core.trainerCreate(json.toJson(options, 'input'))), json);
}

// The JS face of the trainer held in the module's slot `id`.
function trainerInSlot(core, id, { toJson, unwrap }) {
  let disposed = false;
  const token = {};
  const live = () => {
    if (disposed) throw new Error('trainer: disposed; create another with attention.trainer()');
  };
  const trainer = {
    /**
     * Runs n optimiser steps (a whole number from 1 to 100000; 1 when omitted) and returns
     * { step, loss, diverged } (step: steps taken since the start; loss: the training loss of
     * the parameters now held). A step whose loss is not finite, or whose parameters leave ±1e6,
     * is undone and stops the call: then diverged is true, message says why, and the parameters
     * are the last good ones. The call blocks until done (a default step takes about 15 to 25 ms
     * here): a page keeps responsive by training in a worker (training-worker.js).
     */
    step(n = 1) {
      live();
      return unwrap(core.trainerStep(id, toJson(n, 'steps')));
    },
    /**
     * { step, default_steps, loss, held_out_loss (null without held-out sentences), vocabulary,
     *   corpus: { train, held_out }, baselines: { unigram, bigram }, model: { d_model, n_heads,
     *   head_dim, positions, seed }, optimiser: { learning_rate, beta1, beta2, epsilon },
     *   parameter_digest (16 hex digits: equal digests, bit-identical parameters),
     *   parameters: { embedding, position, w_q: [per head], w_k, w_v, w_o, unembedding, bias } }.
     */
    state() {
      live();
      return unwrap(core.trainerState(id));
    },
    /**
     * An independent trainer with this one's parameters, optimiser state (Adam's moments and
     * settings) and step: stepping it gives, bit for bit, what stepping this one would, and
     * leaves this one as it is. A fork kept as a checkpoint holds the parameters, a gradient
     * buffer, Adam's two moments and its copy of the corpus (about 90 kB for the default model),
     * but no per-sentence activations.
     * Dispose of it like any trainer.
     */
    fork() {
      live();
      return trainerInSlot(core, unwrap(core.trainerFork(id)), { toJson, unwrap });
    },
    /**
     * Changes Adam's settings from the next step on: { learning_rate, beta1, beta2, epsilon },
     * each optional. Returns the settings now in force; a refused setting changes nothing.
     */
    setOptimiser(settings) {
      live();
      return unwrap(core.trainerSetOptimiser(id, toJson(settings, 'input')));
    },
    /**
     * The model on an array of words of the vocabulary (1 to 16) with the current parameters:
     * multiHead()'s keys (tokens, d_model, n_heads, head_dim, mask, scale, x, heads: [{ w_q, w_k,
     * w_v, trace }] with each trace run()'s keys, concat, w_o, out) plus residual (h),
     * probabilities (each position's next-word distribution) and vocabulary. An unknown word
     * throws "tokens[2]: "cta" is not in the vocabulary of 38 words; nearest: cat, ...".
     */
    attend(tokens) {
      live();
      return unwrap(core.trainerAttend(id, toJson(tokens, 'tokens')));
    },
    /** Frees the trainer in the module; every later call throws. */
    dispose() {
      if (disposed) return;
      disposed = true;
      forgotten?.unregister(token);
      core.trainerDispose(id);
    },
  };
  forgotten?.register(trainer, { core, id }, token);
  return trainer;
}
