// The training engine (web/api/training-engine.js) in Node against the built wasm core, as the
// training worker runs it: steps taken by message give a separate trainer's parameters bit for
// bit (the same digest at the same step, played or stepped); the held-out measurement of an
// earlier step, replayed from the seed with the learning rate changed where the run changed
// it, against float64 attention on that step's parameters from a separate trainer; refusals
// come back as messages that name what is wrong.
//
// Run after the wasm build: node --test tests/web/training-engine.test.mjs
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { importExplainer } from '../support/site-module.mjs';
import { headWeightsF64 } from '../support/trainer-f64.mjs';
import { createTrainingEngine } from '../../web/api/training-engine.js';

const { createAttention } = await importExplainer();
let attention;
before(async () => { attention = await createAttention(); });

// An engine whose messages are collected; `until(test)` waits for a message passing `test`.
function openEngine() {
  const messages = [];
  const waiting = [];
  const post = (message) => {
    messages.push(structuredClone(message));
    for (const w of waiting.splice(0)) if (!w.test(message)) waiting.push(w); else w.resolve(message);
  };
  const engine = createTrainingEngine(attention, post);
  const until = (test) => {
    const seen = messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => waiting.push({ test, resolve }));
  };
  const snapshots = () => messages.filter((m) => m.type === 'started' || m.type === 'steps')
    .flatMap((m) => (m.type === 'started' ? [m.snapshot] : m.snapshots));
  const lastState = () => messages.filter((m) => m.type === 'steps').at(-1).state;
  return { engine, messages, until, snapshots, lastState };
}

function digestAfter(options, steps) {
  const trainer = attention.trainer(options);
  try {
    if (steps > 0) trainer.step(steps);
    return trainer.state().parameter_digest;
  } finally {
    trainer.dispose();
  }
}

describe('the training engine', { timeout: 120_000 }, () => {
  it('steps and plays to the parameters a separate trainer reaches, bit for bit', async () => {
    const { engine, until, snapshots, lastState } = openEngine();
    engine.receive({ type: 'start', run: 1, options: { seed: 3 } });
    for (let n = 0; n < 2; n += 1) engine.receive({ type: 'step', run: 1 });
    assert.equal(lastState().step, 2);
    assert.equal(lastState().parameter_digest, digestAfter({ seed: 3 }, 2));
    engine.receive({ type: 'play', run: 1, speed: 'fast' });
    await until((m) => m.type === 'steps' && m.state.step >= 6);
    engine.receive({ type: 'pause', run: 1 });
    const { step } = await until((m) => m.type === 'paused' && m.step >= 6);
    assert.deepEqual(snapshots().map((s) => s.step), Array.from({ length: step + 1 }, (_, i) => i), 'every step once, in order');
    assert.equal(lastState().step, step);
    assert.equal(lastState().parameter_digest, digestAfter({ seed: 3 }, step));
    engine.receive({ type: 'dispose', run: 1 });
  });

  it('measures an earlier step by replaying the run, the learning rate changed where it was', async () => {
    const { engine, until } = openEngine();
    engine.receive({ type: 'start', run: 7, options: { seed: 2 } });
    engine.receive({ type: 'step', run: 7 });
    engine.receive({ type: 'step', run: 7 });
    engine.receive({ type: 'rate', run: 7, id: 1, text: '0.08' });
    assert.equal((await until((m) => m.type === 'reply' && m.id === 1)).ok, true);
    engine.receive({ type: 'step', run: 7 });
    engine.receive({ type: 'step', run: 7 });
    const sentences = [['the', 'cat', 'that', 'sat', 'on', 'the', 'mat', 'purrs'], ['a', 'dog', 'that', 'hid', 'by', 'the', 'wall', 'barks']];
    // Step 3 comes from a replay (it is not the latest); step 4 from the live trainer.
    engine.receive({ type: 'measure', run: 7, id: 2, step: 3, sentences });
    engine.receive({ type: 'measure', run: 7, id: 3, step: 4, sentences });
    const atThree = await until((m) => m.type === 'reply' && m.id === 2);
    const atFour = await until((m) => m.type === 'reply' && m.id === 3);

    const separate = attention.trainer({ seed: 2 });
    try {
      for (const [step, answer] of [[3, atThree], [4, atFour]]) {
        while (separate.state().step < step) {
          if (separate.state().step === 2) separate.setOptimiser({ learning_rate: 0.08 });
          separate.step(1);
        }
        assert.equal(answer.ok, true, answer.message);
        assert.equal(answer.value.step, step);
        const { parameters, vocabulary } = separate.state();
        answer.value.runs.forEach(({ words, weights }, s) => {
          assert.deepEqual(words, sentences[s]);
          const expected = headWeightsF64(parameters, vocabulary, words);
          expected.forEach((row, i) => row.forEach((w, j) => {
            assert.ok(Math.abs(weights[0][i][j] - w) <= 1e-5, `step ${step}, sentence ${s}, [${i}][${j}]: ${weights[0][i][j]} vs ${w}`);
          }));
        });
      }
    } finally {
      separate.dispose();
      engine.receive({ type: 'dispose', run: 7 });
    }
  });

  it('answers a refused sentence or learning rate with a message, and ignores an older run', async () => {
    const { engine, messages, until } = openEngine();
    engine.receive({ type: 'start', run: 1, options: {} });
    engine.receive({ type: 'start', run: 2, options: { seed: 'x' } });
    const started = await until((m) => m.type === 'started' && m.run === 2);
    assert.match(started.notice, /^seed: .*The defaults are shown instead\.$/);
    engine.receive({ type: 'step', run: 1 });
    assert.equal(messages.filter((m) => m.run === 1 && m.type !== 'started').length, 0, 'run 1 was replaced');
    engine.receive({ type: 'sentence', run: 2, id: 1, text: 'the cta that sat' });
    const sentence = await until((m) => m.type === 'reply' && m.id === 1);
    assert.equal(sentence.ok, false);
    assert.match(sentence.message, /^Sentence, word 2: "cta" is not in the vocabulary of 38 words; nearest: cat/);
    assert.equal(sentence.vocabulary.length, 38);
    engine.receive({ type: 'rate', run: 2, id: 2, text: '-1' });
    const rate = await until((m) => m.type === 'reply' && m.id === 2);
    assert.equal(rate.ok, false);
    assert.match(rate.message, /^Learning rate: must be a positive finite number, got "-1"/);
    engine.receive({ type: 'dispose', run: 2 });
  });
});
