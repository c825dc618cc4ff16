// Tokens alone, through the trained head (web/api/trained-input.js), in Node against the built
// wasm core (no Worker here: the engine trains in slices on the same thread): the default run
// (seed 1, its default 200 steps) trained on demand gives q, k and v equal, within 1e-5, to a
// float64 forward (x = E[w] + P[t], x·W_Q, x·W_K, x·W_V) of a head trained separately with the
// same seed and steps; a word outside the vocabulary is refused with the nearest words; an
// AttentionModel given tokens only says that it is training, then traces the trained head's
// q, k and v; which settings count as "tokens only".
//
// Run after the wasm build: node --test tests/web/trained-input.test.mjs
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { importExplainer } from '../support/site-module.mjs';
import { headProjectionsF64 } from '../support/trainer-f64.mjs';
import { TRAINED_HEAD_RUN, TrainedInputError, trainedHeadInput } from '../../web/api/trained-input.js';
import { usesTrainedHead } from '../../web/elements/element-config.js';
import { needsTrainedHead } from '../../web/state/page-state.js';
import { AttentionModel } from '../../web/elements/attention-model.js';

const TOLERANCE = 1e-5;
const WORDS = ['a', 'dog', 'that', 'hid', 'by', 'the', 'wall', 'barks'];
let attention;
let reference;

before(async () => {
  attention = await (await importExplainer()).createAttention();
  const trainer = attention.trainer({ seed: TRAINED_HEAD_RUN.seed });
  trainer.step(trainer.state().default_steps);
  reference = trainer.state();
  trainer.dispose();
});

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  expected.forEach((row, i) => row.forEach((value, c) => {
    assert.ok(Math.abs(actual[i][c] - value) <= TOLERANCE, `${what}[${i}][${c}]: ${actual[i][c]} vs ${value}`);
  }));
}

describe('the trained head for tokens alone', { timeout: 600_000 }, () => {
  it('counts tokens without q, k and v as tokens only', () => {
    assert.equal(needsTrainedHead({ tokens: ['a'] }), true);
    assert.equal(needsTrainedHead({ tokens: ['a'], mask: 'none' }), true);
    assert.equal(needsTrainedHead({ tokens: ['a'], v: [[1]] }), false);
    assert.equal(needsTrainedHead({}), false);
    assert.equal(usesTrainedHead((field) => field === 'tokens'), true);
    assert.equal(usesTrainedHead((field) => field === 'tokens' || field === 'k'), false);
  });

  it('trains the default run on demand and gives its head\u2019s q, k and v', async () => {
    const steps = [];
    const answer = await trainedHeadInput(WORDS, { onProgress: ({ step }) => steps.push(step) });
    assert.equal(answer.step, reference.default_steps);
    assert.ok(steps.length > 0 && steps.at(-1) === reference.default_steps, 'progress was reported');
    assert.deepEqual(answer.tokens, WORDS);
    const expected = headProjectionsF64(reference.parameters, reference.vocabulary, WORDS);
    for (const name of ['q', 'k', 'v']) assertClose(answer[name], expected[name], name);
  });

  it('refuses a word outside the vocabulary, naming the nearest words', async () => {
    await assert.rejects(trainedHeadInput(['the', 'cta']), (error) => {
      assert.ok(error instanceof TrainedInputError);
      assert.match(error.message, /^tokens\[1\]: "cta" is not in the vocabulary of 38 words; nearest: cat/);
      return true;
    });
  });

  it('makes an element\u2019s model with tokens only show the trained head', async () => {
    const model = new AttentionModel();
    const problems = [];
    model.addEventListener('update', () => { if (model.problem) problems.push(model.problem); });
    model.connect(attention);
    model.configure('tokens', ['the', 'cat', 'sat']);
    await new Promise((resolve) => {
      const check = () => (model.trace ? resolve() : setTimeout(check, 20));
      check();
    });
    const expected = headProjectionsF64(reference.parameters, reference.vocabulary, ['the', 'cat', 'sat']);
    for (const name of ['q', 'k', 'v']) assertClose(model.trace[name], expected[name], name);
    assert.equal(model.problem, null);

    model.configure('tokens', ['the', 'dgo']);
    await new Promise((resolve) => {
      const check = () => (model.problem && !model.problem.training ? resolve() : setTimeout(check, 20));
      check();
    });
    assert.equal(model.trace, null);
    assert.match(model.problem.text, /^tokens attribute, token 2: "dgo" is not in the vocabulary of 38 words; nearest: dog/);
  });
});
