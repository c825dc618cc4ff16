// The training page's run (web/api/training-run.js) and head report
// (head-report.js) in Node against the built wasm core: every refusal (unknown word, a sentence
// over 16 words, a learning rate that is not a positive finite number) names what is wrong and
// changes nothing; the history records each step's losses as a separate trainer reaches them;
// a diverged step stops the run and keeps the last good parameters; the report's numbers
// against weights recomputed in float64 from the trace's Q and K.
//
// Run after the wasm build: node --test tests/web/training-run.test.mjs
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { importExplainer } from '../support/site-module.mjs';
import { headF64 } from '../support/attention-f64.mjs';
import { TrainingInputError, TrainingRun, parseLearningRate, parseSentence } from '../../web/api/training-run.js';
import { describeHead, foldHeadReport, reportPositions } from '../../web/elements/training/head-report.js';

const { createAttention } = await importExplainer();
let attention;
before(async () => { attention = await createAttention(); });

describe('what a reader types', () => {
  it('refuses a learning rate that is not a positive finite number, naming what was typed', () => {
    for (const text of ['0', '-0.1', 'abc', '', 'NaN', 'Infinity', '1e400', '2e6']) {
      assert.throws(() => parseLearningRate(text), (error) => error instanceof TrainingInputError
        && error.message.startsWith('Learning rate: must be') && error.message.includes('Nothing was changed'), text);
    }
    assert.equal(parseLearningRate(' 0.01 '), 0.01);
  });

  it('refuses an empty sentence and one over 16 words', () => {
    assert.throws(() => parseSentence('  '), /type at least one word/);
    assert.throws(() => parseSentence(Array(17).fill('the').join(' ')), /has 17 words, more than the model's 16 positions/);
    assert.deepEqual(parseSentence(' the  cat '), ['the', 'cat']);
  });
});

describe('TrainingRun', () => {
  it('records every step with the losses a separate trainer reaches', () => {
    const run = new TrainingRun(attention, { seed: 2 });
    const other = attention.trainer({ seed: 2 });
    try {
      for (let n = 0; n < 3; n += 1) assert.equal(run.step(), true);
      assert.deepEqual(run.history.map((h) => h.step), [0, 1, 2, 3]);
      for (let n = 1; n <= 3; n += 1) {
        other.step(1);
        const state = other.state();
        assert.equal(run.history[n].loss, state.loss, `step ${n}`);
        assert.equal(run.history[n].heldOutLoss, state.held_out_loss, `step ${n}`);
        assert.deepEqual(run.history[n].w_q, state.parameters.w_q, `step ${n}`);
      }
      assert.deepEqual(run.latest.layer.tokens, run.sentence);
    } finally {
      run.dispose();
      other.dispose();
    }
  });

  it('refuses an unknown word with the nearest words and the vocabulary, and changes nothing', () => {
    const run = new TrainingRun(attention, {});
    try {
      const before = { sentence: run.sentence, layer: run.latest.layer };
      assert.throws(() => run.setSentence('the cta that sat'), (error) => {
        assert.match(error.message, /^Sentence, word 2: "cta" is not in the vocabulary of 38 words; nearest: cat/);
        assert.match(error.message, /Nothing was changed\.$/);
        assert.equal(error.vocabulary.length, 38);
        return true;
      });
      assert.throws(() => run.setSentence(Array(17).fill('cat').join(' ')), /17 words/);
      assert.equal(run.sentence, before.sentence);
      assert.equal(run.latest.layer, before.layer);
      run.setSentence('a dog that hid by the wall barks');
      assert.deepEqual(run.latest.layer.tokens, ['a', 'dog', 'that', 'hid', 'by', 'the', 'wall', 'barks']);
    } finally {
      run.dispose();
    }
  });

  it('refuses a bad learning rate without touching the optimiser', () => {
    const run = new TrainingRun(attention, {});
    try {
      assert.throws(() => run.setLearningRate('-1'), /positive finite number, got "-1"/);
      assert.equal(run.options.learning_rate, undefined);
      run.step();
      assert.equal(run.state.optimiser.learning_rate, 0.03);
      assert.equal(run.setLearningRate('0.01'), 0.01);
    } finally {
      run.dispose();
    }
  });

  it('stops a diverging run with a message and keeps the last good parameters', () => {
    const run = new TrainingRun(attention, { learning_rate: 1e6 });
    try {
      const digest = run.state.parameter_digest;
      assert.equal(run.step(), false);
      assert.match(run.stopped, /diverged/);
      assert.equal(run.history.length, 1);
      assert.equal(run.state.parameter_digest, digest);
    } finally {
      run.dispose();
    }
  });
});

describe('the head report', () => {
  it('folds the core\u2019s weights as float64 weights from the same Q and K do (within 1e-5)', () => {
    const run = new TrainingRun(attention, { seed: 1, n_heads: 2 });
    try {
      for (let n = 0; n < 5; n += 1) run.step();
      const sentences = run.state.corpus.held_out.slice(0, 20).map((s) => s.split(' '));
      const core = [];
      const f64 = [];
      for (const words of sentences) {
        const layer = run.attend(words);
        core.push({ words, weights: layer.heads.map((h) => h.trace.weights) });
        f64.push({ words, weights: layer.heads.map((h) => headF64({ q: h.trace.q, k: h.trace.k, v: h.trace.v }).weights) });
      }
      const report = foldHeadReport(core);
      // The reference folds by hand: the mean weight on the word before "that", from the row
      // of the word before the last.
      for (let h = 0; h < 2; h += 1) {
        let total = 0;
        for (const { words, weights } of f64) total += weights[h][words.length - 2][words.indexOf('that') - 1];
        assert.ok(Math.abs(report.heads[h].meanWeight - total / f64.length) < 1e-5, `head ${h + 1}`);
      }
      assert.equal(report.counted, 20);
      assert.match(describeHead(report, 0), /^At the word before the sound, \d+ % of the weight goes to the animal \(typically \d words back\), on average over 20 held-out sentences; it is the row's largest weight in \d+ of them\.$/);
    } finally {
      run.dispose();
    }
  });

  it('counts the largest weight and the most common distance on weights written by hand', () => {
    const words = ['the', 'cat', 'that', 'sat', 'purrs'];
    assert.deepEqual(reportPositions(words), { query: 3, noun: 1 });
    const row = (w) => [w, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], w, [0, 0, 0, 0, 1]];
    const report = foldHeadReport([
      { words, weights: [row([0.1, 0.6, 0.1, 0.2, 0])] },
      { words, weights: [row([0.4, 0.3, 0.1, 0.2, 0])] },
      { words: ['no', 'clause', 'here'], weights: [[[1], [1], [1]]] },
    ]);
    assert.equal(report.counted, 2);
    assert.ok(Math.abs(report.heads[0].meanWeight - 0.45) < 1e-12);
    assert.equal(report.heads[0].largest, 1);
    assert.equal(report.distance, 2);
  });
});
