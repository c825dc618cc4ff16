// One training run of attention.trainer() and its history, with no DOM: what <attention-trainer>
// drives and every training piece draws. The run keeps, for every step taken, the losses and
// the head's W_Q, W_K, W_V and the attention of the reader's sentence, so that a reader can
// scrub back through them; the core computes every number (this file only records and checks
// what a reader typed before handing it over, so that a refusal changes nothing).

/** The longest sentence the model takes: its position table has 16 rows. */
export const MAX_WORDS = 16;

/** The sentence shown until a reader types another (words of the default corpus). */
export const DEFAULT_SENTENCE = 'the cat that sat on the mat purrs';

/** A reader's input that was refused; the message says what is wrong and that nothing changed. */
export class TrainingInputError extends Error {}

/**
 * Reads a learning rate as typed: a positive finite number at most 1e6 (the core's limit), or
 * a TrainingInputError naming what was typed.
 * @param {string} text
 */
export function parseLearningRate(text) {
  const trimmed = String(text ?? '').trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value) || value <= 0) {
    throw new TrainingInputError(`Learning rate: must be a positive finite number, got "${trimmed}". Nothing was changed.`);
  }
  if (value > 1e6) throw new TrainingInputError(`Learning rate: must be at most 1e6, got ${trimmed}. Nothing was changed.`);
  return value;
}

/**
 * Splits a typed sentence into words (any run of spaces separates them; case is kept, as the
 * vocabulary is lower case the core will name a capitalised word). Too long or empty: refused.
 * @param {string} text
 * @returns {string[]}
 */
export function parseSentence(text) {
  const words = String(text ?? '').trim().split(/\s+/u).filter(Boolean);
  if (words.length === 0) throw new TrainingInputError('Sentence: type at least one word. Nothing was changed.');
  if (words.length > MAX_WORDS) {
    throw new TrainingInputError(`Sentence: has ${words.length} words, more than the model's ${MAX_WORDS} positions. Nothing was changed.`);
  }
  return words;
}

/** The part of a trainer's state that one recorded step keeps. */
export function snapshotOf(state, layer) {
  const { parameters } = state;
  return {
    step: state.step,
    digest: state.parameter_digest,
    loss: state.loss,
    heldOutLoss: state.held_out_loss,
    w_q: parameters.w_q,
    w_k: parameters.w_k,
    w_v: parameters.w_v,
    layer,
  };
}

export class TrainingRun {
  #attention;
  #options;
  #trainer = null;
  #state = null;
  #remember = true;
  /** @type {ReturnType<typeof snapshotOf>[]} one per step taken, from step 0 */
  history = [];
  /** @type {string[]} */
  sentence;
  /** Why the run stopped by itself (a diverged step), or null. */
  stopped = null;

  /**
   * @param {{trainer: Function}} attention the core's full API (createAttention())
   * @param {object} options attention.trainer()'s options
   * @param {string[]} [sentence]
   * @param {{remember?: boolean}} [keep] remember: false keeps the latest step only (the
   *   training worker's run: the page keeps the history, the worker only hands steps over)
   */
  constructor(attention, options = {}, sentence = DEFAULT_SENTENCE.split(' '), { remember = true } = {}) {
    this.#attention = attention;
    this.#options = { ...options };
    this.sentence = sentence;
    this.#remember = remember;
    this.reset();
  }

  /** The trainer's options as they are now (learning_rate included). */
  get options() {
    return { ...this.#options };
  }

  /** The trainer's state after the latest step (vocabulary, baselines, corpus, parameters). */
  get state() {
    return this.#state;
  }

  get latest() {
    return this.history[this.history.length - 1];
  }

  /** Starts again from the seed's initial parameters (step 0), with the options in force. */
  reset() {
    const trainer = this.#attention.trainer(this.#options);
    this.#trainer?.dispose();
    this.#trainer = trainer;
    this.stopped = null;
    this.history = [];
    this.#record();
  }

  #record() {
    this.#state = this.#trainer.state();
    const snapshot = snapshotOf(this.#state, this.#attend(this.sentence));
    if (this.#remember) this.history.push(snapshot);
    else this.history = [snapshot];
  }

  #attend(words) {
    return this.#trainer.attend(words);
  }

  /**
   * Takes one optimiser step and records it. Returns false (and sets `stopped`) when the step
   * diverged: the core kept the last good parameters, and the history is left as it was.
   */
  step() {
    const result = this.#trainer.step(1);
    if (result.diverged) {
      this.stopped = result.message ?? `step ${result.step + 1} diverged; kept the parameters of step ${result.step}`;
      return false;
    }
    this.#record();
    return true;
  }

  /**
   * Shows another sentence from now on. A refused sentence (unknown word, too long) throws a
   * TrainingInputError with the core's words and the vocabulary, and changes nothing. The
   * steps already recorded keep the attention of the sentence they were taken with.
   * @param {string} text
   */
  setSentence(text) {
    const words = parseSentence(text);
    let layer;
    try {
      layer = this.#attend(words);
    } catch (error) {
      const message = String(error?.message ?? error).replace(/^tokens(\[\d+\])?: /u, (_, index) => (
        index ? `Sentence, word ${Number(index.slice(1, -1)) + 1}: ` : 'Sentence: '));
      const refused = new TrainingInputError(`${message}. Nothing was changed.`.replace(/\.\. Nothing/u, '. Nothing'));
      refused.vocabulary = this.#state.vocabulary;
      throw refused;
    }
    this.sentence = words;
    this.latest.layer = layer;
  }

  /**
   * Changes the learning rate from the next step on (and for a reset). A refused value throws
   * a TrainingInputError and changes nothing.
   * @param {string} text
   */
  setLearningRate(text) {
    const value = parseLearningRate(text);
    this.#trainer.setOptimiser({ learning_rate: value });
    this.#options.learning_rate = value;
    if (this.stopped) this.stopped = null;
    return value;
  }

  /** An independent trainer at the latest step (trainer.fork()): a checkpoint of the run. */
  fork() {
    return this.#trainer.fork();
  }

  /** The model on other words with the current parameters (the head report's held-out runs). */
  attend(words) {
    return this.#attend(words);
  }

  dispose() {
    this.#trainer?.dispose();
    this.#trainer = null;
  }
}
