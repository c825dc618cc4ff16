// Bounded scrubbing: the checkpoint ladder's rule (web/api/checkpoint-ladder.js) on its own; the
// training engine replaying an earlier step from its nearest checkpoint, within the ladder's
// bound and bit for bit what a fresh run with the same seed, steps and learning-rate change
// reaches; the engine letting go of the checkpoints it drops; the page's side
// (training-client.js) keeping a bounded number of snapshots however long the run.
//
// Run after the wasm build: node --test tests/web/training-checkpoints.test.mjs
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { importExplainer } from '../support/site-module.mjs';
import { CheckpointLadder } from '../../web/api/checkpoint-ladder.js';
import { createTrainingEngine } from '../../web/api/training-engine.js';
import { openTrainingChannel } from '../../web/api/training-channel.js';
import { ChannelTrainingRun, FETCHED_SNAPSHOTS, RECENT_SNAPSHOTS } from '../../web/api/training-client.js';

const { createAttention } = await importExplainer();
let attention;
before(async () => { attention = await createAttention(); });

// A small model on a small corpus, so that runs of many steps stay quick.
const SMALL = Object.freeze({
  seed: 4,
  d_model: 8,
  corpus: {
    train: ['the cat that sat purrs', 'a dog that hid barks', 'the dog that sat barks', 'a cat that hid purrs', 'the bird that sang sings'],
    held_out: ['a bird that sat sings'],
  },
});
const SENTENCE = ['the', 'dog', 'that', 'hid', 'barks'];

// The smallest power of two k with ⌊latest / k⌋ + 1 ≤ cap: the spacing the rule reaches.
function expectedSpacing(latest, cap) {
  let k = 1;
  while (Math.floor(latest / k) + 1 > cap) k *= 2;
  return k;
}

// attention.trainer() whose trainers (and their forks) are counted while alive.
function countingAttention() {
  const live = new Set();
  const wrap = (trainer) => {
    const counted = {
      step: (n) => trainer.step(n),
      state: () => trainer.state(),
      setOptimiser: (settings) => trainer.setOptimiser(settings),
      attend: (words) => trainer.attend(words),
      fork: () => wrap(trainer.fork()),
      dispose: () => { live.delete(counted); trainer.dispose(); },
    };
    live.add(counted);
    return counted;
  };
  return { api: { trainer: (options) => wrap(attention.trainer(options)) }, live };
}

// A fresh trainer stepped along `steps` in increasing order, the learning rate changed after
// step `rateAt`: calls check(step, trainer) at each.
function freshRun(steps, { rateAt, rate }, check) {
  const trainer = attention.trainer(SMALL);
  try {
    for (const step of steps) {
      while (trainer.state().step < step) {
        if (trainer.state().step === rateAt) trainer.setOptimiser({ learning_rate: rate });
        trainer.step(1);
      }
      check(step, trainer);
    }
  } finally {
    trainer.dispose();
  }
}

function assertSnapshotIs(snapshot, trainer, words, what) {
  const state = trainer.state();
  assert.equal(snapshot.step, state.step, what);
  assert.equal(snapshot.digest, state.parameter_digest, `${what}: bit-identical parameters`);
  assert.equal(snapshot.loss, state.loss, what);
  assert.equal(snapshot.heldOutLoss, state.held_out_loss, what);
  for (const name of ['w_q', 'w_k', 'w_v']) assert.deepEqual(snapshot[name], state.parameters[name], `${what}: ${name}`);
  const layer = trainer.attend(words);
  assert.deepEqual(snapshot.layer.tokens, words, what);
  layer.heads.forEach(({ trace }, h) => {
    for (const name of ['q', 'k', 'v', 'weights']) assert.deepEqual(snapshot.layer.heads[h].trace[name], trace[name], `${what}: head ${h + 1} ${name}`);
  });
}

describe('the checkpoint ladder', () => {
  it('holds at most cap checkpoints, every step within spacing − 1 of one, spacing under 2N / cap', () => {
    const released = [];
    const ladder = new CheckpointLadder(8, { release: (checkpoint, step) => released.push([checkpoint, step]) });
    let made = 0;
    for (let step = 0; step <= 1000; step += 1) {
      const kept = ladder.offer(step, () => { made += 1; return `checkpoint ${step}`; });
      assert.ok(ladder.size <= 8, `step ${step}: ${ladder.size} held`);
      assert.equal(kept, ladder.steps().includes(step));
      assert.equal(ladder.spacing, expectedSpacing(step, 8), `spacing at step ${step}`);
      if (ladder.spacing > 1) assert.ok(ladder.spacing < (2 * step) / 8 + 1e-9, `spacing ${ladder.spacing} at step ${step}`);
      assert.deepEqual(ladder.steps(), Array.from({ length: Math.floor(step / ladder.spacing) + 1 }, (_, i) => i * ladder.spacing));
    }
    for (const step of [0, 1, 127, 128, 129, 500, 999, 1000]) {
      const { step: from, checkpoint } = ladder.nearest(step);
      assert.equal(checkpoint, `checkpoint ${from}`);
      assert.ok(from <= step && step - from < ladder.spacing, `step ${step} from ${from}`);
    }
    // Every checkpoint made is either held or was handed to release, once.
    assert.equal(released.length + ladder.size, made);
    assert.equal(new Set(released.map(([, step]) => step)).size, released.length);
    ladder.clear();
    assert.equal(ladder.size, 0);
    assert.equal(ladder.spacing, 1);
    assert.equal(released.length, made);
    assert.throws(() => new CheckpointLadder(1), /^RangeError: cap: must be a whole number of at least 2, got 1$/);
  });
});

describe('scrubbing far back', { timeout: 300_000 }, () => {
  it('replays from the nearest checkpoint, within the bound, to a fresh run\u2019s numbers bit for bit', async () => {
    const CAP = 4;
    const { api, live } = countingAttention();
    const replies = new Map();
    const engine = createTrainingEngine(api, (message) => {
      if (message.type === 'reply') replies.set(message.id, structuredClone(message));
    }, { checkpoints: CAP, schedule: (fn) => setImmediate(fn) });
    engine.receive({ type: 'start', run: 1, options: SMALL, sentence: SENTENCE });
    const rateChange = { rateAt: 13, rate: 0.1 };
    for (let n = 0; n < 40; n += 1) {
      engine.receive({ type: 'step', run: 1 });
      if (n + 1 === rateChange.rateAt) engine.receive({ type: 'rate', run: 1, id: 0, text: String(rateChange.rate) });
      assert.ok(live.size <= CAP + 1, `after step ${n + 1}: ${live.size} trainers alive`);
    }
    assert.equal(replies.get(0).ok, true);
    const spacing = expectedSpacing(40, CAP);
    assert.equal(spacing, 16);
    // Out of order, so that a replay is continued, restarted from a checkpoint, and skipped.
    const steps = [17, 3, 33, 39, 0, 14, 13, 31, 32, 12, 40, 1];
    const answers = new Map();
    for (const [i, step] of steps.entries()) {
      const id = i + 1;
      engine.receive({ type: 'snapshot', run: 1, id, step });
      while (!replies.has(id)) await new Promise((resolve) => setImmediate(resolve));
      const reply = replies.get(id);
      assert.equal(reply.ok, true, reply.message);
      const { snapshot, replayed, checkpoints, spacing: held } = reply.value;
      assert.equal(held, spacing);
      assert.ok(checkpoints <= CAP, `${checkpoints} checkpoints`);
      assert.ok(replayed <= spacing - 1, `step ${step}: replayed ${replayed} steps, more than ${spacing - 1}`);
      assert.ok(live.size <= CAP + 2, `${live.size} trainers alive`);
      answers.set(step, snapshot);
    }
    freshRun([...answers.keys()].sort((a, b) => a - b), rateChange, (step, trainer) => {
      assertSnapshotIs(answers.get(step), trainer, SENTENCE, `step ${step}`);
    });
    // A step not taken is refused, naming it.
    engine.receive({ type: 'snapshot', run: 1, id: 99, step: 41 });
    while (!replies.has(99)) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(replies.get(99).ok, false);
    assert.match(replies.get(99).message, /^step: must be a recorded step, from 0 to 40, got 41$/);
    engine.receive({ type: 'dispose', run: 1 });
    assert.equal(live.size, 0, 'every checkpoint and replay let go');
  });

  it('keeps a bounded number of snapshots on the page, and fetches any other step exactly', async () => {
    const channel = await openTrainingChannel(async () => attention, { worker: false });
    const run = await ChannelTrainingRun.start(channel, SMALL, SENTENCE);
    try {
      await run.trainTo(150);
      assert.deepEqual(run.history.map((h) => h.step), Array.from({ length: 151 }, (_, i) => i), 'every step\u2019s losses');
      assert.equal(run.heldSnapshots, RECENT_SNAPSHOTS);
      assert.equal(run.latest.step, 150);
      assert.equal(run.snapshot(150 - RECENT_SNAPSHOTS), null, 'an older step is not held');
      const asked = [10, 0, 149 - RECENT_SNAPSHOTS, 33, 10, 57, 2, 5, 7, 61, 70, 71, 80];
      const fetched = new Map();
      for (const step of asked) {
        fetched.set(step, await run.fetchSnapshot(step));
        assert.ok(run.heldSnapshots <= RECENT_SNAPSHOTS + FETCHED_SNAPSHOTS, `${run.heldSnapshots} snapshots held`);
      }
      assert.equal(run.history.length, 151);
      freshRun([...fetched.keys()].sort((a, b) => a - b), { rateAt: -1 }, (step, trainer) => {
        assertSnapshotIs(fetched.get(step), trainer, SENTENCE, `step ${step}`);
      });
    } finally {
      run.dispose();
      channel.close();
    }
  });
});
