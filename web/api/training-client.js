// training-client.js: the page's side of one training run whose steps the engine takes
// elsewhere (in the training worker, or in slices on the page; training-channel.js): it keeps
// what <attention-trainer> and the pieces read (every step's losses, for the curve; the
// snapshots of the latest steps; the latest state; the sentence; why the run stopped) and turns
// the engine's replies into promises. No DOM.
//
// Memory stays bounded however long the run: a snapshot (the head's W_Q, W_K, W_V and the
// sentence's Q, K, V and weights, about 16 kB) is kept for the latest RECENT_SNAPSHOTS steps
// and the last FETCHED_SNAPSHOTS steps asked for; any other step's is asked of the engine,
// which replays it from its nearest checkpoint (checkpoint-ladder.js). Only the losses, a few
// numbers a step, are kept for every step.

import { TrainingInputError, parseLearningRate, parseSentence } from './training-run.js';

let runs = 0;

/** Snapshots of the latest steps kept on the page (a slider moved back a little needs no replay). */
export const RECENT_SNAPSHOTS = 64;
/** Snapshots of earlier steps, fetched from the engine, kept on the page (the latest asked). */
export const FETCHED_SNAPSHOTS = 8;

/** What the curve keeps of every step. */
const lossesOf = ({ step, loss, heldOutLoss }) => ({ step, loss, heldOutLoss });

export class ChannelTrainingRun {
  #channel;
  #id;
  #unlisten;
  #options;
  #requests = new Map();
  #requestCount = 0;
  #waiters = [];   // resolved by the engine's next `paused`
  #recent = new Map();   // step -> snapshot, the latest RECENT_SNAPSHOTS steps, in order
  #fetched = new Map();  // step -> snapshot, earlier steps asked for, least recently used first
  /** @type {{step: number, loss: number, heldOutLoss: number | null}[]} every step's losses, from step 0 */
  history = [];
  /** @type {string[]} */
  sentence = [];
  /** The trainer's state: what `started` said, with each step's loss, digest and optimiser. */
  state = null;
  /** Why the run stopped by itself (a diverged step), or null. */
  stopped = null;
  /** What was wrong with the options asked for (the defaults were used instead), or null. */
  notice = null;
  /** Called after every change of the history or the state. */
  onChange = () => {};
  /** Pause and single steps not yet confirmed by the engine. */
  pending = 0;

  /**
   * Starts a run in the engine; resolves once its step 0 is here.
   * @param {{send: Function, listen: Function}} channel
   * @param {object} options attention.trainer()'s options
   * @param {string[]} sentence
   */
  static start(channel, options, sentence) {
    const run = new ChannelTrainingRun(channel);
    return new Promise((resolve) => {
      run.#waiters.push(() => resolve(run));
      channel.send({ type: 'start', run: run.#id, options, sentence });
    });
  }

  constructor(channel) {
    this.#channel = channel;
    runs += 1;
    this.#id = runs;
    this.#unlisten = channel.listen((message) => this.#receive(message));
  }

  /** Whether the steps run in a worker (false: in slices on the page). */
  get inWorker() {
    return this.#channel.inWorker;
  }

  /** The latest step's snapshot. */
  get latest() {
    return this.#recent.get(this.history[this.history.length - 1]?.step) ?? null;
  }

  /** How many snapshots the page holds (at most RECENT_SNAPSHOTS + FETCHED_SNAPSHOTS). */
  get heldSnapshots() {
    return this.#recent.size + this.#fetched.size;
  }

  /** Step `step`'s snapshot when the page holds it, else null (fetchSnapshot asks the engine). */
  snapshot(step) {
    const fetched = this.#fetched.get(step);
    if (fetched) {
      this.#fetched.delete(step);
      this.#fetched.set(step, fetched);
    }
    return this.#recent.get(step) ?? fetched ?? null;
  }

  /**
   * Step `step`'s snapshot, for the sentence shown now when it is not held: the engine replays
   * it from its nearest checkpoint, bit for bit. Rejects for a step not taken.
   */
  async fetchSnapshot(step) {
    const held = this.snapshot(step);
    if (held) return held;
    const { snapshot } = await this.#request({ type: 'snapshot', step });
    this.#fetched.set(step, snapshot);
    for (const [old] of this.#fetched) {
      if (this.#fetched.size <= FETCHED_SNAPSHOTS) break;
      this.#fetched.delete(old);
    }
    return snapshot;
  }

  #keep(snapshot) {
    this.history.push(lossesOf(snapshot));
    this.#recent.set(snapshot.step, snapshot);
    for (const [old] of this.#recent) {
      if (this.#recent.size <= RECENT_SNAPSHOTS) break;
      this.#recent.delete(old);
    }
  }

  get options() {
    return { ...this.#options };
  }

  #send(message) {
    this.#channel.send({ ...message, run: this.#id });
  }

  #request(message) {
    this.#requestCount += 1;
    const id = this.#requestCount;
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject });
      this.#send({ ...message, id });
    });
  }

  #receive(message) {
    if (message?.run !== this.#id) return;
    switch (message.type) {
      case 'started':
        this.state = { ...message.state };
        this.#options = message.options;
        this.notice = message.notice;
        this.sentence = message.snapshot.layer?.tokens ?? [];
        this.history = [];
        this.#recent.clear();
        this.#fetched.clear();
        this.#keep(message.snapshot);
        this.#waiters.shift()?.();
        break;
      case 'steps':
        for (const snapshot of message.snapshots) {
          if (snapshot.step === this.latest.step + 1) this.#keep(snapshot);
        }
        Object.assign(this.state, message.state);
        if (message.stopped) this.stopped = message.stopped;
        this.onChange();
        break;
      case 'paused':
        this.pending = Math.max(0, this.pending - 1);
        this.#waiters.shift()?.();
        this.onChange();
        break;
      case 'reply': {
        const request = this.#requests.get(message.id);
        this.#requests.delete(message.id);
        if (!request) break;
        if (message.ok) request.resolve(message.value);
        else {
          const error = new TrainingInputError(message.message);
          if (message.vocabulary) error.vocabulary = message.vocabulary;
          request.reject(error);
        }
        break;
      }
      default:
        break;
    }
  }

  #untilPaused() {
    this.pending += 1;
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Trains at `speed` (a key of PACES: slow, steady or fast) until paused or stopped. */
  play(speed) {
    this.stopped = null;
    this.#send({ type: 'play', speed });
  }

  /** Stops training; resolves once the engine has stopped (every step it took is here). */
  pause() {
    const paused = this.#untilPaused();
    this.#send({ type: 'pause' });
    return paused;
  }

  /** One optimiser step; resolves to false (and sets `stopped`) when it diverged. */
  async step() {
    this.stopped = null;
    const done = this.#untilPaused();
    this.#send({ type: 'step' });
    await done;
    return this.stopped === null;
  }

  /**
   * Shows another sentence from now on; a refused one rejects with a TrainingInputError (the
   * core's words, and `vocabulary`) and changes nothing.
   */
  async setSentence(text) {
    parseSentence(text);
    const { sentence, snapshot } = await this.#request({ type: 'sentence', text });
    this.sentence = sentence;
    if (snapshot.step === this.latest.step) this.latest.layer = snapshot.layer;
    // Fetched steps showed the old sentence; asked again, they show the new one.
    this.#fetched.clear();
    this.onChange();
  }

  /** Changes the learning rate from the next step on; a refused one throws and changes nothing. */
  setLearningRate(text) {
    const value = parseLearningRate(text);
    this.#options.learning_rate = value;
    this.stopped = null;
    this.#request({ type: 'rate', text: String(value) }).catch((error) => {
      this.stopped = error.message;
      this.onChange();
    });
    return value;
  }

  /**
   * Each head's attention weights on `sentences` (arrays of words) with the parameters of
   * recorded step `step`: resolves to { step, runs: [{ words, weights }] }.
   */
  measure(step, sentences) {
    return this.#request({ type: 'measure', step, sentences });
  }

  /** Trains on until step `steps`; resolves to { state } (rejects if the run diverges). */
  trainTo(steps) {
    return this.#request({ type: 'train', steps });
  }

  /** The model on other words with the latest parameters (every head's trace). */
  attend(words) {
    return this.#request({ type: 'attend', words });
  }

  dispose() {
    this.#send({ type: 'dispose' });
    this.#unlisten();
    for (const { reject } of this.#requests.values()) reject(new Error('the training run was closed'));
    this.#requests.clear();
  }
}
