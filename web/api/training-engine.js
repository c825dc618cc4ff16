// The training engine: one run of the trainer (training-run.js) driven by messages, with no
// DOM, so that the same code trains inside a Web Worker (training-worker.js) or, where no worker
// can start, on the page in short slices (training-channel.js).
//
// Work happens in turns of at most `budget` milliseconds (the optimiser steps of a playing run,
// then queued jobs: a measurement of the held-out sentences, a replay), and every turn ends by
// posting what changed, so the other side never waits on a long loop and pause, reset and the
// rest are heard between turns.
//
// An earlier step's parameters come from a replay: a fork of the nearest checkpoint (a fork of
// the live trainer kept by checkpoint-ladder.js's rule) stepped on to that step, the learning
// rate changed where the run changed it. Full-batch Adam makes that step's parameters bit for
// bit, the ladder bounds both the steps replayed and the checkpoints held.
//
// Messages in (each names its run, a number the caller picks; a message of an older run is
// ignored): start { options, sentence }, play { speed }, pause, step, sentence { id, text },
// rate { id, text }, measure { id, step, sentences }, snapshot { id, step }, attend { id, words },
// train { id, steps }, dispose. Messages out: started { state, snapshot, notice }, steps
// { snapshots, state, stopped }, paused { step }, reply { id, ok, value | message, vocabulary }.

import { DEFAULT_SENTENCE, TrainingInputError, TrainingRun, snapshotOf } from './training-run.js';
import { CheckpointLadder, DEFAULT_CHECKPOINT_CAP } from './checkpoint-ladder.js';

/** Milliseconds between steps per speed (0: as many as fit in a turn). */
export const PACES = Object.freeze({ slow: 1000 / 6, steady: 1000 / 60, fast: 0 });

/** The state members that change with every step (the rest is sent once, with `started`). */
function stepState(state) {
  const { step, loss, held_out_loss: heldOut, parameter_digest: digest, optimiser } = state;
  return { step, loss, held_out_loss: heldOut, parameter_digest: digest, optimiser };
}

/**
 * What the page keeps of a step: the losses, each head's W_Q, W_K, W_V and, of the reader's
 * sentence, the words and each head's Q, K, V and weights (the grid draws the weights, a link
 * into part one carries Q, K and V). The rest of the trace stays here: a snapshot is then about
 * a tenth of the size, and the page's thread spends that much less time reading it.
 */
export function compactSnapshot({ layer, ...snapshot }) {
  if (!layer) return { ...snapshot, layer };
  const heads = layer.heads.map(({ trace: { q, k, v, weights } }) => ({ trace: { q, k, v, weights } }));
  return { ...snapshot, layer: { tokens: layer.tokens, heads } };
}

function withoutParameters(state) {
  const { parameters, ...rest } = state;
  void parameters;
  return rest;
}

/**
 * @param {object} attention the core's full API (createAttention())
 * @param {(message: object) => void} post
 * @param {{budget?: number, schedule?: (fn: Function, ms: number) => unknown, now?: () => number,
 *          checkpoints?: number}} [settings] checkpoints: the most checkpoints held at once
 */
export function createTrainingEngine(attention, post, {
  budget = 16, schedule = (fn, ms) => setTimeout(fn, ms), now = () => performance.now(),
  checkpoints = DEFAULT_CHECKPOINT_CAP,
} = {}) {
  let run = null;            // TrainingRun (the latest step only)
  let runId = null;
  let rateChanges = [];      // [{ at: step, learning_rate }] in order, for replays
  let playing = false;
  let pace = PACES.fast;
  let nextStepAt = 0;
  let pending = [];          // snapshots not posted yet
  let stopped = null;
  let jobs = [];             // [{ id, work: iterator }]
  let timer = null;
  let replay = null;         // { trainer, step, next } a fork replaying the run
  const ladder = new CheckpointLadder(checkpoints, { release: (trainer) => trainer.dispose() });

  const reply = (id, body) => post({ type: 'reply', run: runId, id, ...body });
  const refuse = (id, error) => reply(id, {
    ok: false, message: String(error?.message ?? error), vocabulary: error?.vocabulary ?? null,
  });

  function flush() {
    if (pending.length === 0 && !stopped) return;
    post({ type: 'steps', run: runId, snapshots: pending, state: stepState(run.state), stopped });
    pending = [];
    stopped = null;
  }

  function wake(delay = 0) {
    if (timer !== null) return;
    timer = schedule(turn, delay);
  }

  function takeStep() {
    if (run.step()) {
      pending.push(compactSnapshot(run.latest));
      ladder.offer(run.latest.step, () => run.fork());
      return true;
    }
    stopped = run.stopped;
    playing = false;
    return false;
  }

  function turn() {
    timer = null;
    if (!run) return;
    const start = now();
    if (playing) {
      if (pace === 0) {
        do takeStep(); while (playing && now() - start < budget);
      } else if (start >= nextStepAt) {
        takeStep();
        nextStepAt = Math.max(nextStepAt + pace, start);
      }
    }
    while (jobs.length > 0 && now() - start < budget) {
      const job = jobs[0];
      try {
        const { done, value } = job.work.next();
        if (done) {
          jobs.shift();
          reply(job.id, { ok: true, value });
        }
      } catch (error) {
        jobs.shift();
        refuse(job.id, error);
      }
    }
    flush();
    if (jobs.length > 0) wake(0);
    else if (playing) wake(pace === 0 ? 0 : Math.max(0, nextStepAt - now()));
  }

  // A trainer at `step` of this run: the live one, or a fork of the nearest checkpoint (or the
  // replay already nearer) stepped on, the learning rates changed where the run changed them
  // (full-batch Adam: the same parameters bit for bit). `counted.replayed` gets the steps taken.
  function* trainerAt(step, counted = {}) {
    counted.replayed = 0;
    if (step === run.latest.step) return run;
    if (!Number.isInteger(step) || step < 0 || step > run.latest.step) {
      throw new Error(`step: must be a recorded step, from 0 to ${run.latest.step}, got ${step}`);
    }
    const nearest = ladder.nearest(step);
    if (!replay || replay.step > step || replay.step < nearest.step) {
      replay?.trainer.dispose();
      const next = rateChanges.findIndex((change) => change.at >= nearest.step);
      replay = { trainer: nearest.checkpoint.fork(), step: nearest.step, next: next < 0 ? rateChanges.length : next };
    }
    while (replay.step < step) {
      while (replay.next < rateChanges.length && rateChanges[replay.next].at <= replay.step) {
        replay.trainer.setOptimiser({ learning_rate: rateChanges[replay.next].learning_rate });
        replay.next += 1;
      }
      const result = replay.trainer.step(1);
      if (result.diverged) throw new Error(`the replay of step ${replay.step + 1} diverged: ${result.message}`);
      replay.step += 1;
      counted.replayed += 1;
      yield;
    }
    return replay.trainer;
  }

  // What the page keeps of step `step`, for the sentence shown now, and how it was had.
  function* snapshotAt(step) {
    const counted = {};
    const trainer = yield* trainerAt(step, counted);
    const snapshot = trainer === run
      ? run.latest
      : snapshotOf(trainer.state(), trainer.attend(run.sentence));
    return { snapshot: compactSnapshot(snapshot), replayed: counted.replayed, checkpoints: ladder.size, spacing: ladder.spacing };
  }

  function* measure(step, sentences) {
    const trainer = yield* trainerAt(step);
    const runs = [];
    for (const words of sentences) {
      const layer = trainer.attend(words);
      runs.push({ words, weights: layer.heads.map((head) => head.trace.weights) });
      yield;
    }
    return { step, runs };
  }

  function* train(steps) {
    while (run.latest.step < steps) {
      if (!takeStep()) throw new Error(stopped);
      yield;
    }
    return { state: run.state };
  }

  function start({ options = {}, sentence }) {
    let notice = null;
    let fresh;
    try {
      fresh = new TrainingRun(attention, options, sentence ?? DEFAULT_SENTENCE.split(' '), { remember: false });
    } catch (error) {
      // A bad attribute: the defaults, and the attribute's problem said.
      fresh = new TrainingRun(attention, {}, DEFAULT_SENTENCE.split(' '), { remember: false });
      notice = `${error?.message ?? error} The defaults are shown instead.`;
    }
    run?.dispose();
    replay?.trainer.dispose();
    replay = null;
    ladder.clear();
    run = fresh;
    ladder.offer(0, () => run.fork());
    rateChanges = [];
    playing = false;
    pending = [];
    stopped = null;
    jobs = [];
    post({ type: 'started', run: runId, state: withoutParameters(run.state), snapshot: compactSnapshot(run.latest), options: run.options, notice });
  }

  /** Handles one message from the page. */
  function receive(message) {
    if (message.type === 'start') {
      runId = message.run;
      start(message);
      return;
    }
    if (!run || message.run !== runId) return;
    switch (message.type) {
      case 'play':
        pace = PACES[message.speed] ?? PACES.fast;
        if (!playing) nextStepAt = now();
        playing = true;
        wake(0);
        break;
      case 'pause':
        playing = false;
        flush();
        post({ type: 'paused', run: runId, step: run.latest.step });
        break;
      case 'step':
        playing = false;
        takeStep();
        flush();
        post({ type: 'paused', run: runId, step: run.latest.step });
        break;
      case 'sentence':
        try {
          run.setSentence(message.text);
          reply(message.id, { ok: true, value: { sentence: run.sentence, snapshot: compactSnapshot(run.latest) } });
        } catch (error) {
          refuse(message.id, error);
        }
        break;
      case 'rate':
        try {
          const value = run.setLearningRate(message.text);
          rateChanges.push({ at: run.latest.step, learning_rate: value });
          reply(message.id, { ok: true, value });
        } catch (error) {
          refuse(message.id, error instanceof TrainingInputError ? error : new TrainingInputError(String(error?.message ?? error)));
        }
        break;
      case 'measure':
        jobs.push({ id: message.id, work: measure(message.step, message.sentences) });
        wake(0);
        break;
      case 'snapshot':
        jobs.push({ id: message.id, work: snapshotAt(message.step) });
        wake(0);
        break;
      case 'train':
        jobs.push({ id: message.id, work: train(message.steps) });
        wake(0);
        break;
      case 'attend':
        try {
          reply(message.id, { ok: true, value: run.attend(message.words) });
        } catch (error) {
          refuse(message.id, error);
        }
        break;
      case 'dispose':
        playing = false;
        jobs = [];
        run.dispose();
        replay?.trainer.dispose();
        replay = null;
        ladder.clear();
        run = null;
        break;
      default:
        break;
    }
  }

  return { receive };
}
