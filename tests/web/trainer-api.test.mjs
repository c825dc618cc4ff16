// attention.trainer(), in Node against the built wasm core: the state's loss against a float64
// forward written here, the JSON parameters exact (their digest recomputed from their bits),
// determinism, fork() stepping on as its original would, attend() giving run()'s trace, the default run below the bigram baseline with the
// head attending to the noun, every refusal naming its path and changing nothing, divergence
// undone, dispose(), and no trainer in the embed build.
//
// Run after the wasm build: node --test tests/web/trainer-api.test.mjs
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertThrowsNaming } from '../support/assertions.mjs';
import { importExplainer } from '../support/site-module.mjs';
import { largestWeight, meanLossF64, parameterDigest } from '../support/trainer-f64.mjs';

const { createAttention } = await importExplainer();

let attention;
before(async () => { attention = await createAttention(); });

describe('trainer()', () => {
  it('reports a state whose loss a float64 forward reproduces and whose parameters are exact', () => {
    const trainer = attention.trainer({ seed: 3, n_heads: 2 });
    try {
      assert.deepEqual(trainer.step(4), { step: 4, loss: trainer.state().loss, diverged: false });
      const state = trainer.state();
      assert.equal(state.step, 4);
      assert.deepEqual(state.model, { d_model: 16, n_heads: 2, head_dim: 8, positions: 16, seed: 3 });
      assert.deepEqual(state.optimiser, { learning_rate: 0.03, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 });
      assert.equal(state.parameters.w_q.length, 2);
      assert.equal(state.corpus.train.length, 320);
      assert.equal(state.corpus.held_out.length, 80);
      // Parameters as JSON are the float32 values exactly: their bits give the core's digest.
      assert.equal(parameterDigest(state.parameters), state.parameter_digest);
      const train = meanLossF64(state.parameters, state.vocabulary, state.corpus.train);
      const heldOut = meanLossF64(state.parameters, state.vocabulary, state.corpus.held_out);
      // float32 arithmetic against float64: 1e-5 relative is about a hundred float32 roundings.
      assert.ok(Math.abs(state.loss - train) <= 1e-5 * train, `loss ${state.loss}, float64 ${train}`);
      assert.ok(Math.abs(state.held_out_loss - heldOut) <= 1e-5 * heldOut,
        `held-out loss ${state.held_out_loss}, float64 ${heldOut}`);
    } finally {
      trainer.dispose();
    }
  });

  it('gives bit-identical parameters for the same seed and steps, however the steps are split', () => {
    const one = attention.trainer({ seed: 5 });
    const two = attention.trainer({ seed: 5 });
    const other = attention.trainer({ seed: 6 });
    one.step(6);
    two.step(2);
    two.step(4);
    other.step(6);
    assert.equal(one.state().parameter_digest, two.state().parameter_digest);
    assert.notEqual(one.state().parameter_digest, other.state().parameter_digest);
    for (const trainer of [one, two, other]) trainer.dispose();
  });

  it('fork() steps on bit for bit as its original would, apart from it, with its learning rate', () => {
    const original = attention.trainer({ seed: 5, n_heads: 2 });
    const straight = attention.trainer({ seed: 5, n_heads: 2 });
    try {
      original.step(3);
      original.setOptimiser({ learning_rate: 0.05 });
      const fork = original.fork();
      const forked = fork.state();
      assert.equal(forked.step, 3);
      assert.equal(forked.parameter_digest, original.state().parameter_digest);
      assert.equal(forked.optimiser.learning_rate, 0.05);
      fork.step(4);
      assert.equal(original.state().step, 3, 'the original stays where it was');
      straight.step(3);
      straight.setOptimiser({ learning_rate: 0.05 });
      straight.step(4);
      assert.equal(fork.state().parameter_digest, straight.state().parameter_digest);
      assert.equal(fork.state().loss, straight.state().loss);
      original.step(4);
      assert.equal(original.state().parameter_digest, straight.state().parameter_digest);
      fork.dispose();
      assert.throws(() => fork.fork(), /^Error: trainer: disposed/);
      assert.equal(original.state().step, 7, 'disposing the fork leaves the original');
    } finally {
      original.dispose();
      straight.dispose();
    }
  });

  it('attend() gives the trace of run() for each head on the same q, k and v', () => {
    const trainer = attention.trainer({ n_heads: 2 });
    trainer.step(3);
    const words = ['the', 'cat', 'that', 'sat', 'on', 'the', 'mat', 'purrs'];
    const layer = trainer.attend(words);
    assert.deepEqual(layer.tokens, words);
    assert.equal(layer.heads.length, 2);
    for (const head of layer.heads) {
      const { q, k, v } = head.trace;
      assert.deepEqual(head.trace, attention.run({ tokens: words, q, k, v, mask: 'causal' }));
      assert.equal(head.trace.masked[0][1], -Infinity);
    }
    assert.equal(layer.probabilities.length, words.length);
    for (const row of layer.probabilities) {
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'each row is a distribution');
    }
    trainer.dispose();
  });

  it('on the default seed goes below the bigram baseline, and the head looks back to the noun', () => {
    const trainer = attention.trainer();
    const { default_steps: steps } = trainer.state();
    const result = trainer.step(steps);
    const state = trainer.state();
    assert.equal(result.step, steps);
    assert.ok(state.loss < state.baselines.bigram, `loss ${state.loss}, bigram ${state.baselines.bigram}`);
    assert.ok(Number.isFinite(state.held_out_loss));
    // The row that predicts the last word (the animal's sound) is the word before it; the noun
    // is the word before "that".
    let found = 0;
    for (const sentence of state.corpus.held_out) {
      const words = sentence.split(' ');
      const weights = trainer.attend(words).heads[0].trace.weights;
      if (largestWeight(weights, words.length - 2) === words.indexOf('that') - 1) found += 1;
    }
    assert.ok(found * 2 > state.corpus.held_out.length, `${found} of ${state.corpus.held_out.length}`);
    trainer.dispose();
  });

  it('refuses bad options, steps and words with the path at fault, changing nothing', () => {
    for (const learning_rate of [0, -1, NaN, Infinity, '0.1', null]) {
      assertThrowsNaming(() => attention.trainer({ learning_rate }), 'learning_rate');
    }
    assertThrowsNaming(() => attention.trainer({ corpus: { train: [] } }), 'corpus.train', 'is empty');
    assertThrowsNaming(() => attention.trainer({ corpus: { train: ['cat'] } }), 'corpus.train[0]', 'has 1 word');
    assertThrowsNaming(() => attention.trainer({ corpus: { train: ['cat cat'] } }), 'corpus.train', 'only one distinct word');
    assertThrowsNaming(() => attention.trainer({ n_heads: 3 }), 'n_heads', 'must divide d_model');
    assertThrowsNaming(() => attention.trainer({ colour: 'red' }), 'colour', 'not a known field');

    const trainer = attention.trainer();
    trainer.step(2);
    const before = trainer.state();
    assertThrowsNaming(() => trainer.attend(['the', 'cta']), 'tokens[1]', 'nearest: cat');
    assertThrowsNaming(() => trainer.attend(new Array(17).fill('the')), 'tokens', 'the limit is 16');
    assertThrowsNaming(() => trainer.attend('the cat'), 'tokens', 'must be an array of words');
    assertThrowsNaming(() => trainer.step(0), 'steps');
    assertThrowsNaming(() => trainer.step(1.5), 'steps');
    assertThrowsNaming(() => trainer.setOptimiser({ learning_rate: -0.1 }), 'learning_rate');
    assertThrowsNaming(() => trainer.setOptimiser({ learning_rate: 0.1, beta2: 1 }), 'beta2');
    assert.deepEqual(trainer.state(), before);
    assert.deepEqual(trainer.setOptimiser({ learning_rate: 0.05 }).learning_rate, 0.05);
    trainer.dispose();
  });

  it('stops a diverging run with a message and keeps the last good parameters', () => {
    const trainer = attention.trainer({ learning_rate: 1e6 });
    const result = trainer.step(200);
    assert.equal(result.diverged, true);
    assert.match(result.message, /^step \d+ diverged .*kept the parameters of step \d+/u);
    assert.ok(result.step < 200 && Number.isFinite(result.loss));
    const replay = attention.trainer({ learning_rate: 1e6 });
    if (result.step > 0) assert.equal(replay.step(result.step).diverged, false);
    assert.equal(trainer.state().parameter_digest, replay.state().parameter_digest);
    trainer.dispose();
    replay.dispose();
  });

  it('throws on every call after dispose()', () => {
    const trainer = attention.trainer();
    trainer.dispose();
    trainer.dispose();
    assertThrowsNaming(() => trainer.step(1), 'trainer', 'disposed');
    assertThrowsNaming(() => trainer.state(), 'trainer', 'disposed');
  });

  it('is not in the embed build', async () => {
    const embed = await createAttention({ build: 'embed' });
    assert.equal(embed.trainer, undefined);
  });
});
