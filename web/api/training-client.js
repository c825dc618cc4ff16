// training-client.js: the page's side of one training run whose steps the engine takes
// elsewhere (in the training worker, or in slices on the page; training-channel.js): it keeps
// what <attention-trainer> and the pieces read (every step's snapshot, so a slider can scrub back; the latest state;
// the sentence; why the run stopped) and turns the engine's replies into promises. No DOM.

import { TrainingInputError, parseLearningRate, parseSentence } from './training-run.js';

let runs = 0;

export class ChannelTrainingRun {
  #channel;
  #id;
  #unlisten;
  #options;
  #requests = new Map();
  #requestCount = 0;
  #waiters = [];   // resolved by the engine's next `paused`
  /** @type {object[]} one snapshot per step taken, from step 0 */
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

  get latest() {
    return this.history[this.history.length - 1];
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
        this.history = [message.snapshot];
        this.#waiters.shift()?.();
        break;
      case 'steps':
        for (const snapshot of message.snapshots) {
          if (snapshot.step === this.latest.step + 1) this.history.push(snapshot);
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
